// SPDX-License-Identifier: GPL-2.0
/*
 * sigmouse-compat32 NODE COUNT DX DY: read a node as a 32-bit process.
 *
 * Built with -m32 and run on the 64-bit kernel, it goes through the
 * compat paths: SIGMOUSE_IOC_INFO via compat_ptr_ioctl, packets read
 * with the 32-bit layout of struct sigmouse_packet, and the siginfo of
 * each signal as a 32-bit process receives it. It prints "ready" once
 * subscribed, expects COUNT packets of motion (DX, DY), each with its
 * real-time signal, and exits 0, or prints why not and exits 1. Only
 * the UAPI header is used: that is the contract under test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/sigmouse.h>

#define WAIT_MS	10000

static int fail(const char *what)
{
	printf("%s: %s\n", what, errno ? strerror(errno) : "unexpected value");
	return 1;
}

int main(int argc, char **argv)
{
	struct timespec tick = { WAIT_MS / 1000, 0 };
	int sig = SIGRTMIN + 1, fd, count, dx, dy, i;
	struct sigmouse_info info;
	struct sigmouse_packet p;
	unsigned long long seq = 0;
	sigset_t set;
	siginfo_t si;

	if (argc != 5 || (count = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: %s NODE COUNT DX DY\n", argv[0]);
		return 2;
	}
	dx = atoi(argv[3]);
	dy = atoi(argv[4]);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);

	fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fail(argv[1]);
	errno = 0;
	if (ioctl(fd, SIGMOUSE_IOC_INFO, &info))
		return fail("SIGMOUSE_IOC_INFO");
	if (info.packet_size != sizeof(p) || info.ring_size < (unsigned int)count ||
	    info.opens != 2 || !memchr(info.name, '\0', sizeof(info.name)))
		return fail("SIGMOUSE_IOC_INFO fields");
	if (fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, sig) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC))
		return fail("subscribing");
	printf("ready\n");
	fflush(stdout);

	for (i = 0; i < count; i++) {
		errno = 0;
		if (sigtimedwait(&set, &si, &tick) != sig)
			return fail("waiting for the signal");
		if (si.si_code != POLL_IN || si.si_fd != fd ||
		    si.si_band != (POLLIN | POLLRDNORM)) {
			printf("signal %d: code %d fd %d band %#lx\n", i,
			       si.si_code, si.si_fd, (unsigned long)si.si_band);
			return 1;
		}
		if (read(fd, &p, sizeof(p)) != (ssize_t)sizeof(p))
			return fail("read");
		if ((seq && p.seq != seq + 1) || p.dx != dx || p.dy != dy || p.flags) {
			printf("packet %d: seq %llu after %llu, dx %d dy %d flags %#x\n",
			       i, (unsigned long long)p.seq, seq, p.dx, p.dy, p.flags);
			return 1;
		}
		seq = p.seq;
	}
	return 0;
}
