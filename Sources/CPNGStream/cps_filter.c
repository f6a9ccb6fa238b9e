// Area-average (box) resampling with fractional coverage, fed one source row
// at a time. Colour is premultiplied by alpha while summing and divided back
// at the end, so transparent pixels add no colour. Memory: the accumulator is
// output-sized; nothing grows with the input beyond the column table.
#include "cps_internal.h"

#include <stdlib.h>
#include <string.h>

/// Rounds values within a hair of an integer to it, so exact geometries stay exact.
static double snap(double v) {
    double r = cps_floor(v + 0.5);
    return (v - r < 1e-9 && r - v < 1e-9) ? r : v;
}

void cps_filter_free(cps_filter *f) {
    free(f->x0);
    free(f->x1);
    free(f->xf);
    free(f->xl);
    free(f->ya);
    free(f->yb);
    free(f->wx);
    free(f->wy);
    free(f->hrow);
    free(f->acc);
    memset(f, 0, sizeof *f);
}

uint32_t cps_rows_needed(const cps_geometry *g, uint32_t height) {
    double end = cps_ceil(snap(g->src_y + g->src_h));
    if (end < 1) end = 1;
    return end >= (double)height ? height : (uint32_t)end;
}

void cps_filter_columns(const cps_filter *f, uint32_t width, uint32_t *first, uint32_t *count) {
    if (f->dw <= 0) {
        *first = 0;
        *count = width;
        return;
    }
    uint32_t a = (uint32_t)f->x0[0], b = (uint32_t)f->x1[f->dw - 1];
    if (b > width) b = width;
    *first = a < b ? a : 0;
    *count = a < b ? b - a : width;
}

int cps_filter_init(cps_filter *f, const cps_geometry *g, uint32_t width, uint32_t height, int channels) {
    cps_filter_free(f);
    if (g->dst_w <= 0 || g->dst_h <= 0 || !(g->src_w > 0) || !(g->src_h > 0) || channels < 1 || channels > 4 ||
        g->src_x < 0 || g->src_y < 0 || g->src_x + g->src_w > (double)width + 1e-6 ||
        g->src_y + g->src_h > (double)height + 1e-6)
        return CPS_INVALID;
    int dw = g->dst_w, dh = g->dst_h, c = channels;
    f->channels = c;
    f->dw = dw;
    f->dh = dh;
    f->x0 = malloc(sizeof(int) * (size_t)dw);
    f->x1 = malloc(sizeof(int) * (size_t)dw);
    f->xf = malloc(sizeof(float) * (size_t)dw);
    f->xl = malloc(sizeof(float) * (size_t)dw);
    f->wx = malloc(sizeof(double) * (size_t)dw);
    f->ya = malloc(sizeof(double) * (size_t)dh);
    f->yb = malloc(sizeof(double) * (size_t)dh);
    f->wy = malloc(sizeof(double) * (size_t)dh);
    f->hrow = malloc(sizeof(float) * (size_t)dw * (size_t)c);
    f->acc = calloc((size_t)dw * (size_t)dh * (size_t)c, sizeof(float));
    if (!f->x0 || !f->x1 || !f->xf || !f->xl || !f->wx || !f->ya || !f->yb || !f->wy || !f->hrow || !f->acc) {
        cps_filter_free(f);
        return CPS_NO_MEMORY;
    }
    double sx = g->src_w / dw, sy = g->src_h / dh;
    for (int i = 0; i < dw; i++) {
        double a = snap(g->src_x + sx * i);
        double b = i == dw - 1 ? snap(g->src_x + g->src_w) : snap(g->src_x + sx * (i + 1));
        if (b > width) b = width;
        int x0 = (int)cps_floor(a), x1 = (int)cps_ceil(b);
        if (x0 < 0) x0 = 0;
        if (x1 > (int)width) x1 = (int)width;
        if (x1 <= x0) x1 = x0 + 1;  // degenerate: a sliver of one column
        double first = cps_min(x0 + 1.0, b) - a, last = b - cps_max(x1 - 1.0, a);
        if (first <= 0) first = 1e-6;
        f->x0[i] = x0;
        f->x1[i] = x1;
        f->xf[i] = (float)first;
        f->xl[i] = (float)(x1 - x0 == 1 ? first : last);
        f->wx[i] = x1 - x0 == 1 ? first : first + last + (x1 - x0 - 2);
    }
    for (int j = 0; j < dh; j++) {
        double a = snap(g->src_y + sy * j);
        double b = j == dh - 1 ? snap(g->src_y + g->src_h) : snap(g->src_y + sy * (j + 1));
        if (b > height) b = height;
        if (b <= a) b = a + 1e-6;
        f->ya[j] = a;
        f->yb[j] = b;
        f->wy[j] = b - a;
    }
    return CPS_OK;
}

/// Sums one output column's span of a contiguous row with C channels.
/// Interior pixels are summed in integers; the two edge pixels are weighted.
#define CPS_REDUCE_SPAN(C)                                                                        \
    do {                                                                                          \
        const uint8_t *p = row + (size_t)x0 * (C);                                               \
        float *o = out + (size_t)i * (C);                                                        \
        if (x1 - x0 == 1) {                                                                      \
            PREMUL(C, p, o, wf, =);                                                              \
            break;                                                                               \
        }                                                                                        \
        uint64_t s[4] = {0, 0, 0, 0};                                                            \
        for (const uint8_t *q = p + (C), *e = row + (size_t)(x1 - 1) * (C); q < e; q += (C)) {   \
            if ((C) == 4) {                                                                      \
                uint32_t al = q[3];                                                              \
                s[0] += q[0] * al; s[1] += q[1] * al; s[2] += q[2] * al; s[3] += al;             \
            } else if ((C) == 2) {                                                               \
                uint32_t al = q[1];                                                              \
                s[0] += q[0] * al; s[1] += al;                                                   \
            } else {                                                                             \
                for (int k = 0; k < (C); k++) s[k] += q[k];                                      \
            }                                                                                    \
        }                                                                                        \
        for (int k = 0; k < (C); k++) o[k] = (float)s[k];                                        \
        PREMUL(C, p, o, wf, +=);                                                                 \
        PREMUL(C, row + (size_t)(x1 - 1) * (C), o, wl, +=);                                      \
    } while (0)

/// o[k] (op) w * premultiplied pixel p.
#define PREMUL(C, p, o, w, op)                                                                    \
    do {                                                                                          \
        if ((C) == 4) {                                                                           \
            float al = (float)(p)[3] * (w);                                                       \
            (o)[0] op (float)(p)[0] * al; (o)[1] op (float)(p)[1] * al;                           \
            (o)[2] op (float)(p)[2] * al; (o)[3] op al;                                           \
        } else if ((C) == 2) {                                                                    \
            float al = (float)(p)[1] * (w);                                                       \
            (o)[0] op (float)(p)[0] * al; (o)[1] op al;                                           \
        } else {                                                                                  \
            for (int k = 0; k < (C); k++) (o)[k] op (float)(p)[k] * (w);                          \
        }                                                                                         \
    } while (0)

static inline __attribute__((always_inline)) void reduce_contiguous(const cps_filter *f, const uint8_t *row, float *out,
                                                                    int C) {
    for (int i = 0; i < f->dw; i++) {
        int x0 = f->x0[i], x1 = f->x1[i];
        float wf = f->xf[i], wl = f->xl[i];
        switch (C) {
        case 1: CPS_REDUCE_SPAN(1); break;
        case 2: CPS_REDUCE_SPAN(2); break;
        case 3: CPS_REDUCE_SPAN(3); break;
        default: CPS_REDUCE_SPAN(4); break;
        }
    }
}

/// An Adam7 pass row: pixel j sits at column x_start + j * x_step.
static void reduce_strided(const cps_filter *f, const uint8_t *row, float *out, uint32_t x_start, uint32_t x_step,
                           uint32_t count) {
    int C = f->channels;
    for (int i = 0; i < f->dw; i++) {
        float *o = out + (size_t)i * C;
        for (int k = 0; k < C; k++) o[k] = 0;
        int x0 = f->x0[i], x1 = f->x1[i];
        uint32_t j = (uint32_t)x0 <= x_start ? 0 : ((uint32_t)x0 - x_start + x_step - 1) / x_step;
        for (; j < count; j++) {
            uint32_t x = x_start + j * x_step;
            if (x >= (uint32_t)x1) break;
            float w = x == (uint32_t)x0 ? f->xf[i] : (x == (uint32_t)x1 - 1 ? f->xl[i] : 1.0f);
            const uint8_t *p = row + (size_t)j * C;
            switch (C) {
            case 1: PREMUL(1, p, o, w, +=); break;
            case 2: PREMUL(2, p, o, w, +=); break;
            case 3: PREMUL(3, p, o, w, +=); break;
            default: PREMUL(4, p, o, w, +=); break;
            }
        }
    }
}

void cps_filter_row(cps_filter *f, const uint8_t *row, uint32_t y, uint32_t x_start, uint32_t x_step, uint32_t count) {
    double top = y, bottom = y + 1.0;
    // Output rows are sorted; find the first whose interval ends below this row's top.
    int lo = 0, hi = f->dh;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (f->yb[mid] <= top) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= f->dh || f->ya[lo] >= bottom) return;  // row outside the source rectangle
    if (x_step == 1 && x_start == 0) {
        switch (f->channels) {
        case 1: reduce_contiguous(f, row, f->hrow, 1); break;
        case 2: reduce_contiguous(f, row, f->hrow, 2); break;
        case 3: reduce_contiguous(f, row, f->hrow, 3); break;
        default: reduce_contiguous(f, row, f->hrow, 4); break;
        }
    } else {
        reduce_strided(f, row, f->hrow, x_start, x_step, count);
    }
    size_t n = (size_t)f->dw * (size_t)f->channels;
    for (int j = lo; j < f->dh && f->ya[j] < bottom; j++) {
        float cover = (float)(cps_min(bottom, f->yb[j]) - cps_max(top, f->ya[j]));
        if (cover <= 0) continue;
        float *a = f->acc + (size_t)j * n;
        for (size_t k = 0; k < n; k++) a[k] += cover * f->hrow[k];
    }
}

static uint8_t to_byte(double v) {
    if (!(v > 0)) return 0;
    if (v >= 255) return 255;
    return (uint8_t)(v + 0.5);
}

void cps_filter_finish(const cps_filter *f, const cps_geometry *g, uint8_t *out_rgba) {
    size_t stride = (size_t)g->out_width * 4;
    memset(out_rgba, 0, stride * (size_t)g->out_height);
    int C = f->channels;
    int alpha = C == 2 || C == 4, grey = C <= 2;
    for (int j = 0; j < f->dh; j++) {
        uint8_t *o = out_rgba + (size_t)(g->dst_y + j) * stride + (size_t)g->dst_x * 4;
        const float *a = f->acc + (size_t)j * (size_t)f->dw * (size_t)C;
        for (int i = 0; i < f->dw; i++, o += 4, a += C) {
            double area = f->wx[i] * f->wy[j];
            double r, gr, b, al;
            if (alpha) {
                double sum = a[C - 1];
                if (!(sum > 0)) continue;  // fully transparent
                al = sum / area;
                r = a[0] / sum;
                gr = grey ? r : a[1] / sum;
                b = grey ? r : a[2] / sum;
            } else {
                al = 255;
                r = a[0] / area;
                gr = grey ? r : a[1] / area;
                b = grey ? r : a[2] / area;
            }
            uint8_t alpha_byte = to_byte(al);
            if (alpha_byte == 0) continue;
            o[0] = to_byte(r);
            o[1] = to_byte(gr);
            o[2] = to_byte(b);
            o[3] = alpha_byte;
        }
    }
}

int cps_is_identity(const cps_geometry *g, uint32_t width, uint32_t height) {
    return g->src_x == 0 && g->src_y == 0 && g->src_w == (double)width && g->src_h == (double)height &&
           g->dst_w == (int)width && g->dst_h == (int)height;
}

void cps_direct_row(const cps_geometry *g, uint8_t *out_rgba, const uint8_t *row, int channels, uint32_t y,
                    uint32_t x_start, uint32_t x_step, uint32_t count) {
    uint8_t *line = out_rgba + ((size_t)(g->dst_y + (int)y) * (size_t)g->out_width + (size_t)g->dst_x) * 4;
    for (uint32_t j = 0; j < count; j++) {
        const uint8_t *p = row + (size_t)j * (size_t)channels;
        uint8_t *o = line + (size_t)(x_start + j * x_step) * 4;
        uint8_t r, gr, b, a;
        switch (channels) {
        case 1: r = gr = b = p[0]; a = 255; break;
        case 2: r = gr = b = p[0]; a = p[1]; break;
        case 3: r = p[0]; gr = p[1]; b = p[2]; a = 255; break;
        default: r = p[0]; gr = p[1]; b = p[2]; a = p[3]; break;
        }
        if (a == 0) r = gr = b = 0;  // as the filter does: no colour under alpha 0
        o[0] = r;
        o[1] = gr;
        o[2] = b;
        o[3] = a;
    }
}

cps_geometry cps_scaled_source(const cps_geometry *g, double rx, double ry, uint32_t w, uint32_t h) {
    cps_geometry scaled = *g;
    scaled.src_x = g->src_x / rx;
    scaled.src_y = g->src_y / ry;
    scaled.src_w = g->src_w / rx;
    scaled.src_h = g->src_h / ry;
    if (scaled.src_x + scaled.src_w > w) scaled.src_w = w - scaled.src_x;
    if (scaled.src_y + scaled.src_h > h) scaled.src_h = h - scaled.src_y;
    return scaled;
}
