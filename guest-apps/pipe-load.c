// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-load: the 2003 RFC's case. Pairs of processes pass one byte at a
 * time through pipes, writer and reader on different CPUs, and nobody
 * asked for SIGIO: every pipe read and write still calls kill_fasync().
 *
 * usage: pipe-load PAIRS SECONDS
 * prints: pipe-load pairs=N seconds=S writes=W writes_per_s=R
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int pairs = argc > 1 ? atoi(argv[1]) : 2;
	double seconds = argc > 2 ? atof(argv[2]) : 3, start;
	volatile long *writes;
	long total = 0;
	pid_t *pids;
	int i, n = 0;

	if (pairs < 1 || seconds <= 0) {
		fprintf(stderr, "usage: pipe-load PAIRS SECONDS\n");
		return 2;
	}
	writes = mmap(NULL, pairs * sizeof(long), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(2 * pairs, sizeof(*pids));
	if (writes == MAP_FAILED || !pids)
		return 1;

	start = now_s();
	for (i = 0; i < pairs; i++) {
		int fds[2];
		char c = 0;

		if (pipe(fds))
			return 1;
		pids[n] = fork();
		if (pids[n++] == 0) {
			pin(2 * i);
			close(fds[0]);
			while (write(fds[1], &c, 1) == 1)
				writes[i]++;
			_exit(0);
		}
		pids[n] = fork();
		if (pids[n++] == 0) {
			pin(2 * i + 1);
			close(fds[1]);
			while (read(fds[0], &c, 1) == 1)
				;
			_exit(0);
		}
		close(fds[0]);
		close(fds[1]);
	}
	usleep(seconds * 1e6);
	for (i = 0; i < pairs; i++)
		total += writes[i];
	seconds = now_s() - start;
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	printf("pipe-load pairs=%d seconds=%.2f writes=%ld writes_per_s=%.0f\n",
	       pairs, seconds, total, total / seconds);
	return 0;
}
