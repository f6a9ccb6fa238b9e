// Opening a PNG source: signature sniffing, libpng header read, error mapping.
#include "cps_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t png_signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};

void cps_set_error(cps_error *error, int status, const char *prefix, const char *detail) {
    if (error == NULL) return;
    error->status = status;
    size_t used = 0;
    const char *parts[2] = {prefix, detail};
    for (int i = 0; i < 2; i++) {
        const char *p = parts[i];
        if (p == NULL) continue;
        if (i == 1 && prefix != NULL && used + 2 < sizeof error->message) {
            error->message[used++] = ':';
            error->message[used++] = ' ';
        }
        for (; *p != '\0' && used + 1 < sizeof error->message; p++) {
            // Keep it one line whatever libpng or the OS said.
            error->message[used++] = (*p == '\n' || *p == '\r') ? ' ' : *p;
        }
    }
    error->message[used] = '\0';
}

size_t cps_source_read(cps_source *s, uint8_t *dst, size_t n) {
    if (s->file != NULL) {
        size_t got = fread(dst, 1, n, s->file);
        if (got < n) {
            if (ferror(s->file)) s->io_errno = errno != 0 ? errno : EIO;
            else s->eof = 1;
        }
        return got;
    }
    size_t left = s->length - s->offset;
    size_t got = n < left ? n : left;
    if (got > 0) memcpy(dst, s->data + s->offset, got);
    s->offset += got;
    if (got < n) s->eof = 1;
    return got;
}

int cps_fail_status(const cps_source *s) {
    if (s->io_errno != 0) return CPS_IO;
    if (s->eof) return CPS_TRUNCATED;
    if (strstr(s->message, "out of memory") != NULL || strstr(s->message, "Out of memory") != NULL)
        return CPS_NO_MEMORY;
    return CPS_CORRUPT;
}

int cps_no_memory(cps_error *error) {
    cps_set_error(error, CPS_NO_MEMORY, "out of memory", NULL);
    return CPS_NO_MEMORY;
}

void cps_png_error(png_structp png, png_const_charp message) {
    char *kept = png_get_error_ptr(png);
    if (kept != NULL) {
        cps_error tmp;
        cps_set_error(&tmp, 0, NULL, message != NULL ? message : "unknown libpng error");
        memcpy(kept, tmp.message, sizeof tmp.message);
    }
    png_longjmp(png, 1);
}

void cps_ignore_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;  // Warnings are recoverable; a library never prints.
}

static void on_png_read(png_structp png, png_bytep dst, size_t n) {
    cps_source *s = png_get_io_ptr(png);
    if (cps_source_read(s, dst, n) < n) {
        png_error(png, s->io_errno != 0 ? "read failed" : "unexpected end of data");
    }
}

/// Reads the header after the 8 signature bytes; returns CPS_OK or a failure.
static int open_png(cps_source *s, cps_error *error) {
    s->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, s->message, cps_png_error, cps_ignore_png_warning);
    if (s->png == NULL) return cps_no_memory(error);
    s->png_info = png_create_info_struct(s->png);
    if (s->png_info == NULL) return cps_no_memory(error);
    if (setjmp(png_jmpbuf(s->png))) {
        int status = cps_fail_status(s);
        cps_set_error(error, status, NULL, status == CPS_IO ? strerror(s->io_errno) : s->message);
        return status;
    }
    png_set_read_fn(s->png, s, on_png_read);
    png_set_sig_bytes(s->png, 8);
    // The caller's limits decide, not libpng's default of 1,000,000 per side.
    png_set_user_limits(s->png, 0x7fffffff, 0x7fffffff);
    // Besides IHDR, PLTE, tRNS, IDAT and IEND only the colour chunks and eXIf
    // matter: skip (but CRC-check) the rest, so text chunks cannot make us
    // allocate; a profile is capped by the chunk limit.
    png_set_keep_unknown_chunks(s->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    static const png_byte wanted[] = {'c', 'H', 'R', 'M', 0, 'g', 'A', 'M', 'A', 0, 'i', 'C', 'C', 'P', 0,
                                      's', 'R', 'G', 'B', 0, 'e', 'X', 'I', 'f', 0};
    png_set_keep_unknown_chunks(s->png, PNG_HANDLE_CHUNK_AS_DEFAULT, wanted, 5);
    png_set_chunk_malloc_max(s->png, 1u << 20);
#ifdef PNG_IGNORE_ADLER32
    // Every chunk's CRC-32 still guards the compressed bytes; zlib's Adler-32
    // would only be compared at the stream's end, which a crop may never read,
    // yet costs ~4% of the decode.
    png_set_option(s->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(s->png, s->png_info);

    png_uint_32 w = 0, h = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(s->png, s->png_info, &w, &h, &depth, &color, &interlace, NULL, NULL);
    s->info.width = w;
    s->info.height = h;
    s->info.format = CPS_FORMAT_PNG;
    s->info.bit_depth = depth;
    s->info.color_type = color;
    s->info.interlaced = interlace == PNG_INTERLACE_ADAM7;
    s->info.has_alpha = (color & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(s->png, s->png_info, PNG_INFO_tRNS) != 0;
    s->info.orientation = 1;
    png_bytep exif = NULL;
    png_uint_32 exif_length = 0;
    if (png_get_eXIf_1(s->png, s->png_info, &exif_length, &exif) != 0)
        s->info.orientation = cps_exif_orientation(exif, exif_length);
    cps_colour_desc colour;
    cps_png_colour(s, &colour);
    s->info.colour_tagged = colour.icc != NULL || (!colour.srgb && colour.has_chrm) ||
                            (!colour.srgb && colour.has_gamma && !cps_colour_is_srgb_gamma(colour.gamma));
    return CPS_OK;
}

void cps_png_colour(cps_source *s, cps_colour_desc *d) {
    memset(d, 0, sizeof *d);
    png_structp png = s->png;
    png_infop info = s->png_info;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    // libpng has already checked these chunks and dropped inconsistent ones.
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) != 0 && profile != NULL) {
        d->icc = profile;
        d->icc_length = length;
    }
    int intent = 0;
    if (png_get_sRGB(png, info, &intent) != 0) d->srgb = 1;
    double gamma = 0;
    if (png_get_gAMA(png, info, &gamma) != 0 && gamma > 0) {
        d->has_gamma = 1;
        d->gamma = gamma;
    }
    double *c = d->chrm;
    if (png_get_cHRM(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) != 0) d->has_chrm = 1;
}

void cps_set_colour_management(cps_source *s, int on) {
    if (s != NULL) s->unmanaged = !on;
}

/// Sniffs the signature, then opens the matching decoder.
static cps_source *open_source(cps_source *s, cps_info *info, cps_error *error) {
    uint8_t sig[8] = {0};
    size_t got = cps_source_read(s, sig, sizeof sig);
    int status;
    if (s->io_errno != 0) {
        cps_set_error(error, CPS_IO, NULL, strerror(s->io_errno));
        status = CPS_IO;
    } else if (got == 0) {
        cps_set_error(error, CPS_NOT_IMAGE, "empty input", NULL);
        status = CPS_NOT_IMAGE;
    } else if (got >= 2 && sig[0] == 0xFF && sig[1] == 0xD8 && (got == 2 || sig[2] == 0xFF)) {
        s->eof = 0;
        memcpy(s->sniff, sig, got);
        s->sniff_length = got;
        status = cps_jpeg_open(s, error);
    } else if (got == sizeof sig && memcmp(sig, "RIFF", 4) == 0) {
        // RIFF, a 32-bit size, then the form type: WEBP.
        memcpy(s->sniff, sig, got);
        s->sniff_length = got + cps_source_read(s, s->sniff + got, 4);
        if (s->sniff_length < 12) {
            cps_set_error(error, CPS_TRUNCATED, "unexpected end of data in the WebP signature", NULL);
            status = CPS_TRUNCATED;
        } else if (memcmp(s->sniff + 8, "WEBP", 4) != 0) {
            cps_set_error(error, CPS_NOT_IMAGE, "a RIFF file that is not WebP", NULL);
            status = CPS_NOT_IMAGE;
        } else {
            status = cps_webp_open(s, error);
        }
    } else if (got == 1 && sig[0] == 0xFF) {
        cps_set_error(error, CPS_TRUNCATED, "unexpected end of data in the JPEG signature", NULL);
        status = CPS_TRUNCATED;
    } else if (memcmp(sig, png_signature, got) != 0) {
        cps_set_error(error, CPS_NOT_IMAGE, "no PNG, JPEG or WebP signature", NULL);
        status = CPS_NOT_IMAGE;
    } else if (got < sizeof sig) {
        cps_set_error(error, CPS_TRUNCATED, "unexpected end of data in the PNG signature", NULL);
        status = CPS_TRUNCATED;
    } else {
        status = open_png(s, error);
    }
    if (status != CPS_OK) {
        cps_close(s);
        return NULL;
    }
    if (info != NULL) *info = s->info;
    if (error != NULL) {
        error->status = CPS_OK;
        error->message[0] = '\0';
    }
    return s;
}

cps_source *cps_open_memory(const uint8_t *data, size_t length, cps_info *info, cps_error *error) {
    cps_source *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cps_no_memory(error);
        return NULL;
    }
    s->data = data;
    s->length = data != NULL ? length : 0;
    return open_source(s, info, error);
}

cps_source *cps_open_file(const char *path, cps_info *info, cps_error *error) {
    if (path == NULL) {
        cps_set_error(error, CPS_INVALID, "no path", NULL);
        return NULL;
    }
    cps_source *s = calloc(1, sizeof *s);
    if (s == NULL) {
        cps_no_memory(error);
        return NULL;
    }
    s->file = fopen(path, "rb");
    if (s->file == NULL) {
        cps_set_error(error, CPS_IO, NULL, strerror(errno));
        free(s);
        return NULL;
    }
    return open_source(s, info, error);
}

void cps_close(cps_source *s) {
    if (s == NULL) return;
    if (s->png != NULL) png_destroy_read_struct(&s->png, s->png_info != NULL ? &s->png_info : NULL, NULL);
    cps_jpeg_close(s);
    cps_webp_close(s);
    cps_filter_free(&s->filter);
    cps_color_free(&s->color);
    free(s->row);
    if (s->file != NULL) fclose(s->file);
    free(s);
}
