// The CPU reference's hot loops, in C so that the compiler vectorizes each loop and makes copies
// of it for AVX2 and AVX-512 (chosen at each call from what the processor has: oq_dispatch.h):
// a closed-form shadow's rows (their erf pairs, the samples' weighted sums, the run blended onto
// its pixels; docs/design.md, "The CPU's shadow kernels in C"), a rounded shape's coverage and
// a card's background and border blended along a row (rounded_coverage.c, rounded_runs.c), a
// texture's, a gradient's and a filled path's runs of source-over (texture_over.c,
// gradient_over.c, path_cells_over.c) and a blur's axis (blur_axis.c). Every operation as the Swift
// reference writes it, in the same order and precision, so the same bits (a black shadow's alpha
// byte is worked out in floats only where that is provably the doubles' byte: shadow_blend.c):
// BlurredRoundedRectRowTests, SourceOverTests, RoundedCoverageKernelTests,
// RoundedPairKernelTests, SeparableSamplerTests, GradientRowTests, PathKernelTests and
// BlurAxisKernelTests hold them to it.
#ifndef OPENQUARTZ_C_PIXEL_KERNELS_H
#define OPENQUARTZ_C_PIXEL_KERNELS_H

#include <stdint.h>

/// The kernels' copies: the processor's baseline (SSE2 on x86-64; the only one elsewhere), AVX2,
/// AVX-512 (foundation, byte and word, double- and quadword, vector-length forms).
enum { OQ_COPY_BASELINE = 0, OQ_COPY_AVX2 = 1, OQ_COPY_AVX512 = 2 };

/// How many copies this processor runs: the baseline's and each after it up to its best (1 to 3).
int oq_kernel_copies(void);

/// The calling thread's kernels take at most copy `copy` from now on (OQ_COPY_AVX512, no limit,
/// is where each thread starts); returns the limit before. For tests, which hold every copy the
/// processor runs to the Swift reference.
int oq_limit_kernel_copy(int copy);

/// The copy the calling thread's kernel calls take now: the processor's best, at most the
/// thread's limit.
int oq_kernel_copy(void);

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

/// A turned or tilted shadow's alphas along a row from its grid (BlurredRoundedRectProfile):
/// for the `count` pixels from `first`, at x = first + i + 0.5 and `y`, the plane point through
/// `m` (m11, m12, m13, m21, m22, m23, m31, m32, m33 of the device-to-plane map, less the centre)
/// and the grid's bilinear value there, as BlurredRoundedRect.RowEvaluator.alpha(atX:y:) makes
/// it, to the bit (0 behind the eye or off the plane). `grid` is the profile's padded values
/// (BlurredRoundedRectProfile.paddedValues: columns + 1 by rows + 1, its last column and row
/// repeated), so that a cell's two top values and its two bottom ones are each one 8-byte read.
void oq_profile_row(const double m[9], double centre_x, double centre_y, long first, double y, long count, const float *grid,
                    long columns, long rows, float origin_x, float origin_y, float spacing, float *out);

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

/// Source-over of one premultiplied colour onto `count` pixels from `pixels` on, each channel
/// SourceOver.over(s, 255 - a, d): `source` is its bytes, red in the lowest, alpha in the highest,
/// every colour byte at most alpha's (a premultiplied colour; others go through a table).
void oq_solid_over(uint8_t *pixels, long count, uint32_t source);

/// Source-over of a filled path along a row (RasterRenderer.drawPath) from its rasterizers'
/// cells (CoverageRasterizer's, the row's `width + 2`): the coverage of column c is the running
/// sum of `fill`'s cells from `first` through c folded by the fill rule (even-odd where
/// `even_odd`, else non-zero), and of `stroke`'s (NULL where the path has none) folded non-zero,
/// as CoverageRasterizer.foldRow folds them; every cell left of `first` is 0. The columns
/// start..<end (end at most the row's width) from `pixels` (the row's column 0) on get
/// PathOp.composite's colour from `fill_colour` and `stroke_colour` (premultiplied and tinted,
/// four each) times `opacity`, each source byte the draw's rounding, blended as SourceOver.over;
/// pixels neither covers stay as they are.
void oq_path_cells_over(uint8_t *pixels, const float *fill, const float *stroke, long first, long start, long end, int even_odd,
                        const double *fill_colour, const double *stroke_colour, double opacity);

/// Source-over of a texture sampled through an axis-aligned map onto `count` pixels from
/// `pixels` on (SeparableSampler.blendRow): pixel p mixes the texels at columns lower[p] and
/// upper[p] (RGBA bytes, 4 a texel) of the rows `top` and `bottom`, by weight[p] across and `fy`
/// down, as TextureSampler mixes them ((a (1 - fx) + b fx) (1 - fy) + (c (1 - fx) + d fx) fy, each
/// byte over 255), every channel the alpha's where `alpha_only`; each source byte is the draw's
/// rounding of (value * tint) * opacity, blended as SourceOver.over.
void oq_texture_over(uint8_t *pixels, long count, const uint8_t *top, const uint8_t *bottom, const long *lower,
                     const long *upper, const double *weight, double fy, const double tint[4], double opacity,
                     int alpha_only);

/// A row of texels picked one a pixel (SeparableSampler.blendPicks) onto `count` pixels from
/// `pixels` on: pixel p is the texel (RGBA bytes) at column lower[p] of `row`, every channel the
/// alpha's where `alpha_only`, its source bytes read from `table` (channel k's at 256 k + byte).
/// Source-over: SourceOver.blend of those bytes; `masking` (destination-in): each byte scaled by
/// the alpha byte's value, as SourceOver.scale. `identity`: every entry of `table` is its own
/// byte; where lower also steps one texel a pixel, the run of texels is blended many bytes at once.
void oq_picks_over(uint8_t *pixels, long count, const uint8_t *row, const long *lower, const uint8_t *table, int alpha_only,
                   int masking, int identity);

/// Source-over of a texture (`width` x `height` RGBA texels) sampled through the projective map
/// `m` (m11, m12, m13, m21, ... m33: device pixel centre to 0...1 over the texture) onto the
/// `count` pixels of row centre `cy` from column `first`, from `pixels` on: TextureSampler.sample
/// (nearest, or bilinear between the four texel centres around the point, clamped to the edge;
/// nothing where the point is not finite), every channel the alpha's where `alpha_only`, then
/// each source byte the draw's rounding of (value * tint) * opacity, blended as SourceOver.over.
void oq_projective_texture_over(uint8_t *pixels, long count, long first, double cy, const double m[9], const uint8_t *texels,
                                long width, long height, int nearest, const double tint[4], double opacity, int alpha_only);

/// One axis of the separable blur (RasterRenderer.blur) over rows first_row..<end_row of a
/// `width` x `height` pass of RGBA bytes: each output byte the sum, from 0 and in tap order, of
/// each tap's byte times `weights[k]` (each a tap's weight over 255; taps outside the pass add
/// nothing), tap k reading x + k - count / 2 (`horizontal`) or that row, then the draw's rounding.
/// `sums` holds 4 x width doubles of scratch.
void oq_blur_axis(const uint8_t *src, uint8_t *dst, long width, long height, long first_row, long end_row,
                  const double *weights, long count, int horizontal, double *sums);

/// GradientFill.Kind.
enum { OQ_GRADIENT_AXIAL = 0, OQ_GRADIENT_RADIAL = 1, OQ_GRADIENT_CONIC = 2 };

/// Source-over of a gradient onto the `count` pixels of row centre `cy` from column `first`, from
/// `pixels` on (GradientFill.color(atX:y:) then SourceOver.blend, pixel by pixel): each centre
/// through `m` (the device-to-local map's m11, m12, m13, m21, ... m33) to the layer's plane, t
/// there by `kind` from start (sx, sy) and end (ex, ey), clamped to 0...1, the colour of
/// `stops` (location, red, green, blue, alpha each, straight, sorted, at least one) at t, its
/// red, green and blue read from `table` where it is given (GradientColorTable.values:
/// OQ_GRADIENT_TABLE_STEPS + 1 entries of four, red, green, blue and a pad, for each pair of
/// neighbouring stops), else converted from Generic RGB through `generic_rgb` where that is given
/// (GenericRGB.tables), premultiplied; each source byte the draw's rounding of (colour * tint) *
/// opacity. Nothing is drawn where the centre maps to infinity or t is not finite.
void oq_gradient_over(uint8_t *pixels, long count, long first, double cy, const double m[9], int kind, double sx, double sy,
                      double ex, double ey, const double *stops, long stop_count, const double *generic_rgb, const double *table,
                      const double tint[4], double opacity);

/// GradientColorTable.steps: intervals between a segment's entries.
#define OQ_GRADIENT_TABLE_STEPS 1024


/// RoundedShape.SquareParts: a pixel square's extent along an edge's normal.
typedef struct {
    double a, b, half, linear, double_ab;
    int degenerate;
} oq_square_parts;

/// A rounded rectangle of a layer's plane with circular corners (RoundedRectangle).
typedef struct {
    double x, y, width, height;
    double top_left, top_right, bottom_right, bottom_left;
} oq_rounded_outline;

/// A rounded shape (or ring) under an affine map: RoundedShape.Sampler's per-shape parts.
typedef struct {
    /// Device (x, y, 1) to the plane, homogeneous, and its w (m33).
    double m11, m21, m31, m12, m22, m32, w;
    /// d(local)/d(device), the straight edges' gradients' lengths on screen, the reach past
    /// which a pixel is wholly in or out.
    double dxdx, dxdy, dydx, dydy, length_x, length_y, reach;
    oq_square_parts square_x, square_y;
    oq_rounded_outline outer, inner;
    int has_inner;
} oq_rounded_affine;

/// The outer and inner outlines' coverage (RoundedShape.Sampler.outlineCoverage) of the pixels
/// x0 ..< x0 + count of the row whose centres lie at y; inner is 0 where outer is.
void oq_rounded_coverages(const oq_rounded_affine *m, double y, long x0, long count, double *outer, double *inner);

/// A layer's background (fill) and border (ring) colours, premultiplied and tinted, and their
/// opacities, as RasterRenderer.drawPair blends them.
typedef struct {
    double fill_red, fill_green, fill_blue, fill_alpha, fill_opacity;
    double ring_red, ring_green, ring_blue, ring_alpha, ring_opacity;
} oq_pair_colours;

/// Up to 8 pixels x0 ..< x0 + count of a row (centres at y; `row` its first pixel's bytes) of a
/// background and border drawn as one (RasterRenderer.drawPair, its quad covering them wholly),
/// taken in scan order (from the left, or from the right where `backwards`): each blended until
/// and with the first where only the fill shows, wholly. Returns how many were taken up to and
/// with that pixel, or 0 where none showed the fill alone (all count were taken).
long oq_rounded_pair_run(const oq_rounded_affine *m, const oq_pair_colours *c, double y, long x0, long count, int backwards,
                         uint8_t *row);

/// `oq_rounded_pair_run` for a rounded solid alone (RasterRenderer.draw: no inner outline,
/// source-over, its quad covering the pixels wholly): each pixel `colour` (premultiplied,
/// tinted) times its coverage times `opacity`, blended, until and with the first its outline
/// covers wholly.
long oq_rounded_fill_run(const oq_rounded_affine *m, const double colour[4], double opacity, double y, long x0, long count,
                         int backwards, uint8_t *row);

#endif
