// SPDX-License-Identifier: GPL-2.0
/*
 * rwlock-anchor: what one kill_fasync() read side costs without the
 * kernel around it, on whatever runs this binary: the host (no
 * emulation) and the guest (TCG) run the same static program.
 *
 * Two threads, one per CPU, each doing the read side of a design on
 * one shared cache line, as every CPU's kill_fasync() did on 2.6.0's
 * global fasync_lock:
 *   rwlock  a locked add to take the reader count and a locked
 *           subtract to drop it (what queued_read_lock() and
 *           queued_read_unlock() do on the fast path), then the list test
 *   rcu     the list test alone: a load and a branch
 * in two workloads:
 *   pipe   the read side after every one-byte pipe write in one
 *          thread and every read in the other (pipe-load's shape)
 *   tight  the read side in a loop, nothing else
 * Modes alternate rwlock, rcu, rcu, rwlock, ... so drift falls on both.
 *
 * usage: rwlock-anchor [SECONDS per segment] [ROUNDS]
 * prints: anchor workload=W mode=M round=R ops=N ns_per_op=X
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-cpu.h"

enum mode { MODE_RWLOCK, MODE_RCU };

static const char *const mode_names[] = { "rwlock", "rcu" };

/* the global lock and a list head, on one line as a hot lock word is */
static struct {
	int readers;
	void *list;
} shared __attribute__((aligned(64)));

struct worker {
	pthread_t thread;
	int cpu;
	int writer;		/* the pipe's writer, else its reader */
	int fd;			/* its end of the pipe */
	enum mode mode;
	int pipe;
	volatile int *stop;
	long ops;
};

/* one kill_fasync() read side with nobody subscribed */
static inline void read_side(enum mode mode)
{
	if (mode == MODE_RWLOCK)
		__atomic_fetch_add(&shared.readers, 1, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&shared.list, __ATOMIC_RELAXED))
		abort();
	if (mode == MODE_RWLOCK)
		__atomic_fetch_sub(&shared.readers, 1, __ATOMIC_RELEASE);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	char c = 0;

	pin(w->cpu);
	while (!*w->stop) {
		if (w->pipe && (w->writer ? write(w->fd, &c, 1) :
				read(w->fd, &c, 1)) != 1)
			break;
		read_side(w->mode);
		w->ops++;
	}
	return NULL;
}

/* one segment: both threads for seconds; returns ns per operation */
static double segment(enum mode mode, int pipe_load, double seconds, long *ops)
{
	struct worker w[2];
	volatile int stop = 0;
	int fds[2], i;
	double start, elapsed;

	if (pipe(fds)) {
		perror("rwlock-anchor: pipe");
		exit(1);
	}
	memset(w, 0, sizeof(w));
	for (i = 0; i < 2; i++) {
		w[i].cpu = i;
		w[i].writer = i == 0;
		w[i].fd = fds[i == 0];
		w[i].mode = mode;
		w[i].pipe = pipe_load;
		w[i].stop = &stop;
	}
	start = now_s();
	for (i = 0; i < 2; i++)
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	usleep(seconds * 1e6);
	stop = 1;
	/* the reader may wait in read(), the writer in write(): wake both */
	close(fds[1]);
	pthread_join(w[1].thread, NULL);
	close(fds[0]);
	pthread_join(w[0].thread, NULL);
	elapsed = now_s() - start;
	/* each thread's time is its own: ns per op of one CPU */
	*ops = w[0].ops + w[1].ops;
	return *ops ? 2 * elapsed * 1e9 / *ops : 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1;
	int rounds = argc > 2 ? atoi(argv[2]) : 2;
	static const enum mode order[] = { MODE_RWLOCK, MODE_RCU, MODE_RCU, MODE_RWLOCK };
	int pipe_load, r, i;
	long ops;
	double ns;

	if (seconds <= 0 || rounds < 1) {
		fprintf(stderr, "usage: rwlock-anchor [SECONDS] [ROUNDS]\n");
		return 2;
	}
	/*
	 * A segment ends by closing the pipe's ends while the writer may be
	 * blocked in write() on a full pipe: EPIPE must end its loop, not
	 * SIGPIPE the program.
	 */
	signal(SIGPIPE, SIG_IGN);
	for (pipe_load = 1; pipe_load >= 0; pipe_load--) {
		for (r = 0; r < rounds; r++) {
			for (i = 0; i < 4; i++) {
				ns = segment(order[i], pipe_load, seconds, &ops);
				printf("anchor workload=%s mode=%s round=%d ops=%ld ns_per_op=%.2f\n",
				       pipe_load ? "pipe" : "tight",
				       mode_names[order[i]], r + 1, ops, ns);
				fflush(stdout);
			}
		}
	}
	return 0;
}
