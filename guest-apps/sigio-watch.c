// SPDX-License-Identifier: GPL-2.0
/*
 * sigio-watch: one line per signal from every /dev/sigmouseN, for a
 * person moving the mouse. Each node gets its own real-time signal
 * (F_SETSIG), so the siginfo names the device, fd and band; the
 * packets that signal announced are read and printed with it.
 *
 * usage: sigio-watch [seconds]   (default: until killed)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sigmouse-node.h"

#define MAX_NODES 16

struct watched {
	int fd;
	char node[300];
	char name[64];
};

static const char *si_code_name(int code)
{
	switch (code) {
	case POLL_IN: return "POLL_IN";
	case POLL_OUT: return "POLL_OUT";
	case POLL_MSG: return "POLL_MSG";
	case POLL_ERR: return "POLL_ERR";
	case POLL_PRI: return "POLL_PRI";
	case POLL_HUP: return "POLL_HUP";
	case SI_KERNEL: return "SI_KERNEL";
	default: return "?";
	}
}

static void band_names(long band, char *buf, size_t len)
{
	static const struct { long bit; const char *name; } bits[] = {
		{ POLLIN, "POLLIN" }, { POLLPRI, "POLLPRI" }, { POLLOUT, "POLLOUT" },
		{ POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" },
		{ POLLRDNORM, "POLLRDNORM" }, { POLLMSG, "POLLMSG" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (band & bits[i].bit)
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", bits[i].name);
}

static int watch_all(struct watched *w, sigset_t *set)
{
	struct sigmouse_info info;
	struct dirent *d;
	DIR *dev = opendir("/dev");
	int n = 0;

	if (!dev)
		return 0;
	while (n < MAX_NODES && (d = readdir(dev))) {
		if (strncmp(d->d_name, "sigmouse", 8))
			continue;
		snprintf(w[n].node, sizeof(w[n].node), "/dev/%s", d->d_name);
		w[n].fd = open(w[n].node, O_RDONLY | O_NONBLOCK);
		if (w[n].fd < 0 || sigmouse_node_info(w[n].fd, &info))
			continue;
		snprintf(w[n].name, sizeof(w[n].name), "%s", info.name);
		sigaddset(set, SIGRTMIN + n);
		if (fcntl(w[n].fd, F_SETOWN, getpid()) ||
		    fcntl(w[n].fd, F_SETSIG, SIGRTMIN + n) ||
		    fcntl(w[n].fd, F_SETFL, O_NONBLOCK | O_ASYNC))
			continue;
		printf("watching %s (%s) with signal SIGRTMIN+%d\n",
		       w[n].node, w[n].name, n);
		n++;
	}
	closedir(dev);
	return n;
}

int main(int argc, char **argv)
{
	struct watched w[MAX_NODES];
	struct sigmouse_packet p;
	struct timespec tick = { 1, 0 };
	time_t end = argc > 1 ? time(NULL) + atoi(argv[1]) : 0;
	char band[96];
	sigset_t set;
	siginfo_t si;
	int n, i, sig;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	n = watch_all(w, &set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (!n) {
		fprintf(stderr, "sigio-watch: no /dev/sigmouse* node\n");
		return 1;
	}

	while (!end || time(NULL) < end) {
		sig = sigtimedwait(&set, &si, &tick);
		if (sig < 0)
			continue;
		i = sig - SIGRTMIN;
		band_names(si.si_band, band, sizeof(band));
		printf("%s: SIGRTMIN+%d %s band=%s fd=%d", i >= 0 && i < n ? w[i].node : "?",
		       i, si_code_name(si.si_code), band, si.si_fd);
		if (i >= 0 && i < n && si.si_code == POLL_IN &&
		    read(w[i].fd, &p, sizeof(p)) == sizeof(p))
			printf(" seq=%llu dx=%d dy=%d wheel=%d buttons=%#x%s",
			       (unsigned long long)p.seq, p.dx, p.dy, p.wheel,
			       p.buttons, p.flags & SIGMOUSE_PACKET_DROPPED ? " (drops before)" : "");
		printf("\n");
	}
	return 0;
}
