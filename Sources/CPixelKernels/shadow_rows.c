#include "CPixelKernels.h"
#include "oq_dispatch.h"

// Each operation as written, in IEEE single precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// BlurredRoundedRect.erf: Abramowitz and Stegun 7.1.27, its arithmetic in the same order.
static inline float oq_erf(float x) {
    int negative = x < 0.0f;
    float a = negative ? -x : x;
    float d = 1.0f + (0.278393f + (0.230389f + 0.078108f * (a * a)) * a) * a;
    d *= d;
    float e = 1.0f - 1.0f / (d * d);
    return negative ? -e : e;
}

static inline __attribute__((always_inline)) void oq_erf_row_body(const float *restrict px, long count, float w, float k,
                                                                  float *restrict out) {
    for (long x = 0; x < count; x++) {
        out[x] = 0.5f * (oq_erf((px[x] + w) * k) - oq_erf((px[x] - w) * k));
    }
}

OQ_KERNEL(, oq_erf_row, (const float *restrict px, long count, float w, float k, float *restrict out), (px, count, w, k, out))

static inline __attribute__((always_inline)) void oq_mirror_row_body(float *values, long from, long to, long base) {
    for (long i = from; i < to; i++) values[i] = values[base - i];
}

OQ_KERNEL(, oq_mirror_row, (float *values, long from, long to, long base), (values, from, to, base))

static inline __attribute__((always_inline)) void oq_weighted_rows_body(const float *store, long stride, const int32_t slots[8],
                                                                        const float weights[8], float step, long count,
                                                                        float *restrict out) {
    const float *restrict r0 = store + slots[0] * stride, *restrict r1 = store + slots[1] * stride;
    const float *restrict r2 = store + slots[2] * stride, *restrict r3 = store + slots[3] * stride;
    const float *restrict r4 = store + slots[4] * stride, *restrict r5 = store + slots[5] * stride;
    const float *restrict r6 = store + slots[6] * stride, *restrict r7 = store + slots[7] * stride;
    const float w0 = weights[0], w1 = weights[1], w2 = weights[2], w3 = weights[3];
    const float w4 = weights[4], w5 = weights[5], w6 = weights[6], w7 = weights[7];
    for (long x = 0; x < count; x++) {
        float v = 0.0f;
        v += (r0[x] * w0) * step;
        v += (r1[x] * w1) * step;
        v += (r2[x] * w2) * step;
        v += (r3[x] * w3) * step;
        v += (r4[x] * w4) * step;
        v += (r5[x] * w5) * step;
        v += (r6[x] * w6) * step;
        v += (r7[x] * w7) * step;
        out[x] = v;
    }
}

OQ_KERNEL(, oq_weighted_rows,
          (const float *store, long stride, const int32_t slots[8], const float weights[8], float step, long count, float *restrict out),
          (store, stride, slots, weights, step, count, out))
