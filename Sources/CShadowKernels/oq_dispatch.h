// Each kernel's loop once for the processor's baseline (SSE2) and once for AVX2 (eight float
// lanes where SSE2 has four), the copy chosen at the first call by asking the processor. Not an
// ifunc (`target_clones`): its resolver runs while the dynamic linker relocates, before the
// thread sanitizer's runtime is set up, and crashed every test binary built with it. Neither copy
// enables FMA and the files turn contraction off, so both give the same bits.
#ifndef OPENQUARTZ_OQ_DISPATCH_H
#define OPENQUARTZ_OQ_DISPATCH_H

#if defined(__x86_64__) && defined(__clang__)
#include <stdatomic.h>

/// Whether the processor has AVX2: asked once, kept (0 not yet known, 1 no, 2 yes; relaxed, as any
/// thread that asks again gets the same answer).
static inline int oq_has_avx2(void) {
    static atomic_int known;
    int state = atomic_load_explicit(&known, memory_order_relaxed);
    if (state == 0) {
        __builtin_cpu_init();
        state = __builtin_cpu_supports("avx2") ? 2 : 1;
        atomic_store_explicit(&known, state, memory_order_relaxed);
    }
    return state == 2;
}

/// `storage void name params` calling `name##_body args` (a static inline function holding the
/// loop) from the copy the processor runs best.
#define OQ_KERNEL(storage, name, params, args)                                  \
    __attribute__((target("avx2"))) static void name##_avx2 params { name##_body args; } \
    static void name##_baseline params { name##_body args; }                    \
    storage void name params {                                                  \
        if (oq_has_avx2()) {                                                    \
            name##_avx2 args;                                                   \
        } else {                                                                \
            name##_baseline args;                                               \
        }                                                                       \
    }
#else
#define OQ_KERNEL(storage, name, params, args) storage void name params { name##_body args; }
#endif

#endif
