#include "CPixelKernels.h"
#include "oq_dispatch.h"
#include "oq_bytes.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds,
// whatever the target (the Swift reference rounds every product and sum).
#pragma STDC FP_CONTRACT OFF

/// The first column from `x` on (before `end`) where the fill's or the stroke's cells change
/// the running sum (a cell not 0), or `end`: sixteen cells compared at once while none does (a
/// shape's inside and a stroked ring's hole are cells of 0, where the coverage holds).
static inline __attribute__((always_inline)) long oq_next_edge_cell(const float *fill, const float *stroke, long x, long end) {
    if (stroke) {
        for (; x + 16 <= end; x += 16) {
            int any = 0;
            for (int i = 0; i < 16; i++) any |= (fill[x + i] != 0.0f) | (stroke[x + i] != 0.0f);
            if (any) break;
        }
        while (x < end && fill[x] == 0.0f && stroke[x] == 0.0f) x++;
    } else {
        for (; x + 16 <= end; x += 16) {
            int any = 0;
            for (int i = 0; i < 16; i++) any |= fill[x + i] != 0.0f;
            if (any) break;
        }
        while (x < end && fill[x] == 0.0f) x++;
    }
    return x;
}

/// A running sum of cells folded by the fill rule (CoverageRasterizer.foldRow's `folded`):
/// non-zero min(1, |sum|) as Swift's min writes it, even-odd a triangle wave of period 2.
static inline __attribute__((always_inline)) float oq_fold(float sum, int even_odd) {
    float magnitude = __builtin_fabsf(sum);
    if (!even_odd) return magnitude < 1.0f ? magnitude : 1.0f;
    float f = __builtin_fmodf(magnitude, 2.0f);
    return f > 1.0f ? 2.0f - f : f;
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

/// A row of a filled path (RasterRenderer.drawPath's source-over) from its rasterizers' cells:
/// the fill's and the stroke's running sums from column `first` (left of it every cell is 0),
/// each folded as CoverageRasterizer.foldRow folds it. Where neither row's cell changes its sum
/// the coverage holds (a sum plus a cell of 0 is that sum: a sum is never -0, starting at +0),
/// so the walk goes from cell that is not 0 to the next, and each stretch between is one colour,
/// blended over the columns of it within start..<end. The bytes of folding the row and blending
/// it pixel by pixel.
static inline __attribute__((always_inline)) void oq_path_cells_over_body(uint8_t *restrict pixels, const float *restrict fill,
                                                                          const float *restrict stroke, long first, long start,
                                                                          long end, int even_odd,
                                                                          const double *restrict fill_colour,
                                                                          const double *restrict stroke_colour, double opacity) {
    float fill_sum = 0.0f, stroke_sum = 0.0f;
    long x = first;
    while (x < end) {
        fill_sum += fill[x];
        if (stroke) stroke_sum += stroke[x];
        long next = oq_next_edge_cell(fill, stroke, x + 1, end);
        float kf = oq_fold(fill_sum, even_odd), ks = stroke ? oq_fold(stroke_sum, 0) : 0.0f;
        long from = x > start ? x : start;
        if ((kf > 0.0f || ks > 0.0f) && from < next) {
            oq_path_run(pixels + 4 * from, next - from,
                        oq_path_source((double)kf, (double)ks, fill_colour, stroke_colour, opacity));
        }
        x = next;
    }
}

OQ_KERNEL(, oq_path_cells_over,
          (uint8_t *restrict pixels, const float *restrict fill, const float *restrict stroke, long first, long start, long end,
           int even_odd, const double *restrict fill_colour, const double *restrict stroke_colour, double opacity),
          (pixels, fill, stroke, first, start, end, even_odd, fill_colour, stroke_colour, opacity))
