#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"
#include "oq_rounded.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// RasterRenderer.drawPair's pixel where the quad's polygon covers the pixel wholly (k = 1): the
/// ring's colour over the fill's by area, in doubles, then one blend rounded to bytes. `d` is the
/// pixel's four bytes; a pixel the outer outline misses is left as it is.
static inline __attribute__((always_inline)) uint32_t oq_pair_pixel(const oq_pair_colours *c, double outer, double inner,
                                                                    uint32_t d) {
    double ring_area = 1.0 * oq_max(outer - inner, 0.0);
    double kr = ring_area * c->ring_opacity;
    double kf = (1.0 * outer - c->ring_alpha * kr) * c->fill_opacity;
    uint32_t r = oq_byte(c->ring_red * kr + c->fill_red * kf), g = oq_byte(c->ring_green * kr + c->fill_green * kf);
    uint32_t b = oq_byte(c->ring_blue * kr + c->fill_blue * kf), a = oq_byte(c->ring_alpha * kr + c->fill_alpha * kf);
    uint32_t keep = 255 - a;
    uint32_t blended = (uint32_t)oq_over(r, keep, d & 0xff) | (uint32_t)oq_over(g, keep, (d >> 8) & 0xff) << 8
                       | (uint32_t)oq_over(b, keep, (d >> 16) & 0xff) << 16 | (uint32_t)oq_over(a, keep, d >> 24) << 24;
    return outer > 0 ? blended : d;
}

/// Up to 8 pixels of a row: their outlines' coverage, the first (in scan order) where only the
/// fill shows wholly, and the blend of every pixel up to it. Each step a loop of its own over all
/// eight lanes, whatever the count (a loop of fewer ran one pixel at a time, every branch's
/// divisions in turn): the coverage of pixels past the count is worked out and unused, and the
/// blend reads and writes only the pixels taken (masked where the processor has masks).
static inline __attribute__((always_inline)) long oq_rounded_pair_run_body(const oq_rounded_affine *restrict m,
                                                                          const oq_pair_colours *restrict c, double y, long x0,
                                                                          long count, int backwards, uint8_t *restrict row) {
    double outer[8], inner[8];
    count = count < 8 ? count : 8;
    for (long i = 0; i < 8; i++) oq_outlines(m, (double)(x0 + i) + 0.5, y, &outer[i], &inner[i]);
    long taken = 0;
    for (long j = 0; j < count; j++) {
        long i = backwards ? count - 1 - j : j;
        if (outer[i] == 1 && inner[i] == 1) {
            taken = j + 1;
            break;
        }
    }
    long blended = taken > 0 ? taken : count;
    long from = backwards ? count - blended : 0, to = backwards ? count : blended;
    uint8_t *pixels = row + 4 * x0;
    uint32_t *words = (uint32_t *)pixels;
    for (long i = 0; i < 8; i++) {
        if (i >= from && i < to) words[i] = oq_pair_pixel(c, outer[i], inner[i], words[i]);
    }
    return taken;
}

static inline __attribute__((always_inline)) void oq_rounded_pair_run_copies_body(
    const oq_rounded_affine *restrict m, const oq_pair_colours *restrict c, double y, long x0, long count, int backwards,
    uint8_t *restrict row, long *taken) {
    *taken = oq_rounded_pair_run_body(m, c, y, x0, count, backwards, row);
}

OQ_KERNEL(static, oq_rounded_pair_run_copies,
          (const oq_rounded_affine *restrict m, const oq_pair_colours *restrict c, double y, long x0, long count, int backwards,
           uint8_t *restrict row, long *taken),
          (m, c, y, x0, count, backwards, row, taken))

long oq_rounded_pair_run(const oq_rounded_affine *m, const oq_pair_colours *c, double y, long x0, long count, int backwards,
                         uint8_t *row) {
    long taken = 0;
    oq_rounded_pair_run_copies(m, c, y, x0, count, backwards, row, &taken);
    return taken;
}

/// A rounded solid's pixel (RasterRenderer.draw, its quad covering the pixel wholly, no inner
/// outline): the colour (tinted) times coverage times opacity, one blend rounded to bytes.
static inline __attribute__((always_inline)) uint32_t oq_fill_pixel(const double colour[4], double opacity, double coverage,
                                                                    uint32_t d) {
    double k = coverage * opacity;
    uint32_t r = oq_byte(colour[0] * k), g = oq_byte(colour[1] * k), b = oq_byte(colour[2] * k), a = oq_byte(colour[3] * k);
    uint32_t keep = 255 - a;
    uint32_t blended = (uint32_t)oq_over(r, keep, d & 0xff) | (uint32_t)oq_over(g, keep, (d >> 8) & 0xff) << 8
                       | (uint32_t)oq_over(b, keep, (d >> 16) & 0xff) << 16 | (uint32_t)oq_over(a, keep, d >> 24) << 24;
    return coverage > 0 ? blended : d;
}

/// `oq_rounded_pair_run_body` for a rounded solid alone: its outer outline's coverage only,
/// blended up to and with the first pixel it covers wholly.
static inline __attribute__((always_inline)) long oq_rounded_fill_run_body(const oq_rounded_affine *restrict m,
                                                                          const double colour[4], double opacity, double y, long x0,
                                                                          long count, int backwards, uint8_t *restrict row) {
    double outer[8];
    count = count < 8 ? count : 8;
    for (long i = 0; i < 8; i++) outer[i] = oq_outer(m, (double)(x0 + i) + 0.5, y);
    long taken = 0;
    for (long j = 0; j < count; j++) {
        long i = backwards ? count - 1 - j : j;
        if (outer[i] == 1) {
            taken = j + 1;
            break;
        }
    }
    long blended = taken > 0 ? taken : count;
    long from = backwards ? count - blended : 0, to = backwards ? count : blended;
    uint32_t *words = (uint32_t *)(row + 4 * x0);
    for (long i = 0; i < 8; i++) {
        if (i >= from && i < to) words[i] = oq_fill_pixel(colour, opacity, outer[i], words[i]);
    }
    return taken;
}

static inline __attribute__((always_inline)) void oq_rounded_fill_run_copies_body(
    const oq_rounded_affine *restrict m, const double colour[4], double opacity, double y, long x0, long count, int backwards,
    uint8_t *restrict row, long *taken) {
    *taken = oq_rounded_fill_run_body(m, colour, opacity, y, x0, count, backwards, row);
}

OQ_KERNEL(static, oq_rounded_fill_run_copies,
          (const oq_rounded_affine *restrict m, const double colour[4], double opacity, double y, long x0, long count, int backwards,
           uint8_t *restrict row, long *taken),
          (m, colour, opacity, y, x0, count, backwards, row, taken))

long oq_rounded_fill_run(const oq_rounded_affine *m, const double colour[4], double opacity, double y, long x0, long count,
                         int backwards, uint8_t *row) {
    long taken = 0;
    oq_rounded_fill_run_copies(m, colour, opacity, y, x0, count, backwards, row, &taken);
    return taken;
}
