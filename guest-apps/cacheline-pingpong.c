// SPDX-License-Identifier: GPL-2.0
/*
 * cacheline-pingpong: what moving one cache line from one CPU to another
 * costs on whatever runs this binary (make bench runs it on the host,
 * itself a virtual machine, and in the guest). Two threads pinned to
 * CPUs 0 and 1 hand a turn back and forth through one word: each waits
 * to see the other's value, then writes its own, so every handover
 * moves the line once. A round's figure is its time over its handovers.
 *
 * usage: cacheline-pingpong [HANDOVERS per round] [ROUNDS]
 * prints: pingpong round=R handovers=N ns_per_transfer=X
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench-cpu.h"

/* the word alone on its line */
static struct {
	long turn;
} line __attribute__((aligned(64)));

struct player {
	pthread_t thread;
	int cpu;
	long me;	/* the turn values this player waits for: me, me + 2, ... */
	long last;
};

static void *play(void *arg)
{
	struct player *p = arg;
	long turn;

	pin(p->cpu);
	for (turn = p->me; turn < p->last; turn += 2) {
		while (__atomic_load_n(&line.turn, __ATOMIC_ACQUIRE) != turn)
			;
		__atomic_store_n(&line.turn, turn + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long handovers = argc > 1 ? atol(argv[1]) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : 21, r, i;
	struct player players[2];
	double start;

	if (handovers < 2 || rounds < 1) {
		fprintf(stderr, "usage: cacheline-pingpong [HANDOVERS] [ROUNDS]\n");
		return 2;
	}
	for (r = 1; r <= rounds; r++) {
		line.turn = 0;
		for (i = 0; i < 2; i++)
			players[i] = (struct player){ .cpu = i, .me = i, .last = handovers };
		start = now_s();
		for (i = 0; i < 2; i++)
			if (pthread_create(&players[i].thread, NULL, play, &players[i]))
				return 1;
		for (i = 0; i < 2; i++)
			pthread_join(players[i].thread, NULL);
		printf("pingpong round=%d handovers=%ld ns_per_transfer=%.1f\n", r, handovers,
		       (now_s() - start) * 1e9 / handovers);
	}
	return 0;
}
