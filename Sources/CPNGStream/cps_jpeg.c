// JPEG input: not built in yet.
#include "cps_internal.h"

int cps_jpeg_open(cps_source *s, cps_error *error) {
    (void)s;
    cps_set_error(error, CPS_UNSUPPORTED, "JPEG input is not supported", NULL);
    return CPS_UNSUPPORTED;
}

int cps_jpeg_resample(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    (void)s; (void)g; (void)out_rgba;
    cps_set_error(error, CPS_UNSUPPORTED, "JPEG input is not supported", NULL);
    return CPS_UNSUPPORTED;
}

void cps_jpeg_close(cps_source *s) { (void)s; }
