// SPDX-License-Identifier: GPL-2.0
/*
 * sigio-check: whether one node's SIGIO is what fcntl(2) promises. It
 * runs the SIGIO battery (sigio-battery.h, the checks sigio-atlas runs
 * on the kernel's own sources) on a node it is given, the event made by
 * a provocation it is given, and prints KTAP; a check that fails says
 * what it saw.
 *
 *   sigio-check [--hangup] [--reason R] [--sets-owner] [--write] --provoke CMD NODE
 *   sigio-check [--hangup] [--reason R] --uinput-mouse HANDLER
 *   sigio-check [--reason R] --qemu-mouse MOUSE HANDLER
 *   sigio-check [--hangup] [--reason R] --pty
 *
 * NODE is opened O_RDONLY | O_NONBLOCK (with --write, O_RDWR | O_NONBLOCK)
 * for each check; CMD runs under /bin/sh -c once the file is subscribed
 * and must make the node's driver signal. --uinput-mouse makes a uinput
 * mouse for each check, subscribes its node of HANDLER (event, mouse,
 * sigmouse...: the handler's entry under the input device in sysfs) and
 * moves it. --qemu-mouse subscribes HANDLER's node of one of QEMU's mice
 * (MOUSE: ps2, virtio-mouse, virtio-tablet) and has the host runner move
 * it over QMP (make check-node serves the request). --pty opens a pseudo-terminal for each check, subscribes its
 * slave and writes a line to its master. R is the si_code the event must
 * bring: in (the default), out, msg, err, pri or hup, or none for an
 * event that must not signal. --sets-owner says the driver makes the
 * subscriber the owner of a file without one, as ttys do (so no_owner
 * expects the signal); --pty implies it. --hangup makes the event the
 * device going away, whose reason is hup unless --reason says otherwise:
 * the uinput mouse is destroyed, the pseudo-terminal's master closed, and
 * CMD must remove NODE's device (and let it come back: every check opens
 * the node afresh). Options after "--" go to the kselftest harness.
 *
 * Besides the battery, several_files subscribes three open files of the
 * node at once: one event must signal each of them, naming its own fd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* the harness is written for -Wall; this program is built with -Wextra too */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#include "harness-only.h"
#include "host-channel.h"
#include "mouse-source.h"
#include "sigmouse-node.h"
#include "uinput-mouse.h"

/* The node under check, and what moves it, if sigio-check made it. */
struct endpoints {
	int watched;
	int pty_master;
	struct uinput_mouse mouse;
	char path[64];		/* watched's node */
};

static void endpoints_reset(struct endpoints *ep);
static void endpoints_close(struct endpoints *ep);

#include "sigio-battery.h"

/* what the command line gave */
static struct {
	const char *node;
	const char *handler;
	/* --qemu-mouse's mouse, named (its kind) when given */
	struct mouse_source qemu;
	const char *command;
	bool pty;
	bool hangup;
	int flags;
} given = { .flags = O_RDONLY | O_NONBLOCK };

/* "sh -c '...'" or "move the uinput mouse", for the atlas lines */
static char provoke_text[256];

static void endpoints_reset(struct endpoints *ep)
{
	memset(ep, 0, sizeof(*ep));
	ep->watched = -1;
	ep->pty_master = -1;
}

static void endpoints_close(struct endpoints *ep)
{
	if (ep->watched >= 0)
		close(ep->watched);
	if (ep->pty_master >= 0)
		close(ep->pty_master);
	uinput_mouse_destroy(&ep->mouse);
	endpoints_reset(ep);
}

/* the node of --uinput-mouse's or --qemu-mouse's HANDLER for the input device at syspath */
static int handler_node(const char *syspath, const char *device, char *path, size_t path_len,
			char *why, size_t len)
{
	if (!input_node_of(syspath, given.handler,
			   strcmp(given.handler, "sigmouse") ? "/dev/input" : "/dev",
			   path, path_len))
		return 0;
	snprintf(why, len, "%s has no %s node", device, given.handler);
	return -1;
}

static int open_given(struct endpoints *ep, char *why, size_t len)
{
	const char *node = given.node;
	char path[64], syspath[128];

	if (given.pty) {
		ep->pty_master = posix_openpt(O_RDWR | O_NOCTTY);
		if (ep->pty_master < 0 || grantpt(ep->pty_master) ||
		    unlockpt(ep->pty_master) ||
		    ptsname_r(ep->pty_master, path, sizeof(path)))
			return fail(why, len, "/dev/ptmx");
		node = path;
	}
	if (given.qemu.host_name) {
		if (!host_channel_available()) {
			snprintf(why, len, "%s: no host runner to move it (make check-node is one)",
				 given.qemu.host_name);
			return -1;
		}
		if (input_syspath_by_name(given.qemu.input_name, syspath, sizeof(syspath))) {
			snprintf(why, len, "no input device named \"*%s*\"", given.qemu.input_name);
			return -1;
		}
		if (handler_node(syspath, given.qemu.host_name, path, sizeof(path), why, len))
			return -1;
		node = path;
	} else if (given.handler) {
		if (set_errno(uinput_mouse_create(&ep->mouse, "sigio-check mouse")))
			return fail(why, len, "/dev/uinput");
		if (handler_node(uinput_mouse_syspath(&ep->mouse), "the uinput mouse",
				 path, sizeof(path), why, len))
			return -1;
		node = path;
	}
	snprintf(ep->path, sizeof(ep->path), "%s", node);
	ep->watched = open_node(node, given.flags);
	return ep->watched < 0 ? fail(why, len, node) : 0;
}

static int provoke_given(struct endpoints *ep)
{
	int status;
	pid_t pid;

	if (given.pty && given.hangup) {
		status = close(ep->pty_master);
		ep->pty_master = -1;
		return status;
	}
	if (given.pty)
		return write(ep->pty_master, "x\n", 2) == 2 ? 0 : -1;
	if (given.qemu.host_name)
		return mouse_source_move(&given.qemu, 1, 0, 1);
	if (given.handler && given.hangup) {
		uinput_mouse_destroy(&ep->mouse);
		return 0;
	}
	if (given.handler)
		return set_errno(uinput_mouse_move(&ep->mouse, 1, 0));
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execl("/bin/sh", "sh", "-c", given.command, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = ECHILD;
		return -1;
	}
	return 0;
}

/*
 * One source, "node", for each reason the event may bring, with the
 * subscriber made owner (owned_*) or not.
 */
static const char sets_owner[] =
	"the driver makes the subscriber the owner of a file without one (--sets-owner)";

#define NODE_VARIANT(name, why, owner)					\
	FIXTURE_VARIANT_ADD(source, name) {				\
		.source = "node",					\
		.open = open_given,					\
		.owner_on_subscribe = owner,				\
		.event = {						\
			.what = "the provocation",			\
			.provoke_text = provoke_text,			\
			.provoke = provoke_given,			\
			.sender = "the node's driver",			\
			.reason = why,					\
		},							\
	}

NODE_VARIANT(in, POLL_IN, NULL);
NODE_VARIANT(out, POLL_OUT, NULL);
NODE_VARIANT(msg, POLL_MSG, NULL);
NODE_VARIANT(err, POLL_ERR, NULL);
NODE_VARIANT(pri, POLL_PRI, NULL);
NODE_VARIANT(hup, POLL_HUP, NULL);
NODE_VARIANT(none, NO_SIGNAL, NULL);
NODE_VARIANT(owned_in, POLL_IN, sets_owner);
NODE_VARIANT(owned_out, POLL_OUT, sets_owner);
NODE_VARIANT(owned_msg, POLL_MSG, sets_owner);
NODE_VARIANT(owned_err, POLL_ERR, sets_owner);
NODE_VARIANT(owned_pri, POLL_PRI, sets_owner);
NODE_VARIANT(owned_hup, POLL_HUP, sets_owner);
NODE_VARIANT(owned_none, NO_SIGNAL, sets_owner);

/* the signal several_files' files name: which of fds, or -1 */
static int file_of(const int *fds, int count, int fd)
{
	int i;

	for (i = 0; i < count && fds[i] != fd; i++)
		;
	return i < count ? i : -1;
}

#define SEVERAL_FILES	3

/*
 * Three open files of the node, each its own subscriber (F_SETOWN,
 * F_SETSIG, O_ASYNC): one event signals every one of them, each signal
 * with the event's si_code and its own file's si_fd. A driver that keeps
 * one subscriber per device instead of per file, or signals only the
 * first, fails here while every single-file check passes.
 */
TEST_F(source, several_files)
{
	const struct event *ev = &variant->event;
	int fds[SEVERAL_FILES], signals[SEVERAL_FILES] = { 0 }, i, file, signalled = 0;
	char why[256], code[32];
	siginfo_t info;
	sigset_t set;

	if (ev->reason == NO_SIGNAL)
		SKIP(return, "the event signals no file (--reason none)");
	ASSERT_EQ(0, variant->open(&self->ep, why, sizeof(why))) TH_LOG("%s", why);
	fds[0] = self->ep.watched;
	for (i = 1; i < SEVERAL_FILES; i++) {
		fds[i] = open_node(self->ep.path, given.flags);
		ASSERT_LE(0, fds[i]) TH_LOG("a second open of %s: %s", self->ep.path,
					    strerror(errno));
	}
	for (i = 0; i < SEVERAL_FILES; i++) {
		self->ep.watched = fds[i];
		ASSERT_EQ(0, subscribe(variant, &self->ep, CHECK_RT_SIGNAL, 0))
			TH_LOG("subscribing file %d: %s", i + 1, strerror(errno));
	}
	self->ep.watched = fds[0];
	waited_signals(ev, &set);
	ASSERT_EQ(0, ev->provoke(&self->ep)) TH_LOG("%s: %s", ev->provoke_text, strerror(errno));

	while (take_signal(&set, PATIENCE_MS, &info)) {
		file = file_of(fds, SEVERAL_FILES, info.si_fd);
		EXPECT_EQ(SIG_RT, info.si_signo) TH_LOG("signal %d", info.si_signo);
		EXPECT_STREQ(code_name(ev->reason, why, sizeof(why)),
			     code_name(info.si_code, code, sizeof(code)));
		EXPECT_LE(0, file) TH_LOG("si_fd %d names none of the files", info.si_fd);
		if (file < 0)
			break;
		signalled += !signals[file]++;
		if (signalled == SEVERAL_FILES)
			break;
	}
	for (i = 0; i < SEVERAL_FILES; i++) {
		file = fds[i];
		EXPECT_LT(0, signals[i]) TH_LOG("file %d of %d (fd %d) got no signal", i + 1,
						SEVERAL_FILES, file);
	}
	for (i = 1; i < SEVERAL_FILES; i++)
		close(fds[i]);
}

static int usage(const char *why)
{
	fprintf(stderr, "sigio-check: %s\n"
		"usage: sigio-check [--hangup] [--reason in|out|msg|err|pri|hup|none] "
		"[--sets-owner] [--write] --provoke CMD NODE [-- harness options]\n"
		"       sigio-check [--hangup] [--reason ...] --uinput-mouse HANDLER "
		"[-- harness options]\n"
		"       sigio-check [--reason ...] --qemu-mouse ps2|virtio-mouse|virtio-tablet "
		"HANDLER [-- harness options]\n"
		"       sigio-check [--hangup] [--reason ...] --pty [-- harness options]\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	static const char *const reasons[] = {
		"in", "out", "msg", "err", "pri", "hup", "none",
	};
	char *harness_argv[] = { argv[0], NULL };
	const char *reason = NULL;
	bool owned = false;
	char variant[16];
	int arg, sources;
	size_t i;

	for (arg = 1; arg < argc && strcmp(argv[arg], "--"); arg++) {
		if (!strcmp(argv[arg], "--write"))
			given.flags = O_RDWR | O_NONBLOCK;
		else if (!strcmp(argv[arg], "--sets-owner"))
			owned = true;
		else if (!strcmp(argv[arg], "--pty"))
			given.pty = owned = true;
		else if (!strcmp(argv[arg], "--hangup"))
			given.hangup = true;
		else if (!strcmp(argv[arg], "--reason") && arg + 1 < argc)
			reason = argv[++arg];
		else if (!strcmp(argv[arg], "--provoke") && arg + 1 < argc)
			given.command = argv[++arg];
		else if (!strcmp(argv[arg], "--uinput-mouse") && arg + 1 < argc)
			given.handler = argv[++arg];
		else if (!strcmp(argv[arg], "--qemu-mouse") && arg + 2 < argc) {
			if (mouse_source_name_qemu(&given.qemu, argv[++arg]))
				return usage("--qemu-mouse: ps2, virtio-mouse or virtio-tablet");
			given.handler = argv[++arg];
		}
		else if (argv[arg][0] == '-' || given.node)
			return usage("unknown or repeated argument");
		else
			given.node = argv[arg];
	}
	sources = !!given.handler + given.pty + !!(given.command || given.node);
	if (sources != 1 || !given.command != !given.node)
		return usage("give --provoke CMD and NODE, --uinput-mouse HANDLER, --qemu-mouse "
			     "MOUSE HANDLER or --pty");
	if (given.hangup && given.qemu.host_name)
		return usage("--hangup: sigio-check does not unplug QEMU's mice");
	if (!reason)
		reason = given.hangup ? "hup" : "in";
	for (i = 0; i < ARRAY_SIZE(reasons) && strcmp(reasons[i], reason); i++)
		;
	if (i == ARRAY_SIZE(reasons))
		return usage("--reason: in, out, msg, err, pri, hup or none");
	if (given.pty)
		snprintf(provoke_text, sizeof(provoke_text), "%s a pseudo-terminal's master; its slave",
			 given.hangup ? "close" : "write a line to");
	else if (given.qemu.host_name)
		snprintf(provoke_text, sizeof(provoke_text), "move QEMU's %s over QMP; its %s node",
			 given.qemu.host_name, given.handler);
	else if (given.handler)
		snprintf(provoke_text, sizeof(provoke_text), "%s a uinput mouse; its %s node",
			 given.hangup ? "destroy" : "move", given.handler);
	else
		snprintf(provoke_text, sizeof(provoke_text), "sh -c '%s' (%s)",
			 given.command, given.node);
	snprintf(variant, sizeof(variant), "%s%s", owned ? "owned_" : "", reason);
	harness_keep_variants(variant);
	/* the harness reads its own options, after "--" */
	if (arg == argc)
		return test_harness_run(1, harness_argv);
	argv[arg] = argv[0];
	return test_harness_run(argc - arg, argv + arg);
}
