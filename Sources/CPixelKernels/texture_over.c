#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"

#include <CByteUnits.h>
#include <math.h>

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// TextureSampler.mix of four texels (a, b above; c, d below) into `out`: across by `fx` on each
/// row, then down by `fy`, each byte over 255.
static inline __attribute__((always_inline)) void oq_mix_texels(const uint8_t *a, const uint8_t *b, const uint8_t *c,
                                                                 const uint8_t *d, double fx, double fy, double out[4]) {
    for (int k = 0; k < 4; k++) {
        out[k] = (oq_byte_units[a[k]] * (1 - fx) + oq_byte_units[b[k]] * fx) * (1 - fy)
               + (oq_byte_units[c[k]] * (1 - fx) + oq_byte_units[d[k]] * fx) * fy;
    }
}

/// Whether a texel's four bytes are all 0.
static inline __attribute__((always_inline)) int oq_clear_texel(const uint8_t *t) {
    uint32_t word;
    memcpy(&word, t, 4);
    return word == 0;
}

/// `oq_texture_over`'s loop: SeparableSampler.blendRow pixel by pixel, each operation in its order.
static inline __attribute__((always_inline)) void oq_texture_over_body(
    uint8_t *restrict pixels, long count, const uint8_t *top, const uint8_t *bottom, const long *lower,
    const long *upper, const double *weight, double fy, const double tint[4], double opacity, int alpha_only) {
    for (long p = 0; p < count; p++) {
        // Four clear texels mix to a clear source, which leaves the pixel as it is (an image's
        // transparent stretches, a pass's empty margins).
        if (oq_clear_texel(top + 4 * lower[p]) && oq_clear_texel(top + 4 * upper[p]) && oq_clear_texel(bottom + 4 * lower[p])
            && oq_clear_texel(bottom + 4 * upper[p])) continue;
        double v[4];
        oq_mix_texels(top + 4 * lower[p], top + 4 * upper[p], bottom + 4 * lower[p], bottom + 4 * upper[p], weight[p], fy, v);
        if (alpha_only) v[0] = v[1] = v[2] = v[3];
        oq_blend_tinted(pixels + 4 * p, v, tint, opacity);
    }
}

OQ_KERNEL(, oq_texture_over,
          (uint8_t *restrict pixels, long count, const uint8_t *top, const uint8_t *bottom, const long *lower,
           const long *upper, const double *weight, double fy, const double tint[4], double opacity, int alpha_only),
          (pixels, count, top, bottom, lower, upper, weight, fy, tint, opacity, alpha_only))

/// TextureSampler.clampedTexel and clampIndex.
static inline double oq_clamped_texel(double t, long n) { return oq_swift_min(oq_swift_max(t, -2), (double)n + 1); }
static inline long oq_clamp_index(long i, long n) { return i < 0 ? 0 : (i > n - 1 ? n - 1 : i); }

/// `oq_projective_texture_over`'s loop: TextureSampler.sample at each pixel centre (the map, the
/// filter, clamp to edge), then SourceOver.blend, each operation in its order. (Working the map
/// out for a chunk of pixels first, a loop the compiler vectorizes, saved nothing measurable:
/// the texels' reads and mix are the cost.) Clear texels are skipped as `oq_texture_over` skips them.
static inline __attribute__((always_inline)) void oq_projective_texture_over_body(
    uint8_t *restrict pixels, long count, long first, double cy, const double m[9], const uint8_t *texels, long width,
    long height, int nearest, const double tint[4], double opacity, int alpha_only) {
    for (long p = 0; p < count; p++) {
        const double cx = (double)(first + p) + 0.5;
        const double hx = cx * m[0] + cy * m[3] + m[6], hy = cx * m[1] + cy * m[4] + m[7], hw = cx * m[2] + cy * m[5] + m[8];
        const double u = hx / hw, v = hy / hw;
        if (!isfinite(u) || !isfinite(v)) continue;
        double c[4];
        if (nearest) {
            const long tx = oq_clamp_index((long)floor(oq_clamped_texel(u * (double)width, width)), width);
            const long ty = oq_clamp_index((long)floor(oq_clamped_texel(v * (double)height, height)), height);
            const uint8_t *t = texels + 4 * (ty * width + tx);
            if (oq_clear_texel(t)) continue;
            for (int k = 0; k < 4; k++) c[k] = oq_byte_units[t[k]];
        } else {
            const double tx = oq_clamped_texel(u * (double)width - 0.5, width), ty = oq_clamped_texel(v * (double)height - 0.5, height);
            const double fx0 = floor(tx), fy0 = floor(ty);
            const double fx = tx - fx0, fy = ty - fy0;
            const long x0 = oq_clamp_index((long)fx0, width), x1 = oq_clamp_index((long)fx0 + 1, width);
            const long y0 = oq_clamp_index((long)fy0, height), y1 = oq_clamp_index((long)fy0 + 1, height);
            if (oq_clear_texel(texels + 4 * (y0 * width + x0)) && oq_clear_texel(texels + 4 * (y0 * width + x1))
                && oq_clear_texel(texels + 4 * (y1 * width + x0)) && oq_clear_texel(texels + 4 * (y1 * width + x1))) continue;
            oq_mix_texels(texels + 4 * (y0 * width + x0), texels + 4 * (y0 * width + x1), texels + 4 * (y1 * width + x0),
                          texels + 4 * (y1 * width + x1), fx, fy, c);
        }
        if (alpha_only) c[0] = c[1] = c[2] = c[3];
        oq_blend_tinted(pixels + 4 * p, c, tint, opacity);
    }
}

OQ_KERNEL(, oq_projective_texture_over,
          (uint8_t *restrict pixels, long count, long first, double cy, const double m[9], const uint8_t *texels, long width,
           long height, int nearest, const double tint[4], double opacity, int alpha_only),
          (pixels, count, first, cy, m, texels, width, height, nearest, tint, opacity, alpha_only))
