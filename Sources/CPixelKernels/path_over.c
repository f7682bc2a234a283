#include "CPixelKernels.h"
#include "oq_dispatch.h"
#include "oq_bytes.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds,
// whatever the target (the Swift reference rounds every product and sum).
#pragma STDC FP_CONTRACT OFF

/// The first pixel from `x` on that the fill or the stroke covers (coverage over 0), or `count`:
/// sixteen coverages compared at once while none is (a stroked ring's bounds are mostly the
/// hole inside it and the corners outside, which the Swift loop stepped through one by one).
static inline __attribute__((always_inline)) long oq_path_first_covered(const float *fill, const float *stroke, long x, long count) {
    if (stroke) {
        for (; x + 16 <= count; x += 16) {
            int any = 0;
            for (int i = 0; i < 16; i++) any |= (fill[x + i] > 0.0f) | (stroke[x + i] > 0.0f);
            if (any) break;
        }
        while (x < count && !(fill[x] > 0.0f || stroke[x] > 0.0f)) x++;
    } else {
        for (; x + 16 <= count; x += 16) {
            int any = 0;
            for (int i = 0; i < 16; i++) any |= fill[x + i] > 0.0f;
            if (any) break;
        }
        while (x < count && !(fill[x] > 0.0f)) x++;
    }
    return x;
}

/// The source bytes of a pixel covered `kf` by the fill and `ks` by the stroke: PathOp.composite
/// (the stroke's colour over the fill's where there is a stroke), times `opacity`, each channel
/// the draw's rounding (red in the lowest byte, alpha in the highest).
static inline __attribute__((always_inline)) uint32_t oq_path_source(double kf, double ks, const double f[4], const double *s,
                                                                     double opacity) {
    uint32_t source = 0;
    if (s) {
        double under = kf * (1.0 - s[3] * ks);
        for (int c = 0; c < 4; c++) source |= (uint32_t)oq_byte((s[c] * ks + f[c] * under) * opacity) << (8 * c);
    } else {
        for (int c = 0; c < 4; c++) source |= (uint32_t)oq_byte((f[c] * kf) * opacity) << (8 * c);
    }
    return source;
}

/// Source-over of `source` onto `count` pixels: SourceOver.blend's bytes, pixel by pixel or, for
/// a longer run of a premultiplied colour, sixteen pixels to a register; an opaque colour is
/// stored (over(s, 0, d) is s), a source of no bytes leaves the pixels as they are.
static inline __attribute__((always_inline)) void oq_path_run(uint8_t *restrict pixels, long count, uint32_t source) {
    if (source == 0) return;
    uint32_t a = source >> 24, r = source & 255, g = (source >> 8) & 255, b = (source >> 16) & 255;
    if (a == 255) {
        for (long p = 0; p < count; p++) memcpy(pixels + 4 * p, &source, 4);
    } else if (count >= 8 && r <= a && g <= a && b <= a) {
        oq_solid_over_body(pixels, count, source);
    } else {
        uint32_t keep = 255 - a;
        for (long p = 0; p < count; p++) {
            uint8_t *d = pixels + 4 * p;
            d[0] = oq_over(r, keep, d[0]);
            d[1] = oq_over(g, keep, d[1]);
            d[2] = oq_over(b, keep, d[2]);
            d[3] = oq_over(a, keep, d[3]);
        }
    }
}

/// A row of a filled path (RasterRenderer.drawPath's source-over): the pixels neither coverage
/// reaches are skipped, and each run of pixels with the same two coverages (a fill's inside, most
/// of a large shape) is one colour, worked out once.
static inline __attribute__((always_inline)) void oq_path_over_body(uint8_t *restrict pixels, const float *restrict fill,
                                                                    const float *restrict stroke, long count,
                                                                    const double *restrict fill_colour,
                                                                    const double *restrict stroke_colour, double opacity) {
    long x = 0;
    while ((x = oq_path_first_covered(fill, stroke, x, count)) < count) {
        float kf = fill[x], ks = stroke ? stroke[x] : 0.0f;
        long end = x + 1;
        if (stroke) {
            while (end < count && fill[end] == kf && stroke[end] == ks) end++;
        } else {
            while (end < count && fill[end] == kf) end++;
        }
        oq_path_run(pixels + 4 * x, end - x, oq_path_source((double)kf, (double)ks, fill_colour, stroke_colour, opacity));
        x = end;
    }
}

OQ_KERNEL(, oq_path_over,
          (uint8_t *restrict pixels, const float *restrict fill, const float *restrict stroke, long count,
           const double *restrict fill_colour, const double *restrict stroke_colour, double opacity),
          (pixels, fill, stroke, count, fill_colour, stroke_colour, opacity))
