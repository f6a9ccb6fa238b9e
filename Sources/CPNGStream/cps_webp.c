// WebP sources (libwebp): the whole file is read (WebP has no row-streaming decoder), its
// header checked, and at resample time libwebp decodes it scaled down to about twice the output
// size, so the decoded pixels stay small however large the photo; the box filter does the rest.
#include "cps_internal.h"
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>

/// Largest WebP file read: a RIFF chunk's size field is 32 bits, and phones' photos are a few MB.
#define CPS_WEBP_MAX_BYTES ((size_t)64 << 20)

typedef struct {
    uint8_t *bytes;
    size_t length;
} cps_webp;

int cps_webp_open(cps_source *s, cps_error *error) {
    cps_webp *w = calloc(1, sizeof *w);
    if (w == NULL) return cps_no_memory(error);
    s->webp = w;
    size_t capacity = 1 << 16;
    w->bytes = malloc(capacity);
    if (w->bytes == NULL) return cps_no_memory(error);
    memcpy(w->bytes, s->sniff, s->sniff_length);
    w->length = s->sniff_length;
    for (;;) {
        if (w->length == capacity) {
            if (capacity >= CPS_WEBP_MAX_BYTES) {
                cps_set_error(error, CPS_UNSUPPORTED, "WebP file larger than 64 MB", NULL);
                return CPS_UNSUPPORTED;
            }
            uint8_t *bigger = realloc(w->bytes, capacity * 2);
            if (bigger == NULL) return cps_no_memory(error);
            w->bytes = bigger;
            capacity *= 2;
        }
        size_t got = cps_source_read(s, w->bytes + w->length, capacity - w->length);
        w->length += got;
        if (s->io_errno != 0) {
            cps_set_error(error, CPS_IO, NULL, strerror(s->io_errno));
            return CPS_IO;
        }
        if (s->eof) break;
    }
    s->eof = 0;
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(w->bytes, w->length, &features);
    if (status == VP8_STATUS_NOT_ENOUGH_DATA) {
        cps_set_error(error, CPS_TRUNCATED, "unexpected end of data in the WebP header", NULL);
        return CPS_TRUNCATED;
    }
    if (status != VP8_STATUS_OK || features.width <= 0 || features.height <= 0) {
        cps_set_error(error, CPS_CORRUPT, "invalid WebP header", NULL);
        return CPS_CORRUPT;
    }
    if (features.has_animation) {
        cps_set_error(error, CPS_UNSUPPORTED, "animated WebP", NULL);
        return CPS_UNSUPPORTED;
    }
    s->info.width = (uint32_t)features.width;
    s->info.height = (uint32_t)features.height;
    s->info.format = CPS_FORMAT_WEBP;
    s->info.bit_depth = 8;
    s->info.color_type = features.has_alpha ? 4 : 3;
    s->info.has_alpha = features.has_alpha;
    s->info.orientation = 1;
    return CPS_OK;
}

int cps_webp_resample(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    cps_webp *w = s->webp;
    if (w == NULL) {
        cps_set_error(error, CPS_INVALID, "no WebP decoder", NULL);
        return CPS_INVALID;
    }
    uint32_t width = s->info.width, height = s->info.height;
    int direct = cps_is_identity(g, width, height);
    // The largest whole divisor that leaves at least two decoded pixels per output pixel.
    uint32_t divisor = 1;
    if (!direct) {
        while (g->src_w / (divisor * 2) >= 2.0 * g->dst_w && g->src_h / (divisor * 2) >= 2.0 * g->dst_h) divisor *= 2;
    }
    uint32_t dw = (width + divisor - 1) / divisor, dh = (height + divisor - 1) / divisor;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        cps_set_error(error, CPS_UNSUPPORTED, "libwebp version mismatch", NULL);
        return CPS_UNSUPPORTED;
    }
    config.output.colorspace = MODE_RGBA;
    if (divisor > 1) {
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)dw;
        config.options.scaled_height = (int)dh;
    }
    VP8StatusCode status = WebPDecode(w->bytes, w->length, &config);
    if (status != VP8_STATUS_OK) {
        WebPFreeDecBuffer(&config.output);
        int code = status == VP8_STATUS_OUT_OF_MEMORY ? CPS_NO_MEMORY
                 : status == VP8_STATUS_NOT_ENOUGH_DATA ? CPS_TRUNCATED
                 : status == VP8_STATUS_UNSUPPORTED_FEATURE ? CPS_UNSUPPORTED : CPS_CORRUPT;
        cps_set_error(error, code, "libwebp could not decode the image", NULL);
        return code;
    }
    const WebPRGBABuffer *rgba = &config.output.u.RGBA;
    // The rectangle in decoded pixels: decoded pixel i covers input pixels [i * rx, (i + 1) * rx).
    cps_geometry scaled = cps_scaled_source(g, (double)width / dw, (double)height / dh, dw, dh);
    if (!direct) {
        int init = cps_filter_init(&s->filter, &scaled, dw, dh, 4);
        if (init != CPS_OK) {
            WebPFreeDecBuffer(&config.output);
            cps_set_error(error, init, init == CPS_NO_MEMORY ? "out of memory" : "invalid geometry", NULL);
            return init;
        }
    } else {
        memset(out_rgba, 0, (size_t)g->out_width * (size_t)g->out_height * 4);
    }
    uint32_t rows = direct ? dh : cps_rows_needed(&scaled, dh);
    for (uint32_t y = 0; y < rows && y < dh; y++) {
        const uint8_t *row = rgba->rgba + (size_t)y * (size_t)rgba->stride;
        if (direct) cps_direct_row(g, out_rgba, row, 4, y, 0, 1, dw);
        else cps_filter_row(&s->filter, row, y, 0, 1, dw);
    }
    WebPFreeDecBuffer(&config.output);
    s->direct = direct;
    return CPS_OK;
}

void cps_webp_close(cps_source *s) {
    cps_webp *w = s->webp;
    if (w == NULL) return;
    free(w->bytes);
    free(w);
    s->webp = NULL;
}
