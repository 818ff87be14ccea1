// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-paced: the pipe load open-loop, at a rate. A writer on CPU 0
 * offers RATE one-byte writes a second on a fixed schedule (write k is
 * due at k / RATE s: a late write does not move the next one, so a slow
 * call cannot lower the rate it is measured at), a reader on CPU 1
 * drains the pipe, and nobody subscribed: each write is one
 * kill_fasync() call on the read side's empty list, each read one on
 * the write side's. Each write() is timed; the designs differ only in
 * kill_fasync(), so their difference at a rate is what the call costs
 * there. Past what the guest can do, the achieved rate falls short of
 * the offered one, and is printed beside it.
 *
 * usage: pipe-paced SECONDS RATE
 * prints: pipe-paced rate=R achieved=A seconds=S writes=W median_ns=M
 *         p90_ns=P mean_ns=X
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-cpu.h"

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[1]) : 0, rate = argc > 2 ? atof(argv[2]) : 0;
	uint64_t start, end, due, *took, sum = 0;
	long writes = 0, max;
	int fds[2];
	pid_t reader;
	char c = 0;

	if (seconds <= 0 || rate <= 0) {
		fprintf(stderr, "usage: pipe-paced SECONDS RATE\n");
		return 2;
	}
	max = seconds * rate + 1;
	took = malloc(max * sizeof(*took));
	if (!took || pipe(fds))
		return 1;
	reader = fork();
	if (reader == 0) {
		pin(1);
		close(fds[1]);
		while (read(fds[0], &c, 1) == 1)
			;
		_exit(0);
	}
	pin(0);
	close(fds[0]);
	start = now_ns();
	end = start + seconds * 1e9;
	for (due = start; due < end && writes < max;
	     due = start + (uint64_t)(writes * 1e9 / rate)) {
		uint64_t before;

		while (now_ns() < due)
			;
		before = now_ns();
		if (write(fds[1], &c, 1) != 1) {
			perror("pipe-paced: write");
			return 1;
		}
		took[writes] = now_ns() - before;
		sum += took[writes++];
	}
	seconds = (now_ns() - start) / 1e9;
	close(fds[1]);
	waitpid(reader, NULL, 0);
	if (!writes)
		return 1;
	qsort(took, writes, sizeof(*took), by_value);
	printf("pipe-paced rate=%.0f achieved=%.0f seconds=%.2f writes=%ld median_ns=%llu "
	       "p90_ns=%llu mean_ns=%.0f\n", rate, writes / seconds, seconds, writes,
	       (unsigned long long)took[writes / 2], (unsigned long long)took[writes * 9 / 10],
	       (double)sum / writes);
	return 0;
}
