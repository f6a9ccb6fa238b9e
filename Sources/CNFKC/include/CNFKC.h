#ifndef XT_CNFKC_H
#define XT_CNFKC_H
// Unicode normalization form KC, for SASLprep (RFC 4013 §2.2), from ICU. Only plain C types
// here: ICU's own headers must not reach Swift, where they clash with the copy Foundation
// carries (_FoundationICU) in any module that sees both.
#include <stdint.h>

/// NFKC of `source` (UTF-16, `length` units) into `destination` (`capacity` units). Returns the
/// length of the result, which may exceed `capacity` (then call again with a bigger buffer), or
/// -1 when ICU cannot normalize (no data, no memory).
int32_t xt_nfkc(const uint16_t *source, int32_t length, uint16_t *destination, int32_t capacity);

#endif
