// JPEG output through libjpeg-turbo, into a cps_buffer (used by tests to make inputs).
#include "cps_internal.h"

#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_compress_struct cinfo;  // first: callbacks cast back from it
    struct jpeg_error_mgr err;
    struct jpeg_destination_mgr dest;
    jmp_buf jmp;
    cps_buffer *out;
    char message[JMSG_LENGTH_MAX];
} jpeg_writer;

static void on_write_error_exit(j_common_ptr c) {
    jpeg_writer *w = (jpeg_writer *)(void *)c;
    (*c->err->format_message)(c, w->message);
    longjmp(w->jmp, 1);
}

static void on_write_message(j_common_ptr c, int level) {
    (void)c;
    (void)level;
}

static int grow(jpeg_writer *w) {
    cps_buffer *b = w->out;
    size_t used = b->capacity - w->dest.free_in_buffer;
    size_t cap = b->capacity < 65536 ? 65536 : b->capacity * 2;
    uint8_t *data = realloc(b->data, cap);
    if (data == NULL) return 0;
    b->data = data;
    b->capacity = cap;
    w->dest.next_output_byte = data + used;
    w->dest.free_in_buffer = cap - used;
    return 1;
}

static void on_init_destination(j_compress_ptr c) {
    jpeg_writer *w = (jpeg_writer *)(void *)c;
    w->dest.next_output_byte = NULL;
    w->dest.free_in_buffer = 0;
    if (!grow(w)) ERREXIT(c, JERR_OUT_OF_MEMORY);
}

static boolean on_empty_buffer(j_compress_ptr c) {
    jpeg_writer *w = (jpeg_writer *)(void *)c;
    // libjpeg only calls this when the buffer is full: length == capacity.
    w->dest.free_in_buffer = 0;
    if (!grow(w)) ERREXIT(c, JERR_OUT_OF_MEMORY);
    return TRUE;
}

static void on_term_destination(j_compress_ptr c) {
    jpeg_writer *w = (jpeg_writer *)(void *)c;
    w->out->length = w->out->capacity - w->dest.free_in_buffer;
}

int cps_write_jpeg(const cps_jpeg_write_params *p, cps_buffer *out, cps_error *error) {
    if (p == NULL || out == NULL || p->pixels == NULL || p->width == 0 || p->height == 0 || p->width > 65500 ||
        p->height > 65500 || (p->components != 1 && p->components != 3 && p->components != 4) ||
        p->quality < 1 || p->quality > 100 || (p->exif_length > 0 && p->exif == NULL) || p->exif_length > 65533) {
        cps_set_error(error, CPS_INVALID, "invalid encoder parameters", NULL);
        return CPS_INVALID;
    }
    memset(out, 0, sizeof *out);
    jpeg_writer *w = calloc(1, sizeof *w);
    if (w == NULL) return cps_no_memory(error);
    w->out = out;
    w->cinfo.err = jpeg_std_error(&w->err);
    w->err.error_exit = on_write_error_exit;
    w->err.emit_message = on_write_message;
    if (setjmp(w->jmp)) {
        cps_set_error(error, CPS_ENCODE, NULL, w->message);
        jpeg_destroy_compress(&w->cinfo);
        free(w);
        cps_buffer_free(out);
        return CPS_ENCODE;
    }
    jpeg_create_compress(&w->cinfo);
    w->dest.init_destination = on_init_destination;
    w->dest.empty_output_buffer = on_empty_buffer;
    w->dest.term_destination = on_term_destination;
    w->cinfo.dest = &w->dest;
    w->cinfo.image_width = p->width;
    w->cinfo.image_height = p->height;
    w->cinfo.input_components = p->components;
    w->cinfo.in_color_space = p->components == 1 ? JCS_GRAYSCALE : (p->components == 3 ? JCS_RGB : JCS_CMYK);
    jpeg_set_defaults(&w->cinfo);
    jpeg_set_quality(&w->cinfo, p->quality, TRUE);
    if (p->progressive) jpeg_simple_progression(&w->cinfo);
    jpeg_start_compress(&w->cinfo, TRUE);
    if (p->exif_length > 0) jpeg_write_marker(&w->cinfo, JPEG_APP0 + 1, p->exif, (unsigned)p->exif_length);
    if (p->icc != NULL && p->icc_length > 0) jpeg_write_icc_profile(&w->cinfo, p->icc, (unsigned)p->icc_length);
    size_t stride = (size_t)p->width * (size_t)p->components;
    while (w->cinfo.next_scanline < w->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(p->pixels + (size_t)w->cinfo.next_scanline * stride);
        jpeg_write_scanlines(&w->cinfo, &row, 1);
    }
    jpeg_finish_compress(&w->cinfo);
    jpeg_destroy_compress(&w->cinfo);
    free(w);
    if (error != NULL) {
        error->status = CPS_OK;
        error->message[0] = '\0';
    }
    return CPS_OK;
}
