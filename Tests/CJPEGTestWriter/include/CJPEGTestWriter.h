#ifndef CJPEG_TEST_WRITER_H
#define CJPEG_TEST_WRITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One JPEG for the image tests to read (the product decodes JPEG, it never writes one).
typedef struct {
    uint32_t width, height;
    int components;   ///< 1 grey, 3 RGB, 4 CMYK (Adobe: stored inverted)
    int quality;      ///< 1...100
    int progressive;
    const uint8_t *pixels;  ///< width * height * components bytes
    const uint8_t *exif;    ///< optional APP1 payload starting "Exif\0\0"
    size_t exif_length;
    const uint8_t *icc;     ///< optional ICC profile, written as APP2 ICC_PROFILE markers
    size_t icc_length;
} cjw_params;

/// Encodes one JPEG with libjpeg-turbo: a malloc'd buffer of *length bytes (free it with free),
/// or NULL with libjpeg's message (or why the parameters were refused) in message.
uint8_t *cjw_write_jpeg(const cjw_params *params, size_t *length, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
