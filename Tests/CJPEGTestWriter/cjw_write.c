// JPEG output through libjpeg-turbo into a growing malloc'd buffer, for tests to make inputs.
#include "CJPEGTestWriter.h"

#include <stdio.h>  // before jpeglib.h, which uses FILE
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jerror.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_compress_struct cinfo;  // first: callbacks cast back from it
    struct jpeg_error_mgr err;
    struct jpeg_destination_mgr dest;
    jmp_buf jmp;
    uint8_t *data;
    size_t capacity;
    size_t length;
    char message[JMSG_LENGTH_MAX];
} jpeg_writer;

static void on_error_exit(j_common_ptr c) {
    jpeg_writer *w = (jpeg_writer *)(void *)c;
    (*c->err->format_message)(c, w->message);
    longjmp(w->jmp, 1);
}

static void on_message(j_common_ptr c, int level) {
    (void)c;
    (void)level;
}

static int grow(jpeg_writer *w) {
    size_t used = w->capacity - w->dest.free_in_buffer;
    size_t cap = w->capacity < 65536 ? 65536 : w->capacity * 2;
    uint8_t *data = realloc(w->data, cap);
    if (data == NULL) return 0;
    w->data = data;
    w->capacity = cap;
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
    w->length = w->capacity - w->dest.free_in_buffer;
}

uint8_t *cjw_write_jpeg(const cjw_params *p, size_t *length, char *message, size_t message_size) {
    if (message != NULL && message_size > 0) message[0] = '\0';
    if (p == NULL || length == NULL || p->pixels == NULL || p->width == 0 || p->height == 0 || p->width > 65500 ||
        p->height > 65500 || (p->components != 1 && p->components != 3 && p->components != 4) ||
        p->quality < 1 || p->quality > 100 || (p->exif_length > 0 && p->exif == NULL) || p->exif_length > 65533) {
        if (message != NULL) snprintf(message, message_size, "invalid encoder parameters");
        return NULL;
    }
    jpeg_writer *w = calloc(1, sizeof *w);
    if (w == NULL) {
        if (message != NULL) snprintf(message, message_size, "out of memory");
        return NULL;
    }
    w->cinfo.err = jpeg_std_error(&w->err);
    w->err.error_exit = on_error_exit;
    w->err.emit_message = on_message;
    if (setjmp(w->jmp)) {
        if (message != NULL) snprintf(message, message_size, "%s", w->message);
        jpeg_destroy_compress(&w->cinfo);
        free(w->data);
        free(w);
        return NULL;
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
    uint8_t *data = w->data;
    *length = w->length;
    free(w);
    return data;
}
