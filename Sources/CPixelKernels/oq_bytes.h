// A draw's bytes, as the CPU reference's Swift writes them: shared by the kernels that blend.
#ifndef OPENQUARTZ_OQ_BYTES_H
#define OPENQUARTZ_OQ_BYTES_H

#include <stdint.h>
#include <string.h>

/// The byte a draw writes for v (TargetSteps.byte): v * 255 plus half a step and 1/1024 of one,
/// clamped, its fraction dropped.
static inline __attribute__((always_inline)) uint8_t oq_byte(double v) {
    double t = v * 255.0 + 0.5009765625;
    t = t < 0.0 ? 0.0 : t;
    t = t > 255.0 ? 255.0 : t;
    return (uint8_t)(int32_t)t;
}

/// One channel of source-over in integers (SourceOver.over).
static inline __attribute__((always_inline)) uint8_t oq_over(uint32_t s, uint32_t keep, uint32_t d) {
    uint32_t q = (2 * (255 * s + d * keep) + 255) / 510;
    return (uint8_t)(q > 255 ? 255 : q);
}

/// Swift's max(x, y) and min(x, y) as the reference writes them (y where they are equal, x
/// where y is not past it), so that a kernel clamps exactly as the Swift it mirrors.
static inline __attribute__((always_inline)) double oq_swift_max(double x, double y) { return y >= x ? y : x; }
static inline __attribute__((always_inline)) double oq_swift_min(double x, double y) { return y < x ? y : x; }

/// The four bytes a draw writes for the colour `c` (premultiplied, 0...1) times `tint` and then
/// `opacity`, into `out`.
static inline __attribute__((always_inline)) void oq_tinted_bytes(uint8_t *out, const double c[4], const double tint[4],
                                                                   double opacity) {
    for (int k = 0; k < 4; k++) out[k] = oq_byte(c[k] * tint[k] * opacity);
}

/// SourceOver.blend of the colour `c` (premultiplied, 0...1) times `tint` and then `opacity`
/// onto the pixel at `out`: each source byte the draw's rounding, a source of no bytes leaving
/// the pixel as it is, then each channel's `oq_over`.
static inline __attribute__((always_inline)) void oq_blend_tinted(uint8_t *out, const double c[4], const double tint[4],
                                                                   double opacity) {
    uint8_t s[4];
    oq_tinted_bytes(s, c, tint, opacity);
    if ((s[0] | s[1] | s[2] | s[3]) == 0) return;
    uint32_t keep = 255 - s[3];
    for (int k = 0; k < 4; k++) out[k] = oq_over(s[k], keep, out[k]);
}

/// SourceOver.blend of `count` sources' bytes (`sources`, RGBA a pixel, any bytes: a colour
/// byte may exceed alpha's) onto as many pixels, each channel SourceOver.over(s, 255 - a, d):
/// that rounding, which `oq_over` writes as (2 n + 255) / 510 for n = 255 s + d (255 - a), is
/// (n + 127) / 255 in integers (no integer lies between n + 127 and n + 127.5, so the floors
/// agree), a form the compiler runs many bytes to a register. A source of no bytes leaves its
/// pixel as it is by the same sum, (255 d + 127) / 255 = d, as `oq_blend_tinted` skips it.
static inline __attribute__((always_inline)) void oq_bytes_over(uint8_t *restrict pixels, long count,
                                                                 const uint8_t *restrict sources) {
    for (long p = 0; p < count; p++) {
        const uint32_t keep = 255u - sources[4 * p + 3];
        for (int k = 0; k < 4; k++) {
            const uint32_t q = (255u * sources[4 * p + k] + pixels[4 * p + k] * keep + 127u) / 255u;
            pixels[4 * p + k] = (uint8_t)(q > 255u ? 255u : q);
        }
    }
}

/// Source-over of one premultiplied colour (`source`: red in the lowest byte, alpha in the
/// highest, no colour byte over alpha's) onto `count` pixels, `oq_solid_over`'s loop: each
/// pixel's four channels as SourceOver.over(s, 255 - a, d) makes them, two to each 16-bit half
/// of a 32-bit word (red and blue, green and alpha): with every channel s <= a, n = 255 s + d
/// (255 - a) + 127 is at most 65,152, so no half carries into the other, and n / 255 is
/// (n + 1 + n >> 8) >> 8 for every n under 65,535 (the shadow's black blend does the same with
/// s = 0). The compiler runs sixteen pixels to an AVX-512 register where a table ran four
/// lookups a pixel.
static inline __attribute__((always_inline)) void oq_solid_over_body(uint8_t *restrict pixels, long count, uint32_t source) {
    const uint32_t halves = 0x00ff00ffu, one = 0x00010001u, bias = 0x007f007fu;
    uint32_t keep = 255 - (source >> 24);
    uint32_t even_add = (source & halves) * 255 + bias, odd_add = ((source >> 8) & halves) * 255 + bias;
    for (long p = 0; p < count; p++) {
        uint32_t d;
        memcpy(&d, pixels + 4 * p, 4);
        uint32_t even = (d & halves) * keep + even_add;
        uint32_t odd = ((d >> 8) & halves) * keep + odd_add;
        even = ((even + one + ((even >> 8) & halves)) >> 8) & halves;
        odd = ((odd + one + ((odd >> 8) & halves)) >> 8) & halves;
        d = even | (odd << 8);
        memcpy(pixels + 4 * p, &d, 4);
    }
}

#endif
