// Private to CPNGStream: the source object shared by the reader files.
#ifndef XMPP_TOOLS_CPS_INTERNAL_H
#define XMPP_TOOLS_CPS_INTERNAL_H

#include "CPNGStream.h"
#include <png.h>
#include <errno.h>
#include <stdio.h>

/// The box filter: spans per output column/row and the accumulator.
typedef struct cps_filter {
    int channels;          // input channels after transforms: 1 G, 2 GA, 3 RGB, 4 RGBA
    int dw, dh;
    int *x0, *x1;          // source columns [x0, x1) touched by output column
    float *xf, *xl;        // coverage of column x0 and of column x1 - 1
    double *ya, *yb;       // source interval [ya, yb) of output row
    double *wx, *wy;       // total coverage per output column / row
    float *hrow;           // one input row reduced horizontally: dw * channels
    float *acc;            // dh * dw * channels sums (premultiplied when alpha)
} cps_filter;

/// What a source says about its colours (cps_color.c turns it into a transform to sRGB).
typedef struct {
    const uint8_t *icc;    // ICC profile bytes (PNG iCCP, JPEG APP2), or NULL
    size_t icc_length;
    int srgb;              // PNG sRGB chunk
    int has_gamma;         // PNG gAMA: stored = linear^gamma
    double gamma;
    int has_chrm;          // PNG cHRM: white x, y, then red, green, blue x, y
    double chrm[8];
} cps_colour_desc;

/// Pixel layouts a decoded row can have before colour conversion (16-bit in host order).
enum {
    CPS_LAYOUT_G8 = 1, CPS_LAYOUT_GA8, CPS_LAYOUT_RGB8, CPS_LAYOUT_RGBA8,
    CPS_LAYOUT_G16, CPS_LAYOUT_GA16, CPS_LAYOUT_RGB16, CPS_LAYOUT_RGBA16,
    CPS_LAYOUT_CMYK8, CPS_LAYOUT_CMYK8_INVERTED,
};

/// A transform to sRGB and the one row it writes into; all zero when there is none.
typedef struct {
    void *ctx;             // cmsContext
    void *xform;           // cmsHTRANSFORM
    int out_channels;      // 1 G, 2 GA, 3 RGB, 4 RGBA, 8 bits each
    uint32_t max_pixels;
    uint8_t *row;
    uint8_t *lut;          // grey: the transform tabulated per input value (256 or 65536)
    int in_channels;       // grey layouts: 1 or 2 (alpha copied)
    int in_deep;           // grey layouts: 16-bit input
    int in_bytes;          // bytes per input pixel
} cps_color;

/// 1 when a transform was built, 0 when the rows are used as they are (sRGB, untagged, or a
/// profile lcms or the pixels' colour space refuses), -1 when out of memory.
int cps_color_init(cps_color *c, const cps_colour_desc *d, int layout, uint32_t max_pixels);
/// The row converted to 8-bit sRGB (c->out_channels per pixel), or row itself without a
/// transform. Only pixels [first, first + count) are converted (and valid) in the result.
const uint8_t *cps_color_row(cps_color *c, const uint8_t *row, uint32_t first, uint32_t count);
/// Columns [*first, *first + *count) of a full row that the filter reads.
void cps_filter_columns(const cps_filter *f, uint32_t width, uint32_t *first, uint32_t *count);
void cps_color_free(cps_color *c);
/// Channels a layout has after conversion (CMYK gives RGB).
int cps_layout_channels_out(int layout);
/// A PNG gAMA of 1/2.2 without cHRM is taken as sRGB.
int cps_colour_is_srgb_gamma(double gamma);

/// EXIF orientation (1...8) from TIFF-structured data ("II*\0" or "MM\0*" first); 1 when absent.
int cps_exif_orientation(const uint8_t *tiff, size_t length);

struct cps_source {
    // Input: exactly one of file / data.
    FILE *file;
    const uint8_t *data;
    size_t length;
    size_t offset;
    int eof;               // the input ended inside the image
    int io_errno;          // non-zero when a read failed
    char message[160];     // last libpng error
    cps_info info;
    int used;              // cps_resample already ran
    int direct;            // 1:1 geometry, no filter
    png_structp png;
    png_infop png_info;
    uint8_t *row;          // one decoded row
    cps_filter filter;
    void *jpeg;            // libjpeg state when format is JPEG
    void *webp;            // the WebP file's bytes when format is WebP
    uint8_t sniff[12];     // signature bytes already read, replayed to libjpeg or kept for libwebp
    size_t sniff_length;
    int unmanaged;         // colour management switched off (cps_set_colour_management)
    cps_color color;       // transform to sRGB, when the source needs one
};

/// Reads exactly n bytes or flags eof / io error; returns bytes read.
size_t cps_source_read(cps_source *s, uint8_t *dst, size_t n);

/// Fills error from status and a printf-free message.
void cps_set_error(cps_error *error, int status, const char *prefix, const char *detail);

/// Fills error for a failed allocation; returns CPS_NO_MEMORY.
int cps_no_memory(cps_error *error);

/// libpng's error handler for reading and writing: keeps the message (one line, "unknown libpng
/// error" for none) in the 160-byte buffer given as the error pointer (the reader's and the
/// writer's `message`), then longjmps.
void cps_png_error(png_structp png, png_const_charp message);

/// libpng's warning handler for reading and writing: warnings are recoverable, and a library
/// never prints.
void cps_ignore_png_warning(png_structp png, png_const_charp message);

/// Maps the source's state after a longjmp to a status.
int cps_fail_status(const cps_source *s);

/// `g` with its source rectangle in pixels a decoder scaled down by rx × ry (decoded pixel i
/// covers input pixels [i * rx, (i + 1) * rx)), the part past the decoded w × h cut off
/// (cps_filter.c).
cps_geometry cps_scaled_source(const cps_geometry *g, double rx, double ry, uint32_t w, uint32_t h);

/// Filter setup, row accumulation and output (cps_filter.c).
int cps_filter_init(cps_filter *f, const cps_geometry *g, uint32_t width, uint32_t height, int channels);
void cps_filter_row(cps_filter *f, const uint8_t *row, uint32_t y, uint32_t x_start, uint32_t x_step, uint32_t count);
void cps_filter_finish(const cps_filter *f, const cps_geometry *g, uint8_t *out_rgba);
void cps_filter_free(cps_filter *f);

/// libm-free rounding (the target links no libm); |v| < 2^62.
static inline double cps_floor(double v) {
    double t = (double)(long long)v;
    return t > v ? t - 1 : t;
}
static inline double cps_ceil(double v) {
    double t = (double)(long long)v;
    return t < v ? t + 1 : t;
}
static inline double cps_min(double a, double b) { return a < b ? a : b; }
static inline double cps_max(double a, double b) { return a > b ? a : b; }

/// 1:1 geometry: pixels are copied (expanded to RGBA) with no accumulator.
int cps_is_identity(const cps_geometry *g, uint32_t width, uint32_t height);
void cps_direct_row(const cps_geometry *g, uint8_t *out_rgba, const uint8_t *row, int channels, uint32_t y,
                    uint32_t x_start, uint32_t x_step, uint32_t count);

/// Last source row (exclusive) the geometry needs.
uint32_t cps_rows_needed(const cps_geometry *g, uint32_t height);

/// The PNG's colour chunks (valid after png_read_info); pointers stay owned by libpng.
void cps_png_colour(cps_source *s, cps_colour_desc *d);

/// JPEG (cps_jpeg.c): header after the SOI check, and the scanline loop.
int cps_jpeg_open(cps_source *s, cps_error *error);
int cps_jpeg_resample(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error);
void cps_jpeg_close(cps_source *s);

/// WebP (cps_webp.c): the whole file read and its header checked after the RIFF/WEBP check.
int cps_webp_open(cps_source *s, cps_error *error);
int cps_webp_resample(cps_source *s, const cps_geometry *g, uint8_t *out_rgba, cps_error *error);
void cps_webp_close(cps_source *s);

#endif
