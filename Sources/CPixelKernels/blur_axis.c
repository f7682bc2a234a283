#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// `oq_blur_axis`'s loop: each output row's sums tap by tap across the whole row (the loop over
/// the row's bytes the compiler vectorizes), so every pixel adds its taps in RasterRenderer.blur's
/// order, from 0, skipping those outside the pass.
static inline __attribute__((always_inline)) void oq_blur_axis_body(
    const uint8_t *restrict src, uint8_t *restrict dst, long width, long height, long first_row, long end_row,
    const double *weights, long count, int horizontal, double *restrict sums) {
    const long r = count / 2, bytes = 4 * width;
    for (long y = first_row; y < end_row; y++) {
        for (long i = 0; i < bytes; i++) sums[i] = 0;
        if (horizontal) {
            const uint8_t *row = src + y * bytes;
            for (long k = 0; k < count; k++) {
                // Tap k of pixel x reads x + k - r: inside the row for x in from..<to.
                const double weight = weights[k];
                const long from = r - k > 0 ? r - k : 0, to = width + r - k < width ? width + r - k : width;
                const long shift = 4 * (k - r);
                for (long i = 4 * from; i < 4 * to; i++) sums[i] += (double)row[i + shift] * weight;
            }
        } else {
            // Tap k reads row y + k - r: inside the pass for k in from..<to.
            const long from = r - y > 0 ? r - y : 0, to = height - y + r < count ? height - y + r : count;
            for (long k = from; k < to; k++) {
                const double weight = weights[k];
                const uint8_t *row = src + (y + k - r) * bytes;
                for (long i = 0; i < bytes; i++) sums[i] += (double)row[i] * weight;
            }
        }
        uint8_t *out = dst + y * bytes;
        for (long i = 0; i < bytes; i++) out[i] = oq_byte(sums[i]);
    }
}

OQ_KERNEL(, oq_blur_axis,
          (const uint8_t *restrict src, uint8_t *restrict dst, long width, long height, long first_row, long end_row,
           const double *weights, long count, int horizontal, double *restrict sums),
          (src, dst, width, height, first_row, end_row, weights, count, horizontal, sums))
