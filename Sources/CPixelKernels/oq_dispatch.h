// Each kernel's loop once for the processor's baseline (SSE2), once for AVX2 (eight float lanes
// where SSE2 has four) and once for AVX-512 (sixteen), the copy chosen at each call from what the
// processor has, asked once (kernel_copies.c). Not an ifunc (`target_clones`): its resolver runs
// while the dynamic linker relocates, before the thread sanitizer's runtime is set up, and
// crashed every test binary built with it. No copy enables FMA and the files turn contraction
// off, so every copy gives the same bits; tests run each (`oq_limit_kernel_copy`).
#ifndef OPENQUARTZ_OQ_DISPATCH_H
#define OPENQUARTZ_OQ_DISPATCH_H

#include "CPixelKernels.h"

#if defined(__x86_64__) && defined(__clang__)

/// AVX-512's foundation with its byte, word, double- and quadword and 128/256-bit forms
/// (x86-64-v4's set), at 512 bits whatever the compiler's tuning prefers.
#define OQ_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"), min_vector_width(512)))

/// `storage void name params` calling `name##_body args` (a static inline function holding the
/// loop) from the copy `oq_kernel_copy` names.
#define OQ_KERNEL(storage, name, params, args)                                  \
    OQ_AVX512 static void name##_avx512 params { name##_body args; }            \
    __attribute__((target("avx2"))) static void name##_avx2 params { name##_body args; } \
    static void name##_baseline params { name##_body args; }                    \
    storage void name params {                                                  \
        switch (oq_kernel_copy()) {                                             \
        case OQ_COPY_AVX512: name##_avx512 args; break;                         \
        case OQ_COPY_AVX2: name##_avx2 args; break;                             \
        default: name##_baseline args; break;                                   \
        }                                                                       \
    }
#else
#define OQ_KERNEL(storage, name, params, args) storage void name params { name##_body args; }
#endif

#endif
