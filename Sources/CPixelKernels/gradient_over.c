#include "CPixelKernels.h"
#include "oq_bytes.h"
#include "oq_dispatch.h"
#include "oq_generic_rgb.h"

#include <math.h>

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

/// Pixels whose t `oq_gradient_ts` works out at a time: a block on the stack.
#define OQ_GRADIENT_BLOCK 64

/// GradientFill.t at `count` pixel centres of a row from column `first` on, into `ts`: NaN where
/// the pixel is skipped (its w is 0). One loop for each kind with no branch in it, so that the
/// compiler runs the axial and radial ones over the copy's lanes: products, sums, divisions and
/// square roots are IEEE's in any lane, each in its order, so every t has the bits a pixel at a
/// time gave it (where w is 0, x and y are infinite or NaN and so was t, which skipped it). The
/// column as a 32-bit integer (the caller's columns fit), which AVX2 converts a lane at a time.
static inline __attribute__((always_inline)) void oq_gradient_ts(double *restrict ts, long count, int first, double cy,
                                                                 const double m[9], int kind, double sx, double sy,
                                                                 double ex, double ey) {
    const double dx = ex - sx, dy = ey - sy;
    const double m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8];
    // Without perspective w is exactly 1 at every finite pixel centre (0 x c + 0 x c + 1), and a
    // division by 1 gives its dividend's bits: the same t with two divisions fewer a pixel, the
    // most of working out t.
    const int affine = m2 == 0 && m5 == 0 && m8 == 1;
    if (kind == OQ_GRADIENT_AXIAL && affine) {
        const double length2 = dx * dx + dy * dy;
        for (int p = 0; p < (int)count; p++) {
            const double cx = (double)(first + p) + 0.5;
            const double x = cx * m0 + cy * m3 + m6, y = cx * m1 + cy * m4 + m7;
            ts[p] = ((x - sx) * dx + (y - sy) * dy) / length2;
        }
    } else if (kind == OQ_GRADIENT_RADIAL && affine) {
        const double rx = fabs(dx), ry = fabs(dy);
        for (int p = 0; p < (int)count; p++) {
            const double cx = (double)(first + p) + 0.5;
            const double x = cx * m0 + cy * m3 + m6, y = cx * m1 + cy * m4 + m7;
            const double nx = rx > 0 ? (x - sx) / rx : 0, ny = ry > 0 ? (y - sy) / ry : 0;
            ts[p] = sqrt(nx * nx + ny * ny);
        }
    } else if (kind == OQ_GRADIENT_AXIAL) {
        const double length2 = dx * dx + dy * dy;
        for (int p = 0; p < (int)count; p++) {
            const double cx = (double)(first + p) + 0.5;
            const double hx = cx * m0 + cy * m3 + m6, hy = cx * m1 + cy * m4 + m7, hw = cx * m2 + cy * m5 + m8;
            const double x = hx / hw, y = hy / hw;
            const double t = ((x - sx) * dx + (y - sy) * dy) / length2;
            ts[p] = hw == 0 ? NAN : t;
        }
    } else if (kind == OQ_GRADIENT_RADIAL) {
        const double rx = fabs(dx), ry = fabs(dy);
        for (int p = 0; p < (int)count; p++) {
            const double cx = (double)(first + p) + 0.5;
            const double hx = cx * m0 + cy * m3 + m6, hy = cx * m1 + cy * m4 + m7, hw = cx * m2 + cy * m5 + m8;
            const double x = hx / hw, y = hy / hw;
            const double nx = rx > 0 ? (x - sx) / rx : 0, ny = ry > 0 ? (y - sy) / ry : 0;
            const double t = sqrt(nx * nx + ny * ny);
            ts[p] = hw == 0 ? NAN : t;
        }
    } else {
        for (int p = 0; p < (int)count; p++) {
            const double cx = (double)(first + p) + 0.5;
            const double hx = cx * m0 + cy * m3 + m6, hy = cx * m1 + cy * m4 + m7, hw = cx * m2 + cy * m5 + m8;
            const double x = hx / hw, y = hy / hw;
            double angle = atan2(y - sy, x - sx) - atan2(dy, dx);
            angle -= 2 * 3.141592653589793 * floor(angle / (2 * 3.141592653589793));
            const double t = angle / (2 * 3.141592653589793);
            ts[p] = hw == 0 ? NAN : t;
        }
    }
}

/// Whether the stops' locations ascend (each at or after the one before, none NaN), so that the
/// stop a t falls before is found by counting the locations at or before it.
static inline int oq_stops_ascend(const double *stops, long stop_count) {
    for (long i = 1; i < stop_count; i++) {
        if (!(stops[5 * (i - 1)] <= stops[5 * i])) return 0;
    }
    return 1;
}

/// The colours of a block of `ts` through a colour table, for two stops or more whose locations
/// ascend: what the general loop below gives each pixel, to the bit, with no branch in the loop.
/// The stop search becomes a count (a t is past every ascending location before the first that
/// is greater than it), each case's value is worked out and the case's one kept, and the table's
/// entries are read by index, so that the wider copies run the block in lanes (the general loop's
/// search and cases were half of a gradient's time).
static inline __attribute__((always_inline)) void oq_gradient_table_colours(
    const double *restrict ts, long n, const double *stops, long stop_count, const double *table,
    double *restrict rs, double *restrict gs, double *restrict bs, double *restrict as) {
    const double *last = stops + 5 * (stop_count - 1);
    const double first_location = stops[0], last_location = last[0];
    double clamped[OQ_GRADIENT_BLOCK];
    long stop[OQ_GRADIENT_BLOCK];
    for (long q = 0; q < n; q++) {
        const double t = ts[q];
        clamped[q] = isfinite(t) ? oq_swift_min(oq_swift_max(t, 0), 1) : 0;
        stop[q] = 1;
    }
    // The count, a location at a time over the block (each pass a loop the lanes run).
    for (long m = 1; m < stop_count - 1; m++) {
        const double location = stops[5 * m];
        for (long q = 0; q < n; q++) stop[q] += location <= clamped[q];
    }
    for (long q = 0; q < n; q++) {
        const double t = clamped[q];
        const long i = stop[q];
        const double *s0 = stops + 5 * (i - 1), *s1 = stops + 5 * i;
        const double l0 = s0[0], l1 = s1[0];
        const double inner = l1 > l0 ? (t - l0) / (l1 - l0) : 0;
        const double inner_alpha = s0[4] + (s1[4] - s0[4]) * inner;
        const int past = t >= last_location, within = t > first_location;
        const double f = past ? 1 : (within ? inner : 0);
        const long segment = past ? stop_count - 2 : (within ? i - 1 : 0);
        as[q] = past ? last[4] : (within ? inner_alpha : stops[4]);
        // GradientColorTable.color(segment:fraction:), as below.
        const double scaled = f * OQ_GRADIENT_TABLE_STEPS;
        long j = (long)scaled;
        j = j < OQ_GRADIENT_TABLE_STEPS - 1 ? j : OQ_GRADIENT_TABLE_STEPS - 1;
        const double w = scaled - (double)j;
        const long e = (segment * (OQ_GRADIENT_TABLE_STEPS + 1) + j) * 4;
        rs[q] = table[e] + (table[e + 4] - table[e]) * w;
        gs[q] = table[e + 1] + (table[e + 5] - table[e + 1]) * w;
        bs[q] = table[e + 2] + (table[e + 6] - table[e + 2]) * w;
    }
}

/// `oq_gradient_over`'s loop: GradientFill.color(atX:y:table:) (CGGradient.straightColor, from
/// Generic RGB through `generic_rgb` or through a GradientColorTable, premultiplied) at each pixel
/// centre, then SourceOver.blend, each operation in its order: a block's t first
/// (`oq_gradient_ts`), then its straight colours, then their conversion where there is no table,
/// then each pixel's premultiplied source bytes (a loop of its own, which the wider copies run in
/// lanes), then the block's blend (`oq_bytes_over`).
static inline __attribute__((always_inline)) void oq_gradient_over_body(
    uint8_t *restrict pixels, long count, long first, double cy, const double m[9], int kind, double sx, double sy,
    double ex, double ey, const double *stops, long stop_count, const double *generic_rgb, const double *table,
    const double tint[4], double opacity) {
    const double *last = stops + 5 * (stop_count - 1);
    const int tabled_in_lanes = table && stop_count >= 2 && oq_stops_ascend(stops, stop_count);
    double ts[OQ_GRADIENT_BLOCK], rs[OQ_GRADIENT_BLOCK], gs[OQ_GRADIENT_BLOCK], bs[OQ_GRADIENT_BLOCK], as[OQ_GRADIENT_BLOCK];
    for (long start = 0; start < count; start += OQ_GRADIENT_BLOCK) {
        const long n = count - start < OQ_GRADIENT_BLOCK ? count - start : OQ_GRADIENT_BLOCK;
        oq_gradient_ts(ts, n, (int)(first + start), cy, m, kind, sx, sy, ex, ey);
        if (tabled_in_lanes) oq_gradient_table_colours(ts, n, stops, stop_count, table, rs, gs, bs, as);
        for (long q = 0; q < n && !tabled_in_lanes; q++) {
            double t = ts[q];
            // A skipped pixel's colour is worked out from t = 0 and never blended.
            t = isfinite(t) ? oq_swift_min(oq_swift_max(t, 0), 1) : 0;
            // CGGradient.straightColor(at:stops:): location, red, green, blue, alpha a stop; the
            // segment between two stops and the fraction of the way through it, for the table.
            double r = stops[1], g = stops[2], b = stops[3], a = stops[4], f = 0;
            long segment = 0;
            if (t >= last[0]) {
                r = last[1]; g = last[2]; b = last[3]; a = last[4];
                segment = stop_count > 1 ? stop_count - 2 : 0;
                f = stop_count > 1 ? 1 : 0;
            } else if (t > stops[0]) {
                long i = 1;
                while (i < stop_count - 1 && !(stops[5 * i] > t)) i++;
                const double *s0 = stops + 5 * (i - 1), *s1 = stops + 5 * i;
                f = s1[0] > s0[0] ? (t - s0[0]) / (s1[0] - s0[0]) : 0;
                segment = i - 1;
                r = s0[1] + (s1[1] - s0[1]) * f;
                g = s0[2] + (s1[2] - s0[2]) * f;
                b = s0[3] + (s1[3] - s0[3]) * f;
                a = s0[4] + (s1[4] - s0[4]) * f;
            }
            if (table) {
                // GradientColorTable.color(segment:fraction:): the entries around f (red, green,
                // blue and a pad each, neighbours in one cache line), mixed four lanes at a time.
                const double s = f * OQ_GRADIENT_TABLE_STEPS;
                long j = (long)s;
                j = j < OQ_GRADIENT_TABLE_STEPS - 1 ? j : OQ_GRADIENT_TABLE_STEPS - 1;
                const double w = s - (double)j;
                const double *e = table + (segment * (OQ_GRADIENT_TABLE_STEPS + 1) + j) * 4;
                double mixed[4];
                for (int k = 0; k < 4; k++) mixed[k] = e[k] + (e[4 + k] - e[k]) * w;
                r = mixed[0]; g = mixed[1]; b = mixed[2];
            }
            rs[q] = r; gs[q] = g; bs[q] = b; as[q] = a;
        }
        // Without a table, a Generic RGB gradient's colours converted one by one (a loop of its
        // own, with no branch, which the wider copies run in lanes).
        if (generic_rgb && !table) oq_generic_rgb_convert_block(generic_rgb, rs, gs, bs, n);
        // The block's source bytes (none where the pixel is skipped), then their blend.
        // Written channel by channel with the skip as a choice, not a call and a memset, so that
        // the wider copies run it in lanes: each byte is oq_tinted_bytes' (c * tint * opacity,
        // c the premultiplied colour), in its order.
        uint8_t sources[4 * OQ_GRADIENT_BLOCK];
        const double tr = tint[0], tg = tint[1], tb = tint[2], ta = tint[3];
        for (long q = 0; q < n; q++) {
            const double a = as[q];
            const int shown = isfinite(ts[q]);
            const uint8_t r = oq_byte(rs[q] * a * tr * opacity), g = oq_byte(gs[q] * a * tg * opacity);
            const uint8_t b = oq_byte(bs[q] * a * tb * opacity), alpha = oq_byte(a * ta * opacity);
            sources[4 * q] = shown ? r : 0;
            sources[4 * q + 1] = shown ? g : 0;
            sources[4 * q + 2] = shown ? b : 0;
            sources[4 * q + 3] = shown ? alpha : 0;
        }
        oq_bytes_over(pixels + 4 * start, n, sources);
    }
}

OQ_KERNEL(, oq_gradient_over,
          (uint8_t *restrict pixels, long count, long first, double cy, const double m[9], int kind, double sx, double sy,
           double ex, double ey, const double *stops, long stop_count, const double *generic_rgb, const double *table,
           const double tint[4], double opacity),
          (pixels, count, first, cy, m, kind, sx, sy, ex, ey, stops, stop_count, generic_rgb, table, tint, opacity))
