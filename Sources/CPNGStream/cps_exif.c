// EXIF orientation, shared by JPEG (APP1 "Exif\0\0" + TIFF) and PNG (eXIf: the TIFF part alone).
#include "cps_internal.h"

#include <string.h>

int cps_exif_orientation(const uint8_t *t, size_t tn) {
    if (t == NULL || tn < 8) return 1;
    int le;
    if (t[0] == 'I' && t[1] == 'I') le = 1;
    else if (t[0] == 'M' && t[1] == 'M') le = 0;
    else return 1;
#define CPS_U16(p) (le ? (uint32_t)(p)[0] | (uint32_t)(p)[1] << 8 : (uint32_t)(p)[0] << 8 | (uint32_t)(p)[1])
#define CPS_U32(p) (le ? CPS_U16(p) | CPS_U16((p) + 2) << 16 : CPS_U16(p) << 16 | CPS_U16((p) + 2))
    if (CPS_U16(t + 2) != 42) return 1;
    uint64_t ifd = CPS_U32(t + 4);
    if (ifd + 2 > tn) return 1;
    uint32_t count = CPS_U16(t + ifd);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t e = ifd + 2 + 12ull * i;
        if (e + 12 > tn) break;
        if (CPS_U16(t + e) != 0x0112) continue;
        uint32_t v = CPS_U16(t + e + 8);
        return CPS_U16(t + e + 2) == 3 && v >= 1 && v <= 8 ? (int)v : 1;
    }
#undef CPS_U32
#undef CPS_U16
    return 1;
}
