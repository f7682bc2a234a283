#include "CPixelKernels.h"
#include "oq_dispatch.h"
#include "oq_rounded.h"

// Each operation as written, in IEEE double precision: no contraction into fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

static inline __attribute__((always_inline)) void oq_rounded_coverages_body(const oq_rounded_affine *restrict m, double y,
                                                                           long x0, long count, double *restrict outer,
                                                                           double *restrict inner) {
    for (long i = 0; i < count; i++) oq_outlines(m, (double)(x0 + i) + 0.5, y, &outer[i], &inner[i]);
}

OQ_KERNEL(, oq_rounded_coverages,
          (const oq_rounded_affine *restrict m, double y, long x0, long count, double *restrict outer, double *restrict inner),
          (m, y, x0, count, outer, inner))
