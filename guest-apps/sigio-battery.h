/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SIGIO battery: subscribe a source's file with F_SETOWN, F_SETSIG
 * and O_ASYNC, provoke its event and check the queued signal's si_signo,
 * si_code, si_band (its own bit, within what poll() reports then) and
 * si_fd against fcntl(2) and sigaction(2); then plain SIGIO,
 * F_SETSIG(SIGIO), an F_SETOWN_EX thread, silence after O_ASYNC is
 * cleared and without an owner (each silence only where rt_signal, the
 * positive control, saw the event's signal in this run), and owners of
 * other users. sigio-atlas runs it on the kernel's own fasync sources,
 * sigio-check on a node it is given. Each check prints a "# atlas:" JSON
 * line before its result.
 *
 * The includer defines struct endpoints (its int watched is the file
 * subscribed to), declares endpoints_reset() and endpoints_close(), and
 * includes this header after the kselftest harness; its sources are
 * FIXTURE_VARIANT_ADD(source, name) with an open function and an event.
 */
#ifndef SIGIO_BATTERY_H
#define SIGIO_BATTERY_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "owner-party.h"

/* how long an expected signal may take; the provocations finish the event */
#define PATIENCE_MS	3000
/* how long "no signal" is watched for */
#define QUIET_MS	300
/* a drained file that stays empty this long is empty */
#define DRAIN_QUIET_MS	50
/* an event's reason when the source sends no signal for it */
#define NO_SIGNAL	0
/* announced by send_sigurg(): SIGURG, whatever F_SETSIG says */
#define BY_SIGURG	(-1)


/* One event of a source, as the atlas records it. */
struct event {
	const char *what;		/* what happens */
	const char *provoke_text;	/* what the test does to make it happen */
	int (*provoke)(struct endpoints *ep);	/* 0, or -1 with errno */
	const char *sender;		/* "<file>: <function>()" signalling it */
	int reason;			/* POLL_*, NO_SIGNAL or BY_SIGURG */
	const char *finding;		/* how 6.1 departs from the documentation */
	long band_beyond_poll;		/* si_band bits poll() does not report then */
	bool repeats;			/* the provocation signals more than once */
};

enum atlas_check {
	CHECK_RT_SIGNAL,
	CHECK_PLAIN_SIGIO,
	CHECK_SETSIG_SIGIO,
	CHECK_SETOWN_EX_THREAD,
	CHECK_ASYNC_OFF_SILENT,
	CHECK_NO_OWNER,
};

static const char *const check_names[] = {
	[CHECK_RT_SIGNAL] = "rt_signal",
	[CHECK_PLAIN_SIGIO] = "plain_sigio",
	[CHECK_SETSIG_SIGIO] = "setsig_sigio",
	[CHECK_SETOWN_EX_THREAD] = "setown_ex_thread",
	[CHECK_ASYNC_OFF_SILENT] = "async_off_silent",
	[CHECK_NO_OWNER] = "no_owner",
};

/* ---- names for what a siginfo holds ---- */

static const char *signal_name(int sig, char *buf, size_t len)
{
	if (sig == SIGIO)
		return "SIGIO";
	if (sig == SIGURG)
		return "SIGURG";
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

static const char *code_name(int code, char *buf, size_t len)
{
	static const struct {
		int code;
		const char *name;
	} codes[] = {
		{ POLL_IN, "POLL_IN" }, { POLL_OUT, "POLL_OUT" },
		{ POLL_MSG, "POLL_MSG" }, { POLL_ERR, "POLL_ERR" },
		{ POLL_PRI, "POLL_PRI" }, { POLL_HUP, "POLL_HUP" },
		{ SI_KERNEL, "SI_KERNEL" }, { SI_SIGIO, "SI_SIGIO" },
		{ SI_USER, "SI_USER" }, { SI_QUEUE, "SI_QUEUE" },
		{ SI_TKILL, "SI_TKILL" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(codes); i++)
		if (codes[i].code == code)
			return codes[i].name;
	snprintf(buf, len, "%d", code);
	return buf;
}

/* in the order fcntl(2) lists each si_code's band, unknown bits in hex */
static const char *band_names(long band, char *buf, size_t len)
{
	static const struct {
		long bit;
		const char *name;
	} bits[] = {
		{ POLLIN, "POLLIN" }, { POLLPRI, "POLLPRI" },
		{ POLLOUT, "POLLOUT" }, { POLLHUP, "POLLHUP" },
		{ POLLERR, "POLLERR" }, { POLLNVAL, "POLLNVAL" },
		{ POLLRDNORM, "POLLRDNORM" }, { POLLRDBAND, "POLLRDBAND" },
		{ POLLWRNORM, "POLLWRNORM" }, { POLLWRBAND, "POLLWRBAND" },
		{ POLLMSG, "POLLMSG" }, { POLLRDHUP, "POLLRDHUP" },
	};
	size_t i, used = 0;

	if (!band) {
		snprintf(buf, len, "0");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		if (!(band & bits[i].bit))
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 used ? "|" : "", bits[i].name);
		band &= ~bits[i].bit;
		if (used >= len)
			return buf;
	}
	if (band)
		snprintf(buf + used, len - used, "%s0x%lx", used ? "|" : "", band);
	return buf;
}

/*
 * What si_band must hold, from the documentation, not from the kernel's
 * band_table: sigaction(2) says si_band holds the bits poll() would
 * report in revents, so it must have the event's own bit (POLL_IN's
 * POLLIN...) and nothing poll() does not report on the file right after
 * the signal. Bits beyond poll()'s are findings (event.band_beyond_poll).
 */
static long own_bit(int reason)
{
	switch (reason) {
	case POLL_IN:
		return POLLIN;
	case POLL_OUT:
		return POLLOUT;
	case POLL_MSG:
		return POLLMSG;
	case POLL_ERR:
		return POLLERR;
	case POLL_PRI:
		return POLLPRI;
	case POLL_HUP:
		return POLLHUP;
	}
	return 0;
}

/* every bit poll() reports on fd now */
static long poll_now(int fd)
{
	struct pollfd pfd = {
		.fd = fd,
		.events = POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND |
			  POLLWRNORM | POLLWRBAND | POLLMSG | POLLRDHUP,
	};

	return poll(&pfd, 1, 0) == 1 ? pfd.revents : 0;
}

/* A signal, expected or observed, as the atlas names it. */
struct signal_names {
	char signo[24];
	char code[24];
	char band[192];		/* observed, or the rule: own bit within poll()'s */
	char fd[16];		/* "ok" when si_fd is the subscribed fd */
	const char *receiver;	/* setown_ex_thread: whose queue held it */
};

static void name_signal(struct signal_names *n, int signo, int code,
			long band, const char *fd, const char *receiver)
{
	char buf[24];

	snprintf(n->signo, sizeof(n->signo), "%s",
		 signal_name(signo, buf, sizeof(buf)));
	snprintf(n->code, sizeof(n->code), "%s",
		 code_name(code, buf, sizeof(buf)));
	band_names(band, n->band, sizeof(n->band));
	snprintf(n->fd, sizeof(n->fd), "%s", fd);
	n->receiver = receiver;
}

/* ---- the atlas line ---- */

static void json_string(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_signal(const struct signal_names *n)
{
	if (!n) {
		fputs("null", stdout);
		return;
	}
	fputs("{\"signo\": ", stdout);
	json_string(n->signo);
	fputs(", \"code\": ", stdout);
	json_string(n->code);
	fputs(", \"band\": ", stdout);
	json_string(n->band);
	fputs(", \"fd\": ", stdout);
	json_string(n->fd);
	if (n->receiver) {
		fputs(", \"receiver\": ", stdout);
		json_string(n->receiver);
	}
	putchar('}');
}

/*
 * One line per check, before its result, for the host's atlas: valid
 * JSON after "# atlas: ". expected and observed are NULL for no signal.
 */
static void atlas_print(const char *source, const struct event *ev,
			enum atlas_check check, const struct signal_names *expected,
			const struct signal_names *observed, const char *finding)
{
	fputs("# atlas: {\"source\": ", stdout);
	json_string(source);
	fputs(", \"event\": ", stdout);
	json_string(ev->what);
	fputs(", \"check\": ", stdout);
	json_string(check_names[check]);
	fputs(", \"sender\": ", stdout);
	json_string(ev->sender);
	fputs(", \"provoke\": ", stdout);
	json_string(ev->provoke_text);
	fputs(", \"expected\": ", stdout);
	json_signal(expected);
	fputs(", \"observed\": ", stdout);
	json_signal(observed);
	fputs(", \"finding\": ", stdout);
	json_string(finding);
	fputs("}\n", stdout);
	fflush(stdout);
}

/* ---- opening and provoking: helpers of the sources ---- */

/* -1, what failed and errno's text in why */
static int fail(char *why, size_t len, const char *what)
{
	snprintf(why, len, "%s: %s", what, strerror(errno));
	return -1;
}

/* a node can lag its device by a moment (devtmpfs, after sysfs) */
static int open_node(const char *path, int flags)
{
	int tries, fd = -1;

	for (tries = 0; tries < 100; tries++) {
		fd = open(path, flags);
		if (fd >= 0 || errno != ENOENT)
			break;
		usleep(10000);
	}
	return fd;
}

/* -1 with errno set from a negative errno return, else 0 */
static int set_errno(int ret)
{
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return 0;
}

/* ---- subscribing ---- */

static int set_async(struct endpoints *ep, bool on)
{
	int flags = fcntl(ep->watched, F_GETFL);

	if (flags < 0)
		return -1;
	return fcntl(ep->watched, F_SETFL,
		     on ? flags | O_ASYNC : flags & ~O_ASYNC);
}

/* ---- the fixture: a source's files, its event ---- */

FIXTURE(source) {
	struct endpoints ep;
};

FIXTURE_VARIANT(source) {
	const char *source;
	int (*open)(struct endpoints *ep, char *why, size_t len);
	/* how the source takes subscribers: O_ASYNC when NULL */
	int (*subscribe)(struct endpoints *ep, bool on);
	/* set when subscribing makes the caller the owner: how */
	const char *owner_on_subscribe;
	struct event event;
};

FIXTURE_SETUP(source)
{
	sigset_t set;

	endpoints_reset(&self->ep);
	/* blocked, queued for sigtimedwait(): SIGURG would be ignored */
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	sigaddset(&set, SIGIO);
	sigaddset(&set, SIGURG);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
}

FIXTURE_TEARDOWN(source)
{
	endpoints_close(&self->ep);
}

/* ---- the checks ---- */

/* What a check expects: a signal, or none. */
struct expectation {
	bool arrives;
	int signo;
	int code;
	long band;
	bool names_fd;		/* si_fd is the file's (not SEND_SIG_PRIV's 0) */
};

static int check_signal(enum atlas_check check)
{
	switch (check) {
	case CHECK_PLAIN_SIGIO:
		return 0;
	case CHECK_SETSIG_SIGIO:
		return SIGIO;
	default:
		return SIG_RT;
	}
}

/*
 * send_sigio_to_task(): an F_SETSIG signal carries the reason, its band
 * and the fd; without F_SETSIG, SIGIO goes with SEND_SIG_PRIV, which user
 * space sees as SI_KERNEL with no band and no fd. send_sigurg() sends
 * SIGURG that way whatever F_SETSIG says, and regardless of O_ASYNC.
 */
static bool signal_expected(const FIXTURE_VARIANT(source) *v,
			    const struct event *ev, enum atlas_check check)
{
	if (ev->reason == NO_SIGNAL)
		return false;
	/* both need an owner, which only some sources set themselves */
	if (check == CHECK_NO_OWNER)
		return ev->reason != BY_SIGURG && v->owner_on_subscribe;
	if (check == CHECK_ASYNC_OFF_SILENT)
		return ev->reason == BY_SIGURG;
	return true;
}

static struct expectation expect(const FIXTURE_VARIANT(source) *v,
				 const struct event *ev, enum atlas_check check)
{
	struct expectation want = { .arrives = signal_expected(v, ev, check) };
	int sig = check_signal(check);

	if (!want.arrives)
		return want;
	if (ev->reason == BY_SIGURG || !sig) {
		want.signo = ev->reason == BY_SIGURG ? SIGURG : SIGIO;
		want.code = SI_KERNEL;
		return want;
	}
	want.signo = sig;
	want.code = ev->reason;
	want.band = own_bit(ev->reason);
	want.names_fd = true;
	return want;
}

/* the finding of the event, and for no_owner how the source sets one */
/*
 * The finding of the event: its own, how a source sets an owner for
 * no_owner, and for a check that names the file the si_band bits poll()
 * does not report, against sigaction(2)'s "the same values as are
 * filled in the revents field by poll(2)".
 */
static const char *finding_of(const FIXTURE_VARIANT(source) *v,
			      const struct event *ev, enum atlas_check check,
			      char *buf, size_t len)
{
	const char *owner = check == CHECK_NO_OWNER ? v->owner_on_subscribe : NULL;
	bool band = ev->band_beyond_poll && (check == CHECK_RT_SIGNAL ||
					     check == CHECK_SETSIG_SIGIO ||
					     check == CHECK_SETOWN_EX_THREAD);
	bool repeats = ev->repeats && check != CHECK_SETOWN_EX_THREAD;
	char bits[96];
	size_t used = 0;

	if (!owner && !band && !repeats)
		return ev->finding;
	buf[0] = '\0';
	if (ev->finding)
		used += snprintf(buf + used, len - used, "%s", ev->finding);
	if (owner && used < len)
		used += snprintf(buf + used, len - used, "%s%s", used ? "; " : "", owner);
	if (band && used < len) {
		band_names(ev->band_beyond_poll, bits, sizeof(bits));
		snprintf(buf + used, len - used,
			 "%ssi_band carries %s, which poll() does not report on the file then: "
			 "sigaction(2) says si_band holds what poll(2) fills revents with",
			 used ? "; " : "", bits);
		used = strlen(buf);
	}
	if (repeats && used < len)
		snprintf(buf + used, len - used,
			 "%sthe one provocation can signal more than once (further signals "
			 "come after the one checked)", used ? "; " : "");
	return buf;
}

static void waited_signals(const struct event *ev, sigset_t *set)
{
	sigemptyset(set);
	if (ev->reason == BY_SIGURG) {
		sigaddset(set, SIGURG);
	} else {
		/* SIGIO too: the fallback when the F_SETSIG signal cannot queue */
		sigaddset(set, SIG_RT);
		sigaddset(set, SIGIO);
	}
}

static int subscribe(const FIXTURE_VARIANT(source) *v, struct endpoints *ep,
		     enum atlas_check check, pid_t owner_tid)
{
	struct f_owner_ex owner = { .type = F_OWNER_TID, .pid = owner_tid };

	if (check == CHECK_SETOWN_EX_THREAD) {
		if (fcntl(ep->watched, F_SETOWN_EX, &owner))
			return -1;
	} else if (check != CHECK_NO_OWNER &&
		   fcntl(ep->watched, F_SETOWN, getpid())) {
		return -1;
	}
	if (fcntl(ep->watched, F_SETSIG, check_signal(check)))
		return -1;
	return (v->subscribe ?: set_async)(ep, true);
}

static bool take_signal(const sigset_t *set, int ms, siginfo_t *info)
{
	struct timespec left = { ms / 1000, ms % 1000 * 1000000L };

	return sigtimedwait(set, info, &left) > 0;
}

/* A thread of this process that owns the file (F_OWNER_TID). */
struct owner_thread {
	pthread_t thread;
	pid_t tid;
	sigset_t set;
	int go;			/* TAKE or QUIT, from the main thread */
	bool got;
	siginfo_t info;
};

enum { TAKE = 1, QUIT };

static void *owner_thread_main(void *arg)
{
	struct owner_thread *t = arg;
	int go;

	__atomic_store_n(&t->tid, syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!(go = __atomic_load_n(&t->go, __ATOMIC_ACQUIRE)))
		usleep(1000);
	if (go == TAKE)
		t->got = take_signal(&t->set, QUIET_MS, &t->info);
	return NULL;
}

static int owner_thread_start(struct owner_thread *t, const sigset_t *set)
{
	t->set = *set;
	if (pthread_create(&t->thread, NULL, owner_thread_main, t))
		return -1;
	while (!__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE))
		sched_yield();
	return 0;
}

/* a pending mask of thread tid: SigPnd, its own, or ShdPnd, the process's */
static unsigned long long pending_of(pid_t tid, const char *field)
{
	unsigned long long mask = 0;
	size_t len = strlen(field);
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':') {
			mask = strtoull(line + len + 1, NULL, 16);
			break;
		}
	fclose(f);
	return mask;
}

/* the queue a signal for setown_ex_thread waited on, as the atlas names it */
static const char owner_queue[] = "owner thread";
static const char process_queue[] = "process";
static const char other_queue[] = "other thread";

/*
 * Where a signal of set waits, as /proc shows the queues: on the owner
 * thread's own, on the process's shared one (any thread could take it),
 * or on this thread's; NULL if none came within ms.
 */
static const char *pending_where(const struct owner_thread *t, int ms)
{
	pid_t self = syscall(SYS_gettid);
	unsigned long long mask = 0;
	int sig, waited;

	for (sig = 1; sig <= 64; sig++)
		if (sigismember(&t->set, sig) == 1)
			mask |= 1ULL << (sig - 1);
	for (waited = 0; waited <= ms; waited += 5) {
		if (pending_of(t->tid, "SigPnd") & mask)
			return owner_queue;
		if (pending_of(self, "ShdPnd") & mask)
			return process_queue;
		if (pending_of(self, "SigPnd") & mask)
			return other_queue;
		usleep(5000);
	}
	return NULL;
}

/* Whichever thread's queue holds the signal takes it. */
static void observe_owner_thread(struct owner_thread *t, int ms, bool *got,
				 siginfo_t *info, const char **receiver)
{
	*receiver = pending_where(t, ms);
	__atomic_store_n(&t->go, *receiver == owner_queue ? TAKE : QUIT,
			 __ATOMIC_RELEASE);
	pthread_join(t->thread, NULL);
	if (t->go == TAKE) {
		*got = t->got;
		*info = t->info;
	} else {
		*got = *receiver && take_signal(&t->set, QUIET_MS, info);
	}
}

/*
 * Silence means silence only where the same provocation, subscribed,
 * does signal: rt_signal, which runs first, leaves a mark for its
 * variant when its signal came, and the checks that expect none
 * require it. The mark is the variant's address, the same in every
 * test's process, under a folder this run made.
 */
#define CONTROL_DIR	"/tmp/sigio-atlas-controls"

static void control_path(const FIXTURE_VARIANT(source) *v, char *path, size_t len)
{
	snprintf(path, len, CONTROL_DIR "/%p", (const void *)v);
}

static void control_mark(const FIXTURE_VARIANT(source) *v)
{
	char path[96];
	int fd;

	mkdir("/tmp", 01777);
	mkdir(CONTROL_DIR, 0700);
	control_path(v, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	if (fd >= 0)
		close(fd);
}

static bool control_seen(const FIXTURE_VARIANT(source) *v)
{
	char path[96];

	control_path(v, path, sizeof(path));
	return access(path, F_OK) == 0;
}

/*
 * After the signal a check expects, any other of set, or SIGIO, is one
 * too many. The provocations finish their event before they return, so
 * a second signal is already pending: a short look finds it.
 */
static int extra_signal(const sigset_t *set)
{
	sigset_t more = *set;
	siginfo_t info;

	sigaddset(&more, SIGIO);
	return take_signal(&more, DRAIN_QUIET_MS, &info) ? info.si_signo : 0;
}

static void run_check(struct __test_metadata *_metadata, struct endpoints *ep,
		      const FIXTURE_VARIANT(source) *v, enum atlas_check check)
{
	const struct event *ev = &v->event;
	struct signal_names want_names, got_names;
	const char *receiver = NULL, *finding;
	struct owner_thread owner = { 0 };
	struct expectation want;
	char why[256], buf[1024], fd[16], own[32], polled[128], beyond[128];
	siginfo_t info;
	long revents = 0;
	bool got;
	sigset_t set;
	int ret;

	/* a source this kernel lacks is skipped, without an atlas line */
	ret = v->open(ep, why, sizeof(why));
	if (ret > 0)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ret) TH_LOG("%s", why);
	want = expect(v, ev, check);
	name_signal(&want_names, want.signo, want.code, want.band,
		    want.names_fd ? "ok" : "0",
		    check == CHECK_SETOWN_EX_THREAD ? owner_queue : NULL);
	finding = finding_of(v, ev, check, buf, sizeof(buf));

	waited_signals(ev, &set);
	if (check == CHECK_SETOWN_EX_THREAD) {
		ASSERT_EQ(0, access("/proc/self/task", R_OK));
		ASSERT_EQ(0, owner_thread_start(&owner, &set));
	}
	ASSERT_EQ(0, subscribe(v, ep, check, owner.tid))
		TH_LOG("subscribing: %s", strerror(errno));
	if (check == CHECK_ASYNC_OFF_SILENT)
		ASSERT_EQ(0, (v->subscribe ?: set_async)(ep, false))
			TH_LOG("unsubscribing: %s", strerror(errno));
	ASSERT_EQ(0, ev->provoke(ep))
		TH_LOG("%s: %s", ev->provoke_text, strerror(errno));

	if (check == CHECK_SETOWN_EX_THREAD)
		observe_owner_thread(&owner, want.arrives ? PATIENCE_MS : QUIET_MS,
				     &got, &info, &receiver);
	else
		got = take_signal(&set, want.arrives ? PATIENCE_MS : QUIET_MS,
				  &info);
	if (got) {
		revents = poll_now(ep->watched);
		snprintf(fd, sizeof(fd), "%d", info.si_fd);
		name_signal(&got_names, info.si_signo, info.si_code,
			    info.si_band, info.si_fd == ep->watched ? "ok" : fd,
			    receiver);
	}
	/* the band expected is the rule: its own bit, within poll()'s */
	if (want.names_fd) {
		band_names(want.band, own, sizeof(own));
		band_names(revents | ev->band_beyond_poll, polled, sizeof(polled));
		snprintf(want_names.band, sizeof(want_names.band), "%s within %s", own, polled);
	}
	atlas_print(v->source, ev, check, want.arrives ? &want_names : NULL,
		    got ? &got_names : NULL, finding);

	EXPECT_EQ(want.arrives, got);
	if (want.arrives && got) {
		EXPECT_STREQ(want_names.signo, got_names.signo);
		EXPECT_STREQ(want_names.code, got_names.code);
		if (want.names_fd) {
			band_names(info.si_band & ~revents, beyond, sizeof(beyond));
			EXPECT_TRUE(info.si_band & want.band)
				TH_LOG("si_band %s lacks the event's own bit", got_names.band);
			EXPECT_EQ(ev->band_beyond_poll, info.si_band & ~revents)
				TH_LOG("si_band %s: beyond what poll() reports (%s): %s",
				       got_names.band, polled, beyond);
		} else {
			EXPECT_STREQ(want_names.band, got_names.band);
		}
		EXPECT_STREQ(want_names.fd, got_names.fd);
		if (want_names.receiver)
			EXPECT_STREQ(want_names.receiver, got_names.receiver ?: "");
		if (check != CHECK_SETOWN_EX_THREAD && ev->repeats)
			while (extra_signal(&set))
				;
		else if (check != CHECK_SETOWN_EX_THREAD)
			EXPECT_EQ(0, extra_signal(&set)) TH_LOG("a second signal after the one expected");
		/* the provocation does signal: silence elsewhere is silence */
		if (check == CHECK_RT_SIGNAL)
			control_mark(v);
	}
	/* silence where the event signals at all: rt_signal must have seen it */
	if (!want.arrives && ev->reason != NO_SIGNAL)
		EXPECT_TRUE(control_seen(v))
			TH_LOG("silence unproven: rt_signal, the positive control, saw no signal "
			       "for this event in this boot");
}

/* F_SETOWN to this process, F_SETSIG SIGRTMIN+1, O_ASYNC */
TEST_F(source, rt_signal)
{
	run_check(_metadata, &self->ep, variant, CHECK_RT_SIGNAL);
}

/* no F_SETSIG: plain SIGIO, as SEND_SIG_PRIV sends it */
TEST_F(source, plain_sigio)
{
	run_check(_metadata, &self->ep, variant, CHECK_PLAIN_SIGIO);
}

/* F_SETSIG(SIGIO): the same signal, now with si_code, si_band and si_fd */
TEST_F(source, setsig_sigio)
{
	run_check(_metadata, &self->ep, variant, CHECK_SETSIG_SIGIO);
}

/* F_SETOWN_EX F_OWNER_TID: queued to that thread alone */
TEST_F(source, setown_ex_thread)
{
	run_check(_metadata, &self->ep, variant, CHECK_SETOWN_EX_THREAD);
}

/* subscribed, then O_ASYNC (or the source's own request) cleared */
TEST_F(source, async_off_silent)
{
	run_check(_metadata, &self->ep, variant, CHECK_ASYNC_OFF_SILENT);
}

/* subscribed without F_SETOWN: silence, unless the source sets an owner */
TEST_F(source, no_owner)
{
	run_check(_metadata, &self->ep, variant, CHECK_NO_OWNER);
}

/* the party's signals, counted until one names its file or ms pass */
static int party_wait_own(struct owner_party *p, int ms, int totals[2])
{
	int counts[2], waited;

	totals[0] = totals[1] = 0;
	for (waited = 0; ; waited += 10) {
		if (party_count(p, counts))
			return -1;
		totals[0] += counts[0];
		totals[1] += counts[1];
		if (totals[1] || waited >= ms)
			return 0;
		usleep(10 * 1000);
	}
}

/* the kinds of owner send_sigio() tells apart: a process, a group, a thread */
static const enum owner_kind atlas_owner_kinds[] = { OWNER_PID, OWNER_PGRP, OWNER_EX_TID };

/*
 * Nobody signals what they do not own: for each kind of owner, a party
 * of uid SUBSCRIBER_UID names itself the owner of the source's file and
 * gets the event's signal, as rt_signal does (the positive control, on a
 * fresh source), and a party that names one of uid VICTIM_UID gets that
 * one nothing; root subscribes the file and provokes the event both
 * times, the permission being the namer's (sigio_perm()). Sources that
 * make the subscriber the owner do so only for a file without one (ttys,
 * dnotify, leases), so a named owner stays; SIGURG passes the same check.
 */
TEST_F(source, unprivileged_owner)
{
	const struct event *ev = &variant->event;
	bool arrives = signal_expected(variant, ev, CHECK_RT_SIGNAL);
	int (*subscribe)(struct endpoints *ep, bool on) = variant->subscribe ?: set_async;
	struct owner_party victim, subscriber;
	int counts[2], ret;
	char why[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(atlas_owner_kinds); i++) {
		enum owner_kind kind = atlas_owner_kinds[i];
		const char *named = owner_kind_names[kind];

		/* a source this kernel lacks is skipped, as in every check */
		ret = variant->open(&self->ep, why, sizeof(why));
		if (ret > 0)
			SKIP(return, "%s", why);
		ASSERT_EQ(0, ret) TH_LOG("%s", why);
		ASSERT_EQ(0, party_start(&subscriber, SUBSCRIBER_UID, self->ep.watched, -1,
					 kind, 0)) TH_LOG("%s", named);
		ASSERT_EQ(0, subscribe(&self->ep, true)) TH_LOG("%s", strerror(errno));
		ASSERT_EQ(0, ev->provoke(&self->ep)) TH_LOG("%s", ev->provoke_text);
		ASSERT_EQ(0, party_wait_own(&subscriber, arrives ? PATIENCE_MS : QUIET_MS,
					    counts));
		EXPECT_EQ(arrives, counts[1] > 0) TH_LOG("%s: uid %d's own subscription got "
							 "%d signals", named, SUBSCRIBER_UID,
							 counts[1]);
		EXPECT_EQ(0, party_end(&subscriber));
		endpoints_close(&self->ep);

		ASSERT_EQ(0, variant->open(&self->ep, why, sizeof(why))) TH_LOG("%s", why);
		ASSERT_EQ(0, party_start(&victim, VICTIM_UID, -1, -1, kind, 0));
		ASSERT_EQ(0, party_start(&subscriber, SUBSCRIBER_UID, -1, self->ep.watched,
					 kind, victim.pid)) TH_LOG("%s", named);
		ASSERT_EQ(0, subscribe(&self->ep, true)) TH_LOG("%s", strerror(errno));
		ASSERT_EQ(0, ev->provoke(&self->ep)) TH_LOG("%s", ev->provoke_text);
		usleep(QUIET_MS * 1000);
		ASSERT_EQ(0, party_count(&victim, counts));
		EXPECT_EQ(0, counts[0]) TH_LOG("%s: uid %d signalled uid %d's process",
					       named, SUBSCRIBER_UID, VICTIM_UID);
		EXPECT_EQ(0, party_end(&subscriber));
		EXPECT_EQ(0, party_end(&victim));
		endpoints_close(&self->ep);
	}
}

#endif
