#ifndef XT_CLIBIDN2_SHIM_H
#define XT_CLIBIDN2_SHIM_H
// libidn2 (IDNA2008 with UTS #46 mapping) for JID domainparts, and libunistring, the Unicode
// library libidn2 itself is built on, for the PRECIS profiles of localparts and resourceparts
// (RFC 8264/8265): one Unicode version (libunistring's) for both. Only plain C types cross
// into Swift; the helpers below hide libunistring's struct returns and address-of macros.
#include <idn2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unicase.h>
#include <unictype.h>
#include <uninorm.h>

/// The general category of `c` as one bit of the UC_CATEGORY_MASK_* values.
static inline uint32_t xt_uc_category_mask(uint32_t c) { return uc_general_category(c).bitmask; }

/// The script's name ("Greek", "Han"...), or NULL when `c` has none.
static inline const char *xt_uc_script_name(uint32_t c) {
    const uc_script_t *script = uc_script(c);
    return script ? script->name : NULL;
}

/// The decomposition mapping of `c` when its tag is <wide> or <narrow> (UnicodeData.txt):
/// its length, written to `out` (room for UC_DECOMPOSITION_MAX_LENGTH); 0 otherwise.
static inline int xt_uc_width_decomposition(uint32_t c, uint32_t *out) {
    int tag = 0;
    int n = uc_decomposition(c, &tag, out);
    return (n > 0 && (tag == UC_DECOMP_WIDE || tag == UC_DECOMP_NARROW)) ? n : 0;
}

/// NFC (`compatibility` false) or NFKC of `n` code points: a malloc'ed buffer of `*length`
/// code points for the caller to free, or NULL when out of memory or the input is not valid.
static inline uint32_t *xt_u32_normalize(bool compatibility, const uint32_t *s, size_t n, size_t *length) {
    return u32_normalize(compatibility ? UNINORM_NFKC : UNINORM_NFC, s, n, NULL, length);
}

/// Unicode toLowerCase (full mappings, Final_Sigma context, no language tailoring), as
/// xt_u32_normalize returns its result.
static inline uint32_t *xt_u32_tolower(const uint32_t *s, size_t n, size_t *length) {
    return u32_tolower(s, n, NULL, NULL, NULL, length);
}

#endif
