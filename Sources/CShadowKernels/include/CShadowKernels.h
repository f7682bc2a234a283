// A closed-form shadow's rows: their erf pairs, the samples' weighted sums, and the run blended
// onto its pixels, in C so that the compiler vectorizes each loop and makes a second copy of it for
// AVX2 (chosen at the first call: oq_dispatch.h): see docs/design.md ("The CPU's shadow kernels in C").
// Every operation as the Swift reference writes it, in the same order and precision, so the same
// bits: BlurredRoundedRectRowTests and SourceOverTests hold them to it.
#ifndef OPENQUARTZ_C_SHADOW_KERNELS_H
#define OPENQUARTZ_C_SHADOW_KERNELS_H

#include <stdint.h>

/// Source-over of the premultiplied colour (red, green, blue, alpha) times each of `count`
/// alphas, times the tint per channel (ones for none), times `opacity`, onto the 8-bit
/// premultiplied pixels from `pixels` on. Each source byte is the draw's rounding of
/// ((solid * alpha) * tint) * opacity (v * 255 + 0.5009765625, clamped to 0...255, its fraction
/// dropped), each channel then (2 (255 s + d (255 - sa)) + 255) / 510, at most 255: the bytes of
/// SourceOver.blend(red:green:blue:alpha:into:at:) pixel by pixel. Alphas are finite.
/// A sample row's blurred width along a run (BlurredRoundedRect.RowEvaluator): for each of
/// `count` points px, 0.5 * (erf((px + w) * k) - erf((px - w) * k)), in single precision with
/// BlurredRoundedRect.erf's approximation.
void oq_erf_row(const float *px, long count, float w, float k, float *out);

/// values[i] = values[base - i] for i in from..<to: a row's pixels right of the shadow's centre
/// line from their mirror images left of it (base - i < from, so no value is read after it is
/// written).
void oq_mirror_row(float *values, long from, long to, long base);

/// A run's alphas from its eight samples' rows: out[x] = the sum, from 0 and in order, of
/// (rows[i][x] * weights[i]) * step, where rows[i] is `store` + slots[i] * stride.
void oq_weighted_rows(const float *store, long stride, const int32_t slots[8], const float weights[8], float step,
                      long count, float *out);

void oq_shadow_blend(const float *alphas, long count, double red, double green, double blue, double alpha,
                     double tint_red, double tint_green, double tint_blue, double tint_alpha, double opacity, uint8_t *pixels);

#endif
