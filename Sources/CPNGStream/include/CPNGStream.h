#ifndef XMPP_TOOLS_CPNGSTREAM_H
#define XMPP_TOOLS_CPNGSTREAM_H
// The libpng row loop lives in C so no longjmp ever crosses a Swift frame.
// Every function that calls libpng sets its own setjmp and returns a status.
//
// Pipeline: cps_open_* reads the header only (png_read_info); the caller checks
// the declared size against its limits; cps_resample then streams the rows
// (row by row, or Adam7 pass row by pass row) through an area-average box
// filter whose accumulator is the size of the output, never of the input.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Outcome of a call; CPS_OK is zero.
typedef enum {
    CPS_OK = 0,
    CPS_NOT_IMAGE = 1,   ///< not a PNG, JPEG or WebP signature, or empty
    CPS_TRUNCATED = 2,   ///< the data ended before the image did
    CPS_CORRUPT = 3,     ///< libpng rejected the data; message says why
    CPS_UNSUPPORTED = 4, ///< valid but not handled; message says what
    CPS_IO = 5,          ///< open/read failed; message holds strerror
    CPS_NO_MEMORY = 6,   ///< an allocation failed
    CPS_ENCODE = 7,      ///< writing the output PNG failed
    CPS_INVALID = 8,     ///< bad arguments from the caller
} cps_status;

/// Status plus a one-line, NUL-terminated reason.
typedef struct {
    int status;
    char message[160];
} cps_error;

/// Container format of a source.
enum { CPS_FORMAT_PNG = 1, CPS_FORMAT_JPEG = 2, CPS_FORMAT_WEBP = 3 };

/// What the header declares.
typedef struct {
    uint32_t width;
    uint32_t height;
    int format;       ///< CPS_FORMAT_*
    int bit_depth;    ///< per channel as stored (1..16); 8 for JPEG
    int color_type;   ///< PNG colour type; for JPEG the component count
    int interlaced;   ///< 1 if Adam7 (or progressive JPEG)
    int has_alpha;    ///< alpha channel or tRNS present
    int orientation;  ///< EXIF orientation 1...8 (JPEG APP1, PNG eXIf); 1 = as stored
    int colour_tagged; ///< an ICC profile, gAMA or cHRM the decode will convert from (0 for sRGB/untagged)
} cps_info;

/// Where the output pixels come from and go to.
/// Source rectangle in input pixel units (may be fractional, must lie inside
/// the image); destination rectangle in whole output pixels inside an
/// out_width x out_height canvas that starts fully transparent.
typedef struct {
    double src_x, src_y, src_w, src_h;
    int dst_x, dst_y, dst_w, dst_h;
    int out_width, out_height;
} cps_geometry;

/// How to fit a rectangle into the square.
enum { CPS_FIT_CROP = 0, CPS_FIT_PAD = 1 };

/// Computes the geometry for a size x size output: crop takes the centred
/// square of side min(w, h); pad scales the whole image into the square,
/// centred, with transparent borders. Returns CPS_INVALID for zero sizes.
int cps_plan_geometry(uint32_t width, uint32_t height, int size, int fit, cps_geometry *geometry);

/// An open image whose header has been read.
typedef struct cps_source cps_source;

/// Opens PNG (or JPEG) bytes that must stay valid until cps_close.
cps_source *cps_open_memory(const uint8_t *data, size_t length, cps_info *info, cps_error *error);

/// Opens a file and streams it through stdio; nothing is loaded whole.
cps_source *cps_open_file(const char *path, cps_info *info, cps_error *error);

/// Colour management is on by default: ICC profiles (PNG iCCP, JPEG APP2) and PNG
/// gAMA/cHRM are converted to sRGB row by row with Little CMS. Off passes the stored
/// samples through as if they were sRGB (benchmarks, tests of the raw decode).
void cps_set_colour_management(cps_source *source, int on);

/// Decodes the source once, resampling into out_rgba (out_width * out_height
/// * 4 bytes, straight alpha, fully written). Rows below the source rectangle
/// of a non-interlaced image are not decoded.
int cps_resample(cps_source *source, const cps_geometry *geometry, uint8_t *out_rgba, cps_error *error);

/// Frees the source and closes its file, if any. NULL is fine.
void cps_close(cps_source *source);

/// Growable output of the encoder; free with cps_buffer_free.
typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
} cps_buffer;

/// Parameters of cps_write_png: rows are in PNG's packed native layout
/// (16-bit samples big-endian, sub-byte samples packed MSB first), each
/// row_bytes long. palette is RGB triples; trns is palette alpha (count
/// entries) or, for grey/RGB, one 16-bit sample per channel (trns_grey,
/// trns_rgb) when has_trns_colour is set.
typedef struct {
    uint32_t width, height;
    int bit_depth;
    int color_type;   ///< PNG_COLOR_TYPE_*
    int interlace;    ///< 0 none, 1 Adam7
    int level;        ///< zlib level 0..9
    const uint8_t *rows;
    size_t row_bytes;
    const uint8_t *palette;
    int palette_count;
    const uint8_t *trns;
    int trns_count;
    int has_trns_colour;
    uint16_t trns_grey;
    uint16_t trns_rgb[3];
    int srgb;               ///< write an sRGB chunk (perceptual)
    uint32_t gamma_fixed;   ///< write gAMA with this value x 100000 (0: none)
    const uint8_t *icc;     ///< write iCCP with this profile (NULL: none)
    size_t icc_length;
    const uint8_t *exif;    ///< write eXIf with this TIFF data (NULL: none)
    size_t exif_length;
} cps_write_params;

/// Encodes one PNG with no ancillary chunks except PLTE/tRNS and those asked for, adaptive filters.
int cps_write_png(const cps_write_params *params, cps_buffer *out, cps_error *error);

/// Releases a buffer filled by cps_write_png.
void cps_buffer_free(cps_buffer *buffer);

#ifdef __cplusplus
}
#endif
#endif
