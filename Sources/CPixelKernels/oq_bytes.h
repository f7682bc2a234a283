// A draw's bytes, as the CPU reference's Swift writes them: shared by the kernels that blend.
#ifndef OPENQUARTZ_OQ_BYTES_H
#define OPENQUARTZ_OQ_BYTES_H

#include <stdint.h>

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

#endif
