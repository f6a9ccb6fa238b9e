// Encoding: one PNG into a growable memory buffer, no metadata chunks.
#include "cps_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    cps_buffer *out;
    png_bytep *rows;
    char message[160];
} write_context;

static void on_write(png_structp png, png_bytep data, size_t n) {
    write_context *c = png_get_io_ptr(png);
    cps_buffer *b = c->out;
    if (n > SIZE_MAX - b->length) png_error(png, "output too large");
    if (b->length + n > b->capacity) {
        size_t cap = b->capacity < 4096 ? 4096 : b->capacity;
        while (cap < b->length + n) cap = cap > SIZE_MAX / 2 ? b->length + n : cap * 2;
        uint8_t *grown = realloc(b->data, cap);
        if (grown == NULL) png_error(png, "out of memory");
        b->data = grown;
        b->capacity = cap;
    }
    memcpy(b->data + b->length, data, n);
    b->length += n;
}

static void on_flush(png_structp png) { (void)png; }

void cps_buffer_free(cps_buffer *b) {
    if (b == NULL) return;
    free(b->data);
    b->data = NULL;
    b->length = 0;
    b->capacity = 0;
}

static int write_body(png_structp png, png_infop info, write_context *c, const cps_write_params *p) {
    png_set_write_fn(png, c, on_write, on_flush);
    png_set_IHDR(png, info, p->width, p->height, p->bit_depth, p->color_type,
                 p->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (p->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < p->palette_count; i++) {
            palette[i].red = p->palette[3 * i];
            palette[i].green = p->palette[3 * i + 1];
            palette[i].blue = p->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, palette, p->palette_count);
        if (p->trns_count > 0) png_set_tRNS(png, info, p->trns, p->trns_count, NULL);
    } else if (p->has_trns_colour) {
        png_color_16 colour = {0, p->trns_rgb[0], p->trns_rgb[1], p->trns_rgb[2], p->trns_grey};
        png_set_tRNS(png, info, NULL, 0, &colour);
    }
    if (p->srgb) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (p->gamma_fixed != 0) png_set_gAMA_fixed(png, info, (png_fixed_point)p->gamma_fixed);
    if (p->icc != NULL && p->icc_length > 0)
        png_set_iCCP(png, info, "icc", PNG_COMPRESSION_TYPE_BASE, p->icc, (png_uint_32)p->icc_length);
    if (p->exif != NULL && p->exif_length > 0) png_set_eXIf_1(png, info, (png_uint_32)p->exif_length, (png_bytep)p->exif);
    png_set_compression_level(png, p->level);
    png_set_compression_mem_level(png, 9);
    png_write_info(png, info);
    for (uint32_t y = 0; y < p->height; y++) c->rows[y] = (png_bytep)(p->rows + (size_t)y * p->row_bytes);
    png_write_image(png, c->rows);
    png_write_end(png, NULL);
    return CPS_OK;
}

int cps_write_png(const cps_write_params *p, cps_buffer *out, cps_error *error) {
    if (p == NULL || out == NULL || p->rows == NULL || p->width == 0 || p->height == 0 || p->level < 0 ||
        p->level > 9 || (p->color_type == PNG_COLOR_TYPE_PALETTE &&
                         (p->palette == NULL || p->palette_count < 1 || p->palette_count > 256 ||
                          p->trns_count < 0 || p->trns_count > p->palette_count ||
                          (p->trns_count > 0 && p->trns == NULL)))) {
        cps_set_error(error, CPS_INVALID, "invalid encoder parameters", NULL);
        return CPS_INVALID;
    }
    memset(out, 0, sizeof *out);
    write_context c = {out, NULL, ""};
    c.rows = malloc(sizeof(png_bytep) * p->height);
    png_structp png = c.rows ? png_create_write_struct(PNG_LIBPNG_VER_STRING, c.message, cps_png_error, cps_ignore_png_warning)
                             : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        if (png != NULL) png_destroy_write_struct(&png, NULL);
        free(c.rows);
        return cps_no_memory(error);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(c.rows);
        cps_buffer_free(out);
        cps_set_error(error, CPS_ENCODE, NULL, c.message);
        return CPS_ENCODE;
    }
    write_body(png, info, &c, p);
    png_destroy_write_struct(&png, &info);
    free(c.rows);
    if (error != NULL) {
        error->status = CPS_OK;
        error->message[0] = '\0';
    }
    return CPS_OK;
}
