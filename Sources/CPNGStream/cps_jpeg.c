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
    } else if (code == JERR_BAD_PRECISION && (c->err->msg_parm.i[0] == 12 || c->err->msg_parm.i[0] == 16)) {
        // Valid 12-bit (or lossless 16-bit) JPEG; this libjpeg build decodes 8-bit samples only.
        cps_set_error(&tmp, 0, "unsupported JPEG sample precision", text);
        memcpy(j->s->message, tmp.message, sizeof j->s->message);
        j->status = CPS_UNSUPPORTED;
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
    return cps_exif_orientation(d + 6, n - 6);
}

/// Whether an APP2 ICC_PROFILE marker is present (jpeg_read_icc_profile checks the set).
static int jpeg_has_icc(j_decompress_ptr d) {
    for (jpeg_saved_marker_ptr m = d->marker_list; m != NULL; m = m->next)
        if (m->marker == JPEG_APP0 + 2 && m->data_length >= 14 && memcmp(m->data, "ICC_PROFILE\0", 12) == 0)
            return 1;
    return 0;
}

/// Builds the transform from the embedded profile, if any; -1 only when out of memory.
static int jpeg_colour(cps_jpeg *j, int layout, uint32_t width) {
    cps_source *s = j->s;
    if (s->unmanaged || !s->info.colour_tagged) return 0;
    JOCTET *icc = NULL;
    unsigned int length = 0;
    if (!jpeg_read_icc_profile(&j->cinfo, &icc, &length) || icc == NULL) return 0;
    cps_colour_desc colour;
    memset(&colour, 0, sizeof colour);
    colour.icc = icc;
    colour.icc_length = length;
    int managed = cps_color_init(&s->color, &colour, layout, width);
    free(icc);
    return managed;
}

static int fail(cps_jpeg *j, cps_error *error) {
    cps_source *s = j->s;
    int status = j->status != 0 ? j->status : cps_fail_status(s);
    cps_set_error(error, status, NULL, status == CPS_IO ? strerror(s->io_errno) : s->message);
    return status;
}

int cps_jpeg_open(cps_source *s, cps_error *error) {
    cps_jpeg *j = calloc(1, sizeof *j);
    if (j == NULL) return cps_no_memory(error);
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
    jpeg_save_markers(&j->cinfo, JPEG_APP0 + 2, 0xFFFF);  // ICC_PROFILE chunks
    jpeg_read_header(&j->cinfo, TRUE);

    s->info.width = j->cinfo.image_width;
    s->info.height = j->cinfo.image_height;
    s->info.format = CPS_FORMAT_JPEG;
    s->info.bit_depth = j->cinfo.data_precision;
    s->info.color_type = j->cinfo.num_components;
    s->info.interlaced = j->cinfo.progressive_mode ? 1 : 0;
    s->info.has_alpha = 0;
    s->info.orientation = 1;
    s->info.colour_tagged = jpeg_has_icc(&j->cinfo);
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

/// Whether a rectangle ending at `end` of `extent` pixels stays clear of a last decoded pixel
/// that is partly padding at 1/denom. The scaled IDCT averages the encoder's padding (the last
/// row or column repeated up to the block) into that pixel, so weighting it by its real part
/// still over-weights the last row: such edges are decoded at a scale they are aligned to.
static int edge_aligned(double end, uint32_t extent, int denom) {
    uint32_t whole = extent / (uint32_t)denom * (uint32_t)denom;
    return whole == extent || end <= (double)whole + 1e-6;
}

static int resample_jpeg(cps_jpeg *j, const cps_geometry *g, uint8_t *out_rgba, cps_error *error) {
    cps_source *s = j->s;
    j_decompress_ptr d = &j->cinfo;
    uint32_t w = d->image_width, h = d->image_height;
    int direct = cps_is_identity(g, w, h);
    int denom = 1;
    if (!direct) {
        // Largest 1/denom that leaves at least two decoded pixels per output pixel and keeps the
        // encoder's padding out of the pixels the rectangle reads.
        for (denom = 8; denom > 1; denom /= 2)
            if (g->src_w / denom >= 2.0 * g->dst_w && g->src_h / denom >= 2.0 * g->dst_h &&
                edge_aligned(g->src_x + g->src_w, w, denom) && edge_aligned(g->src_y + g->src_h, h, denom))
                break;
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
    // The same rectangle in decoded (scaled) pixels. Decoded pixel i covers input pixels
    // [i * denom, (i + 1) * denom): dividing by denom keeps every pixel where it is, and a
    // last pixel whose block ran past the edge is weighted by the part of it that is real
    // (scaling by ow / w instead stretched the padding over the whole image).
    cps_geometry scaled = cps_scaled_source(g, denom, denom, ow, oh);
    int layout = comps == 1 ? CPS_LAYOUT_G8 : cmyk ? (d->saw_Adobe_marker ? CPS_LAYOUT_CMYK8_INVERTED : CPS_LAYOUT_CMYK8)
                                                   : CPS_LAYOUT_RGB8;
    int managed = jpeg_colour(j, layout, ow);
    if (managed < 0) return cps_no_memory(error);
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
    if (s->row == NULL) return cps_no_memory(error);
    uint32_t rows = direct ? oh : cps_rows_needed(&scaled, oh);
    uint32_t first = 0, count = ow;
    if (!direct) cps_filter_columns(&s->filter, ow, &first, &count);
    while (d->output_scanline < rows) {
        uint32_t y = d->output_scanline;
        JSAMPROW row = s->row;
        if (jpeg_read_scanlines(d, &row, 1) != 1) {
            cps_set_error(error, CPS_CORRUPT, "JPEG decoder returned no scanline", NULL);
            return CPS_CORRUPT;
        }
        const uint8_t *pixels = s->row;
        if (managed) pixels = cps_color_row(&s->color, s->row, first, count);  // CMYK too: the profile knows the inks
        else if (cmyk) cmyk_to_rgb(s->row, ow, d->saw_Adobe_marker);
        if (direct) cps_direct_row(g, out_rgba, pixels, channels, y, 0, 1, ow);
        else cps_filter_row(&s->filter, pixels, y, 0, 1, ow);
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
