// Generic RGB components to sRGB ones through OpenCoreGraphics' GenericRGB.tables, line for line
// as GenericRGB.toSRGB converts them (the same operations in the same order, so the same bits):
// how Core Animation draws a CAGradientLayer's colours (GenericRGB.swift says where that comes from).
#ifndef OPENQUARTZ_OQ_GENERIC_RGB_H
#define OPENQUARTZ_OQ_GENERIC_RGB_H

/// GenericRGB.steps: entries of each curve's table less one.
#define OQ_GENERIC_RGB_STEPS 4096

/// `x` clamped to 0...1 (NaN to 0), then the curve `table` at it: the entry at or below and the
/// next, mixed (the last step's pair at 1, so that no branch is taken).
static inline __attribute__((always_inline)) double oq_generic_rgb_curve(const double *table, double x) {
    x = x > 0 ? (x < 1 ? x : 1) : 0;
    const double s = x * OQ_GENERIC_RGB_STEPS;
    int i = (int)s;
    i = i < OQ_GENERIC_RGB_STEPS - 1 ? i : OQ_GENERIC_RGB_STEPS - 1;
    return table[i] + (table[i + 1] - table[i]) * (s - (double)i);
}

/// (r, g, b), straight Generic RGB components, to straight sRGB ones, through `tables` (the
/// decoding curve, the encoding curve, then the matrix row by row).
static inline __attribute__((always_inline)) void oq_generic_rgb_convert(const double *tables, double *r, double *g,
                                                                         double *b) {
    const double *decode = tables, *encode = tables + OQ_GENERIC_RGB_STEPS + 1, *m = encode + OQ_GENERIC_RGB_STEPS + 1;
    const double lr = oq_generic_rgb_curve(decode, *r), lg = oq_generic_rgb_curve(decode, *g),
                 lb = oq_generic_rgb_curve(decode, *b);
    *r = oq_generic_rgb_curve(encode, m[0] * lr + m[1] * lg + m[2] * lb);
    *g = oq_generic_rgb_curve(encode, m[3] * lr + m[4] * lg + m[5] * lb);
    *b = oq_generic_rgb_curve(encode, m[6] * lr + m[7] * lg + m[8] * lb);
}

/// `oq_generic_rgb_convert` over `n` colours in place, in one loop with no branch.
static inline __attribute__((always_inline)) void oq_generic_rgb_convert_block(const double *tables, double *restrict rs,
                                                                               double *restrict gs, double *restrict bs,
                                                                               long n) {
    for (long q = 0; q < n; q++) oq_generic_rgb_convert(tables, rs + q, gs + q, bs + q);
}

#endif
