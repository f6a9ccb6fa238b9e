// Colour management: what the source says about its colours (an ICC profile; for PNG also
// sRGB, gAMA and cHRM) becomes a Little CMS transform to sRGB, applied to each decoded row
// before the box filter, so the averaging happens in sRGB as for an untagged input and
// memory stays one row. Grey stays grey (sRGB's tone curve, D65), CMYK becomes RGB.
#include "cps_internal.h"

#include <lcms2.h>
#include <stdlib.h>
#include <string.h>

static void on_lcms_error(cmsContext ctx, cmsUInt32Number code, const char *text) {
    (void)ctx;
    (void)code;
    (void)text;  // A bad profile is dropped, never printed by a library.
}

void cps_color_free(cps_color *c) {
    if (c->xform != NULL) cmsDeleteTransform((cmsHTRANSFORM)c->xform);
    if (c->ctx != NULL) cmsDeleteContext((cmsContext)c->ctx);
    free(c->row);
    free(c->lut);
    memset(c, 0, sizeof *c);
}

/// sRGB's transfer function as an lcms parametric curve (IEC 61966-2-1).
static cmsToneCurve *srgb_curve(cmsContext ctx) {
    const cmsFloat64Number p[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(ctx, 4, p);
}

/// A grey profile with this curve and D65 white; the curve stays the caller's.
static cmsHPROFILE grey_profile(cmsContext ctx, const cmsToneCurve *curve) {
    const cmsCIExyY d65 = {0.3127, 0.3290, 1.0};
    return curve != NULL ? cmsCreateGrayProfileTHR(ctx, &d65, curve) : NULL;
}

static cmsHPROFILE srgb_grey_profile(cmsContext ctx) {
    cmsToneCurve *curve = srgb_curve(ctx);
    cmsHPROFILE p = grey_profile(ctx, curve);
    if (curve != NULL) cmsFreeToneCurve(curve);
    return p;
}

int cps_colour_is_srgb_gamma(double gamma) {
    // 1/2.2 is what encoders write beside (or instead of) an sRGB chunk; the power curve and
    // sRGB's differ by a level or two in the shadows and only there.
    return gamma > 0.45455 * 0.995 && gamma < 0.45455 * 1.005;
}

/// The source profile the description asks for, or NULL when the pixels are sRGB already
/// (or say nothing, or what they say is unusable).
static cmsHPROFILE source_profile(cmsContext ctx, const cps_colour_desc *d, int grey, int cmyk) {
    if (d->icc != NULL && d->icc_length >= 128) {
        cmsHPROFILE p = cmsOpenProfileFromMemTHR(ctx, d->icc, (cmsUInt32Number)d->icc_length);
        if (p != NULL) {
            cmsColorSpaceSignature space = cmsGetColorSpace(p);
            cmsProfileClassSignature cls = cmsGetDeviceClass(p);
            int usable_class = cls == cmsSigInputClass || cls == cmsSigDisplayClass || cls == cmsSigOutputClass ||
                               cls == cmsSigColorSpaceClass;
            cmsColorSpaceSignature want = cmyk ? cmsSigCmykData : grey ? cmsSigGrayData : cmsSigRgbData;
            if (usable_class && space == want) return p;
            cmsCloseProfile(p);
        }
        // A profile that does not fit the pixels is ignored; the PNG chunks below may still speak.
    }
    if (cmyk) return NULL;
    if (d->srgb) return NULL;
    if (!d->has_gamma && !d->has_chrm) return NULL;
    if (d->has_gamma && !d->has_chrm && cps_colour_is_srgb_gamma(d->gamma)) return NULL;
    cmsToneCurve *curve = d->has_gamma ? cmsBuildGamma(ctx, 1.0 / d->gamma) : srgb_curve(ctx);
    if (curve == NULL) return NULL;
    cmsHPROFILE p = NULL;
    if (grey) {
        p = grey_profile(ctx, curve);
    } else {
        cmsCIExyY white;
        cmsCIExyYTRIPLE primaries;
        if (d->has_chrm) {
            white = (cmsCIExyY){d->chrm[0], d->chrm[1], 1.0};
            primaries.Red = (cmsCIExyY){d->chrm[2], d->chrm[3], 1.0};
            primaries.Green = (cmsCIExyY){d->chrm[4], d->chrm[5], 1.0};
            primaries.Blue = (cmsCIExyY){d->chrm[6], d->chrm[7], 1.0};
        } else {  // sRGB's primaries and white (Rec. 709, D65)
            white = (cmsCIExyY){0.3127, 0.3290, 1.0};
            primaries.Red = (cmsCIExyY){0.64, 0.33, 1.0};
            primaries.Green = (cmsCIExyY){0.30, 0.60, 1.0};
            primaries.Blue = (cmsCIExyY){0.15, 0.06, 1.0};
        }
        cmsToneCurve *curves[3] = {curve, curve, curve};
        p = cmsCreateRGBProfileTHR(ctx, &white, &primaries, curves);
    }
    cmsFreeToneCurve(curve);
    return p;
}

static cmsUInt32Number lcms_format(int layout) {
    switch (layout) {
    case CPS_LAYOUT_G8: return TYPE_GRAY_8;
    case CPS_LAYOUT_GA8: return TYPE_GRAYA_8;
    case CPS_LAYOUT_RGB8: return TYPE_RGB_8;
    case CPS_LAYOUT_RGBA8: return TYPE_RGBA_8;
    case CPS_LAYOUT_G16: return TYPE_GRAY_16;
    case CPS_LAYOUT_GA16: return TYPE_GRAYA_16;
    case CPS_LAYOUT_RGB16: return TYPE_RGB_16;
    case CPS_LAYOUT_RGBA16: return TYPE_RGBA_16;
    case CPS_LAYOUT_CMYK8: return TYPE_CMYK_8;
    case CPS_LAYOUT_CMYK8_INVERTED: return TYPE_CMYK_8_REV;
    default: return 0;
    }
}

int cps_layout_channels_out(int layout) {
    switch (layout) {
    case CPS_LAYOUT_G8: case CPS_LAYOUT_G16: return 1;
    case CPS_LAYOUT_GA8: case CPS_LAYOUT_GA16: return 2;
    case CPS_LAYOUT_RGBA8: case CPS_LAYOUT_RGBA16: return 4;
    default: return 3;
    }
}

int cps_color_init(cps_color *c, const cps_colour_desc *d, int layout, uint32_t max_pixels) {
    cps_color_free(c);
    cmsUInt32Number in = lcms_format(layout);
    if (in == 0 || max_pixels == 0) return 0;
    int out_channels = cps_layout_channels_out(layout);
    int grey = out_channels <= 2;
    int cmyk = layout == CPS_LAYOUT_CMYK8 || layout == CPS_LAYOUT_CMYK8_INVERTED;
    cmsContext ctx = cmsCreateContext(NULL, NULL);
    if (ctx == NULL) return -1;
    cmsSetLogErrorHandlerTHR(ctx, on_lcms_error);
    cmsHPROFILE src = source_profile(ctx, d, grey, cmyk);
    if (src == NULL) {
        cmsDeleteContext(ctx);
        return 0;
    }
    cmsHPROFILE dst = grey ? srgb_grey_profile(ctx) : cmsCreate_sRGBProfileTHR(ctx);
    cmsUInt32Number out = out_channels == 1 ? TYPE_GRAY_8 : out_channels == 2 ? TYPE_GRAYA_8
                        : out_channels == 4 ? TYPE_RGBA_8 : TYPE_RGB_8;
    // lcms's optimized grey-to-grey pipeline is off by up to 7 levels in the shadows
    // (measured, gamma 1.0 to sRGB); unoptimized it is exact, and a table of every input
    // value makes it fast again.
    cmsHTRANSFORM xform = NULL;
    if (dst != NULL && grey) {
        xform = cmsCreateTransformTHR(ctx, src, T_BYTES(in) == 2 ? TYPE_GRAY_16 : TYPE_GRAY_8, dst, TYPE_GRAY_8,
                                      INTENT_PERCEPTUAL, cmsFLAGS_NOOPTIMIZE);
    } else if (dst != NULL) {
        xform = cmsCreateTransformTHR(ctx, src, in, dst, out, INTENT_PERCEPTUAL, cmsFLAGS_COPY_ALPHA);
    }
    cmsCloseProfile(src);
    if (dst != NULL) cmsCloseProfile(dst);
    if (xform == NULL) {  // lcms refused the profile: the pixels pass as sRGB
        cmsDeleteContext(ctx);
        return 0;
    }
    c->row = malloc((size_t)max_pixels * (size_t)out_channels);
    c->ctx = ctx;
    c->xform = xform;
    c->out_channels = out_channels;
    c->max_pixels = max_pixels;
    c->in_bytes = (int)(T_BYTES(in) * (T_CHANNELS(in) + T_EXTRA(in)));
    if (c->row == NULL) {
        cps_color_free(c);
        return -1;
    }
    if (grey) {
        c->in_channels = out_channels;
        c->in_deep = T_BYTES(in) == 2;
        size_t entries = c->in_deep ? 65536 : 256;
        c->lut = malloc(entries);
        if (c->lut == NULL) {
            cps_color_free(c);
            return -1;
        }
        if (c->in_deep) {
            uint16_t values[1024];
            for (size_t base = 0; base < entries; base += 1024) {
                for (size_t i = 0; i < 1024; i++) values[i] = (uint16_t)(base + i);
                cmsDoTransform(xform, values, c->lut + base, 1024);
            }
        } else {
            uint8_t values[256];
            for (int i = 0; i < 256; i++) values[i] = (uint8_t)i;
            cmsDoTransform(xform, values, c->lut, 256);
        }
    }
    return 1;
}

/// A grey row through the table; alpha (8 or 16 bits) is copied, scaled to 8 bits.
static void grey_row(const cps_color *c, const uint8_t *row, uint8_t *o, uint32_t count) {
    if (c->in_deep) {
        const uint16_t *p = (const uint16_t *)(const void *)row;
        for (uint32_t i = 0; i < count; i++) {
            *o++ = c->lut[*p++];
            if (c->in_channels == 2) *o++ = (uint8_t)(((uint32_t)*p++ * 255 + 32767) / 65535);
        }
    } else {
        for (uint32_t i = 0; i < count; i++) {
            *o++ = c->lut[*row++];
            if (c->in_channels == 2) *o++ = *row++;
        }
    }
}

const uint8_t *cps_color_row(cps_color *c, const uint8_t *row, uint32_t first, uint32_t count) {
    if (c->xform == NULL) return row;
    if (first >= c->max_pixels) return c->row;
    if (count > c->max_pixels - first) count = c->max_pixels - first;
    if (count == 0) return c->row;
    const uint8_t *in = row + (size_t)first * (size_t)c->in_bytes;
    uint8_t *out = c->row + (size_t)first * (size_t)c->out_channels;
    if (c->lut != NULL) grey_row(c, in, out, count);
    else cmsDoTransform((cmsHTRANSFORM)c->xform, in, out, count);
    return c->row;
}
