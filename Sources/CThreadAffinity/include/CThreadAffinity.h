// Linux CPU affinity for GLBackend's RasterizerThreads: glibc declares sched_getaffinity and
// sched_setaffinity only under _GNU_SOURCE and builds cpu_set_t with macros, neither of which
// Swift's Glibc module offers, so these two wrappers live in C.
#ifndef OPENQUARTZ_C_THREAD_AFFINITY_H
#define OPENQUARTZ_C_THREAD_AFFINITY_H

/// The CPUs the process may run on (its main thread's affinity), ascending, at most `capacity`
/// of them written to `cpus`; returns how many, or -1 where the system does not say.
int oq_allowed_cpus(int *cpus, int capacity);

/// Confines thread `tid` (a Linux thread id of this process) to CPU `cpu`; returns 0, or -1
/// with errno set.
int oq_confine_thread(int tid, int cpu);

/// The CPUs thread `tid` may run on, as `oq_allowed_cpus` gives them; -1 where the system does
/// not say.
int oq_thread_cpus(int tid, int *cpus, int capacity);

#endif
