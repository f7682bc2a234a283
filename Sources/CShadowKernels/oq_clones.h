// Each kernel's loop once for the processor's baseline (SSE2) and once for AVX2 (eight float
// lanes where SSE2 has four), the copy chosen when the library loads (an ifunc). Neither enables
// FMA, and the files turn contraction off, so both copies give the same bits.
#ifndef OPENQUARTZ_OQ_CLONES_H
#define OPENQUARTZ_OQ_CLONES_H

#if defined(__x86_64__) && defined(__clang__)
#define OQ_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OQ_CLONES
#endif

#endif
