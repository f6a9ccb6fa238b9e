// What the CLibIDN2 shim cannot reach through trampolines: libunistring's normalization forms
// are variables (UNINORM_NFC is &uninorm_nfc), looked up with dlsym once libunistring is loaded.
#include "lazy_library.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uninorm.h>

uint32_t *xt_u32_normalize(bool compatibility, const uint32_t *s, size_t n, size_t *length) {
    static uninorm_t forms[2];  // NFC, NFKC; the same address whichever thread looks first
    uninorm_t form = __atomic_load_n(&forms[compatibility], __ATOMIC_ACQUIRE);
    if (form == NULL) {
        form = xt_lazy_data("libunistring.so.2", compatibility ? "uninorm_nfkc" : "uninorm_nfc");
        __atomic_store_n(&forms[compatibility], form, __ATOMIC_RELEASE);
    }
    return u32_normalize(form, s, n, NULL, length);
}
