#include "CShadowKernels.h"
#include "oq_dispatch.h"

#include <string.h>

// Each operation as written, in IEEE single and double precision: no contraction into fused
// multiply-adds, whatever the target (the Swift reference rounds every product and sum).
#pragma STDC FP_CONTRACT OFF

/// The byte a draw writes for v (TargetSteps.byte): v * 255 plus half a step and 1/1024 of one,
/// clamped, its fraction dropped.
static inline uint8_t oq_byte(double v) {
    double t = v * 255.0 + 0.5009765625;
    t = t < 0.0 ? 0.0 : t;
    t = t > 255.0 ? 255.0 : t;
    return (uint8_t)(int32_t)t;
}

/// One channel of source-over in integers (SourceOver.over).
static inline uint8_t oq_over(uint32_t s, uint32_t keep, uint32_t d) {
    uint32_t q = (2 * (255 * s + d * keep) + 255) / 510;
    return (uint8_t)(q > 255 ? 255 : q);
}


/// A black source (a shadow's usual colour) has only its alpha byte: `oq_over` of each channel
/// where s <= 255 - keep (a premultiplied source) is (n + 127) / 255 with n = 255 s + d keep, and
/// x / 255 for x under 65,535 is (x + 1 + x >> 8) >> 8 (SourceOverTests tries every channel).
/// Two channels a 32-bit word (red and blue, green and alpha, in 16-bit halves: n + 127 stays
/// under 65,152, so no half carries into the other), so each step is a 32-bit lane's, which the
/// compiler vectorizes eight pixels to an AVX2 register, sixteen to an AVX-512 one.
static inline __attribute__((always_inline)) void oq_shadow_blend_black_body(const float *restrict alphas, long count, double alpha,
                                                                             double tint_alpha, double opacity,
                                                                             uint8_t *restrict pixels) {
    const uint32_t halves = 0x00ff00ffu, bias = 0x007f007fu, one = 0x00010001u;
    for (long p = 0; p < count; p++) {
        uint32_t sa = oq_byte(((alpha * (double)alphas[p]) * tint_alpha) * opacity);
        uint32_t keep = 255 - sa;
        uint32_t d;
        memcpy(&d, pixels + 4 * p, 4);
        // Little-endian bytes: red, green, blue, alpha from the low end.
        uint32_t even = (d & halves) * keep + bias;
        uint32_t odd = ((d >> 8) & halves) * keep + bias + ((255 * sa) << 16);
        even = ((even + one + ((even >> 8) & halves)) >> 8) & halves;
        odd = ((odd + one + ((odd >> 8) & halves)) >> 8) & halves;
        d = even | (odd << 8);
        memcpy(pixels + 4 * p, &d, 4);
    }
}

OQ_KERNEL(static, oq_shadow_blend_black,
          (const float *restrict alphas, long count, double alpha, double tint_alpha, double opacity, uint8_t *restrict pixels),
          (alphas, count, alpha, tint_alpha, opacity, pixels))

/// The same where the colour's alpha and the tint's are 1 (a black shadow, untinted: the usual
/// one), which the compiler folds out of each pixel's products (x * 1.0 is x, bit for bit): two
/// of its three double multiplications, some 14% of the loop's time.
static inline __attribute__((always_inline)) void oq_shadow_blend_black_opaque_body(const float *restrict alphas, long count,
                                                                                    double opacity, uint8_t *restrict pixels) {
    oq_shadow_blend_black_body(alphas, count, 1.0, 1.0, opacity, pixels);
}

OQ_KERNEL(static, oq_shadow_blend_black_opaque, (const float *restrict alphas, long count, double opacity, uint8_t *restrict pixels),
          (alphas, count, opacity, pixels))

static inline __attribute__((always_inline)) void oq_shadow_blend_colour_body(const float *alphas, long count, double r, double g,
                                                                              double b, double a, double tr, double tg, double tb,
                                                                              double ta, double opacity, uint8_t *pixels) {
    for (long p = 0; p < count; p++) {
        double v = (double)alphas[p];
        uint32_t sr = oq_byte(((r * v) * tr) * opacity), sg = oq_byte(((g * v) * tg) * opacity);
        uint32_t sb = oq_byte(((b * v) * tb) * opacity), sa = oq_byte(((a * v) * ta) * opacity);
        uint32_t keep = 255 - sa;
        uint8_t *d = pixels + 4 * p;
        d[0] = oq_over(sr, keep, d[0]);
        d[1] = oq_over(sg, keep, d[1]);
        d[2] = oq_over(sb, keep, d[2]);
        d[3] = oq_over(sa, keep, d[3]);
    }
}

OQ_KERNEL(static, oq_shadow_blend_colour,
          (const float *alphas, long count, double r, double g, double b, double a, double tr, double tg, double tb, double ta,
           double opacity, uint8_t *pixels),
          (alphas, count, r, g, b, a, tr, tg, tb, ta, opacity, pixels))

void oq_shadow_blend(const float *alphas, long count, double red, double green, double blue, double alpha,
                     double tint_red, double tint_green, double tint_blue, double tint_alpha, double opacity, uint8_t *pixels) {
    if (red == 0.0 && green == 0.0 && blue == 0.0 && alpha == 1.0 && tint_alpha == 1.0) {
        oq_shadow_blend_black_opaque(alphas, count, opacity, pixels);
    } else if (red == 0.0 && green == 0.0 && blue == 0.0) {
        oq_shadow_blend_black(alphas, count, alpha, tint_alpha, opacity, pixels);
    } else {
        oq_shadow_blend_colour(alphas, count, red, green, blue, alpha, tint_red, tint_green, tint_blue, tint_alpha, opacity, pixels);
    }
}
