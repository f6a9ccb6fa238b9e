#include "CNFKC.h"
#include <unicode/unorm2.h>

int32_t xt_nfkc(const uint16_t *source, int32_t length, uint16_t *destination, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&status);
    if (U_FAILURE(status)) return -1;
    int32_t needed = unorm2_normalize(nfkc, (const UChar *)source, length, (UChar *)destination, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return needed;
    return U_FAILURE(status) ? -1 : needed;
}
