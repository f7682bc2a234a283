#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"

#include <CByteUnits.h>

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// SeparableSampler.blendPicks, each step in its order: pixel p is the texel at column lower[p]
/// of `row`, every channel the alpha's where `alpha_only`, its source bytes read from `table`
/// (SeparableSampler.PickTable: channel k's at 256 k + byte). Source-over: SourceOver.blend of
/// those bytes. `masking` (destination-in): SourceOver.scale by the alpha byte's value.
static inline __attribute__((always_inline)) void oq_picks_over_body(uint8_t *restrict pixels, long count, const uint8_t *row,
                                                                      const long *lower, const uint8_t *table, int alpha_only,
                                                                      int masking, int identity) {
    if (identity && !masking && !alpha_only && count > 0) {
        // Whether the run's texels lie one after another (a pass laid where it was drawn; the
        // column at its clamped edge repeats a texel, so the check is the run's own).
        long steps = 1;
        while (steps < count && lower[steps] == lower[0] + steps) steps++;
        if (steps == count) {
            // The identity table: each source is its texel's bytes as they are.
            oq_bytes_over(pixels, count, row + 4 * lower[0]);
            return;
        }
    }
    const int c0 = alpha_only ? 3 : 0, c1 = alpha_only ? 3 : 1, c2 = alpha_only ? 3 : 2;
    for (long p = 0; p < count; p++) {
        const uint8_t *t = row + 4 * lower[p];
        uint8_t *out = pixels + 4 * p;
        if (masking) {
            // SourceOver.scale: the alpha through the draw's rounding, then each byte quantized.
            const double alpha = oq_byte_units[oq_byte(oq_byte_units[table[768 + t[3]]])];
            for (int k = 0; k < 4; k++) {
                double v = oq_byte_units[out[k]] * alpha * 255.0 + 0.5;
                v = v < 0.0 ? 0.0 : v;
                v = v > 255.0 ? 255.0 : v;
                out[k] = (uint8_t)(int32_t)v;
            }
            continue;
        }
        const uint8_t s0 = table[t[c0]], s1 = table[256 + t[c1]], s2 = table[512 + t[c2]], s3 = table[768 + t[3]];
        if ((s0 | s1 | s2 | s3) == 0) continue;
        const uint32_t keep = 255u - s3;
        out[0] = oq_over(s0, keep, out[0]);
        out[1] = oq_over(s1, keep, out[1]);
        out[2] = oq_over(s2, keep, out[2]);
        out[3] = oq_over(s3, keep, out[3]);
    }
}

OQ_KERNEL(, oq_picks_over,
          (uint8_t *restrict pixels, long count, const uint8_t *row, const long *lower, const uint8_t *table, int alpha_only,
           int masking, int identity),
          (pixels, count, row, lower, table, alpha_only, masking, identity))
