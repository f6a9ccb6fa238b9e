// JPEG input through libjpeg-turbo: header (with the EXIF orientation), then
// scanlines into the same box filter. When the output is much smaller than
// the source, libjpeg's DCT scaling (1/2, 1/4, 1/8: at 1/8 each pixel is the
// exact mean of its 8x8 block) does most of the averaging almost for free.
#include "cps_internal.h"

#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// Progressive files keep all coefficients; this caps that buffer.
#define CPS_JPEG_MAX_MEMORY (256L * 1024 * 1024)
/// Pathological progressive files with thousands of scans are a CPU bomb.
#define CPS_JPEG_MAX_SCANS 500

typedef struct {
    struct jpeg_decompress_struct cinfo;  // first: callbacks cast back from it
    struct jpeg_error_mgr err;
    struct jpeg_source_mgr src;
    struct jpeg_progress_mgr progress;
    jmp_buf jmp;
    cps_source *s;
    int created;
    int status;  // overrides the status derived from the source, when set
    uint8_t buffer[16384];
} cps_jpeg;

static void on_error_exit(j_common_ptr c) {
    cps_jpeg *j = (cps_jpeg *)(void *)c;
    char text[JMSG_LENGTH_MAX];
    (*c->err->format_message)(c, text);
    cps_error tmp;
    cps_set_error(&tmp, 0, NULL, text);
    memcpy(j->s->message, tmp.message, sizeof j->s->message);
    int code = c->err->msg_code;
    if (code == JERR_OUT_OF_MEMORY) {
        j->status = CPS_NO_MEMORY;
    } else if (code == JERR_NO_BACKING_STORE) {  // over CPS_JPEG_MAX_MEMORY
        cps_set_error(&tmp, 0, "progressive JPEG needs too much memory to decode", NULL);
        memcpy(j->s->message, tmp.message, sizeof j->s->message);
        j->status = CPS_UNSUPPORTED;
    }
    longjmp(j->jmp, 1);
}

static void on_message(j_common_ptr c, int level) {
    (void)c;
    (void)level;  // Warnings (recoverable corruption) are not printed by a library.
}

static void on_progress(j_common_ptr c) {
    j_decompress_ptr d = (j_decompress_ptr)c;
    cps_jpeg *j = (cps_jpeg *)(void *)c;
    if (d->input_scan_number > CPS_JPEG_MAX_SCANS) {
        cps_error tmp;
        cps_set_error(&tmp, 0, "too many progressive scans", NULL);
        memcpy(j->s->message, tmp.message, sizeof j->s->message);
        j->status = CPS_UNSUPPORTED;
        longjmp(j->jmp, 1);
    }
}

static void on_init_source(j_decompress_ptr d) { (void)d; }
static void on_term_source(j_decompress_ptr d) { (void)d; }

static boolean on_fill(j_decompress_ptr d) {
    cps_jpeg *j = (cps_jpeg *)(void *)d;
    cps_source *s = j->s;
    size_t n = 0;
    if (s->sniff_length > 0) {
        memcpy(j->buffer, s->sniff, s->sniff_length);
        n = s->sniff_length;
        s->sniff_length = 0;
        j->src.next_input_byte = j->buffer;
    } else if (s->file != NULL) {
        n = fread(j->buffer, 1, sizeof j->buffer, s->file);
        if (n == 0 && ferror(s->file)) s->io_errno = EIO;
        j->src.next_input_byte = j->buffer;
    } else {
        n = s->length - s->offset;  // the rest at once, no copy
        j->src.next_input_byte = s->data + s->offset;
        s->offset = s->length;
    }
    if (n == 0) {
        if (s->io_errno == 0) s->eof = 1;
        ERREXIT(d, JERR_INPUT_EOF);
    }
    j->src.bytes_in_buffer = n;
    return TRUE;
}

static void on_skip(j_decompress_ptr d, long count) {
    if (count <= 0) return;
    struct jpeg_source_mgr *src = d->src;
    while ((size_t)count > src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        src->bytes_in_buffer = 0;
        on_fill(d);
    }
    src->next_input_byte += count;
    src->bytes_in_buffer -= (size_t)count;
}

/// Orientation (1...8) from an APP1 "Exif" payload; 1 when absent or malformed.
static int exif_orientation(const uint8_t *d, size_t n) {
    if (n < 6 + 8 || memcmp(d, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *t = d + 6;
    size_t tn = n - 6;
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

static int fail(cps_jpeg *j, cps_error *error) {
    cps_source *s = j->s;
    int status = j->status != 0 ? j->status : cps_fail_status(s);
    cps_set_error(error, status, NULL, status == CPS_IO ? strerror(s->io_errno) : s->message);
    return status;
}

int cps_jpeg_open(cps_source *s, cps_error *error) {
    cps_jpeg *j = calloc(1, sizeof *j);
    if (j == NULL) {
        cps_set_error(error, CPS_NO_MEMORY, "out of memory", NULL);
        return CPS_NO_MEMORY;
    }
    s->jpeg = j;
    j->s = s;
    j->cinfo.err = jpeg_std_error(&j->err);
    j->err.error_exit = on_error_exit;
    j->err.emit_message = on_message;
    if (setjmp(j->jmp)) return fail(j, error);
    jpeg_create_decompress(&j->cinfo);
    j->created = 1;
    j->cinfo.mem->max_memory_to_use = CPS_JPEG_MAX_MEMORY;
    j->src.init_source = on_init_source;
    j->src.fill_input_buffer = on_fill;
    j->src.skip_input_data = on_skip;
    j->src.resync_to_restart = jpeg_resync_to_restart;
    j->src.term_source = on_term_source;
    j->cinfo.src = &j->src;
    j->progress.progress_monitor = on_progress;
    j->cinfo.progress = &j->progress;
    jpeg_save_markers(&j->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&j->cinfo, TRUE);

    s->info.width = j->cinfo.image_width;
    s->info.height = j->cinfo.image_height;
    s->info.format = CPS_FORMAT_JPEG;
    s->info.bit_depth = j->cinfo.data_precision;
    s->info.color_type = j->cinfo.num_components;
    s->info.interlaced = j->cinfo.progressive_mode ? 1 : 0;
    s->info.has_alpha = 0;
    s->info.orientation = 1;
    for (jpeg_saved_marker_ptr m = j->cinfo.marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1) {
            int o = exif_orientation(m->data, m->data_length);
            if (o != 1) {
                s->info.orientation = o;
                break;
            }
        }
    }
    return CPS_OK;
}

/// Adobe CMYK is stored inverted (255 = no ink); others are not.
static void cmyk_to_rgb(uint8_t *row, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++) {
        const uint8_t *p = row + 4 * (size_t)x;
        uint32_t c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        uint8_t *o = row + 3 * (size_t)x;
        o[0] = (uint8_t)((c * k + 127) / 255);
        o[1] = (uint8_t)((m * k + 127) / 255);
        o[2] = (uint8_t)((y * k + 127) / 255);
    }
}

static int resample_jpeg(cps_jpeg *j, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    cps_source *s = j->s;
    j_decompress_ptr d = &j->cinfo;
    uint32_t w = d->image_width, h = d->image_height;
    int direct = cps_is_identity(g, w, h);
    int denom = 1;
    if (!direct) {
        // Largest 1/denom that leaves at least two decoded pixels per output pixel.
        for (denom = 8; denom > 1; denom /= 2)
            if (g->src_w / denom >= 2.0 * g->dst_w && g->src_h / denom >= 2.0 * g->dst_h) break;
    }
    d->scale_num = 1;
    d->scale_denom = (unsigned)denom;
    int cmyk = d->jpeg_color_space == JCS_CMYK || d->jpeg_color_space == JCS_YCCK;
    d->out_color_space = d->num_components == 1 ? JCS_GRAYSCALE : (cmyk ? JCS_CMYK : JCS_RGB);
    jpeg_start_decompress(d);
    uint32_t ow = d->output_width, oh = d->output_height;
    int comps = d->output_components;
    int channels = cmyk ? 3 : comps;
    if ((comps != 1 && comps != 3 && comps != 4) || (direct && (ow != w || oh != h))) {
        cps_set_error(error, CPS_UNSUPPORTED, "unexpected JPEG output layout", NULL);
        return CPS_UNSUPPORTED;
    }
    // The same rectangle in decoded (scaled) pixels.
    cps_geometry scaled = *g;
    double fx = (double)ow / w, fy = (double)oh / h;
    scaled.src_x = g->src_x * fx;
    scaled.src_y = g->src_y * fy;
    scaled.src_w = g->src_w * fx;
    scaled.src_h = g->src_h * fy;
    if (scaled.src_x + scaled.src_w > ow) scaled.src_w = ow - scaled.src_x;
    if (scaled.src_y + scaled.src_h > oh) scaled.src_h = oh - scaled.src_y;
    if (!direct) {
        int status = cps_filter_init(&s->filter, &scaled, ow, oh, channels);
        if (status != CPS_OK) {
            cps_set_error(error, status, status == CPS_NO_MEMORY ? "out of memory" : "invalid geometry", NULL);
            return status;
        }
    } else {
        memset(out_rgba, 0, (size_t)g->out_width * (size_t)g->out_height * 4);
    }
    s->row = malloc((size_t)ow * (size_t)comps);
    if (s->row == NULL) {
        cps_set_error(error, CPS_NO_MEMORY, "out of memory", NULL);
        return CPS_NO_MEMORY;
    }
    uint32_t rows = direct ? oh : cps_rows_needed(&scaled, oh);
    while (d->output_scanline < rows) {
        uint32_t y = d->output_scanline;
        JSAMPROW row = s->row;
        if (jpeg_read_scanlines(d, &row, 1) != 1) {
            cps_set_error(error, CPS_CORRUPT, "JPEG decoder returned no scanline", NULL);
            return CPS_CORRUPT;
        }
        if (cmyk) cmyk_to_rgb(s->row, ow, d->saw_Adobe_marker);
        if (direct) cps_direct_row(g, out_rgba, s->row, channels, y, 0, 1, ow);
        else cps_filter_row(&s->filter, s->row, y, 0, 1, ow);
    }
    jpeg_abort_decompress(d);  // trailing data past the rows we need is not read
    s->direct = direct;
    return CPS_OK;
}

int cps_jpeg_resample(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    cps_jpeg *j = s->jpeg;
    if (j == NULL || !j->created) {
        cps_set_error(error, CPS_INVALID, "no JPEG decoder", NULL);
        return CPS_INVALID;
    }
    if (setjmp(j->jmp)) return fail(j, error);
    return resample_jpeg(j, g, out_rgba, error);
}

void cps_jpeg_close(cps_source *s) {
    cps_jpeg *j = s->jpeg;
    if (j == NULL) return;
    if (j->created) jpeg_destroy_decompress(&j->cinfo);
    free(j);
    s->jpeg = NULL;
}
