#include "CPixelKernels.h"
#include "oq_dispatch.h"

// Each operation as written, in IEEE precision: no contraction into fused multiply-adds, so each
// value is BlurredRoundedRect.RowEvaluator.alpha(atX:y:)'s for a gridded shadow, to the bit.
#pragma STDC FP_CONTRACT OFF

/// BlurredRoundedRectProfile.interpolated(px:py:in:) at one point, branch-free so that the
/// compiler vectorizes the loops around it: Swift's max(a, b) is b >= a ? b : a, its min(a, b)
/// b < a ? b : a, and a point off the plane (a non-finite px or py) reads 0, its grid position
/// taken as 0 for the reads.
static inline __attribute__((always_inline)) float oq_profile_value(float px, float py, const float *restrict grid, long columns,
                                                                    long rows, float origin_x, float origin_y, float spacing) {
    const float last_x = (float)(columns - 1), last_y = (float)(rows - 1);
    int finite = __builtin_isfinite(px) && __builtin_isfinite(py);
    float ax = __builtin_fabsf(px) - origin_x, ay = __builtin_fabsf(py) - origin_y;
    ax = 0.0f >= ax ? 0.0f : ax;
    ay = 0.0f >= ay ? 0.0f : ay;
    float gx = ax / spacing, gy = ay / spacing;
    gx = last_x < gx ? last_x : gx;
    gy = last_y < gy ? last_y : gy;
    gx = finite ? gx : 0.0f;
    gy = finite ? gy : 0.0f;
    long c = (long)gx, r = (long)gy;
    float fx = gx - (float)c, fy = gy - (float)r;
    // The padded grid's cell (c, r): its neighbours right and below are the repeated last
    // column and row where c or r is the last (Swift's min(c + 1, columns - 1) and
    // min(r + 1, rows - 1)), so each pair of neighbours is one 8-byte read (two gathers a pixel
    // where there were four).
    const float *cell = grid + r * (columns + 1) + c;
    uint64_t upper, lower;
    __builtin_memcpy(&upper, cell, 8);
    __builtin_memcpy(&lower, cell + columns + 1, 8);
    uint32_t bits[4] = {(uint32_t)upper, (uint32_t)(upper >> 32), (uint32_t)lower, (uint32_t)(lower >> 32)};
    float a, b, cc, d;
    __builtin_memcpy(&a, &bits[0], 4);
    __builtin_memcpy(&b, &bits[1], 4);
    __builtin_memcpy(&cc, &bits[2], 4);
    __builtin_memcpy(&d, &bits[3], 4);
    float top = a + (b - a) * fx, bottom = cc + (d - cc) * fx;
    float value = top + (bottom - top) * fy;
    return finite ? value : 0.0f;
}

static inline __attribute__((always_inline)) void oq_profile_row_body(const double m[9], double centre_x, double centre_y,
                                                                      long first, double y, long count,
                                                                      const float *restrict grid, long columns, long rows,
                                                                      float origin_x, float origin_y, float spacing,
                                                                      float *restrict out) {
    // y's products are the same for every pixel of the row; and a map without perspective (w = 1
    // at every pixel) divides by 1, which changes no bit, so it is left out.
    const double y3 = y * m[3], y4 = y * m[4], y5 = y * m[5];
    if (m[2] == 0.0 && m[5] == 0.0 && m[8] == 1.0) {
        for (long i = 0; i < count; i++) {
            // BlurredRoundedRect.planePoint.
            double x = (double)(first + i) + 0.5;
            float px = (float)((x * m[0] + y3 + m[6]) - centre_x);
            float py = (float)((x * m[1] + y4 + m[7]) - centre_y);
            out[i] = oq_profile_value(px, py, grid, columns, rows, origin_x, origin_y, spacing);
        }
        return;
    }
    for (long i = 0; i < count; i++) {
        double x = (double)(first + i) + 0.5;
        double w = x * m[2] + y5 + m[8];
        if (!(w > 0.0)) { out[i] = 0.0f; continue; }
        float px = (float)((x * m[0] + y3 + m[6]) / w - centre_x);
        float py = (float)((x * m[1] + y4 + m[7]) / w - centre_y);
        out[i] = oq_profile_value(px, py, grid, columns, rows, origin_x, origin_y, spacing);
    }
}

OQ_KERNEL(, oq_profile_row,
          (const double m[9], double centre_x, double centre_y, long first, double y, long count, const float *grid, long columns,
           long rows, float origin_x, float origin_y, float spacing, float *out),
          (m, centre_x, centre_y, first, y, count, grid, columns, rows, origin_x, origin_y, spacing, out))
