// SPDX-License-Identifier: GPL-2.0
/*
 * sigmouse-fuzz: random syscall sequences on /dev/sigmouseN from several
 * threads, while two uinput mice stream packets and are destroyed and
 * created again: two at once, so that what one device's calls share with
 * another's (the driver's globals, a design's global lock) is raced too. The choices are seeded and reproducible (the threads'
 * interleaving is the scheduler's); the seed is printed first and taken
 * back with -s. The calls' errors are expected, since the node comes and
 * goes: what counts is the kernel log, which the host runner judges, and
 * that a fresh node works exactly afterwards, which this checks.
 *
 * usage: sigmouse-fuzz [-s seed] [-t seconds] [-j threads]
 * exit status: 0, or 1 when the node did not work afterwards
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sigmouse-node.h"
#include "uinput-mouse.h"

#define MAX_THREADS	16
#define SLOTS		8
#define FUZZ_SIGNALS	4	/* SIGRTMIN .. SIGRTMIN+3, and SIGIO */
#define CHECK_SIG	(SIGRTMIN + FUZZ_SIGNALS)
#define CHECK_MOVES	10
#define STREAMERS	2
/* a streamer's device lives DEVICE_MIN_MS to five times that */
#define DEVICE_MIN_MS	250

enum op {
	OP_OPEN, OP_CLOSE, OP_DUP, OP_ASYNC, OP_NONBLOCK, OP_SETOWN,
	OP_SETOWN_EX, OP_SETSIG, OP_READ, OP_POLL, OP_IOCTL, OP_FORK,
	OP_REAP, OP_DRAIN, OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"open", "close", "dup", "async", "nonblock", "setown", "setown_ex",
	"setsig", "read", "poll", "ioctl", "fork", "reap", "drain",
};

static atomic_ulong op_count[OP_COUNT], op_errors, signals, packets, devices;
static atomic_int stopping;
static pthread_mutex_t node_lock = PTHREAD_MUTEX_INITIALIZER;
/* each streamer's node, "" until its first mouse is made */
static char current_node[STREAMERS][64];

struct worker {
	pthread_t thread;
	uint64_t rng;
	int fds[SLOTS];
	pid_t tid;
};

struct streamer {
	pthread_t thread;
	uint64_t rng;
	int index;
};

/* xorshift64*: small, and the same sequence for the same seed */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

static unsigned int pick(uint64_t *state, unsigned int n)
{
	return next_random(state) % n;
}

static void fuzz_signal_set(sigset_t *set)
{
	int i;

	sigemptyset(set);
	sigaddset(set, SIGIO);
	for (i = 0; i <= FUZZ_SIGNALS; i++)
		sigaddset(set, SIGRTMIN + i);
}

static int open_current(uint64_t *rng)
{
	static const int flags[] = { O_RDONLY, O_RDWR, O_RDONLY | O_NONBLOCK };
	char node[64];

	pthread_mutex_lock(&node_lock);
	memcpy(node, current_node[pick(rng, STREAMERS)], sizeof(node));
	pthread_mutex_unlock(&node_lock);
	return node[0] ? open(node, flags[pick(rng, 3)]) : -1;
}

/* One random call on one of w's slots; returns the call's result. */
static long fuzz_one(struct worker *w, enum op op)
{
	static void *const bad = (void *)8;
	/* more than a ring: a huge count reads at most what the ring holds */
	struct sigmouse_packet p[256];
	const size_t sizes[] = {
		0, 1, sizeof(p[0]) - 1, sizeof(p[0]), sizeof(p[0]) + 1, 4 * sizeof(p[0]),
		SIZE_MAX / 2,
	};
	struct timespec zero = { 0, 0 };
	struct f_owner_ex owner;
	struct sigmouse_info info;
	int slot = pick(&w->rng, SLOTS), fd = w->fds[slot], flags;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	sigset_t set;
	pid_t child;

	switch (op) {
	case OP_OPEN:
		if (fd >= 0)
			close(fd);
		w->fds[slot] = open_current(&w->rng);
		return w->fds[slot];
	case OP_CLOSE:
		w->fds[slot] = -1;
		return fd >= 0 ? close(fd) : 0;
	case OP_DUP:
		if (fd >= 0)
			close(fd);
		w->fds[slot] = dup(w->fds[pick(&w->rng, SLOTS)]);
		return w->fds[slot];
	case OP_ASYNC:
	case OP_NONBLOCK:
		flags = fcntl(fd, F_GETFL);
		if (flags < 0)
			return flags;
		return fcntl(fd, F_SETFL, flags ^ (op == OP_ASYNC ? O_ASYNC : O_NONBLOCK));
	case OP_SETOWN: {
		/*
		 * Never another process's number: it could be reused by then.
		 * Children own files by making themselves the owner (OP_FORK).
		 */
		const pid_t owners[] = { getpid(), w->tid, -getpgrp(), 0 };

		return fcntl(fd, F_SETOWN, owners[pick(&w->rng, 4)]);
	}
	case OP_SETOWN_EX:
		owner.type = (int[]){ F_OWNER_TID, F_OWNER_PID, F_OWNER_PGRP }[pick(&w->rng, 3)];
		owner.pid = owner.type == F_OWNER_TID ? w->tid :
			    owner.type == F_OWNER_PID ? getpid() : getpgrp();
		return fcntl(fd, F_SETOWN_EX, &owner);
	case OP_SETSIG:
		flags = pick(&w->rng, FUZZ_SIGNALS + 1);
		return fcntl(fd, F_SETSIG, flags ? SIGRTMIN + flags - 1 : 0);
	case OP_READ:
		/* only without blocking: the streamer may be between devices */
		flags = fcntl(fd, F_GETFL);
		if (flags < 0 || !(flags & O_NONBLOCK))
			return -1;
		return read(fd, pick(&w->rng, 4) ? (void *)p : bad,
			    sizes[pick(&w->rng, sizeof(sizes) / sizeof(sizes[0]))]);
	case OP_POLL:
		return poll(&pfd, 1, 0);
	case OP_IOCTL:
		if (pick(&w->rng, 2))
			return ioctl(fd, SIGMOUSE_IOC_INFO, pick(&w->rng, 4) ? (void *)&info : bad);
		return ioctl(fd, (unsigned int)next_random(&w->rng), &info);
	case OP_FORK:
		/*
		 * The child makes itself the owner of a shared file, toggles
		 * O_ASYNC and exits: the file keeps a dead owner (its struct
		 * pid, never a reused number) until someone sets another.
		 */
		child = fork();
		if (child == 0) {
			fcntl(fd, F_SETOWN, getpid());
			flags = fcntl(fd, F_GETFL);
			if (flags >= 0)
				fcntl(fd, F_SETFL, flags ^ O_ASYNC);
			_exit(0);
		}
		return child;
	case OP_REAP:
		return waitpid(-1, NULL, WNOHANG);
	case OP_DRAIN:
		/* signals sent to this thread (F_OWNER_TID) only it can take */
		fuzz_signal_set(&set);
		while (sigtimedwait(&set, NULL, &zero) > 0)
			atomic_fetch_add(&signals, 1);
		return 0;
	default:
		return 0;
	}
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	enum op op;
	int i;

	w->tid = gettid();
	while (!atomic_load(&stopping)) {
		op = pick(&w->rng, OP_COUNT);
		atomic_fetch_add(&op_count[op], 1);
		if (fuzz_one(w, op) < 0)
			atomic_fetch_add(&op_errors, 1);
	}
	for (i = 0; i < SLOTS; i++)
		if (w->fds[i] >= 0)
			close(w->fds[i]);
	return NULL;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * A uinput mouse that moves all the time and is replaced every so often;
 * each streamer's has its own name, so the two devices' info differs.
 * A device lives a time, not a number of moves: how many moves a second
 * the guest makes depends on the machine's load, and every run must
 * replace its devices a few times.
 */
static void *streamer_run(void *arg)
{
	struct streamer *s = arg;
	struct uinput_mouse mouse;
	char node[64], name[32];
	long long until;

	snprintf(name, sizeof(name), "sigmouse fuzz %d", s->index);
	while (!atomic_load(&stopping)) {
		if (uinput_mouse_create(&mouse, name) ||
		    uinput_mouse_node(&mouse, node, sizeof(node))) {
			fprintf(stderr, "sigmouse-fuzz: no uinput mouse\n");
			atomic_store(&stopping, 1);
			return NULL;
		}
		atomic_fetch_add(&devices, 1);
		pthread_mutex_lock(&node_lock);
		memcpy(current_node[s->index], node, sizeof(node));
		pthread_mutex_unlock(&node_lock);
		until = now_ms() + DEVICE_MIN_MS + pick(&s->rng, DEVICE_MIN_MS * 4);
		while (now_ms() < until && !atomic_load(&stopping)) {
			uinput_mouse_move(&mouse, 1, -1);
			atomic_fetch_add(&packets, 1);
			usleep(pick(&s->rng, 1000));
		}
		/* blocked readers and pollers of this node see the hangup */
		uinput_mouse_destroy(&mouse);
	}
	return NULL;
}

/* Signals for the process as a whole: taken and counted. */
static void *collector_run(void *arg)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	sigset_t set;

	(void)arg;
	fuzz_signal_set(&set);
	while (!atomic_load(&stopping))
		if (sigtimedwait(&set, NULL, &tick) > 0)
			atomic_fetch_add(&signals, 1);
	return NULL;
}

/* After the storm a new node delivers exactly: one signal per packet. */
static int check_fresh_node(void)
{
	struct timespec tick = { 5, 0 };
	struct uinput_mouse mouse;
	struct sigmouse_packet p;
	int fd, i, got = 0, ok = 1;
	char node[64];
	sigset_t set;
	siginfo_t si;

	if (uinput_mouse_create(&mouse, "sigmouse fuzz check") ||
	    uinput_mouse_node(&mouse, node, sizeof(node)))
		return 0;
	fd = open(node, O_RDONLY | O_NONBLOCK);
	if (fd < 0 || fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, CHECK_SIG) ||
	    fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC)) {
		uinput_mouse_destroy(&mouse);
		return 0;
	}
	for (i = 0; i < CHECK_MOVES; i++)
		uinput_mouse_move(&mouse, 2, 3);
	sigemptyset(&set);
	sigaddset(&set, CHECK_SIG);
	for (i = 0; i < CHECK_MOVES; i++) {
		if (sigtimedwait(&set, &si, &tick) != CHECK_SIG || si.si_fd != fd ||
		    si.si_code != POLL_IN)
			ok = 0;
		if (read(fd, &p, sizeof(p)) == sizeof(p) && p.seq == (uint64_t)i + 1 &&
		    p.dx == 2 && p.dy == 3)
			got++;
	}
	close(fd);
	uinput_mouse_destroy(&mouse);
	printf("sigmouse-fuzz: a fresh node afterwards: %d of %d packets in order, signals %s\n",
	       got, CHECK_MOVES, ok ? "exact" : "NOT exact");
	return ok && got == CHECK_MOVES;
}

int main(int argc, char **argv)
{
	struct worker workers[MAX_THREADS];
	struct streamer streamers[STREAMERS];
	uint64_t seed = (uint64_t)time(NULL);
	pthread_t collector;
	int seconds = 10, threads = 4, opt, i, j;
	sigset_t set;

	while ((opt = getopt(argc, argv, "s:t:j:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': seconds = atoi(optarg); break;
		case 'j': threads = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: sigmouse-fuzz [-s seed] [-t seconds] [-j threads]\n");
			return 2;
		}
	}
	if (threads < 1 || threads > MAX_THREADS || seconds < 1) {
		fprintf(stderr, "sigmouse-fuzz: 1 to %d threads, at least 1 second\n", MAX_THREADS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* F_SETOWN to the process group must reach no one else */
	setpgid(0, 0);
	printf("sigmouse-fuzz: seed %llu, %d threads, %d s (replay: sigmouse-fuzz -s %llu -j %d)\n",
	       (unsigned long long)seed, threads, seconds, (unsigned long long)seed, threads);

	/* every thread inherits the mask: no fuzz signal kills the process */
	fuzz_signal_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (i = 0; i < STREAMERS; i++) {
		streamers[i].rng = (seed ^ 0x9e3779b97f4a7c15ULL) + i;
		streamers[i].index = i;
		pthread_create(&streamers[i].thread, NULL, streamer_run, &streamers[i]);
	}
	pthread_create(&collector, NULL, collector_run, NULL);
	for (i = 0; i < threads; i++) {
		workers[i].rng = (seed + 1) * 1000003ULL + i;
		for (j = 0; j < SLOTS; j++)
			workers[i].fds[j] = -1;
		pthread_create(&workers[i].thread, NULL, worker_run, &workers[i]);
	}
	sleep(seconds);
	atomic_store(&stopping, 1);
	for (i = 0; i < threads; i++)
		pthread_join(workers[i].thread, NULL);
	for (i = 0; i < STREAMERS; i++)
		pthread_join(streamers[i].thread, NULL);
	pthread_join(collector, NULL);
	while (waitpid(-1, NULL, 0) > 0)
		;

	printf("sigmouse-fuzz: %lu devices, %lu packets, %lu signals taken, %lu calls failed;",
	       atomic_load(&devices), atomic_load(&packets), atomic_load(&signals),
	       atomic_load(&op_errors));
	for (i = 0; i < OP_COUNT; i++)
		printf(" %s %lu", op_names[i], atomic_load(&op_count[i]));
	printf("\n");
	return check_fresh_node() ? 0 : 1;
}
