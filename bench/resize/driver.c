// Bench driver: the exact CPNGStream row loop and box filter the PNGImage
// module calls (open file -> plan geometry -> resample -> encode), in C so
// the bench needs no extra SwiftPM product.
// Usage: driver IN OUT [SIZE] [crop|pad] [unmanaged]   (unmanaged: no colour management)
#include "CPNGStream.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s IN OUT [SIZE] [crop|pad]\n", argv[0]);
        return 2;
    }
    int size = argc > 3 ? atoi(argv[3]) : 100;
    int fit = argc > 4 && strcmp(argv[4], "pad") == 0 ? CPS_FIT_PAD : CPS_FIT_CROP;
    cps_info info;
    cps_error error;
    cps_source *s = cps_open_file(argv[1], &info, &error);
    if (s == NULL) {
        fprintf(stderr, "%s: %s\n", argv[1], error.message);
        return 1;
    }
    if (info.width > 30000 || info.height > 30000 || (uint64_t)info.width * info.height > 100000000u) {
        fprintf(stderr, "%s: too large\n", argv[1]);
        return 1;
    }
    if (argc > 5 && strcmp(argv[5], "unmanaged") == 0) cps_set_colour_management(s, 0);
    cps_geometry g;
    cps_plan_geometry(info.width, info.height, size, fit, &g);
    uint8_t *rgba = malloc((size_t)size * size * 4);
    if (rgba == NULL || cps_resample(s, &g, rgba, &error) != CPS_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], error.message);
        return 1;
    }
    cps_close(s);
    int opaque = 1;
    for (size_t i = 3; i < (size_t)size * size * 4; i += 4) opaque &= rgba[i] == 255;
    if (opaque) {
        for (size_t i = 0; i < (size_t)size * size; i++) memmove(rgba + 3 * i, rgba + 4 * i, 3);
    }
    cps_write_params p = {0};
    p.width = p.height = (uint32_t)size;
    p.bit_depth = 8;
    p.color_type = opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
    p.level = 9;
    p.srgb = 1;
    p.rows = rgba;
    p.row_bytes = (size_t)size * (opaque ? 3 : 4);
    cps_buffer out;
    if (cps_write_png(&p, &out, &error) != CPS_OK) {
        fprintf(stderr, "encode: %s\n", error.message);
        return 1;
    }
    FILE *f = fopen(argv[2], "wb");
    if (f == NULL || fwrite(out.data, 1, out.length, f) != out.length || fclose(f) != 0) {
        perror(argv[2]);
        return 1;
    }
    cps_buffer_free(&out);
    free(rgba);
    return 0;
}
