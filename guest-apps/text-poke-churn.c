// SPDX-License-Identifier: GPL-2.0
/*
 * text-poke-churn: switch the fasync tracepoint on and off, over and
 * over, while every other vCPU floods a pipe whose read side is
 * subscribed to SIGIO, so that those vCPUs run kill_fasync() through the
 * very jump label being patched. On x86 each switch is a text_poke_bp():
 * an int3 written over the instruction, the new bytes, then the int3
 * taken away, with IPIs to sync the other CPUs between the steps.
 *
 * It asserts nothing about the kernel: what it is for is whether the
 * guest survives, which the host counts over many boots
 * (qemu-scripts/boot-deaths.py), once with QEMU's multi-threaded TCG and
 * once with one thread for all vCPUs, to tell QEMU's handling of
 * cross-modifying code from the kernel's text patching
 * (docs/findings/int3-tracepoint-switched-under-load.txt).
 *
 * TEXT_POKE_SECONDS (the kernel command line sets it) says for how
 * long; 20 s unless it does.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/*
 * the harness is written for -Wall; this program is built with -Wextra
 * too, and TEST()'s wrapper leaves its variant unused
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#include "pipe-flood.h"
#include "sysfs-file.h"

#define ENABLE		"/sys/kernel/tracing/events/fasync/kill_fasync/enable"
#define MAX_FLOODERS	15

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

TEST(tracepoint_switched_under_pipe_flood)
{
	const char *env = getenv("TEXT_POKE_SECONDS");
	struct pipe_flood floods[MAX_FLOODERS] = { 0 };
	pthread_t threads[MAX_FLOODERS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cpus > 1 ? cpus - 1 : 1, fds[2], i;
	double end = now_s() + (env ? atof(env) : 20);
	long switches = 0, writes = 0;

	if (n > MAX_FLOODERS)
		n = MAX_FLOODERS;
	signal(SIGIO, SIG_IGN);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
		floods[i].rfd = fds[0];
		floods[i].wfd = fds[1];
		ASSERT_EQ(0, fcntl(fds[0], F_SETOWN, getpid()));
		ASSERT_EQ(0, fcntl(fds[0], F_SETFL, O_RDONLY | O_NONBLOCK | O_ASYNC));
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, flood_pipe, &floods[i]));
	}
	while (now_s() < end) {
		ASSERT_EQ(0, write_file(ENABLE, switches % 2 ? "0" : "1"));
		switches++;
	}
	ASSERT_EQ(0, write_file(ENABLE, "0"));
	for (i = 0; i < n; i++) {
		floods[i].stop = 1;
		pthread_join(threads[i], NULL);
		writes += floods[i].writes;
		close(floods[i].rfd);
		close(floods[i].wfd);
	}
	printf("# figure: text_poke.switches %ld\n", switches);
	printf("# figure: text_poke.pipe_writes %ld\n", writes);
	EXPECT_LT(0, switches);
	EXPECT_LT(0, writes);
}

TEST_HARNESS_MAIN
