// SPDX-License-Identifier: GPL-2.0
/*
 * pipe-load: the 2003 RFC's case. Pairs of processes pass one byte at a
 * time through pipes, and nobody asked for SIGIO: every pipe read and
 * write still calls kill_fasync(). Placed "cross" (the default), writer
 * and reader run on different CPUs and share the pipe; placed "local",
 * both ends of pair i run on CPU i, as reaim's processes did, so that
 * the only line the CPUs share is a global lock's word. With SUBSCRIBERS
 * N, each pipe's read side has N subscribers on its fasync list (N more
 * open files of it, each owned by this process, which ignores SIGIO):
 * every call walks them.
 *
 * kill_fasync() calls are counted without touching the kernel: 6.1's
 * pipe_write() and pipe_read() call it once on the way out and once more
 * each time they sleep for room or data, so the calls are the writes,
 * the reads and the processes' voluntary context switches (read from
 * /proc after the processes are stopped). bench.sh checks this count
 * against ftrace's once per boot.
 *
 * usage: pipe-load PAIRS SECONDS [cross|local] [SUBSCRIBERS]
 * prints: pipe-load placement=P subscribers=M pairs=N seconds=S writes=W
 *         reads=R sleeps=Z calls=C writes_per_s=X
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench-cpu.h"
#include "pipe-subscribers.h"

/* voluntary_ctxt_switches of a stopped process, or 0 */
static long sleeps_of(pid_t pid)
{
	char path[64], line[128];
	long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	int pairs = argc > 1 ? atoi(argv[1]) : 2;
	double seconds = argc > 2 ? atof(argv[2]) : 3, start;
	const char *placement = argc > 3 ? argv[3] : "cross";
	int local = !strcmp(placement, "local");
	int subscribers = argc > 4 ? atoi(argv[4]) : 0;
	volatile long *writes, *reads;
	long total = 0, total_reads = 0, sleeps = 0;
	pid_t *pids;
	int i, n = 0;

	if (pairs < 1 || seconds <= 0 || (!local && strcmp(placement, "cross")) ||
	    subscribers < 0) {
		fprintf(stderr, "usage: pipe-load PAIRS SECONDS [cross|local] [SUBSCRIBERS]\n");
		return 2;
	}
	writes = mmap(NULL, 2 * pairs * sizeof(long), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(2 * pairs, sizeof(*pids));
	if (writes == MAP_FAILED || !pids)
		return 1;
	reads = writes + pairs;
	/* the subscribers' owner is this process, and the signals nobody's */
	signal(SIGIO, SIG_IGN);

	start = now_s();
	for (i = 0; i < pairs; i++) {
		int fds[2];
		char c = 0;

		if (pipe(fds) || subscribe(fds[0], subscribers))
			return 1;
		pids[n] = fork();
		if (pids[n++] == 0) {
			pin(local ? i : 2 * i);
			close(fds[0]);
			while (write(fds[1], &c, 1) == 1)
				writes[i]++;
			_exit(0);
		}
		pids[n] = fork();
		if (pids[n++] == 0) {
			pin(local ? i : 2 * i + 1);
			close(fds[1]);
			while (read(fds[0], &c, 1) == 1)
				reads[i]++;
			_exit(0);
		}
		close(fds[0]);
		close(fds[1]);
	}
	usleep(seconds * 1e6);
	for (i = 0; i < n; i++)
		kill(pids[i], SIGSTOP);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, WUNTRACED);
	seconds = now_s() - start;
	for (i = 0; i < pairs; i++) {
		total += writes[i];
		total_reads += reads[i];
	}
	for (i = 0; i < n; i++) {
		sleeps += sleeps_of(pids[i]);
		kill(pids[i], SIGKILL);
	}
	while (wait(NULL) > 0)
		;
	printf("pipe-load placement=%s subscribers=%d pairs=%d seconds=%.2f writes=%ld reads=%ld "
	       "sleeps=%ld calls=%ld writes_per_s=%.0f\n", placement, subscribers, pairs, seconds,
	       total, total_reads,
	       sleeps, total + total_reads + sleeps, total / seconds);
	return 0;
}
