// The libpng row loop: transforms to 8-bit G/GA/RGB/RGBA, then rows (or Adam7
// pass rows, without libpng's full-frame de-interlacing) into the box filter.
#include "cps_internal.h"

#include <stdlib.h>
#include <string.h>

int cps_plan_geometry(uint32_t width, uint32_t height, int size, int fit, cps_geometry *g) {
    if (g == NULL || width == 0 || height == 0 || size <= 0) return CPS_INVALID;
    memset(g, 0, sizeof *g);
    g->out_width = size;
    g->out_height = size;
    if (fit == CPS_FIT_PAD) {
        g->src_w = width;
        g->src_h = height;
        if (width >= height) {
            g->dst_w = size;
            g->dst_h = (int)cps_floor((double)size * height / width + 0.5);
        } else {
            g->dst_h = size;
            g->dst_w = (int)cps_floor((double)size * width / height + 0.5);
        }
        if (g->dst_w < 1) g->dst_w = 1;
        if (g->dst_h < 1) g->dst_h = 1;
        g->dst_x = (size - g->dst_w) / 2;
        g->dst_y = (size - g->dst_h) / 2;
    } else {
        uint32_t side = width < height ? width : height;
        g->src_x = (width - side) / 2.0;
        g->src_y = (height - side) / 2.0;
        g->src_w = side;
        g->src_h = side;
        g->dst_w = size;
        g->dst_h = size;
    }
    return CPS_OK;
}

static int check_geometry(const cps_geometry *g) {
    if (g == NULL || g->out_width <= 0 || g->out_height <= 0 || g->dst_w <= 0 || g->dst_h <= 0 || g->dst_x < 0 ||
        g->dst_y < 0 || g->dst_x + g->dst_w > g->out_width || g->dst_y + g->dst_h > g->out_height)
        return CPS_INVALID;
    return CPS_OK;
}

/// The row layout libpng will hand over with the transforms below, 16-bit kept.
static int png_layout(int color, int depth, int trns) {
    int deep = depth == 16;
    switch (color) {
    case PNG_COLOR_TYPE_GRAY:
        return trns ? (deep ? CPS_LAYOUT_GA16 : CPS_LAYOUT_GA8) : (deep ? CPS_LAYOUT_G16 : CPS_LAYOUT_G8);
    case PNG_COLOR_TYPE_GRAY_ALPHA: return deep ? CPS_LAYOUT_GA16 : CPS_LAYOUT_GA8;
    case PNG_COLOR_TYPE_RGB_ALPHA: return deep ? CPS_LAYOUT_RGBA16 : CPS_LAYOUT_RGBA8;
    default:  // RGB, palette
        return trns ? (deep ? CPS_LAYOUT_RGBA16 : CPS_LAYOUT_RGBA8) : (deep ? CPS_LAYOUT_RGB16 : CPS_LAYOUT_RGB8);
    }
}

/// Everything after setjmp: the caller reports errors from the jump.
static int resample_png(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    png_structp png = s->png;
    png_infop info = s->png_info;
    int color = s->info.color_type;
    uint32_t w = s->info.width, h = s->info.height;
    int trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    int managed = 0;
    if (!s->unmanaged) {
        cps_colour_desc colour;
        cps_png_colour(s, &colour);
        managed = cps_color_init(&s->color, &colour, png_layout(color, s->info.bit_depth, trns), w);
        if (managed < 0) return cps_no_memory(error);
    }
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && s->info.bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (trns) png_set_tRNS_to_alpha(png);
    // A conversion keeps all 16 bits (in host order) and writes 8; otherwise libpng scales.
    int deep = s->info.bit_depth == 16 && managed;
    if (s->info.bit_depth == 16) {
        if (deep) png_set_swap(png);
        else png_set_scale_16(png);
    }
    png_read_update_info(png, info);

    int channels = png_get_channels(png, info);
    size_t sample = deep ? 2 : 1;
    if (png_get_bit_depth(png, info) != (deep ? 16 : 8) || channels < 1 || channels > 4 ||
        png_get_rowbytes(png, info) != (size_t)w * (size_t)channels * sample ||
        (managed && s->color.out_channels != channels)) {
        cps_set_error(error, CPS_UNSUPPORTED, "unexpected pixel layout after transforms", NULL);
        return CPS_UNSUPPORTED;
    }
    s->direct = cps_is_identity(g, w, h);
    int status = s->direct ? CPS_OK : cps_filter_init(&s->filter, g, w, h, channels);
    if (status != CPS_OK) {
        cps_set_error(error, status, status == CPS_NO_MEMORY ? "out of memory" : "invalid geometry", NULL);
        return status;
    }
    s->row = malloc((size_t)w * (size_t)channels * sample);
    if (s->row == NULL) return cps_no_memory(error);
    if (s->direct) memset(out_rgba, 0, (size_t)g->out_width * (size_t)g->out_height * 4);
    if (!s->info.interlaced) {
        uint32_t rows = cps_rows_needed(g, h);
        // Only the columns the filter reads are converted (a crop's 3000 of 4000).
        uint32_t first = 0, count = w;
        if (!s->direct) cps_filter_columns(&s->filter, w, &first, &count);
        for (uint32_t y = 0; y < rows; y++) {
            png_read_row(png, s->row, NULL);
            const uint8_t *row = cps_color_row(&s->color, s->row, first, count);
            if (s->direct) cps_direct_row(g, out_rgba, row, channels, y, 0, 1, w);
            else cps_filter_row(&s->filter, row, y, 0, 1, w);
        }
        return CPS_OK;
    }
    // Adam7 without png_set_interlace_handling: libpng hands us each pass's
    // reduced rows in order, skipping empty passes, so every pixel is seen once
    // and placed by its pass coordinates. No full frame is ever held.
    for (int pass = 0; pass < 7; pass++) {
        uint32_t cols = PNG_PASS_COLS(w, pass), rows = PNG_PASS_ROWS(h, pass);
        if (cols == 0 || rows == 0) continue;
        for (uint32_t r = 0; r < rows; r++) {
            png_read_row(png, s->row, NULL);
            const uint8_t *row = cps_color_row(&s->color, s->row, 0, cols);
            uint32_t y = PNG_ROW_FROM_PASS_ROW(r, pass), x0 = PNG_PASS_START_COL(pass);
            uint32_t step = 1u << PNG_PASS_COL_SHIFT(pass);
            if (s->direct) cps_direct_row(g, out_rgba, row, channels, y, x0, step, cols);
            else cps_filter_row(&s->filter, row, y, x0, step, cols);
        }
    }
    return CPS_OK;
}

int cps_resample(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    if (s == NULL || out_rgba == NULL || check_geometry(g) != CPS_OK) {
        cps_set_error(error, CPS_INVALID, "invalid geometry", NULL);
        return CPS_INVALID;
    }
    if (s->used) {
        cps_set_error(error, CPS_INVALID, "source already decoded", NULL);
        return CPS_INVALID;
    }
    s->used = 1;
    int status;
    if (s->info.format == CPS_FORMAT_JPEG) {
        status = cps_jpeg_resample(s, g, out_rgba, error);
    } else if (s->info.format == CPS_FORMAT_WEBP) {
        status = cps_webp_resample(s, g, out_rgba, error);
    } else {
        if (setjmp(png_jmpbuf(s->png))) {
            int failed = cps_fail_status(s);
            cps_set_error(error, failed, NULL, failed == CPS_IO ? strerror(s->io_errno) : s->message);
            return failed;
        }
        status = resample_png(s, g, out_rgba, error);
    }
    if (status != CPS_OK) return status;
    if (!s->direct) cps_filter_finish(&s->filter, g, out_rgba);
    if (error != NULL) {
        error->status = CPS_OK;
        error->message[0] = '\0';
    }
    return CPS_OK;
}
