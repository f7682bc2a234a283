// A rounded shape's coverage at eight pixels of a row, as RoundedShape.Sampler works it out
// under an affine map: shared by the kernels that read it (rounded_coverage.c, rounded_runs.c).
#ifndef OPENQUARTZ_OQ_ROUNDED_H
#define OPENQUARTZ_OQ_ROUNDED_H

#include "CPixelKernels.h"

#include <math.h>

#pragma STDC FP_CONTRACT OFF

// RoundedShape.Sampler's affine path (Compositor/RoundedShape.swift), pixel for pixel, eight
// pixels at a time with its branches as selects, so that the compiler runs them in one AVX-512
// register (two AVX2 ones): every branch's value is worked out and the one the Swift code takes
// is kept. Division, square root, products and sums are IEEE's, correctly rounded in any lane,
// so each pixel's value is the Swift code's to the bit (RoundedCoverageKernelTests, every copy).
// Swift's min(x, y) is y < x ? y : x and max(x, y) is y >= x ? y : x; they are written so.
//
// The work is staged so that what no lane needs is not worked out at all (the divisions and
// square roots are most of a lane's cost): each outline's signed distance first, then nothing
// more where every pixel is wholly in or out, and a corner's normal and its own square only
// where some lane that needs its coverage lies beside a corner. A straight edge's run (most of
// a card's edge rows) so skips four of its nine divisions and one of its two square roots an
// outline, and an upright plane's map its division by w.

#define OQ_LANES 8

static inline __attribute__((always_inline)) double oq_min(double x, double y) { return y < x ? y : x; }
static inline __attribute__((always_inline)) double oq_max(double x, double y) { return y >= x ? y : x; }

/// The plane's point under eight pixel centres (x0 + i + 0.5, y): the map's u and v over w,
/// without the division where w is 1.
static inline __attribute__((always_inline)) void oq_plane_points(const oq_rounded_affine *m, double y, long x0,
                                                                  double lx[OQ_LANES], double ly[OQ_LANES]) {
    if (m->w == 1) {
        for (long i = 0; i < OQ_LANES; i++) {
            double x = (double)(x0 + i) + 0.5;
            lx[i] = x * m->m11 + y * m->m21 + m->m31;
            ly[i] = x * m->m12 + y * m->m22 + m->m32;
        }
    } else {
        for (long i = 0; i < OQ_LANES; i++) {
            double x = (double)(x0 + i) + 0.5;
            lx[i] = (x * m->m11 + y * m->m21 + m->m31) / m->w;
            ly[i] = (x * m->m12 + y * m->m22 + m->m32) / m->w;
        }
    }
}

/// An outline's signed distance at eight points and what the rest of its coverage reads
/// (RoundedRectangle.signedDistance and straightEdgeLines).
typedef struct {
    double qx[OQ_LANES], qy[OQ_LANES], sx[OQ_LANES], sy[OQ_LANES], length[OQ_LANES];
    double distance[OQ_LANES], line_x[OQ_LANES], line_y[OQ_LANES];
    int at_corner[OQ_LANES], along_x[OQ_LANES], whole[OQ_LANES], none[OQ_LANES];
} oq_outline_lanes;

/// RoundedShape.pixelCoverage(distance:square:), its square's fields given one by one.
static inline __attribute__((always_inline)) double oq_pixel_coverage(double distance, double b, double half, double linear,
                                                                      double double_ab, int degenerate) {
    double s = -distance, as = fabs(s);
    double corner = (half - as) * (half - as) / double_ab;
    double inside = as <= linear ? 0.5 + s / b : (s > 0 ? 1.0 - corner : corner);
    double value = s >= half ? 1.0 : (s <= -half ? 0.0 : inside);
    return degenerate ? oq_min(oq_max(0.5 - distance, 0.0), 1.0) : value;
}

/// The coverage of a lane whose point needs it (neither wholly in nor out), `corners` a constant
/// where each copy is made: whether any such lane lies beside a corner (else the corner's
/// normal, its length and its own square are not worked out: no lane reads them).
static inline __attribute__((always_inline)) void oq_partial_coverage(int corners, const oq_rounded_affine *m,
                                                                      const oq_outline_lanes *l, double out[OQ_LANES]) {
    const oq_square_parts *x = &m->square_x, *y = &m->square_y;
    for (long i = 0; i < OQ_LANES; i++) {
        double gx, gy;
        if (corners) {
            gx = l->at_corner[i] ? l->sx[i] * l->qx[i] / l->length[i] : (l->along_x[i] ? l->sx[i] : 0.0);
            gy = l->at_corner[i] ? l->sy[i] * l->qy[i] / l->length[i] : (l->along_x[i] ? 0.0 : l->sy[i]);
        } else {
            gx = l->along_x[i] ? l->sx[i] : 0.0;
            gy = l->along_x[i] ? 0.0 : l->sy[i];
        }
        // The outline's own normal is a straight edge's where the point faces a side.
        int axis = gy == 0 && fabs(gx) == 1 ? 1 : (gx == 0 && fabs(gy) == 1 ? 2 : 0);
        double egx = gx * m->dxdx + gy * m->dydx, egy = gx * m->dxdy + gy * m->dydy;
        double own_length = corners ? sqrt(egx * egx + egy * egy) : 0.0;
        double edge_length = axis == 1 ? m->length_x : (axis == 2 ? m->length_y : own_length);
        double distance = l->distance[i];
        double edge = edge_length > 0 ? distance / edge_length : distance;
        double lx_screen = m->length_x > 0 ? l->line_x[i] / m->length_x : l->line_x[i];
        double ly_screen = m->length_y > 0 ? l->line_y[i] / m->length_y : l->line_y[i];
        int edge_axis = axis;
        if (lx_screen > edge) { edge = lx_screen; edge_axis = 1; }
        if (ly_screen > edge) { edge = ly_screen; edge_axis = 2; }
        // SquareParts of the outline's own normal, read only where it is the edge taken (only
        // beside a corner).
        double own_a = 0, own_b = 1, own_half = 0.5, own_linear = 0.5, own_double_ab = 0;
        int own_degenerate = 0;
        if (corners) {
            double ax = fabs(egx), ay = fabs(egy);
            own_degenerate = !(edge_length > 0);
            own_a = oq_min(ax, ay) / edge_length;
            own_b = oq_max(ax, ay) / edge_length;
            own_half = (own_a + own_b) / 2;
            own_linear = (own_b - own_a) / 2;
            own_double_ab = 2 * own_a * own_b;
        }
        // The square of the edge taken, field by field (one coverage's two divisions, not three's).
        double qb = edge_axis == 1 ? x->b : (edge_axis == 2 ? y->b : own_b);
        double qhalf = edge_axis == 1 ? x->half : (edge_axis == 2 ? y->half : own_half);
        double qlinear = edge_axis == 1 ? x->linear : (edge_axis == 2 ? y->linear : own_linear);
        double qdouble_ab = edge_axis == 1 ? x->double_ab : (edge_axis == 2 ? y->double_ab : own_double_ab);
        int qdegenerate = edge_axis == 1 ? x->degenerate : (edge_axis == 2 ? y->degenerate : own_degenerate);
        double coverage = oq_pixel_coverage(edge, qb, qhalf, qlinear, qdouble_ab, qdegenerate);
        out[i] = l->whole[i] ? 1.0 : (l->none[i] ? 0.0 : coverage);
    }
}

/// The coverage by one outline of the eight pixels whose centres map to (lx[i], ly[i])
/// (Sampler.covered, affine, circular corners).
static inline __attribute__((always_inline)) void oq_covered(const oq_rounded_affine *m, const oq_rounded_outline *o,
                                                             const double lx[OQ_LANES], const double ly[OQ_LANES],
                                                             double out[OQ_LANES]) {
    oq_outline_lanes l;
    int partial = 0, corners = 0;
    for (long i = 0; i < OQ_LANES; i++) {
        // RoundedRectangle.signedDistance.
        double half_w = o->width / 2, half_h = o->height / 2;
        double px = lx[i] - (o->x + half_w), py = ly[i] - (o->y + half_h);
        double r = px >= 0 ? (py >= 0 ? o->bottom_right : o->top_right) : (py >= 0 ? o->bottom_left : o->top_left);
        double qx = fabs(px) - (half_w - r), qy = fabs(py) - (half_h - r);
        double length = sqrt(qx * qx + qy * qy);
        int at_corner = qx > 0 && qy > 0, along_x = qx > qy;
        double distance = at_corner ? length - r : (along_x ? qx - r : qy - r);
        // RoundedRectangle.straightEdgeLines.
        double line_x = fabs(px) - o->width / 2, line_y = fabs(py) - o->height / 2;
        // Wholly inside or outside.
        int whole = distance <= -m->reach && line_x <= -m->reach && line_y <= -m->reach;
        int none = distance >= m->reach;
        l.qx[i] = qx; l.qy[i] = qy; l.length[i] = length;
        l.sx[i] = px >= 0 ? 1.0 : -1.0; l.sy[i] = py >= 0 ? 1.0 : -1.0;
        l.distance[i] = distance; l.line_x[i] = line_x; l.line_y[i] = line_y;
        l.at_corner[i] = at_corner; l.along_x[i] = along_x; l.whole[i] = whole; l.none[i] = none;
        int needed = !whole && !none;
        partial |= needed;
        corners |= needed && at_corner;
    }
    if (corners) {
        oq_partial_coverage(1, m, &l, out);
    } else if (partial) {
        oq_partial_coverage(0, m, &l, out);
    } else {
        for (long i = 0; i < OQ_LANES; i++) out[i] = l.whole[i] ? 1.0 : 0.0;
    }
}

/// Both outlines' coverage at the eight pixels x0 ..< x0 + 8 of the row whose centres lie at y
/// (Sampler.outlineCoverage): inner is 0 where outer is.
static inline __attribute__((always_inline)) void oq_outlines(const oq_rounded_affine *m, double y, long x0,
                                                             double outer[OQ_LANES], double inner[OQ_LANES]) {
    double lx[OQ_LANES], ly[OQ_LANES], n[OQ_LANES];
    oq_plane_points(m, y, x0, lx, ly);
    oq_covered(m, &m->outer, lx, ly, outer);
    if (m->has_inner) {
        oq_covered(m, &m->inner, lx, ly, n);
        for (long i = 0; i < OQ_LANES; i++) inner[i] = outer[i] > 0 ? n[i] : 0.0;
    } else {
        for (long i = 0; i < OQ_LANES; i++) inner[i] = 0.0;
    }
}

/// The outer outline's coverage alone at the eight pixels x0 ..< x0 + 8 (a rounded solid with
/// no inner outline).
static inline __attribute__((always_inline)) void oq_outer(const oq_rounded_affine *m, double y, long x0, double outer[OQ_LANES]) {
    double lx[OQ_LANES], ly[OQ_LANES];
    oq_plane_points(m, y, x0, lx, ly);
    oq_covered(m, &m->outer, lx, ly, outer);
}

#endif
