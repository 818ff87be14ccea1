// SPDX-License-Identifier: GPL-2.0
/*
 * kill-fasync-calls: kill_fasync() calls in phases, for the host's TCG
 * plugin that counts each call's instructions (make bench's path
 * lengths). For each list length N given, a new pipe gets N subscribers
 * on its read side, sync() tells the plugin a phase begins (its mark is
 * sync's system call), and WRITES one-byte writes follow: each is one
 * pipe_write(), which calls kill_fasync() on the read side's list once
 * and never sleeps, as the pipe never fills. A last sync() ends the last
 * phase. SIGIO is ignored: every signal a call sends takes the same
 * short path, so a phase's calls all run the same instructions.
 *
 * usage: kill-fasync-calls WRITES N...
 * prints: kill-fasync-calls phase=P subscribers=N writes=W
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pipe-subscribers.h"

/* one-byte writes the default pipe holds without a read: 16 pages */
#define MAX_WRITES 65536

int main(int argc, char **argv)
{
	int writes = argc > 2 ? atoi(argv[1]) : 0;
	int i, phase;

	if (writes < 1 || writes > MAX_WRITES) {
		fprintf(stderr, "usage: kill-fasync-calls WRITES N... (1 <= WRITES <= %d)\n",
			MAX_WRITES);
		return 2;
	}
	signal(SIGIO, SIG_IGN);
	for (phase = 1; phase < argc - 1; phase++) {
		int subscribers = atoi(argv[phase + 1]), fds[2];

		if (subscribers < 0 || pipe(fds) || subscribe(fds[0], subscribers))
			return 1;
		sync();
		for (i = 0; i < writes; i++)
			if (write(fds[1], "x", 1) != 1) {
				perror("kill-fasync-calls: write");
				return 1;
			}
		printf("kill-fasync-calls phase=%d subscribers=%d writes=%d\n", phase, subscribers,
		       writes);
	}
	sync();
	return 0;
}
