#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>
#include "CThreadAffinity.h"

int oq_thread_cpus(int tid, int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(tid, sizeof set, &set) != 0) return -1;
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) cpus[count++] = cpu;
    }
    return count;
}

int oq_allowed_cpus(int *cpus, int capacity) {
    return oq_thread_cpus(getpid(), cpus, capacity);
}

int oq_confine_thread(int tid, int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return -1;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(tid, sizeof set, &set);
}
