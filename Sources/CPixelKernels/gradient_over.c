#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"

#include <math.h>

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// `oq_gradient_over`'s loop: GradientFill.color(atX:y:) and CGGradient.premultipliedColor at each
/// pixel centre, then SourceOver.blend, each operation in its order.
static inline __attribute__((always_inline)) void oq_gradient_over_body(
    uint8_t *restrict pixels, long count, long first, double cy, const double m[9], int kind, double sx, double sy,
    double ex, double ey, const double *stops, long stop_count, const double tint[4], double opacity) {
    const double dx = ex - sx, dy = ey - sy;
    const double *last = stops + 5 * (stop_count - 1);
    for (long p = 0; p < count; p++) {
        const double cx = (double)(first + p) + 0.5;
        const double hx = cx * m[0] + cy * m[3] + m[6], hy = cx * m[1] + cy * m[4] + m[7], hw = cx * m[2] + cy * m[5] + m[8];
        if (hw == 0) continue;
        const double x = hx / hw, y = hy / hw;
        double t;
        if (kind == OQ_GRADIENT_AXIAL) {
            t = ((x - sx) * dx + (y - sy) * dy) / (dx * dx + dy * dy);
        } else if (kind == OQ_GRADIENT_RADIAL) {
            const double rx = fabs(dx), ry = fabs(dy);
            const double nx = rx > 0 ? (x - sx) / rx : 0, ny = ry > 0 ? (y - sy) / ry : 0;
            t = sqrt(nx * nx + ny * ny);
        } else {
            double angle = atan2(y - sy, x - sx) - atan2(dy, dx);
            angle -= 2 * 3.141592653589793 * floor(angle / (2 * 3.141592653589793));
            t = angle / (2 * 3.141592653589793);
        }
        if (!isfinite(t)) continue;
        t = oq_swift_min(oq_swift_max(t, 0), 1);
        // CGGradient.premultipliedColor(at:stops:): location, red, green, blue, alpha a stop.
        double r = stops[1], g = stops[2], b = stops[3], a = stops[4];
        if (t >= last[0]) {
            r = last[1]; g = last[2]; b = last[3]; a = last[4];
        } else if (t > stops[0]) {
            long i = 1;
            while (i < stop_count - 1 && !(stops[5 * i] > t)) i++;
            const double *s0 = stops + 5 * (i - 1), *s1 = stops + 5 * i;
            const double f = s1[0] > s0[0] ? (t - s0[0]) / (s1[0] - s0[0]) : 0;
            r = s0[1] + (s1[1] - s0[1]) * f;
            g = s0[2] + (s1[2] - s0[2]) * f;
            b = s0[3] + (s1[3] - s0[3]) * f;
            a = s0[4] + (s1[4] - s0[4]) * f;
        }
        const double c[4] = {r * a, g * a, b * a, a};
        oq_blend_tinted(pixels + 4 * p, c, tint, opacity);
    }
}

OQ_KERNEL(, oq_gradient_over,
          (uint8_t *restrict pixels, long count, long first, double cy, const double m[9], int kind, double sx, double sy,
           double ex, double ey, const double *stops, long stop_count, const double tint[4], double opacity),
          (pixels, count, first, cy, m, kind, sx, sy, ex, ey, stops, stop_count, tint, opacity))
