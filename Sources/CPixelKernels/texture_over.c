#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"

#include <CByteUnits.h>

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// `oq_texture_over`'s loop: SeparableSampler.blendRow pixel by pixel, each operation in its order.
static inline __attribute__((always_inline)) void oq_texture_over_body(
    uint8_t *restrict pixels, long count, const uint8_t *top, const uint8_t *bottom, const long *lower,
    const long *upper, const double *weight, double fy, const double tint[4], double opacity, int alpha_only) {
    const double gy = 1 - fy;
    for (long p = 0; p < count; p++) {
        const uint8_t *a = top + 4 * lower[p], *b = top + 4 * upper[p];
        const uint8_t *c = bottom + 4 * lower[p], *d = bottom + 4 * upper[p];
        const double fx = weight[p], gx = 1 - fx;
        double v[4];
        for (int k = 0; k < 4; k++) {
            // TextureSampler's mix: along x on each row, then between the rows.
            v[k] = (oq_byte_units[a[k]] * gx + oq_byte_units[b[k]] * fx) * gy
                 + (oq_byte_units[c[k]] * gx + oq_byte_units[d[k]] * fx) * fy;
        }
        if (alpha_only) v[0] = v[1] = v[2] = v[3];
        uint8_t s[4];
        for (int k = 0; k < 4; k++) s[k] = oq_byte(v[k] * tint[k] * opacity);
        if ((s[0] | s[1] | s[2] | s[3]) == 0) continue;
        uint32_t keep = 255 - s[3];
        uint8_t *out = pixels + 4 * p;
        for (int k = 0; k < 4; k++) out[k] = oq_over(s[k], keep, out[k]);
    }
}

OQ_KERNEL(, oq_texture_over,
          (uint8_t *restrict pixels, long count, const uint8_t *top, const uint8_t *bottom, const long *lower,
           const long *upper, const double *weight, double fy, const double tint[4], double opacity, int alpha_only),
          (pixels, count, top, bottom, lower, upper, weight, fy, tint, opacity, alpha_only))
