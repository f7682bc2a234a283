#include "CPixelKernels.h"
#include "oq_dispatch.h"

#if defined(__x86_64__) && defined(__clang__)
#include <stdatomic.h>

/// The best copy the processor runs: asked once, kept (0 not yet known, else the copy plus one;
/// relaxed, as any thread that asks again gets the same answer). `__builtin_cpu_supports` counts
/// AVX-512 only where the operating system saves its registers.
static int oq_best_copy(void) {
    static atomic_int known;
    int state = atomic_load_explicit(&known, memory_order_relaxed);
    if (state == 0) {
        __builtin_cpu_init();
        int copy = OQ_COPY_BASELINE;
        if (__builtin_cpu_supports("avx2")) copy = OQ_COPY_AVX2;
        if (copy == OQ_COPY_AVX2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
            copy = OQ_COPY_AVX512;
        }
        state = copy + 1;
        atomic_store_explicit(&known, state, memory_order_relaxed);
    }
    return state - 1;
}

/// Per thread, so that a test holding one copy to the reference leaves other threads' calls alone.
static _Thread_local int oq_copy_limit = OQ_COPY_AVX512;

int oq_kernel_copy(void) {
    int best = oq_best_copy();
    return best < oq_copy_limit ? best : oq_copy_limit;
}

int oq_kernel_copies(void) { return oq_best_copy() + 1; }

int oq_limit_kernel_copy(int copy) {
    int before = oq_copy_limit;
    oq_copy_limit = copy < OQ_COPY_BASELINE ? OQ_COPY_BASELINE : copy > OQ_COPY_AVX512 ? OQ_COPY_AVX512 : copy;
    return before;
}
#else
int oq_kernel_copies(void) { return 1; }

int oq_kernel_copy(void) { return OQ_COPY_BASELINE; }

int oq_limit_kernel_copy(int copy) {
    (void)copy;
    return OQ_COPY_BASELINE;
}
#endif
