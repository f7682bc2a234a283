#include "CPixelKernels.h"
#include "oq_dispatch.h"
#include "oq_rounded.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

static inline __attribute__((always_inline)) void oq_rounded_coverages_body(const oq_rounded_affine *restrict m, double y,
                                                                           long x0, long count, double *restrict outer,
                                                                           double *restrict inner) {
    // Eight at a time; a last run of fewer worked out whole, its lanes past the count unused.
    for (long start = 0; start < count; start += OQ_LANES) {
        double o[OQ_LANES], n[OQ_LANES];
        oq_outlines(m, y, x0 + start, o, n);
        long taken = count - start < OQ_LANES ? count - start : OQ_LANES;
        for (long i = 0; i < taken; i++) {
            outer[start + i] = o[i];
            inner[start + i] = n[i];
        }
    }
}

OQ_KERNEL(, oq_rounded_coverages,
          (const oq_rounded_affine *restrict m, double y, long x0, long count, double *restrict outer, double *restrict inner),
          (m, y, x0, count, outer, inner))
