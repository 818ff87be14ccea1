// SPDX-License-Identifier: GPL-2.0
/*
 * sigio-watch: one line per signal from every /dev/sigmouseN, for a
 * person moving the mouse. Each node gets its own real-time signal
 * (F_SETSIG), so the siginfo names the device, fd and band; the
 * packets that signal announced are read and printed with it, after
 * the node's running count of signals.
 *
 * Nodes that appear later (a hot-plugged mouse) are picked up within a
 * second; a node that hangs up is closed and its signal never reused.
 * At the end (the time limit, SIGINT or SIGTERM) one summary line per
 * node: signals, packets, packets lost (gaps in the sequence numbers),
 * and the summed motion.
 *
 * usage: sigio-watch [seconds]   (default: until interrupted)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sigmouse-node.h"

/* one real-time signal per node, SIGRTMIN + slot */
#define MAX_NODES 16

struct watched {
	int fd;			/* -1 once the node hung up */
	char node[300];
	char name[64];
	unsigned long signals;
	unsigned long packets;
	unsigned long long lost;
	unsigned long long last_seq;
	long long dx_sum;
	long long dy_sum;
};

static struct watched watched[MAX_NODES];
static int slots;

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

static int is_watched(const char *node)
{
	int i;

	for (i = 0; i < slots; i++)
		if (watched[i].fd >= 0 && !strcmp(watched[i].node, node))
			return 1;
	return 0;
}

/* Subscribe to every node not watched yet; returns how many are watched. */
static int watch_new_nodes(void)
{
	struct sigmouse_info info;
	struct watched *w;
	struct dirent *d;
	DIR *dev = opendir("/dev");
	char node[300];
	int fd, live = 0, i;

	if (!dev)
		return 0;
	while (slots < MAX_NODES && (d = readdir(dev))) {
		if (strncmp(d->d_name, "sigmouse", 8))
			continue;
		snprintf(node, sizeof(node), "/dev/%s", d->d_name);
		if (is_watched(node))
			continue;
		fd = open(node, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			continue;
		w = &watched[slots];
		if (sigmouse_node_info(fd, &info) ||
		    fcntl(fd, F_SETOWN, getpid()) ||
		    fcntl(fd, F_SETSIG, SIGRTMIN + slots) ||
		    fcntl(fd, F_SETFL, O_NONBLOCK | O_ASYNC)) {
			fprintf(stderr, "sigio-watch: %s: %s\n", node, strerror(errno));
			close(fd);
			continue;
		}
		memset(w, 0, sizeof(*w));
		w->fd = fd;
		snprintf(w->node, sizeof(w->node), "%s", node);
		snprintf(w->name, sizeof(w->name), "%s", info.name);
		printf("watching %s (%s) with signal SIGRTMIN+%d\n", w->node, w->name, slots);
		slots++;
	}
	closedir(dev);
	for (i = 0; i < slots; i++)
		live += watched[i].fd >= 0;
	return live;
}

/* Read one packet of w's; 0 when there was none. */
static int read_packet(struct watched *w, struct sigmouse_packet *p)
{
	if (read(w->fd, p, sizeof(*p)) != sizeof(*p))
		return 0;
	if (w->last_seq && p->seq > w->last_seq + 1)
		w->lost += p->seq - w->last_seq - 1;
	w->last_seq = p->seq;
	w->packets++;
	w->dx_sum += p->dx;
	w->dy_sum += p->dy;
	return 1;
}

static void print_packet(const struct sigmouse_packet *p)
{
	printf(" seq=%llu dx=%d dy=%d wheel=%d buttons=%#x%s",
	       (unsigned long long)p->seq, p->dx, p->dy, p->wheel, p->buttons,
	       p->flags & SIGMOUSE_PACKET_DROPPED ? " (drops before)" : "");
}

static void on_node_signal(struct watched *w, int slot, const siginfo_t *si)
{
	struct sigmouse_packet p;
	char band[96];

	w->signals++;
	band_names(si->si_band, band, sizeof(band));
	printf("%s #%lu: SIGRTMIN+%d %s band=%s fd=%d", w->node, w->signals, slot,
	       si_code_name(si->si_code), band, si->si_fd);
	if (si->si_code == POLL_IN && w->fd >= 0 && read_packet(w, &p))
		print_packet(&p);
	printf("\n");
	if (si->si_code == POLL_HUP && w->fd >= 0) {
		close(w->fd);
		w->fd = -1;
	}
}

/*
 * Plain SIGIO: the real-time queue was full, so the kernel fell back to
 * SIGIO without saying which fd. Every node is drained.
 */
static void on_queue_overflow(void)
{
	struct sigmouse_packet p;
	int i;

	printf("SIGIO (real-time queue full): reading every node\n");
	for (i = 0; i < slots; i++)
		while (watched[i].fd >= 0 && read_packet(&watched[i], &p)) {
			printf("%s:", watched[i].node);
			print_packet(&p);
			printf("\n");
		}
}

static void print_summary(void)
{
	int i;

	for (i = 0; i < slots; i++)
		printf("summary %s (%s): signals %lu packets %lu lost %llu dx %+lld dy %+lld%s\n",
		       watched[i].node, watched[i].name, watched[i].signals,
		       watched[i].packets, watched[i].lost, watched[i].dx_sum,
		       watched[i].dy_sum, watched[i].fd < 0 ? " (hung up)" : "");
}

int main(int argc, char **argv)
{
	struct timespec tick = { 1, 0 };
	time_t end = argc > 1 ? time(NULL) + atoi(argv[1]) : 0;
	time_t scanned;
	sigset_t set;
	siginfo_t si;
	int i, sig;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (i = 0; i < MAX_NODES; i++)
		sigaddset(&set, SIGRTMIN + i);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (!watch_new_nodes()) {
		fprintf(stderr, "sigio-watch: no /dev/sigmouse* node\n");
		return 1;
	}
	scanned = time(NULL);

	while (!end || time(NULL) < end) {
		sig = sigtimedwait(&set, &si, &tick);
		if (time(NULL) != scanned) {
			watch_new_nodes();
			scanned = time(NULL);
		}
		if (sig == SIGINT || sig == SIGTERM)
			break;
		if (sig == SIGIO)
			on_queue_overflow();
		else if (sig >= SIGRTMIN && sig < SIGRTMIN + slots)
			on_node_signal(&watched[sig - SIGRTMIN], sig - SIGRTMIN, &si);
	}
	print_summary();
	return 0;
}
