#include "CPixelKernels.h"
#include "oq_dispatch.h"

#include <string.h>

/// `oq_solid_over`'s loop: each pixel's four channels as SourceOver.over(s, 255 - a, d) makes
/// them, two to each 16-bit half of a 32-bit word (red and blue, green and alpha): with every
/// channel s <= a, n = 255 s + d (255 - a) + 127 is at most 65,152, so no half carries into the
/// other, and n / 255 is (n + 1 + n >> 8) >> 8 for every n under 65,535 (the shadow's black
/// blend does the same with s = 0). The compiler runs sixteen pixels to an AVX-512 register where
/// a table ran four lookups a pixel.
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

OQ_KERNEL(, oq_solid_over, (uint8_t *restrict pixels, long count, uint32_t source), (pixels, count, source))
