#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"
#include "oq_rounded.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

// A rounded shape's run along a row on the CPU (RasterRenderer.drawPair and draw, their quad
// covering the pixels wholly): up to eight pixels' coverage, the first (in scan order) where the
// shape covers wholly (for a background and border drawn as one: where only the fill shows), and
// the blend of every pixel up to it. Each step a loop of its own over all eight lanes, whatever
// the count (a loop of fewer ran one pixel at a time, every branch's divisions in turn): the
// coverage of pixels past the count is worked out and unused, and the blend reads and writes only
// the pixels taken (masked where the processor has masks).

/// Source-over of the bytes (r, g, b, a) onto the pixel `d` (four bytes, little-endian), each
/// channel as SourceOver.blend does it.
static inline __attribute__((always_inline)) uint32_t oq_over_pixel(uint32_t r, uint32_t g, uint32_t b, uint32_t a, uint32_t d) {
    uint32_t keep = 255 - a;
    return (uint32_t)oq_over(r, keep, d & 0xff) | (uint32_t)oq_over(g, keep, (d >> 8) & 0xff) << 8
           | (uint32_t)oq_over(b, keep, (d >> 16) & 0xff) << 16 | (uint32_t)oq_over(a, keep, d >> 24) << 24;
}

/// RasterRenderer.drawPair's pixel where the quad's polygon covers the pixel wholly (k = 1): the
/// ring's colour over the fill's by area, in doubles, then one blend rounded to bytes. A pixel the
/// outer outline misses is left as it is.
static inline __attribute__((always_inline)) uint32_t oq_pair_pixel(const oq_pair_colours *c, double outer, double inner,
                                                                    uint32_t d) {
    double ring_area = 1.0 * oq_max(outer - inner, 0.0);
    double kr = ring_area * c->ring_opacity;
    double kf = (1.0 * outer - c->ring_alpha * kr) * c->fill_opacity;
    uint32_t blended = oq_over_pixel(oq_byte(c->ring_red * kr + c->fill_red * kf), oq_byte(c->ring_green * kr + c->fill_green * kf),
                                     oq_byte(c->ring_blue * kr + c->fill_blue * kf), oq_byte(c->ring_alpha * kr + c->fill_alpha * kf), d);
    return outer > 0 ? blended : d;
}

/// A rounded solid's pixel (RasterRenderer.draw, no inner outline): the colour (tinted) times
/// coverage times opacity, one blend rounded to bytes.
static inline __attribute__((always_inline)) uint32_t oq_fill_pixel(const double colour[4], double opacity, double coverage,
                                                                    uint32_t d) {
    double k = coverage * opacity;
    uint32_t blended = oq_over_pixel(oq_byte(colour[0] * k), oq_byte(colour[1] * k), oq_byte(colour[2] * k), oq_byte(colour[3] * k), d);
    return coverage > 0 ? blended : d;
}

/// What a run is drawn with: a pair's colours, or a solid's colour and opacity.
typedef struct {
    const oq_pair_colours *pair_colours;
    const double *colour;
    double opacity;
} oq_run_paint;

/// One run; `pair` is a constant where each copy is made (a pair, or a solid alone, which needs
/// only its outer outline). Returns how many pixels were taken up to and with the stop, or 0.
static inline __attribute__((always_inline)) long oq_rounded_run_body(int pair, const oq_rounded_affine *restrict m,
                                                                     const oq_run_paint *p, double y, long x0, long count,
                                                                     int backwards, uint8_t *restrict row) {
    double outer[OQ_LANES], inner[OQ_LANES];
    count = count < OQ_LANES ? count : OQ_LANES;
    if (pair) {
        oq_outlines(m, y, x0, outer, inner);
    } else {
        oq_outer(m, y, x0, outer);
    }
    long taken = 0;
    for (long j = 0; j < count; j++) {
        long i = backwards ? count - 1 - j : j;
        if (pair ? outer[i] == 1 && inner[i] == 1 : outer[i] == 1) {
            taken = j + 1;
            break;
        }
    }
    long blended = taken > 0 ? taken : count;
    long from = backwards ? count - blended : 0, to = backwards ? count : blended;
    // The paint in locals: read through its pointers, the stores to the row might alias it.
    oq_pair_colours colours = {0};
    double colour[4] = {0, 0, 0, 0}, opacity = p->opacity;
    if (pair) {
        colours = *p->pair_colours;
    } else {
        colour[0] = p->colour[0]; colour[1] = p->colour[1]; colour[2] = p->colour[2]; colour[3] = p->colour[3];
    }
    uint32_t *words = (uint32_t *)(row + 4 * x0);
    for (long i = 0; i < OQ_LANES; i++) {
        if (i >= from && i < to) {
            words[i] = pair ? oq_pair_pixel(&colours, outer[i], inner[i], words[i]) : oq_fill_pixel(colour, opacity, outer[i], words[i]);
        }
    }
    return taken;
}

static inline __attribute__((always_inline)) void oq_pair_run_body(const oq_rounded_affine *restrict m, const oq_run_paint *p,
                                                                  double y, long x0, long count, int backwards,
                                                                  uint8_t *restrict row, long *taken) {
    *taken = oq_rounded_run_body(1, m, p, y, x0, count, backwards, row);
}

static inline __attribute__((always_inline)) void oq_fill_run_body(const oq_rounded_affine *restrict m, const oq_run_paint *p,
                                                                  double y, long x0, long count, int backwards,
                                                                  uint8_t *restrict row, long *taken) {
    *taken = oq_rounded_run_body(0, m, p, y, x0, count, backwards, row);
}

OQ_KERNEL(static, oq_pair_run,
          (const oq_rounded_affine *restrict m, const oq_run_paint *p, double y, long x0, long count, int backwards,
           uint8_t *restrict row, long *taken),
          (m, p, y, x0, count, backwards, row, taken))

OQ_KERNEL(static, oq_fill_run,
          (const oq_rounded_affine *restrict m, const oq_run_paint *p, double y, long x0, long count, int backwards,
           uint8_t *restrict row, long *taken),
          (m, p, y, x0, count, backwards, row, taken))

long oq_rounded_pair_run(const oq_rounded_affine *m, const oq_pair_colours *c, double y, long x0, long count, int backwards,
                         uint8_t *row) {
    oq_run_paint paint = {c, 0, 0};
    long taken = 0;
    oq_pair_run(m, &paint, y, x0, count, backwards, row, &taken);
    return taken;
}

long oq_rounded_fill_run(const oq_rounded_affine *m, const double colour[4], double opacity, double y, long x0, long count,
                         int backwards, uint8_t *row) {
    oq_run_paint paint = {0, colour, opacity};
    long taken = 0;
    oq_fill_run(m, &paint, y, x0, count, backwards, row, &taken);
    return taken;
}
