/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the load programs (pipe-load, pipe-paced, rwlock-anchor,
 * cacheline-pingpong, text-poke-churn) share: a monotonic clock in
 * seconds or nanoseconds, and pinning the calling thread or process to
 * a CPU.
 */
#ifndef BENCH_CPU_H
#define BENCH_CPU_H

#include <sched.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* CPU cpu modulo the CPUs online: a program asks for CPUs 0, 1, 2, ... */
static inline void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

#endif
