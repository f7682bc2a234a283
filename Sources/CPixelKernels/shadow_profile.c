#include "CPixelKernels.h"
#include "oq_dispatch.h"

// Each operation as written, in IEEE precision: no contraction into fused multiply-adds, so each
// value is BlurredRoundedRect.RowEvaluator.alpha(atX:y:)'s for a gridded shadow, to the bit.
#pragma STDC FP_CONTRACT OFF

/// BlurredRoundedRectProfile.interpolated(px:py:in:) at one point, branch-free so that the
/// compiler vectorizes the loops around it: Swift's max(a, b) is b >= a ? b : a, its min(a, b)
/// b < a ? b : a, and a point off the plane (a non-finite px or py) reads 0, its grid position
/// taken as 0 for the reads.
static inline __attribute__((always_inline)) float oq_profile_value(float px, float py, const float *restrict grid, long columns,
                                                                    long rows, float origin_x, float origin_y, float spacing) {
    const float last_x = (float)(columns - 1), last_y = (float)(rows - 1);
    int finite = __builtin_isfinite(px) && __builtin_isfinite(py);
    float ax = __builtin_fabsf(px) - origin_x, ay = __builtin_fabsf(py) - origin_y;
    ax = 0.0f >= ax ? 0.0f : ax;
    ay = 0.0f >= ay ? 0.0f : ay;
    float gx = ax / spacing, gy = ay / spacing;
    gx = last_x < gx ? last_x : gx;
    gy = last_y < gy ? last_y : gy;
    gx = finite ? gx : 0.0f;
    gy = finite ? gy : 0.0f;
    // 32-bit cell numbers (gx and gy are at most the grid's side, 128): AVX2 converts and
    // multiplies them eight at a time, where it has no vector form for 64-bit ones.
    int c = (int)gx, r = (int)gy;
    float fx = gx - (float)c, fy = gy - (float)r;
    // The padded grid's cell (c, r): its neighbours right and below are the repeated last
    // column and row where c or r is the last (Swift's min(c + 1, columns - 1) and
    // min(r + 1, rows - 1)), so each pair of neighbours is one 8-byte read (two gathers a pixel
    // where there were four).
    const float *cell = grid + (r * ((int)columns + 1) + c);
    uint64_t upper, lower;
    __builtin_memcpy(&upper, cell, 8);
    __builtin_memcpy(&lower, cell + columns + 1, 8);
    uint32_t bits[4] = {(uint32_t)upper, (uint32_t)(upper >> 32), (uint32_t)lower, (uint32_t)(lower >> 32)};
    float a, b, cc, d;
    __builtin_memcpy(&a, &bits[0], 4);
    __builtin_memcpy(&b, &bits[1], 4);
    __builtin_memcpy(&cc, &bits[2], 4);
    __builtin_memcpy(&d, &bits[3], 4);
    float top = a + (b - a) * fx, bottom = cc + (d - cc) * fx;
    float value = top + (bottom - top) * fy;
    return finite ? value : 0.0f;
}

static inline __attribute__((always_inline)) void oq_profile_row_copies_body(const double m[9], double centre_x, double centre_y,
                                                                      long first, double y, long count,
                                                                      const float *restrict grid, long columns, long rows,
                                                                      float origin_x, float origin_y, float spacing,
                                                                      float *restrict out) {
    // y's products are the same for every pixel of the row; and a map without perspective (w = 1
    // at every pixel) divides by 1, which changes no bit, so it is left out.
    const double y3 = y * m[3], y4 = y * m[4], y5 = y * m[5];
    // (double)(first + i) + 0.5 as the centre of the row's first pixel plus i: the same double
    // (every term a whole or half number far below 2^52), with i counted in 32 bits, which
    // converts eight at a time where a 64-bit count converts one at a time (AVX2 has no vector
    // conversion from 64-bit integers).
    const double start = (double)first + 0.5;
    if (m[2] == 0.0 && m[5] == 0.0 && m[8] == 1.0) {
        for (int i = 0; i < (int)count; i++) {
            // BlurredRoundedRect.planePoint.
            double x = start + (double)i;
            float px = (float)((x * m[0] + y3 + m[6]) - centre_x);
            float py = (float)((x * m[1] + y4 + m[7]) - centre_y);
            out[i] = oq_profile_value(px, py, grid, columns, rows, origin_x, origin_y, spacing);
        }
        return;
    }
    for (int i = 0; i < (int)count; i++) {
        double x = start + (double)i;
        double w = x * m[2] + y5 + m[8];
        if (!(w > 0.0)) { out[i] = 0.0f; continue; }
        float px = (float)((x * m[0] + y3 + m[6]) / w - centre_x);
        float py = (float)((x * m[1] + y4 + m[7]) / w - centre_y);
        out[i] = oq_profile_value(px, py, grid, columns, rows, origin_x, origin_y, spacing);
    }
}

OQ_KERNEL(static, oq_profile_row_copies,
          (const double m[9], double centre_x, double centre_y, long first, double y, long count, const float *grid, long columns,
           long rows, float origin_x, float origin_y, float spacing, float *out),
          (m, centre_x, centre_y, first, y, count, grid, columns, rows, origin_x, origin_y, spacing, out))

#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>

/// The level (no perspective) loop of oq_profile_row_copies_body for AVX2, eight pixels at a
/// time, the grid's values picked from rows loaded whole or read in pairs by gathers (which the
/// compiler does not use for AVX2: its cost model reads each pair alone): each value the same
/// operations in the same order as oq_profile_value, so the same bits. Returns how many pixels
/// it did (a multiple of eight). On an AMD EPYC (AVX2) the gathers and the 32-bit cell numbers
/// above took a turning radius-100 shadow's frame from 5.3-5.8 to 3.9-4.1 ms of CPU time, and
/// the rows loaded whole some 15% more (docs/performance.md).
__attribute__((target("avx2"))) static long oq_profile_level_gathered(const double m[9], double centre_x, double centre_y,
                                                                      long first, double y, long count, const float *grid,
                                                                      long columns, long rows, float origin_x, float origin_y,
                                                                      float spacing, float *out) {
    const double y3 = y * m[3], y4 = y * m[4];
    const double start = (double)first + 0.5;
    const __m256d m0 = _mm256_set1_pd(m[0]), m1 = _mm256_set1_pd(m[1]), rowX = _mm256_set1_pd(y3), rowY = _mm256_set1_pd(y4);
    const __m256d m6 = _mm256_set1_pd(m[6]), m7 = _mm256_set1_pd(m[7]), cx = _mm256_set1_pd(centre_x), cy = _mm256_set1_pd(centre_y);
    const __m256 zero = _mm256_setzero_ps(), ox = _mm256_set1_ps(origin_x), oy = _mm256_set1_ps(origin_y);
    const __m256 step = _mm256_set1_ps(spacing), lastX = _mm256_set1_ps((float)(columns - 1)), lastY = _mm256_set1_ps((float)(rows - 1));
    const __m256 absMask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)), infinity = _mm256_set1_ps(__builtin_inff());
    const __m256i stride = _mm256_set1_epi32((int)columns + 1);
    const long long *pairs = (const long long *)(const void *)grid;
    const long total = (columns + 1) * (rows + 1);
    long i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256d xLow = _mm256_add_pd(_mm256_set1_pd(start + (double)i), _mm256_setr_pd(0, 1, 2, 3));
        __m256d xHigh = _mm256_add_pd(_mm256_set1_pd(start + (double)i), _mm256_setr_pd(4, 5, 6, 7));
        // ((x * m0 + y3) + m6) - centre, as written, then to float.
        __m256 px = _mm256_set_m128(
            _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(xHigh, m0), rowX), m6), cx)),
            _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(xLow, m0), rowX), m6), cx)));
        __m256 py = _mm256_set_m128(
            _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(xHigh, m1), rowY), m7), cy)),
            _mm256_cvtpd_ps(_mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(xLow, m1), rowY), m7), cy)));
        __m256 absX = _mm256_and_ps(px, absMask), absY = _mm256_and_ps(py, absMask);
        // Finite: |v| < infinity (false for a NaN too).
        __m256 finite = _mm256_and_ps(_mm256_cmp_ps(absX, infinity, _CMP_LT_OQ), _mm256_cmp_ps(absY, infinity, _CMP_LT_OQ));
        __m256 ax = _mm256_sub_ps(absX, ox), ay = _mm256_sub_ps(absY, oy);
        ax = _mm256_blendv_ps(ax, zero, _mm256_cmp_ps(zero, ax, _CMP_GE_OQ));
        ay = _mm256_blendv_ps(ay, zero, _mm256_cmp_ps(zero, ay, _CMP_GE_OQ));
        __m256 gx = _mm256_div_ps(ax, step), gy = _mm256_div_ps(ay, step);
        gx = _mm256_blendv_ps(gx, lastX, _mm256_cmp_ps(lastX, gx, _CMP_LT_OQ));
        gy = _mm256_blendv_ps(gy, lastY, _mm256_cmp_ps(lastY, gy, _CMP_LT_OQ));
        gx = _mm256_and_ps(gx, finite);
        gy = _mm256_and_ps(gy, finite);
        __m256i c = _mm256_cvttps_epi32(gx), r = _mm256_cvttps_epi32(gy);
        __m256 fx = _mm256_sub_ps(gx, _mm256_cvtepi32_ps(c)), fy = _mm256_sub_ps(gy, _mm256_cvtepi32_ps(r));
        __m256 a, b, cc, d;
        // The lanes' cells span few columns and rows where the grid is coarse next to a pixel
        // (sigma / 6 a step: 8 pixels at radius 100): their values then come from three rows of
        // eight loaded whole and picked by lane, where gathers were the largest part of the loop.
        __m256i low, high, lowRow, highRow;
        const int signX = _mm256_movemask_ps(px), signY = _mm256_movemask_ps(py);
        if (_mm256_movemask_ps(finite) == 0xff && (signX == 0 || signX == 0xff) && (signY == 0 || signY == 0xff)) {
            // Neither px nor py changes sign along the lanes: the first and last lanes bound the
            // cells (oq_profile_level_wide says why).
            const __m256i last = _mm256_set1_epi32(7);
            const __m256i cEnd = _mm256_permutevar8x32_epi32(c, last), rEnd = _mm256_permutevar8x32_epi32(r, last);
            low = _mm256_min_epi32(c, cEnd), high = _mm256_max_epi32(c, cEnd);
            lowRow = _mm256_min_epi32(r, rEnd), highRow = _mm256_max_epi32(r, rEnd);
        } else {
            low = _mm256_min_epi32(c, _mm256_permute2x128_si256(c, c, 1)), high = _mm256_max_epi32(c, _mm256_permute2x128_si256(c, c, 1));
            lowRow = _mm256_min_epi32(r, _mm256_permute2x128_si256(r, r, 1)), highRow = _mm256_max_epi32(r, _mm256_permute2x128_si256(r, r, 1));
            low = _mm256_min_epi32(low, _mm256_shuffle_epi32(low, 0x4e));
            high = _mm256_max_epi32(high, _mm256_shuffle_epi32(high, 0x4e));
            lowRow = _mm256_min_epi32(lowRow, _mm256_shuffle_epi32(lowRow, 0x4e));
            highRow = _mm256_max_epi32(highRow, _mm256_shuffle_epi32(highRow, 0x4e));
            low = _mm256_min_epi32(low, _mm256_shuffle_epi32(low, 0xb1));
            high = _mm256_max_epi32(high, _mm256_shuffle_epi32(high, 0xb1));
            lowRow = _mm256_min_epi32(lowRow, _mm256_shuffle_epi32(lowRow, 0xb1));
            highRow = _mm256_max_epi32(highRow, _mm256_shuffle_epi32(highRow, 0xb1));
        }
        // Lane 0 holds each bound.
        const int c0 = _mm256_cvtsi256_si32(low), c1 = _mm256_cvtsi256_si32(high);
        const int r0 = _mm256_cvtsi256_si32(lowRow), r1 = _mm256_cvtsi256_si32(highRow);
        // Three rows of eight from (c0, r0) lie within the padded grid.
        if (c1 - c0 <= 6 && r1 - r0 <= 1 && (long)(r0 + 2) * (columns + 1) + c0 + 8 <= total) {
            const float *base = grid + (long)r0 * (columns + 1) + c0;
            const __m256 row0 = _mm256_loadu_ps(base), row1 = _mm256_loadu_ps(base + columns + 1), row2 = _mm256_loadu_ps(base + 2 * (columns + 1));
            const __m256i left = _mm256_sub_epi32(c, _mm256_set1_epi32(c0)), right = _mm256_add_epi32(left, _mm256_set1_epi32(1));
            const __m256 lower = _mm256_castsi256_ps(_mm256_cmpgt_epi32(r, _mm256_set1_epi32(r0)));
            const __m256 a1 = _mm256_permutevar8x32_ps(row1, left), b1 = _mm256_permutevar8x32_ps(row1, right);
            a = _mm256_blendv_ps(_mm256_permutevar8x32_ps(row0, left), a1, lower);
            b = _mm256_blendv_ps(_mm256_permutevar8x32_ps(row0, right), b1, lower);
            cc = _mm256_blendv_ps(a1, _mm256_permutevar8x32_ps(row2, left), lower);
            d = _mm256_blendv_ps(b1, _mm256_permutevar8x32_ps(row2, right), lower);
        } else {
            __m256i upperIndex = _mm256_add_epi32(_mm256_mullo_epi32(r, stride), c), lowerIndex = _mm256_add_epi32(upperIndex, stride);
            // Each lane's pair (a, b) from its row and (c, d) from the next, as 8-byte reads.
            __m256i upperLow = _mm256_i32gather_epi64(pairs, _mm256_castsi256_si128(upperIndex), 4);
            __m256i upperHigh = _mm256_i32gather_epi64(pairs, _mm256_extracti128_si256(upperIndex, 1), 4);
            __m256i lowerLow = _mm256_i32gather_epi64(pairs, _mm256_castsi256_si128(lowerIndex), 4);
            __m256i lowerHigh = _mm256_i32gather_epi64(pairs, _mm256_extracti128_si256(lowerIndex, 1), 4);
            // Pairs (a0 b0 a1 b1 | a2 b2 a3 b3) and (a4 b4 a5 b5 | a6 b6 a7 b7) into a0..a7 and b0..b7.
            __m256 ul = _mm256_castsi256_ps(upperLow), uh = _mm256_castsi256_ps(upperHigh);
            __m256 ll = _mm256_castsi256_ps(lowerLow), lh = _mm256_castsi256_ps(lowerHigh);
            a = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(ul, uh, 0x88)), 0xd8));
            b = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(ul, uh, 0xdd)), 0xd8));
            cc = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(ll, lh, 0x88)), 0xd8));
            d = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(ll, lh, 0xdd)), 0xd8));
        }
        __m256 top = _mm256_add_ps(a, _mm256_mul_ps(_mm256_sub_ps(b, a), fx));
        __m256 bottom = _mm256_add_ps(cc, _mm256_mul_ps(_mm256_sub_ps(d, cc), fx));
        __m256 value = _mm256_add_ps(top, _mm256_mul_ps(_mm256_sub_ps(bottom, top), fy));
        _mm256_storeu_ps(out + i, _mm256_and_ps(value, finite));
    }
    return i;
}

/// oq_profile_level_gathered for AVX-512, sixteen pixels at a time: where a run's cells span at
/// most fifteen columns and two rows (nearly always at radius 100, where a cell's side is some
/// eight pixels), their values come from three rows of sixteen loaded whole and picked by lane,
/// elsewhere from four gathers of sixteen. The same operations in the same order as
/// oq_profile_value, so the same bits. Returns how many pixels it did (a multiple of sixteen).
/// On an AMD EPYC with AVX-512 it took a turning radius-100 shadow's frame from 1.9-2.5 to
/// 1.5-1.7 ms of CPU time against the compiler's own sixteen-lane copy, which gathers every
/// value (docs/performance.md).
OQ_AVX512 static long oq_profile_level_wide(const double m[9], double centre_x, double centre_y, long first, double y, long count,
                                            const float *grid, long columns, long rows, float origin_x, float origin_y,
                                            float spacing, float *out) {
    const double y3 = y * m[3], y4 = y * m[4];
    const double start = (double)first + 0.5;
    const __m512d m0 = _mm512_set1_pd(m[0]), m1 = _mm512_set1_pd(m[1]), rowX = _mm512_set1_pd(y3), rowY = _mm512_set1_pd(y4);
    const __m512d m6 = _mm512_set1_pd(m[6]), m7 = _mm512_set1_pd(m[7]), cx = _mm512_set1_pd(centre_x), cy = _mm512_set1_pd(centre_y);
    const __m512d lowLanes = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7), highLanes = _mm512_setr_pd(8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 zero = _mm512_setzero_ps(), ox = _mm512_set1_ps(origin_x), oy = _mm512_set1_ps(origin_y);
    const __m512 step = _mm512_set1_ps(spacing), lastX = _mm512_set1_ps((float)(columns - 1)), lastY = _mm512_set1_ps((float)(rows - 1));
    const __m512 infinity = _mm512_set1_ps(__builtin_inff());
    const __m512i stride = _mm512_set1_epi32((int)columns + 1), one = _mm512_set1_epi32(1);
    const long total = (columns + 1) * (rows + 1);
    long i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m512d x = _mm512_set1_pd(start + (double)i);
        const __m512d xLow = _mm512_add_pd(x, lowLanes), xHigh = _mm512_add_pd(x, highLanes);
        // ((x * m0 + y3) + m6) - centre, as written, then to float.
        const __m512 px = _mm512_insertf32x8(
            _mm512_castps256_ps512(_mm512_cvtpd_ps(_mm512_sub_pd(_mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(xLow, m0), rowX), m6), cx))),
            _mm512_cvtpd_ps(_mm512_sub_pd(_mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(xHigh, m0), rowX), m6), cx)), 1);
        const __m512 py = _mm512_insertf32x8(
            _mm512_castps256_ps512(_mm512_cvtpd_ps(_mm512_sub_pd(_mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(xLow, m1), rowY), m7), cy))),
            _mm512_cvtpd_ps(_mm512_sub_pd(_mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(xHigh, m1), rowY), m7), cy)), 1);
        const __m512 absX = _mm512_abs_ps(px), absY = _mm512_abs_ps(py);
        // Finite: |v| < infinity (false for a NaN too).
        const __mmask16 finite = _mm512_cmp_ps_mask(absX, infinity, _CMP_LT_OQ) & _mm512_cmp_ps_mask(absY, infinity, _CMP_LT_OQ);
        __m512 ax = _mm512_sub_ps(absX, ox), ay = _mm512_sub_ps(absY, oy);
        ax = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(zero, ax, _CMP_GE_OQ), ax, zero);
        ay = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(zero, ay, _CMP_GE_OQ), ay, zero);
        __m512 gx = _mm512_div_ps(ax, step), gy = _mm512_div_ps(ay, step);
        gx = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(lastX, gx, _CMP_LT_OQ), gx, lastX);
        gy = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(lastY, gy, _CMP_LT_OQ), gy, lastY);
        gx = _mm512_maskz_mov_ps(finite, gx);
        gy = _mm512_maskz_mov_ps(finite, gy);
        const __m512i c = _mm512_cvttps_epi32(gx), r = _mm512_cvttps_epi32(gy);
        const __m512 fx = _mm512_sub_ps(gx, _mm512_cvtepi32_ps(c)), fy = _mm512_sub_ps(gy, _mm512_cvtepi32_ps(r));
        int c0, c1, r0, r1;
        const __mmask16 signX = _mm512_movepi32_mask(_mm512_castps_si512(px)), signY = _mm512_movepi32_mask(_mm512_castps_si512(py));
        if (finite == 0xffff && (signX == 0 || signX == 0xffff) && (signY == 0 || signY == 0xffff)) {
            // px and py run one way along the lanes (each step of their sums and roundings is
            // monotone in x), so where neither changes sign |px| and |py| do too, and so do the
            // cells: the first and last lanes bound them, where four reductions were a fifth of
            // the loop.
            const __m512i last = _mm512_set1_epi32(15);
            const __m512i cEnd = _mm512_permutexvar_epi32(last, c), rEnd = _mm512_permutexvar_epi32(last, r);
            c0 = _mm512_cvtsi512_si32(_mm512_min_epi32(c, cEnd));
            c1 = _mm512_cvtsi512_si32(_mm512_max_epi32(c, cEnd));
            r0 = _mm512_cvtsi512_si32(_mm512_min_epi32(r, rEnd));
            r1 = _mm512_cvtsi512_si32(_mm512_max_epi32(r, rEnd));
        } else {
            c0 = _mm512_reduce_min_epi32(c), c1 = _mm512_reduce_max_epi32(c);
            r0 = _mm512_reduce_min_epi32(r), r1 = _mm512_reduce_max_epi32(r);
        }
        __m512 a, b, cc, d;
        // Three rows of sixteen from (c0, r0) lie within the padded grid.
        if (c1 - c0 <= 14 && r1 - r0 <= 1 && (long)(r0 + 2) * (columns + 1) + c0 + 16 <= total) {
            const float *base = grid + (long)r0 * (columns + 1) + c0;
            const __m512 row0 = _mm512_loadu_ps(base), row1 = _mm512_loadu_ps(base + columns + 1), row2 = _mm512_loadu_ps(base + 2 * (columns + 1));
            const __m512i left = _mm512_sub_epi32(c, _mm512_set1_epi32(c0)), right = _mm512_add_epi32(left, one);
            const __mmask16 lower = _mm512_cmpgt_epi32_mask(r, _mm512_set1_epi32(r0));
            const __m512 a1 = _mm512_permutexvar_ps(left, row1), b1 = _mm512_permutexvar_ps(right, row1);
            a = _mm512_mask_blend_ps(lower, _mm512_permutexvar_ps(left, row0), a1);
            b = _mm512_mask_blend_ps(lower, _mm512_permutexvar_ps(right, row0), b1);
            cc = _mm512_mask_blend_ps(lower, a1, _mm512_permutexvar_ps(left, row2));
            d = _mm512_mask_blend_ps(lower, b1, _mm512_permutexvar_ps(right, row2));
        } else {
            const __m512i upper = _mm512_add_epi32(_mm512_mullo_epi32(r, stride), c), below = _mm512_add_epi32(upper, stride);
            a = _mm512_i32gather_ps(upper, grid, 4);
            b = _mm512_i32gather_ps(_mm512_add_epi32(upper, one), grid, 4);
            cc = _mm512_i32gather_ps(below, grid, 4);
            d = _mm512_i32gather_ps(_mm512_add_epi32(below, one), grid, 4);
        }
        const __m512 top = _mm512_add_ps(a, _mm512_mul_ps(_mm512_sub_ps(b, a), fx));
        const __m512 bottom = _mm512_add_ps(cc, _mm512_mul_ps(_mm512_sub_ps(d, cc), fx));
        const __m512 value = _mm512_add_ps(top, _mm512_mul_ps(_mm512_sub_ps(bottom, top), fy));
        _mm512_storeu_ps(out + i, _mm512_maskz_mov_ps(finite, value));
    }
    return i;
}
#endif

void oq_profile_row(const double m[9], double centre_x, double centre_y, long first, double y, long count, const float *grid,
                    long columns, long rows, float origin_x, float origin_y, float spacing, float *out) {
#if defined(__x86_64__) && defined(__clang__)
    const int copy = oq_kernel_copy();
    if (copy >= OQ_COPY_AVX2 && m[2] == 0.0 && m[5] == 0.0 && m[8] == 1.0) {
        long done = copy == OQ_COPY_AVX512
                        ? oq_profile_level_wide(m, centre_x, centre_y, first, y, count, grid, columns, rows, origin_x, origin_y,
                                                spacing, out)
                        : oq_profile_level_gathered(m, centre_x, centre_y, first, y, count, grid, columns, rows, origin_x,
                                                    origin_y, spacing, out);
        if (done == count) return;
        first += done;
        count -= done;
        out += done;
    }
#endif
    oq_profile_row_copies(m, centre_x, centre_y, first, y, count, grid, columns, rows, origin_x, origin_y, spacing, out);
}
