// SPDX-License-Identifier: GPL-2.0
/*
 * sigio-watch: one line per signal from every /dev/sigmouseN, for a
 * person moving the mouse. Each node gets its own real-time signal
 * (F_SETSIG), so the siginfo names the device, fd and band; the
 * packets that signal announced are read and printed with it.
 *
 * Nodes that appear later (a hot-plugged mouse) are picked up within a
 * second; a node that hangs up is closed and its signal never reused.
 * At the end (the time limit, SIGINT or SIGTERM) one summary line per
 * node: signals, packets, packets lost (gaps in the sequence numbers),
 * and the summed motion.
 *
 * usage: sigio-watch [--screen TTY] [seconds]   (default: until interrupted)
 *
 * --screen TTY draws on a text console too (make run's window): a header
 * that stays, the fasync design and notify mode the kernel booted with
 * and each node's running count of signals, over the lines, each cut to
 * the screen's width rather than wrapped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "sigmouse-node.h"
#include "sysfs-file.h"

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

/*
 * --screen's console: HEADER_ROWS rows that stay (what the kernel booted
 * with, the counts, a rule), the lines scrolling below them
 */
#define HEADER_ROWS	3
#define LINE_LEN	256
static FILE *screen;
static int screen_cols = 80;

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

/* si_band's POLL* bits, without the prefix every one of them has; 0 if none */
static void band_names(long band, char *buf, size_t len)
{
	static const struct { long bit; const char *name; } bits[] = {
		{ POLLIN, "IN" }, { POLLPRI, "PRI" }, { POLLOUT, "OUT" },
		{ POLLERR, "ERR" }, { POLLHUP, "HUP" },
		{ POLLRDNORM, "RDNORM" }, { POLLMSG, "MSG" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (band & bits[i].bit)
			n += snprintf(buf + n, len - n, "%s%s", n ? "|" : "", bits[i].name);
	if (!n)
		snprintf(buf, len, "0");
}

/* the node's name, its path without "/dev/" */
static const char *node_name(const struct watched *w)
{
	return w->node + strlen("/dev/");
}

/* The line on stdout and, cut to its width, in --screen's scrolling rows. */
static void say(const char *fmt, ...)
{
	char line[LINE_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	printf("%s\n", line);
	if (screen)
		fprintf(screen, "%.*s\n", screen_cols - 1, line);
}

/* --screen's second row: each node's signals so far */
static void show_counts(void)
{
	char row[LINE_LEN];
	size_t n = snprintf(row, sizeof(row), "signals:");
	int i;

	if (!screen)
		return;
	for (i = 0; i < slots && n < sizeof(row); i++)
		n += snprintf(row + n, sizeof(row) - n, " %s %lu%s", node_name(&watched[i]),
			      watched[i].signals, watched[i].fd < 0 ? " (gone)" : "");
	/* to the row and back to the line being written (DECSC, DECRC) */
	fprintf(screen, "\0337\033[2;1H\033[K%.*s\0338", screen_cols - 1, row);
	fflush(screen);
}

/*
 * Clear the console tty and draw the header; the rows below it scroll
 * (DECSTBM, which also puts the cursor home) and the lines go there.
 */
static int open_screen(const char *tty, const char *booted)
{
	struct winsize size = { .ws_row = 25, .ws_col = 80 };
	int i;

	screen = fopen(tty, "w");
	if (!screen)
		return -1;
	ioctl(fileno(screen), TIOCGWINSZ, &size);
	screen_cols = size.ws_col > 1 ? size.ws_col : 80;
	fprintf(screen, "\033[H\033[J%.*s\n\n", screen_cols - 1, booted);
	for (i = 0; i < screen_cols - 1; i++)
		fputc('-', screen);
	fprintf(screen, "\033[%d;%dr\033[%d;1H", HEADER_ROWS + 1,
		size.ws_row > HEADER_ROWS ? size.ws_row : 25, HEADER_ROWS + 1);
	show_counts();
	return 0;
}

/* The whole console scrolls again, for whatever writes to it next. */
static void close_screen(void)
{
	if (screen) {
		fprintf(screen, "\033[r");
		fclose(screen);
	}
}

/* "sigio-watch: fasync_lock rcu, notify fasync": what the kernel booted with */
static void booted_with(char *buf, size_t len)
{
	char lock[32] = "?", notify[32] = "?";

	read_line("/sys/kernel/debug/fasync_lock", lock, sizeof(lock));
	read_line("/sys/module/sigmouse/parameters/notify", notify, sizeof(notify));
	snprintf(buf, len, "sigio-watch: fasync_lock %s, notify %s", lock, notify);
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
		say("watching %s (%s) with signal SIGRTMIN+%d", w->node, w->name, slots);
		slots++;
		show_counts();
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

/* seq=... dx=... dy=... wheel=... buttons=...: what the line says of p */
static void packet_text(const struct sigmouse_packet *p, char *buf, size_t len)
{
	snprintf(buf, len, "seq=%llu dx=%d dy=%d wheel=%d buttons=%#x%s",
		 (unsigned long long)p->seq, p->dx, p->dy, p->wheel, p->buttons,
		 p->flags & SIGMOUSE_PACKET_DROPPED ? " (drops before)" : "");
}

/*
 * The node's name, si_code, si_band and si_fd, and the packet the signal
 * announced: the signal's number is the node's (its "watching" line),
 * the running count is on the screen's header and in the summary.
 */
static void on_node_signal(struct watched *w, const siginfo_t *si)
{
	struct sigmouse_packet p;
	char band[96], packet[LINE_LEN] = "";

	w->signals++;
	band_names(si->si_band, band, sizeof(band));
	if (si->si_code == POLL_IN && w->fd >= 0 && read_packet(w, &p))
		packet_text(&p, packet, sizeof(packet));
	say("%s %s %s fd=%d%s%s", node_name(w), si_code_name(si->si_code), band,
	    si->si_fd, *packet ? " " : "", packet);
	if (si->si_code == POLL_HUP && w->fd >= 0) {
		close(w->fd);
		w->fd = -1;
	}
	show_counts();
}

/*
 * Plain SIGIO: the real-time queue was full, so the kernel fell back to
 * SIGIO without saying which fd. Every node is drained.
 */
static void on_queue_overflow(void)
{
	struct sigmouse_packet p;
	char packet[LINE_LEN];
	int i;

	say("SIGIO (real-time queue full): reading every node");
	for (i = 0; i < slots; i++)
		while (watched[i].fd >= 0 && read_packet(&watched[i], &p)) {
			packet_text(&p, packet, sizeof(packet));
			say("%s: %s", node_name(&watched[i]), packet);
		}
}

static void print_summary(void)
{
	int i;

	for (i = 0; i < slots; i++)
		say("summary %s: signals %lu packets %lu lost %llu dx %+lld dy %+lld%s",
		    node_name(&watched[i]), watched[i].signals, watched[i].packets,
		    watched[i].lost, watched[i].dx_sum, watched[i].dy_sum,
		    watched[i].fd < 0 ? " (hung up)" : "");
}

static int usage(void)
{
	fprintf(stderr, "usage: sigio-watch [--screen TTY] [seconds]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "screen", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct timespec tick = { 1, 0 };
	char booted[LINE_LEN], *rest;
	const char *tty = NULL;
	time_t scanned, end = 0;
	long seconds;
	sigset_t set;
	siginfo_t si;
	int i, sig;

	while ((i = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (i != 's')
			return usage();
		tty = optarg;
	}
	if (optind < argc) {
		seconds = strtol(argv[optind], &rest, 10);
		if (*rest || seconds <= 0 || optind + 1 < argc)
			return usage();
		end = time(NULL) + seconds;
	}

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (i = 0; i < MAX_NODES; i++)
		sigaddset(&set, SIGRTMIN + i);
	sigprocmask(SIG_BLOCK, &set, NULL);
	booted_with(booted, sizeof(booted));
	printf("%s\n", booted);
	if (tty && open_screen(tty, booted)) {
		fprintf(stderr, "sigio-watch: %s: %s\n", tty, strerror(errno));
		return 1;
	}
	if (!watch_new_nodes()) {
		fprintf(stderr, "sigio-watch: no /dev/sigmouse* node\n");
		close_screen();
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
			on_node_signal(&watched[sig - SIGRTMIN], &si);
	}
	print_summary();
	close_screen();
	return 0;
}
