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
 * The kernel command line sets, through init's environment:
 *  - TEXT_POKE_SECONDS, for how long (20 s unless set);
 *  - TEXT_POKE_LOAD=ping-pong: instead of the flood, pairs of threads
 *    that wake each other through semaphores, so that the other vCPUs
 *    run the scheduler's wake-up path and never kill_fasync();
 *  - TEXT_POKE_RECORD_CMD, written to tracefs's options/record-cmd
 *    before the first switch. Enabling the first trace event with it on
 *    starts the recording of task names, which hooks the scheduler's
 *    sched_switch and sched_wakeup tracepoints: their jump labels in the
 *    wake-up path are patched at each switch too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * the harness is written for -Wall; this program is built with -Wextra
 * too, and TEST()'s wrapper leaves its variant unused
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#include "bench-cpu.h"
#include "pipe-flood.h"
#include "sysfs-file.h"

#define TRACEFS		"/sys/kernel/tracing"
#define ENABLE		TRACEFS "/events/fasync/kill_fasync/enable"
#define MAX_FLOODERS	15

/*
 * A pair of threads passing a turn back and forth through two
 * semaphores (futexes, no file and so no kill_fasync()): each pass wakes
 * a sleeping task.
 */
struct ping_pong_side {
	sem_t *in, *out;
	atomic_int *stop;
	pthread_t thread;
	long passes;
};

struct ping_pong {
	sem_t ping, pong;
	atomic_int stop;
	struct ping_pong_side side[2];
};

static void *ping_pong_play(void *arg)
{
	struct ping_pong_side *s = arg;

	while (!sem_wait(s->in) && !*s->stop) {
		s->passes++;
		sem_post(s->out);
	}
	return NULL;
}

static int ping_pong_start(struct ping_pong *p)
{
	int i;

	p->stop = 0;
	if (sem_init(&p->ping, 0, 1) || sem_init(&p->pong, 0, 0))
		return -1;
	p->side[0] = (struct ping_pong_side){ .in = &p->ping, .out = &p->pong, .stop = &p->stop };
	p->side[1] = (struct ping_pong_side){ .in = &p->pong, .out = &p->ping, .stop = &p->stop };
	for (i = 0; i < 2; i++)
		if (pthread_create(&p->side[i].thread, NULL, ping_pong_play, &p->side[i]))
			return -1;
	return 0;
}

/*
 * The passes made. Each side's next wait returns on the post made
 * here, as no other thread waits on its semaphore, and sees stop.
 */
static long ping_pong_stop(struct ping_pong *p)
{
	p->stop = 1;
	sem_post(&p->ping);
	sem_post(&p->pong);
	pthread_join(p->side[0].thread, NULL);
	pthread_join(p->side[1].thread, NULL);
	return p->side[0].passes + p->side[1].passes;
}

/* a thread flooding a pipe whose read side is subscribed to SIGIO */
static int flood_start(struct pipe_flood *f, pthread_t *thread)
{
	int fds[2];

	if (pipe2(fds, O_NONBLOCK))
		return -1;
	f->rfd = fds[0];
	f->wfd = fds[1];
	if (fcntl(f->rfd, F_SETOWN, getpid()) ||
	    fcntl(f->rfd, F_SETFL, O_RDONLY | O_NONBLOCK | O_ASYNC))
		return -1;
	return pthread_create(thread, NULL, flood_pipe, f) ? -1 : 0;
}

/* the writes made */
static long flood_stop(struct pipe_flood *f, pthread_t thread)
{
	f->stop = 1;
	pthread_join(thread, NULL);
	close(f->rfd);
	close(f->wfd);
	return f->writes;
}

TEST(tracepoint_switched_under_load)
{
	const char *seconds = getenv("TEXT_POKE_SECONDS");
	const char *load = getenv("TEXT_POKE_LOAD");
	const char *record_cmd = getenv("TEXT_POKE_RECORD_CMD");
	bool ping = load && !strcmp(load, "ping-pong");
	struct pipe_flood floods[MAX_FLOODERS] = { 0 };
	struct ping_pong pairs[MAX_FLOODERS];
	pthread_t threads[MAX_FLOODERS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = cpus > 1 ? cpus - 1 : 1, i;
	double end = now_s() + (seconds ? atof(seconds) : 20);
	long switches = 0, passes = 0;

	ASSERT_TRUE(!load || ping || !strcmp(load, "pipe-flood")) {
		TH_LOG("TEXT_POKE_LOAD is pipe-flood or ping-pong, not %s", load);
	}
	if (n > MAX_FLOODERS)
		n = MAX_FLOODERS;
	if (record_cmd)
		ASSERT_EQ(0, write_file(TRACEFS "/options/record-cmd", record_cmd));
	signal(SIGIO, SIG_IGN);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, ping ? ping_pong_start(&pairs[i]) :
				    flood_start(&floods[i], &threads[i]));
	while (now_s() < end) {
		ASSERT_EQ(0, write_file(ENABLE, switches % 2 ? "0" : "1"));
		switches++;
	}
	ASSERT_EQ(0, write_file(ENABLE, "0"));
	for (i = 0; i < n; i++)
		passes += ping ? ping_pong_stop(&pairs[i]) : flood_stop(&floods[i], threads[i]);
	printf("# figure: text_poke.switches %ld\n", switches);
	printf("# figure: text_poke.%s %ld\n", ping ? "wakeups" : "pipe_writes", passes);
	EXPECT_LT(0, switches);
	EXPECT_LT(0, passes);
}

TEST_HARNESS_MAIN
