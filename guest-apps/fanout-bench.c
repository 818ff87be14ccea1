// SPDX-License-Identifier: GPL-2.0
/*
 * fanout-bench: a uinput mouse streams packets as fast as its
 * subscribers take them into one node, sigmouse or (the in-tree peer)
 * evdev, with S open files subscribed with F_SETSIG real-time signals,
 * all owned by one receiver thread. The writer keeps at most WINDOW
 * packets in flight, so no ring and no signal queue overflows while
 * the kernel keeps up; any loss is counted, never hidden.
 *
 * The receiver reads, per signal, the packet from si_fd and records
 * the latency from the input core's timestamp to the handler.
 * With --churn N, N more threads switch O_ASYNC on and off on files of
 * their own in a loop, racing fasync_helper() with delivery. With --pin
 * together the writer and the receiver run on CPU 0 both, with --pin
 * apart the receiver on CPU 1; with none (the default), the scheduler
 * places them.
 *
 * usage: fanout-bench sigmouse|evdev SUBSCRIBERS SECONDS [--churn N]
 *                     [--pin none|together|apart]
 * prints one line: fanout node=... subscribers=... packets_per_s=...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench-cpu.h"
#include "uinput-mouse.h"
#include "sigmouse-node.h"

#define WINDOW		8
#define MAX_SUBSCRIBERS	256
#define MAX_SAMPLES	(1 << 20)
#define SIG_DATA	(SIGRTMIN + 1)
#define SIG_CHURN	(SIGRTMIN + 2)

struct bench {
	int evdev;
	int fds[MAX_SUBSCRIBERS];
	int subscribers;
	volatile long signals;	/* real-time signals taken, all subscribers */
	volatile long fallbacks;	/* plain SIGIO: the RT queue was full */
	volatile int stop;
	pid_t receiver_tid;
	uint32_t *latency_ns;
	long samples;
	const char *node;
	volatile long toggles;
	int receiver_cpu;	/* -1: unpinned */
};

static const char * const pin_names[] = { "none", "together", "apart", NULL };

/* the index of name in pin_names, or -1 */
static int pin_named(const char *name)
{
	int i;

	for (i = 0; pin_names[i]; i++)
		if (strcmp(name, pin_names[i]) == 0)
			return i;
	return -1;
}

/* one packet from fd; its input-core time, or 0 */
static uint64_t read_packet_time(struct bench *b, int fd)
{
	if (!b->evdev) {
		struct sigmouse_packet p;

		return read(fd, &p, sizeof(p)) == sizeof(p) ? p.time_ns : 0;
	} else {
		struct input_event ev[2];	/* REL_X, SYN_REPORT */

		if (read(fd, ev, sizeof(ev)) != sizeof(ev))
			return 0;
		return ev[1].input_event_sec * 1000000000ULL +
		       ev[1].input_event_usec * 1000ULL;
	}
}

static void *receive(void *arg)
{
	struct bench *b = arg;
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	sigset_t set;
	siginfo_t si;
	uint64_t t;
	int sig;

	if (b->receiver_cpu >= 0)
		pin(b->receiver_cpu);
	b->receiver_tid = syscall(SYS_gettid);
	sigemptyset(&set);
	sigaddset(&set, SIG_DATA);
	sigaddset(&set, SIGIO);
	while (!b->stop) {
		sig = sigtimedwait(&set, &si, &tick);
		if (sig == SIGIO) {
			b->fallbacks++;
			continue;
		}
		if (sig != SIG_DATA)
			continue;
		t = read_packet_time(b, si.si_fd);
		if (t && b->samples < MAX_SAMPLES)
			b->latency_ns[b->samples++] = now_ns() - t;
		b->signals++;
	}
	return NULL;
}

static void *churn(void *arg)
{
	struct bench *b = arg;
	struct timespec zero = { 0, 0 };
	int fd = open(b->node, O_RDONLY | O_NONBLOCK);
	sigset_t set;

	if (fd < 0)
		return NULL;
	sigemptyset(&set);
	sigaddset(&set, SIG_CHURN);
	fcntl(fd, F_SETOWN, syscall(SYS_gettid));
	fcntl(fd, F_SETSIG, SIG_CHURN);
	while (!b->stop) {
		fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC);
		fcntl(fd, F_SETFL, O_NONBLOCK);
		__atomic_add_fetch(&b->toggles, 1, __ATOMIC_RELAXED);
		/* their signals would fill the per-user queue the receiver needs */
		while (sigtimedwait(&set, NULL, &zero) > 0)
			;
	}
	close(fd);
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int subscribe(struct bench *b, int fd)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = b->receiver_tid };
	int clock = CLOCK_MONOTONIC;

	if (b->evdev && ioctl(fd, EVIOCSCLOCKID, &clock))
		return -1;
	if (fcntl(fd, F_SETOWN_EX, &owner) || fcntl(fd, F_SETSIG, SIG_DATA))
		return -1;
	return fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC);
}

/*
 * The latency distribution of sorted samples in power-of-two buckets:
 * "latency_hist us=LOW:COUNT,..." where LOW is a bucket's lower bound
 * in microseconds (0 for below 1 us).
 */
static void print_histogram(const uint32_t *ns, long samples)
{
	long i = 0, count;
	uint64_t low = 0, high = 1000;
	const char *sep = "";

	printf("latency_hist us=");
	while (i < samples) {
		for (count = 0; i < samples && ns[i] < high; i++)
			count++;
		if (count) {
			printf("%s%llu:%ld", sep, (unsigned long long)(low / 1000), count);
			sep = ",";
		}
		low = high;
		high *= 2;
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	static struct bench b;
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	struct uinput_mouse mouse;
	pthread_t receiver, churners[64];
	long packets = 0, expected, lost;
	int i, nchurn = 0, pinning = 0, ret;
	char node[300], syspath[300];
	double seconds, elapsed;
	uint64_t start, deadline;
	sigset_t set;

	if (argc < 4 || (strcmp(argv[1], "sigmouse") && strcmp(argv[1], "evdev")))
		goto usage;
	b.evdev = strcmp(argv[1], "evdev") == 0;
	b.subscribers = atoi(argv[2]);
	seconds = atof(argv[3]);
	for (i = 4; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--churn") == 0)
			nchurn = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--pin") == 0)
			pinning = pin_named(argv[i + 1]);
		else
			goto usage;
	}
	if (i != argc || pinning < 0)
		goto usage;
	if (b.subscribers < 1 || b.subscribers > MAX_SUBSCRIBERS || seconds <= 0 ||
	    nchurn < 0 || nchurn > 64) {
		fprintf(stderr, "fanout-bench: 1..%d subscribers, 0..64 churn threads\n",
			MAX_SUBSCRIBERS);
		return 2;
	}
	/* the writer is this thread, on CPU 0 when pinned */
	b.receiver_cpu = pinning - 1;
	if (pinning)
		pin(0);
	/* room for every signal in flight: WINDOW packets to each subscriber */
	setrlimit(RLIMIT_SIGPENDING, &unlimited);
	b.latency_ns = calloc(MAX_SAMPLES, sizeof(*b.latency_ns));

	sigemptyset(&set);
	sigaddset(&set, SIG_DATA);
	sigaddset(&set, SIG_CHURN);
	sigaddset(&set, SIGIO);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	ret = uinput_mouse_create(&mouse, "fanout-bench uinput");
	if (ret) {
		fprintf(stderr, "fanout-bench: uinput: %s\n", strerror(-ret));
		return 1;
	}
	snprintf(syspath, sizeof(syspath), "%s", uinput_mouse_syspath(&mouse) ?: "");
	if (b.evdev ? evdev_node_of_input(syspath, node, sizeof(node)) :
		      uinput_mouse_node(&mouse, node, sizeof(node))) {
		fprintf(stderr, "fanout-bench: no %s node for the uinput mouse\n", argv[1]);
		return 1;
	}
	b.node = node;

	pthread_create(&receiver, NULL, receive, &b);
	while (!__atomic_load_n(&b.receiver_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (i = 0; i < b.subscribers; i++) {
		b.fds[i] = open(node, O_RDONLY | O_NONBLOCK);
		if (b.fds[i] < 0 || subscribe(&b, b.fds[i])) {
			fprintf(stderr, "fanout-bench: %s: %s\n", node, strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < nchurn; i++)
		pthread_create(&churners[i], NULL, churn, &b);

	start = now_ns();
	deadline = start + seconds * 1e9;
	while (now_ns() < deadline) {
		/* at most WINDOW packets whose signals are not all taken */
		if ((packets - WINDOW) * b.subscribers > b.signals + b.fallbacks) {
			sched_yield();
			continue;
		}
		if (uinput_mouse_move(&mouse, 1, 0))
			break;
		packets++;
	}
	elapsed = (now_ns() - start) / 1e9;
	/* let the last window arrive */
	expected = packets * b.subscribers;
	for (i = 0; i < 200 && b.signals + b.fallbacks < expected; i++)
		usleep(10000);
	b.stop = 1;
	pthread_join(receiver, NULL);
	for (i = 0; i < nchurn; i++)
		pthread_join(churners[i], NULL);
	uinput_mouse_destroy(&mouse);

	lost = expected - b.signals;
	qsort(b.latency_ns, b.samples, sizeof(*b.latency_ns), cmp_u32);
	printf("fanout node=%s pin=%s subscribers=%d churn=%d seconds=%.2f packets=%ld"
	       " packets_per_s=%.0f signals_per_s=%.0f lost=%ld fallbacks=%ld"
	       " p50_us=%.1f p99_us=%.1f max_us=%.1f toggles_per_s=%.0f\n",
	       argv[1], pin_names[pinning], b.subscribers, nchurn, elapsed, packets,
	       packets / elapsed, b.signals / elapsed, lost, b.fallbacks,
	       b.samples ? b.latency_ns[b.samples / 2] / 1e3 : 0,
	       b.samples ? b.latency_ns[b.samples * 99 / 100] / 1e3 : 0,
	       b.samples ? b.latency_ns[b.samples - 1] / 1e3 : 0,
	       b.toggles / elapsed);
	print_histogram(b.latency_ns, b.samples);
	return 0;

usage:
	fprintf(stderr, "usage: fanout-bench sigmouse|evdev SUBSCRIBERS SECONDS [--churn N] "
		"[--pin none|together|apart]\n");
	return 2;
}
