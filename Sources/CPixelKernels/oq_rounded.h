// A rounded shape's coverage at a pixel, as RoundedShape.Sampler works it out under an affine
// map: shared by the kernels that read it (rounded_coverage.c, rounded_runs.c).
#ifndef OPENQUARTZ_OQ_ROUNDED_H
#define OPENQUARTZ_OQ_ROUNDED_H

#include "CPixelKernels.h"

#include <math.h>

#pragma STDC FP_CONTRACT OFF

// RoundedShape.Sampler's affine path (Compositor/RoundedShape.swift), pixel for pixel, with its
// branches as selects so that the compiler runs eight pixels to an AVX-512 register: every
// branch's value is worked out and the one the Swift code takes is kept. Division, square root,
// products and sums are IEEE's, correctly rounded in any lane, so each pixel's value is the
// Swift code's to the bit (RoundedCoverageKernelTests, every copy). Swift's min(x, y) is
// y < x ? y : x and max(x, y) is y >= x ? y : x; they are written so.

static inline __attribute__((always_inline)) double oq_min(double x, double y) { return y < x ? y : x; }
static inline __attribute__((always_inline)) double oq_max(double x, double y) { return y >= x ? y : x; }

/// RoundedShape.pixelCoverage(distance:square:).
static inline __attribute__((always_inline)) double oq_pixel_coverage(double distance, const oq_square_parts *q) {
    double s = -distance, as = fabs(s);
    double corner = (q->half - as) * (q->half - as) / q->double_ab;
    double inside = as <= q->linear ? 0.5 + s / q->b : (s > 0 ? 1.0 - corner : corner);
    double value = s >= q->half ? 1.0 : (s <= -q->half ? 0.0 : inside);
    return q->degenerate ? oq_min(oq_max(0.5 - distance, 0.0), 1.0) : value;
}

/// The coverage of the pixel whose centre maps to (lx, ly) by one outline (Sampler.covered,
/// affine, circular corners).
static inline __attribute__((always_inline)) double oq_covered(const oq_rounded_affine *m, const oq_rounded_outline *o, double lx, double ly) {
    // RoundedRectangle.signedDistance.
    double half_w = o->width / 2, half_h = o->height / 2;
    double px = lx - (o->x + half_w), py = ly - (o->y + half_h);
    double r = px >= 0 ? (py >= 0 ? o->bottom_right : o->top_right) : (py >= 0 ? o->bottom_left : o->top_left);
    double qx = fabs(px) - (half_w - r), qy = fabs(py) - (half_h - r);
    double sx = px >= 0 ? 1.0 : -1.0, sy = py >= 0 ? 1.0 : -1.0;
    double length = sqrt(qx * qx + qy * qy);
    int at_corner = qx > 0 && qy > 0, along_x = qx > qy;
    double distance = at_corner ? length - r : (along_x ? qx - r : qy - r);
    double gx = at_corner ? sx * qx / length : (along_x ? sx : 0.0);
    double gy = at_corner ? sy * qy / length : (along_x ? 0.0 : sy);
    // RoundedRectangle.straightEdgeLines.
    double line_x = fabs(px) - o->width / 2, line_y = fabs(py) - o->height / 2;
    // Wholly inside or outside.
    int whole = distance <= -m->reach && line_x <= -m->reach && line_y <= -m->reach;
    int none = distance >= m->reach;
    // The outline's own normal is a straight edge's where the point faces a side.
    int axis = gy == 0 && fabs(gx) == 1 ? 1 : (gx == 0 && fabs(gy) == 1 ? 2 : 0);
    double egx = gx * m->dxdx + gy * m->dydx, egy = gx * m->dxdy + gy * m->dydy;
    double own_length = sqrt(egx * egx + egy * egy);
    double edge_length = axis == 1 ? m->length_x : (axis == 2 ? m->length_y : own_length);
    double edge = edge_length > 0 ? distance / edge_length : distance;
    double lx_screen = m->length_x > 0 ? line_x / m->length_x : line_x;
    double ly_screen = m->length_y > 0 ? line_y / m->length_y : line_y;
    int edge_axis = axis;
    if (lx_screen > edge) { edge = lx_screen; edge_axis = 1; }
    if (ly_screen > edge) { edge = ly_screen; edge_axis = 2; }
    // SquareParts of the outline's own normal, read only where it is the edge taken.
    oq_square_parts own;
    double ax = fabs(egx), ay = fabs(egy);
    own.degenerate = !(edge_length > 0);
    own.a = oq_min(ax, ay) / edge_length;
    own.b = oq_max(ax, ay) / edge_length;
    own.half = (own.a + own.b) / 2;
    own.linear = (own.b - own.a) / 2;
    own.double_ab = 2 * own.a * own.b;
    // The square of the edge taken, field by field (one coverage's two divisions, not three's).
    const oq_square_parts *x = &m->square_x, *y = &m->square_y;
    oq_square_parts q;
    q.a = edge_axis == 1 ? x->a : (edge_axis == 2 ? y->a : own.a);
    q.b = edge_axis == 1 ? x->b : (edge_axis == 2 ? y->b : own.b);
    q.half = edge_axis == 1 ? x->half : (edge_axis == 2 ? y->half : own.half);
    q.linear = edge_axis == 1 ? x->linear : (edge_axis == 2 ? y->linear : own.linear);
    q.double_ab = edge_axis == 1 ? x->double_ab : (edge_axis == 2 ? y->double_ab : own.double_ab);
    q.degenerate = edge_axis == 1 ? x->degenerate : (edge_axis == 2 ? y->degenerate : own.degenerate);
    return whole ? 1.0 : (none ? 0.0 : oq_pixel_coverage(edge, &q));
}

/// Both outlines' coverage at the pixel whose centre is (x, y) (Sampler.outlineCoverage): inner
/// is 0 where outer is.
static inline __attribute__((always_inline)) void oq_outlines(const oq_rounded_affine *m, double x, double y, double *outer,
                                                             double *inner) {
    double u = x * m->m11 + y * m->m21 + m->m31, v = x * m->m12 + y * m->m22 + m->m32;
    double lx = m->w == 1 ? u : u / m->w, ly = m->w == 1 ? v : v / m->w;
    double o = oq_covered(m, &m->outer, lx, ly);
    double n = m->has_inner ? oq_covered(m, &m->inner, lx, ly) : 0.0;
    *outer = o;
    *inner = o > 0 ? n : 0.0;
}

/// The outer outline's coverage alone (a rounded solid with no inner outline).
static inline __attribute__((always_inline)) double oq_outer(const oq_rounded_affine *m, double x, double y) {
    double u = x * m->m11 + y * m->m21 + m->m31, v = x * m->m12 + y * m->m22 + m->m32;
    double lx = m->w == 1 ? u : u / m->w, ly = m->w == 1 ? v : v / m->w;
    return oq_covered(m, &m->outer, lx, ly);
}

#endif
