#include "CPixelKernels.h"
#include "oq_dispatch.h"
#include "oq_bytes.h"

#include <string.h>

// Each operation as written, in IEEE single and double precision: no contraction into fused
// multiply-adds, whatever the target (the Swift reference rounds every product and sum).
#pragma STDC FP_CONTRACT OFF



/// One pixel of `oq_shadow_blend_black_body`: source-over of a black source of alpha byte `sa`
/// onto the pixel `d` (four bytes, little-endian), two channels to each 16-bit half of a word.
static inline __attribute__((always_inline)) uint32_t oq_over_black(uint32_t d, uint32_t sa) {
    const uint32_t halves = 0x00ff00ffu, bias = 0x007f007fu, one = 0x00010001u;
    uint32_t keep = 255 - sa;
    uint32_t even = (d & halves) * keep + bias;
    uint32_t odd = ((d >> 8) & halves) * keep + bias + ((255 * sa) << 16);
    even = ((even + one + ((even >> 8) & halves)) >> 8) & halves;
    odd = ((odd + one + ((odd >> 8) & halves)) >> 8) & halves;
    return even | (odd << 8);
}

/// A black source (a shadow's usual colour) has only its alpha byte: `oq_over` of each channel
/// where s <= 255 - keep (a premultiplied source) is (n + 127) / 255 with n = 255 s + d keep, and
/// x / 255 for x under 65,535 is (x + 1 + x >> 8) >> 8 (SourceOverTests tries every channel).
/// Two channels a 32-bit word (red and blue, green and alpha, in 16-bit halves: n + 127 stays
/// under 65,152, so no half carries into the other), so each step is a 32-bit lane's, which the
/// compiler vectorizes eight pixels to an AVX2 register, sixteen to an AVX-512 one.
///
/// The alpha byte is oq_byte(((alpha * a) * tint_alpha) * opacity) for each pixel's a. Sixteen
/// pixels at a time it is worked out in single precision, twice the lanes of double: t = a * k +
/// 0.5009765625 with k = alpha * tint_alpha * opacity * 255 rounded to a float lies within 4e-5
/// of the doubles' t (each float rounding at most 2^-17 of a t under 256, k's 2^-24 of it, the
/// doubles' some 1e-13), so wherever t lies in [0, 256) and its fraction over 1/1024 from a whole
/// number, its floor is the doubles' byte. Where any of the sixteen does not (some 0.2% of
/// pixels), the sixteen are worked out in doubles; the tail too. SourceOverTests holds it to
/// blending pixel by pixel at alphas that put t on either side of every byte's boundary.
static inline __attribute__((always_inline)) void oq_shadow_blend_black_body(const float *restrict alphas, long count, double alpha,
                                                                             double tint_alpha, double opacity,
                                                                             uint8_t *restrict pixels) {
    const float k = (float)(((alpha * tint_alpha) * opacity) * 255.0), half = 0.5009765625f, margin = 1.0f / 1024;
    long p = 0;
    for (; p + 16 <= count; p += 16) {
        uint32_t sa[16];
        int unsure = 0;
        for (int i = 0; i < 16; i++) {
            float t = alphas[p + i] * k + half;
            float whole = __builtin_floorf(t), fraction = t - whole;
            unsure |= !(t >= 0.0f && t < 256.0f) | (fraction < margin) | (fraction > 1.0f - margin);
            // Any value outside 0...255 (or not a number) is unsure, and replaced below.
            whole = whole >= 0.0f && whole <= 255.0f ? whole : 0.0f;
            sa[i] = (uint32_t)(int32_t)whole;
        }
        if (unsure) {
            for (int i = 0; i < 16; i++) sa[i] = oq_byte(((alpha * (double)alphas[p + i]) * tint_alpha) * opacity);
        }
        for (int i = 0; i < 16; i++) {
            uint32_t d;
            memcpy(&d, pixels + 4 * (p + i), 4);
            d = oq_over_black(d, sa[i]);
            memcpy(pixels + 4 * (p + i), &d, 4);
        }
    }
    for (; p < count; p++) {
        uint32_t d;
        memcpy(&d, pixels + 4 * p, 4);
        d = oq_over_black(d, oq_byte(((alpha * (double)alphas[p]) * tint_alpha) * opacity));
        memcpy(pixels + 4 * p, &d, 4);
    }
}

OQ_KERNEL(static, oq_shadow_blend_black,
          (const float *restrict alphas, long count, double alpha, double tint_alpha, double opacity, uint8_t *restrict pixels),
          (alphas, count, alpha, tint_alpha, opacity, pixels))

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
    if (red == 0.0 && green == 0.0 && blue == 0.0) {
        oq_shadow_blend_black(alphas, count, alpha, tint_alpha, opacity, pixels);
    } else {
        oq_shadow_blend_colour(alphas, count, red, green, blue, alpha, tint_red, tint_green, tint_blue, tint_alpha, opacity, pixels);
    }
}
