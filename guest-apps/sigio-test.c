// SPDX-License-Identifier: GPL-2.0
/*
 * sigio-test: what a user of /dev/sigmouseN relies on, checked against
 * every event source: SIGIO with the right si_code, si_band and si_fd,
 * one queued signal per packet, owners and process groups, sequence
 * numbers and motion totals, and the error paths.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/input.h>
#include <linux/landlock.h>
#include <linux/types.h>
#include <linux/uinput.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* the harness is written for -Wall; this suite is built with -Wextra too */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#include "harness-only.h"
#include "mouse-source.h"
#include "owner-party.h"
#include "pipe-flood.h"
#include "sigmouse-node.h"
#include "sysfs-file.h"

#define BAND_IN		(POLLIN | POLLRDNORM)
#define BAND_HUP	(POLLHUP | POLLERR)
#define QUIET_MS	300
#define DELIVERY_MS	20000
/*
 * moves sent at once: well inside a ring (64 packets today; the ring
 * size is the kernel's, reported by SIGMOUSE_IOC_INFO), so a reader
 * never drops
 */
#define BATCH		16

/*
 * An address no process maps. Not static and not const: the compiler
 * cannot assume another unit leaves it alone, so it does not judge the
 * pointer a read() is given.
 */
void *unmapped = (void *)8;
/* a read count no buffer has, kept from the same compiler the same way */
size_t huge_count = SIZE_MAX / 2;
#define MIB		(1024 * 1024)

/*
 * The 6.1 harness runs the test body after a SKIP in FIXTURE_SETUP;
 * jumping back to the wrapper skips the body and the teardown.
 */
#define SKIP_SETUP(fmt, ...) \
	SKIP(longjmp(_metadata->env, 1), fmt, ##__VA_ARGS__)

/* a sampler passes whether or not its race fired; its log says how often */
#define SAMPLER_LOG(fmt, ...) \
	TH_LOG("a sampler, passing whether or not the race fired: " fmt, ##__VA_ARGS__)

/* What one subscriber saw: signals, packets and whether they matched. */
struct delivery {
	int signals;
	int packets;
	long dx;
	long dy;
	__u64 first_seq;
	__u64 last_seq;
	int seq_gaps;
	int unexplained_gaps;	/* gaps the drop counter does not account for */
	int drop_flags;
	long dropped;		/* the drop counter's sum */
	int silent_batches;	/* stream() batches that brought no signal */
	unsigned int buttons;
	char mismatch[160];	/* the first signal that was not as expected */
};

/* sigmouse.notify=waitqueue: keyed wake-ups signal, nothing calls kill_fasync() */
static int notify_is_waitqueue(void)
{
	char mode[32] = "";

	read_line("/sys/module/sigmouse/parameters/notify", mode, sizeof(mode));
	return strcmp(mode, "waitqueue") == 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void block_signal(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* sig 0 keeps plain SIGIO, as without F_SETSIG */
static int subscribe(int fd, int sig, pid_t owner)
{
	if (fcntl(fd, F_SETOWN, owner) || fcntl(fd, F_SETSIG, sig))
		return -1;
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
}

static int unsubscribe(int fd)
{
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC);
}

/* reads an O_NONBLOCK node's file until nothing is queued */
static void drain_records(int fd)
{
	struct sigmouse_packet p[8];

	while (read(fd, p, sizeof(p)) > 0)
		;
}

static void count_packets(const struct sigmouse_packet *p, int n,
			  struct delivery *d)
{
	int i;

	for (i = 0; i < n; i++) {
		if (d->packets++ == 0)
			d->first_seq = p[i].seq;
		else if (p[i].seq != d->last_seq + 1)
			d->seq_gaps++;
		if (d->packets > 1 && p[i].seq != d->last_seq + 1 + p[i].dropped)
			d->unexplained_gaps++;
		d->last_seq = p[i].seq;
		d->dx += p[i].dx;
		d->dy += p[i].dy;
		d->buttons = p[i].buttons;
		if (p[i].flags & SIGMOUSE_PACKET_DROPPED) {
			d->drop_flags++;
			d->dropped += p[i].dropped;
		}
	}
}

/*
 * Read fd (O_NONBLOCK) until nothing is queued. A read also fails with
 * EAGAIN while another thread's read of the same file is in progress:
 * poll() tells that from an empty ring.
 */
static void read_packets(int fd, struct delivery *d)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct sigmouse_packet p[2 * BATCH];
	ssize_t n;

	for (;;) {
		n = read(fd, p, sizeof(p));
		if (n > 0)
			count_packets(p, n / sizeof(p[0]), d);
		else if (n < 0 && errno == EAGAIN && poll(&pfd, 1, 0) == 1 &&
			 (pfd.revents & POLLIN))
			sched_yield();
		else
			break;
	}
}

static void check_signal(const siginfo_t *si, int sig, int fd, int code,
			 int band, struct delivery *d)
{
	if (d->mismatch[0])
		return;
	if (si->si_signo != sig || si->si_code != code ||
	    si->si_band != band || si->si_fd != fd)
		snprintf(d->mismatch, sizeof(d->mismatch),
			 "signal %d code %d band %#lx fd %d, wanted %d/%d/%#x/%d",
			 si->si_signo, si->si_code, si->si_band, si->si_fd,
			 sig, code, band, fd);
}

/*
 * Count a signal taken for fd and check it: plain SIGIO is the kernel's
 * own (SEND_SIG_PRIV), SI_KERNEL with the rest of siginfo cleared, so
 * no descriptor and band 0; a queued one exactly fd's POLL_IN.
 */
static void count_signal(const siginfo_t *si, int sig, int fd,
			 struct delivery *d)
{
	d->signals++;
	if (sig == SIGIO)
		check_signal(si, SIGIO, 0, SI_KERNEL, 0, d);
	else
		check_signal(si, sig, fd, POLL_IN, BAND_IN, d);
}

/*
 * Take queued signals and read packets until the motion totals are
 * reached and nothing more arrives for quiet_ms, or DELIVERY_MS pass.
 * sig is the one the subscriber asked for.
 */
static void collect_for(int fd, int sig, long want_dx, long want_dy,
			int quiet_ms, struct delivery *d)
{
	long long deadline = now_ms() + DELIVERY_MS, quiet_since = now_ms();
	struct timespec tick = { 0, 20 * 1000 * 1000 }, zero = { 0, 0 };
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, sig);
	while (now_ms() < deadline) {
		if (sigtimedwait(&set, &si, &tick) == sig) {
			count_signal(&si, sig, fd, d);
			quiet_since = now_ms();
		}
		read_packets(fd, d);
		if (d->dx == want_dx && d->dy == want_dy &&
		    now_ms() - quiet_since >= quiet_ms)
			break;
	}
	read_packets(fd, d);
	/* a signal for a packet just read is this call's, not the next one's */
	while (sigtimedwait(&set, &si, &zero) == sig)
		count_signal(&si, sig, fd, d);
}

static void collect(int fd, int sig, long want_dx, long want_dy,
		    struct delivery *d)
{
	collect_for(fd, sig, want_dx, want_dy, QUIET_MS, d);
}

/*
 * moves frames of (dx, dy) in batches, taking signals and packets in
 * between: uinput writes synchronously, so one burst of more than a
 * ring would overflow it before the first read.
 */
static int stream(struct mouse_source *src, int fd, int sig, int dx, int dy,
		  int moves, struct delivery *d)
{
	long start_dx = d->dx, start_dy = d->dy;
	int sent = 0, batch, signals;

	while (sent < moves) {
		batch = moves - sent < BATCH ? moves - sent : BATCH;
		if (mouse_source_move(src, dx, dy, batch))
			return -1;
		sent += batch;
		signals = d->signals;
		collect_for(fd, sig, start_dx + (long)dx * sent,
			    start_dy + (long)dy * sent,
			    sent == moves ? QUIET_MS : 0, d);
		if (d->signals == signals)
			d->silent_batches++;
	}
	return 0;
}

static int pending_signal(int sig)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigtimedwait(&set, NULL, &zero) == sig;
}

FIXTURE(source) {
	struct mouse_source src;
	int fd;
};

FIXTURE_VARIANT(source) {
	enum mouse_source_kind kind;
	int moves;
};

/* uinput is exact and fast; QEMU's mice go at the host's QMP pace */
FIXTURE_VARIANT_ADD(source, uinput) { .kind = MOUSE_SOURCE_UINPUT, .moves = 200 };
FIXTURE_VARIANT_ADD(source, ps2) { .kind = MOUSE_SOURCE_PS2, .moves = 20 };
FIXTURE_VARIANT_ADD(source, virtio_mouse) { .kind = MOUSE_SOURCE_VIRTIO_MOUSE, .moves = 20 };
FIXTURE_VARIANT_ADD(source, virtio_tablet) { .kind = MOUSE_SOURCE_VIRTIO_TABLET, .moves = 20 };

FIXTURE_SETUP(source)
{
	char why[128];
	int ret;

	ret = mouse_source_open(&self->src, variant->kind, why, sizeof(why));
	if (ret > 0)
		SKIP_SETUP("%s", why);
	ASSERT_EQ(0, ret) TH_LOG("%s", why);

	self->fd = mouse_source_open_node(&self->src, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd) TH_LOG("%s: %s", self->src.node, strerror(errno));

	block_signal(SIG_RT);
	block_signal(SIGIO);
}

FIXTURE_TEARDOWN(source)
{
	close(self->fd);
	mouse_source_close(&self->src);
}

/*
 * F_SETSIG to a real-time signal: one queued signal per packet, exact
 * siginfo. Every source gives one packet per move: QEMU's PS/2 mouse
 * merges motion only while its 256-byte queue is full and virtio only
 * drops when the guest posted no buffers, neither of which a move
 * every 10 ms comes near. A tablet's packets are differences of
 * absolute positions, so their sum must land where the input core and
 * the host have the tablet.
 */
TEST_F(source, rt_signal_per_packet)
{
	bool tablet = variant->kind == MOUSE_SOURCE_VIRTIO_TABLET;
	struct delivery d = { 0 };
	int x0 = 0, y0 = 0, x, y;
	char why[128];

	if (tablet)
		ASSERT_EQ(0, mouse_source_position(&self->src, &x0, &y0));
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, 3, -2, variant->moves, &d));

	EXPECT_STREQ("", d.mismatch);
	EXPECT_EQ(3L * variant->moves, d.dx);
	EXPECT_EQ(-2L * variant->moves, d.dy);
	EXPECT_EQ(variant->moves, d.packets);
	EXPECT_EQ(d.packets, d.signals);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_EQ(0, d.drop_flags);
	if (tablet) {
		ASSERT_EQ(0, mouse_source_position(&self->src, &x, &y));
		EXPECT_EQ(x0 + d.dx, x);
		EXPECT_EQ(y0 + d.dy, y);
		EXPECT_EQ(0, mouse_source_check_host_position(&self->src, x, y,
							      why, sizeof(why)))
			TH_LOG("%s", why);
	}
}

/* without F_SETSIG the signal is plain SIGIO, which does not queue */
TEST_F(source, plain_sigio)
{
	struct delivery d = { 0 };

	ASSERT_EQ(0, subscribe(self->fd, 0, getpid()));
	ASSERT_EQ(0, stream(&self->src, self->fd, SIGIO, 2, 1, variant->moves, &d));

	EXPECT_STREQ("", d.mismatch);
	EXPECT_EQ(2L * variant->moves, d.dx);
	EXPECT_EQ(1L * variant->moves, d.dy);
	/* plain SIGIO does not queue, but every batch of moves brings one */
	EXPECT_EQ(0, d.silent_batches);
	EXPECT_EQ(variant->moves, d.packets);
	EXPECT_GE(d.packets, d.signals);
	EXPECT_FALSE(pending_signal(SIG_RT));
}

/* O_ASYNC cleared: reads go on, signals stop, the subscriber is gone */
TEST_F(source, async_off_no_signal)
{
	struct sigmouse_info info;
	struct delivery d = { 0 };

	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(1u, info.subscribers);
	ASSERT_EQ(0, unsubscribe(self->fd));
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(0u, info.subscribers);

	ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, -1, 2, variant->moves, &d));

	EXPECT_EQ(-1L * variant->moves, d.dx);
	EXPECT_EQ(2L * variant->moves, d.dy);
	EXPECT_EQ(variant->moves, d.packets);
	EXPECT_EQ(0, d.signals);
	EXPECT_FALSE(pending_signal(SIGIO));
}

/* the left button's state arrives in the packet with its signal */
TEST_F(source, button_state)
{
	struct delivery d = { 0 };

	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, mouse_source_button(&self->src, 1));
	collect(self->fd, SIG_RT, 0, 0, &d);
	EXPECT_EQ(1, d.packets);
	EXPECT_EQ(1, d.signals);
	EXPECT_EQ(1u, d.buttons & 1);

	ASSERT_EQ(0, mouse_source_button(&self->src, 0));
	collect(self->fd, SIG_RT, 0, 0, &d);
	EXPECT_EQ(2, d.packets);
	EXPECT_EQ(2, d.signals);
	EXPECT_EQ(0u, d.buttons & 1);
	EXPECT_STREQ("", d.mismatch);
}

/*
 * Two processes on one node, each its own open file on the node's one
 * fasync list: both get every packet, numbered alike, each its signal.
 */
TEST_F(source, two_processes_every_packet)
{
	struct delivery mine = { 0 }, theirs = { 0 };
	int ready[2], result[2], fd, status;
	pid_t child;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(result));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
		if (fd < 0 || subscribe(fd, SIG_RT, getpid()))
			_exit(1);
		c = 'r';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		collect(fd, SIG_RT, 4L * variant->moves, 0, &theirs);
		_exit(write(result[1], &theirs, sizeof(theirs)) != sizeof(theirs));
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, 4, 0, variant->moves, &mine));

	ASSERT_EQ((ssize_t)sizeof(theirs), read(result[0], &theirs, sizeof(theirs)));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_STREQ("", mine.mismatch);
	EXPECT_STREQ("", theirs.mismatch);
	EXPECT_EQ(4L * variant->moves, mine.dx);
	EXPECT_EQ(mine.packets, theirs.packets);
	EXPECT_EQ(mine.packets, mine.signals);
	EXPECT_EQ(theirs.packets, theirs.signals);
	EXPECT_EQ(mine.first_seq, theirs.first_seq);
	EXPECT_EQ(mine.last_seq, theirs.last_seq);
	EXPECT_EQ(0, mine.seq_gaps + theirs.seq_gaps);
}

/* The rest need exact, fast streams: an in-guest uinput mouse. */
FIXTURE(node) {
	struct mouse_source src;
	int fd;
};

FIXTURE_SETUP(node)
{
	char why[128];

	ASSERT_EQ(0, mouse_source_open(&self->src, MOUSE_SOURCE_UINPUT,
				       why, sizeof(why))) TH_LOG("%s", why);
	self->fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	block_signal(SIG_RT);
	block_signal(SIGIO);
}

FIXTURE_TEARDOWN(node)
{
	close(self->fd);
	mouse_source_close(&self->src);
}

TEST_F(node, read_sizes)
{
	struct sigmouse_packet p[3];
	char small[sizeof(p[0])];

	ASSERT_EQ(-1, read(self->fd, small, 0));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, read(self->fd, small, sizeof(p[0]) - 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, read(self->fd, p, sizeof(p)));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 1, 3));
	/* two and a half records of room: two whole records */
	EXPECT_EQ((ssize_t)(2 * sizeof(p[0])), read(self->fd, p, sizeof(p) - sizeof(p[0]) / 2));
	EXPECT_EQ((ssize_t)sizeof(p[0]), read(self->fd, p, sizeof(p)));
	EXPECT_EQ(3u, p[0].seq);
	ASSERT_EQ(-1, read(self->fd, p, sizeof(p)));
	EXPECT_EQ(EAGAIN, errno);
}

/* a bad buffer gets EFAULT and the packet stays for the next read */
TEST_F(node, bad_buffer_loses_nothing)
{
	struct sigmouse_packet p;

	ASSERT_EQ(0, mouse_source_move(&self->src, 7, -7, 1));
	ASSERT_EQ(-1, read(self->fd, unmapped, sizeof(p)));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(1u, p.seq);
	EXPECT_EQ(7, p.dx);
	EXPECT_EQ(-7, p.dy);
	EXPECT_EQ(0u, p.flags);
}

/* motion saturates at the record's __s32 limits rather than wrap around */
TEST_F(node, motion_saturates)
{
	const unsigned int x[] = { REL_X, REL_X }, y[] = { REL_Y, REL_Y };
	const unsigned int wheel[] = { REL_WHEEL, REL_WHEEL };
	const int up[] = { INT_MAX, INT_MAX }, down[] = { INT_MIN, -1 };
	struct sigmouse_packet p;

	ASSERT_EQ(0, uinput_mouse_frame(&self->src.uinput, EV_REL, x, up, 2));
	ASSERT_EQ(0, uinput_mouse_frame(&self->src.uinput, EV_REL, y, down, 2));
	ASSERT_EQ(0, uinput_mouse_frame(&self->src.uinput, EV_REL, wheel, up, 2));
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(INT_MAX, p.dx);
	EXPECT_EQ(0, p.dy);
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(0, p.dx);
	EXPECT_EQ(INT_MIN, p.dy);
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(INT_MAX, p.wheel);
	EXPECT_EQ(3u, p.seq);
}

/*
 * Tests that make their own uinput device, open its node themselves and
 * read from there: dev and fd are cleaned up after them.
 */
FIXTURE(own_device) {
	struct uinput_mouse dev;
	char node[64];
	int fd;
};

FIXTURE_SETUP(own_device)
{
	memset(&self->dev, 0, sizeof(self->dev));
	self->fd = -1;
}

FIXTURE_TEARDOWN(own_device)
{
	if (self->fd >= 0)
		close(self->fd);
	uinput_mouse_destroy(&self->dev);
}

/*
 * The node of the device self->dev made, opened O_NONBLOCK as self->fd.
 * FIXTURE_DATA(own_device) is spelled out, as net/tls.c does: checkpatch
 * takes the '*' after the macro for a multiplication.
 */
static int own_device_open_node(struct _test_data_own_device *self)
{
	if (uinput_mouse_node(&self->dev, self->node, sizeof(self->node)))
		return -1;
	self->fd = open(self->node, O_RDONLY | O_NONBLOCK);
	return self->fd < 0 ? -1 : 0;
}

/* an absolute axis over the whole int range: 2^32 - 1 each way, saturated */
TEST_F(own_device, absolute_motion_saturates)
{
	const unsigned int x = ABS_X;
	const int values[] = { INT_MIN, INT_MAX, INT_MIN };
	struct sigmouse_packet p;
	int i;

	ASSERT_EQ(0, uinput_tablet_create(&self->dev, "sigmouse wide tablet", INT_MIN, INT_MAX));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	/* from 0, where the open found it, to INT_MIN: -2^31, which fits */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, uinput_mouse_frame(&self->dev, EV_ABS, &x, &values[i], 1));
		ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
		EXPECT_EQ(values[i], p.dx) TH_LOG("frame %d", i + 1);
		EXPECT_EQ(SIGMOUSE_PACKET_ABS, p.flags);
	}
}

/*
 * A frame in progress at the first open (its events before the open,
 * its SYN_REPORT after) reaches the node whole: the input core passes a
 * frame on at its SYN_REPORT, but has already taken its buttons and
 * absolute position into the device's state, which the open starts
 * from. So a relative frame's motion counts in the first record, an
 * absolute frame's reads 0, and motion goes on from that position.
 */
TEST_F(own_device, relative_frame_in_progress_at_first_open)
{
	struct sigmouse_packet p;

	ASSERT_EQ(0, uinput_mouse_create(&self->dev, "sigmouse mid-frame mouse"));
	ASSERT_EQ(0, uinput_mouse_node(&self->dev, self->node, sizeof(self->node)));
	ASSERT_EQ(0, uinput_mouse_event(&self->dev, EV_REL, REL_X, 5));
	self->fd = open(self->node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, uinput_mouse_event(&self->dev, EV_SYN, SYN_REPORT, 0));
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(1u, p.seq);
	EXPECT_EQ(5, p.dx);
	EXPECT_EQ(0u, p.flags);
}

TEST_F(own_device, absolute_frame_in_progress_at_first_open)
{
	const unsigned int x = ABS_X;
	const int to = 130;
	struct sigmouse_packet p;

	ASSERT_EQ(0, uinput_tablet_create(&self->dev, "sigmouse mid-frame tablet", 0, 1000));
	ASSERT_EQ(0, uinput_mouse_node(&self->dev, self->node, sizeof(self->node)));
	ASSERT_EQ(0, uinput_mouse_event(&self->dev, EV_ABS, ABS_X, 100));
	self->fd = open(self->node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, uinput_mouse_event(&self->dev, EV_SYN, SYN_REPORT, 0));
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(0, p.dx);
	EXPECT_EQ(SIGMOUSE_PACKET_ABS, p.flags);
	ASSERT_EQ(0, uinput_mouse_frame(&self->dev, EV_ABS, &x, &to, 1));
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(30, p.dx);
}

/* one frame of mixed events, then SYN_REPORT */
static int own_frame(struct uinput_mouse *dev, const unsigned int (*events)[3],
		     unsigned int count)
{
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = uinput_mouse_event(dev, events[i][0], events[i][1], (int)events[i][2]);
		if (ret)
			return ret;
	}
	return uinput_mouse_event(dev, EV_SYN, SYN_REPORT, 0);
}

#define OWN_FRAME(dev, ...)						\
	own_frame(dev, (const unsigned int [][3]) { __VA_ARGS__ },	\
		  sizeof((const unsigned int [][3]) { __VA_ARGS__ }) / sizeof(unsigned int [3]))

/* the next record, which must be there */
#define OWN_READ(fd, p)	ASSERT_EQ((ssize_t)sizeof(p), read(fd, &(p), sizeof(p)))
/* and no more */
#define OWN_NO_MORE(fd, p) do {						\
		EXPECT_EQ(-1, read(fd, &(p), sizeof(p)));		\
		EXPECT_EQ(EAGAIN, errno);				\
	} while (0)

/*
 * A touchpad (BTN_TOOL_FINGER) moves by strokes, as mousedev has it: a
 * touch starts one where the finger lands, with no jump from where the
 * last ended, and is no click; its own BTN_LEFT is. The touch frame's
 * events in either order.
 */
TEST_F(own_device, touchpad_touch_starts_a_stroke)
{
	const unsigned int keys[] = { BTN_TOUCH, BTN_TOOL_FINGER, BTN_LEFT };
	struct sigmouse_packet p;

	ASSERT_EQ(0, uinput_absolute_create(&self->dev, "sigmouse touchpad", 0, 1000, keys, 3));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));

	/* touch at 100,100 (the touch first), move right by 50, lift */
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_TOOL_FINGER, 1 }, { EV_KEY, BTN_TOUCH, 1 },
			       { EV_ABS, ABS_X, 100 }, { EV_ABS, ABS_Y, 100 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_ABS, ABS_X, 150 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_TOUCH, 0 },
			       { EV_KEY, BTN_TOOL_FINGER, 0 }));
	/* touch at 600,700 (the position first), move by 10,-20, press the pad */
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_ABS, ABS_X, 600 }, { EV_ABS, ABS_Y, 700 },
			       { EV_KEY, BTN_TOOL_FINGER, 1 }, { EV_KEY, BTN_TOUCH, 1 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_ABS, ABS_X, 610 }, { EV_ABS, ABS_Y, 680 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_LEFT, 1 }));

	OWN_READ(self->fd, p);
	EXPECT_EQ(50, p.dx);
	EXPECT_EQ(0, p.dy);
	EXPECT_EQ(0u, p.buttons) TH_LOG("a touch is no click");
	OWN_READ(self->fd, p);
	EXPECT_EQ(10, p.dx) TH_LOG("the second stroke starts where it touched");
	EXPECT_EQ(-20, p.dy);
	EXPECT_EQ(0u, p.buttons);
	OWN_READ(self->fd, p);
	EXPECT_EQ(0, p.dx);
	EXPECT_EQ(1u, p.buttons);
	OWN_NO_MORE(self->fd, p);
}

/*
 * Bit 0 is down while BTN_LEFT or a touchscreen's (a pen's) BTN_TOUCH
 * is: one's release keeps it down while the other is, in the events and
 * at the open that starts the frame from the device's state.
 */
TEST_F(own_device, left_held_by_button_or_touch)
{
	const unsigned int keys[] = { BTN_TOUCH, BTN_LEFT };
	struct sigmouse_packet p;

	ASSERT_EQ(0, uinput_absolute_create(&self->dev, "sigmouse pen", 0, 1000, keys, 2));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));

	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_LEFT, 1 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_TOUCH, 1 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_TOUCH, 0 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_TOUCH, 1 }));
	/* the open again, with the touch down and the button released */
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_LEFT, 0 }));
	close(self->fd);
	self->fd = open(self->node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_LEFT, 1 }, { EV_KEY, BTN_LEFT, 0 }));
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_TOUCH, 0 }));

	OWN_READ(self->fd, p);
	EXPECT_EQ(1u, p.buttons) TH_LOG("the touch still down after the button's release");
	OWN_READ(self->fd, p);
	EXPECT_EQ(0u, p.buttons);
	OWN_NO_MORE(self->fd, p);
}

/*
 * A button held on a device with EV_REP is repeated by the input core
 * (value 2, every 33 ms after 250 ms; evdev shows the repeats): no
 * button changes, so no record; nor for a repeat written by user space.
 */
TEST_F(own_device, autorepeat_makes_no_record)
{
	struct input_event ev;
	struct sigmouse_packet p;
	int evdev, repeats = 0;

	ASSERT_EQ(0, uinput_repeating_mouse_create(&self->dev, "sigmouse repeating mouse"));
	ASSERT_EQ(0, uinput_mouse_node(&self->dev, self->node, sizeof(self->node)));
	evdev = open(uinput_mouse_evdev_node(&self->dev), O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, evdev);
	self->fd = open(self->node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);

	ASSERT_EQ(0, uinput_mouse_button(&self->dev, BTN_LEFT, 1));
	usleep(500 * 1000);
	ASSERT_EQ(0, OWN_FRAME(&self->dev, { EV_KEY, BTN_LEFT, 2 }));
	ASSERT_EQ(0, uinput_mouse_button(&self->dev, BTN_LEFT, 0));
	while (read(evdev, &ev, sizeof(ev)) == sizeof(ev))
		repeats += ev.type == EV_KEY && ev.code == BTN_LEFT && ev.value == 2;
	close(evdev);
	/* the core's repeats and the one written */
	EXPECT_LE(2, repeats);

	OWN_READ(self->fd, p);
	EXPECT_EQ(1u, p.buttons);
	OWN_READ(self->fd, p);
	EXPECT_EQ(0u, p.buttons);
	EXPECT_EQ(2u, p.seq);
	OWN_NO_MORE(self->fd, p);
}

/*
 * What a device's node says about it: SIGMOUSE_IOC_INFO's identity
 * fields against ids this test chose (a swapped or dropped one shows),
 * the name truncated to 63 bytes and NUL-ended, and the numbers the ABI
 * document gives as literals: 40-byte records, a 120-byte info, the
 * ioctl's number, a ring of 64.
 */
TEST_F(own_device, info_names_the_device)
{
	static const unsigned int keys[] = { BTN_LEFT };
	static const unsigned int axes[] = { REL_X, REL_Y };
	const struct uinput_ids ids = { 0x1234, 0x5678, 0x9abc };
	/* 79 bytes, uinput's longest */
	const char *name =
		"sigmouse identity 0123456789012345678901234567890123456789012345678901234567890";
	struct sigmouse_info info;

	ASSERT_EQ(79u, strlen(name));
	ASSERT_EQ(0, uinput_relative_create(&self->dev, name, &ids, keys, 1, axes, 2));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(63u, strnlen(info.name, sizeof(info.name)));
	EXPECT_EQ(0, strncmp(name, info.name, 63));
	EXPECT_EQ(BUS_VIRTUAL, info.bustype);
	EXPECT_EQ(0x1234, info.vendor);
	EXPECT_EQ(0x5678, info.product);
	EXPECT_EQ(0x9abc, info.version);
	EXPECT_EQ(0u, info.flags);
	EXPECT_EQ(40u, info.packet_size);
	EXPECT_EQ(64u, info.ring_size);
	EXPECT_EQ(40u, sizeof(struct sigmouse_packet));
	EXPECT_EQ(120u, sizeof(struct sigmouse_info));
	EXPECT_EQ(0x8078b901UL, (unsigned long)SIGMOUSE_IOC_INFO);
}

/*
 * The button bits as the document numbers them, carried from frame to
 * frame, and what makes no record: another button (BTN_FORWARD) and the
 * horizontal wheel, which sigmouse does not track.
 */
TEST_F(own_device, button_bits_carry_over)
{
	static const unsigned int keys[] = {
		BTN_LEFT, BTN_RIGHT, BTN_MIDDLE, BTN_SIDE, BTN_EXTRA, BTN_FORWARD,
	};
	static const unsigned int axes[] = { REL_X, REL_Y, REL_WHEEL, REL_HWHEEL };
	static const struct { unsigned int code; unsigned int bits; } presses[] = {
		{ BTN_RIGHT, 0x02 }, { BTN_MIDDLE, 0x06 }, { BTN_SIDE, 0x0e },
		{ BTN_EXTRA, 0x1e }, { BTN_LEFT, 0x1f },
	};
	const struct uinput_ids ids = { 0 };
	const unsigned int hwheel = REL_HWHEEL;
	const int one = 1;
	struct sigmouse_packet p;
	unsigned int i;

	ASSERT_EQ(0, uinput_relative_create(&self->dev, "sigmouse five buttons", &ids,
					    keys, 6, axes, 4));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	for (i = 0; i < ARRAY_SIZE(presses); i++) {
		ASSERT_EQ(0, uinput_mouse_button(&self->dev, presses[i].code, 1));
		OWN_READ(self->fd, p);
		EXPECT_EQ(presses[i].bits, p.buttons) TH_LOG("press %u", i + 1);
	}
	ASSERT_EQ(0, uinput_mouse_move(&self->dev, 3, 0));
	OWN_READ(self->fd, p);
	EXPECT_EQ(0x1fu, p.buttons);
	EXPECT_EQ(3, p.dx);
	ASSERT_EQ(0, uinput_mouse_button(&self->dev, BTN_FORWARD, 1));
	ASSERT_EQ(0, uinput_mouse_frame(&self->dev, EV_REL, &hwheel, &one, 1));
	OWN_NO_MORE(self->fd, p);
	ASSERT_EQ(0, uinput_mouse_button(&self->dev, BTN_SIDE, 0));
	OWN_READ(self->fd, p);
	EXPECT_EQ(0x17u, p.buttons);
	EXPECT_EQ(0, p.wheel);
}

/*
 * time_ns is the frame's time on CLOCK_MONOTONIC as the input core
 * stamped it: between the clock read before the frame was written and
 * after, and the same as evdev's stamp for the frame (evdev set to
 * CLOCK_MONOTONIC, in its microseconds).
 */
TEST_F(own_device, time_ns_is_the_frames)
{
	struct input_event ev;
	struct sigmouse_packet p;
	struct timespec before, after;
	int evdev, clock = CLOCK_MONOTONIC;
	long long t0, t1, stamp_us = -1;

	ASSERT_EQ(0, uinput_mouse_create(&self->dev, "sigmouse clock"));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	evdev = open(uinput_mouse_evdev_node(&self->dev), O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, evdev);
	ASSERT_EQ(0, ioctl(evdev, EVIOCSCLOCKID, &clock));
	clock_gettime(CLOCK_MONOTONIC, &before);
	ASSERT_EQ(0, uinput_mouse_move(&self->dev, 1, 1));
	clock_gettime(CLOCK_MONOTONIC, &after);
	OWN_READ(self->fd, p);
	while (read(evdev, &ev, sizeof(ev)) == sizeof(ev))
		if (ev.type == EV_SYN && ev.code == SYN_REPORT)
			stamp_us = ev.input_event_sec * 1000000LL + ev.input_event_usec;
	close(evdev);
	t0 = before.tv_sec * 1000000000LL + before.tv_nsec;
	t1 = after.tv_sec * 1000000000LL + after.tv_nsec;
	EXPECT_LE(t0, (long long)p.time_ns);
	EXPECT_GE(t1, (long long)p.time_ns);
	EXPECT_EQ(stamp_us, (long long)(p.time_ns / 1000));
}

/*
 * A tablet's node: SIGMOUSE_INFO_ABS, and SIGMOUSE_PACKET_ABS only on
 * frames that moved an absolute axis, not on a button alone.
 */
TEST_F(own_device, tablet_flags)
{
	const unsigned int x = ABS_X;
	const int to = 100;
	struct sigmouse_info info;
	struct sigmouse_packet p;

	ASSERT_EQ(0, uinput_tablet_create(&self->dev, "sigmouse flags tablet", 0, 1000));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(SIGMOUSE_INFO_ABS, info.flags);
	ASSERT_EQ(0, uinput_mouse_frame(&self->dev, EV_ABS, &x, &to, 1));
	OWN_READ(self->fd, p);
	EXPECT_EQ(SIGMOUSE_PACKET_ABS, p.flags);
	EXPECT_EQ(100, p.dx);
	ASSERT_EQ(0, uinput_mouse_button(&self->dev, BTN_LEFT, 1));
	OWN_READ(self->fd, p);
	EXPECT_EQ(0u, p.flags);
	EXPECT_EQ(1u, p.buttons);
	EXPECT_EQ(0, p.dx);
}

/* the "sigmouse" line of /proc/devices: the major allocated at load */
static int sigmouse_major(void)
{
	char line[64], name[32];
	int major = -1, n;
	FILE *f = fopen("/proc/devices", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %31s", &n, name) == 2 && !strcmp(name, "sigmouse"))
			major = n;
	fclose(f);
	return major;
}

/* whether path's file holds text */
static int file_holds(const char *path, const char *text)
{
	char buf[16384];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return !!strstr(buf, text);
}

/* the number N of /dev/sigmouseN */
static int node_number(const char *node)
{
	return atoi(node + strlen("/dev/sigmouse"));
}

/*
 * Where a bound device shows: a character device of the sigmouse major,
 * root's with mode 0600, its sysfs device under the input device, the
 * handler in /proc/bus/input; touchscreens (BTN_TOUCH, no BTN_LEFT)
 * bind, a device without BTN_LEFT or BTN_TOUCH does not; a node
 * freed is the lowest free number, which the next device gets.
 */
TEST_F(own_device, binding_and_naming)
{
	static const unsigned int touch = BTN_TOUCH, right = BTN_RIGHT;
	static const unsigned int axes[] = { REL_X, REL_Y };
	const struct uinput_ids ids = { 0 };
	struct uinput_mouse other;
	char link[PATH_MAX], path[PATH_MAX + 32], real[PATH_MAX], expect[64], other_node[64];
	struct stat st;
	int lowest, n;

	ASSERT_EQ(0, uinput_mouse_create(&self->dev, "sigmouse named"));
	ASSERT_EQ(0, uinput_mouse_node(&self->dev, self->node, sizeof(self->node)));
	ASSERT_EQ(0, stat(self->node, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600u, st.st_mode & 07777);
	EXPECT_EQ(0u, st.st_uid);
	EXPECT_EQ(sigmouse_major(), (int)major(st.st_rdev));
	n = node_number(self->node);
	snprintf(path, sizeof(path), "/sys/class/sigmouse/sigmouse%d/device", n);
	ASSERT_NE(NULL, realpath(path, link));
	ASSERT_NE(NULL, realpath(uinput_mouse_syspath(&self->dev), real));
	EXPECT_STREQ(real, link);
	snprintf(path, sizeof(path), "%s/sigmouse%d", real, n);
	EXPECT_EQ(0, access(path, F_OK));
	snprintf(expect, sizeof(expect), "sigmouse%d", n);
	EXPECT_TRUE(file_holds("/proc/bus/input/devices", expect));
	EXPECT_TRUE(file_holds("/proc/bus/input/handlers", "Name=sigmouse"));

	/* a touchscreen binds; a device with neither left button nor touch does not */
	ASSERT_EQ(0, uinput_absolute_create(&other, "sigmouse touchscreen", 0, 100, &touch, 1));
	EXPECT_EQ(0, uinput_mouse_node(&other, other_node, sizeof(other_node)));
	uinput_mouse_destroy(&other);
	ASSERT_EQ(0, uinput_relative_create(&other, "sigmouse no left", &ids, &right, 1, axes, 2));
	EXPECT_NE(0, uinput_mouse_node(&other, other_node, sizeof(other_node)));
	uinput_mouse_destroy(&other);

	/* this device's number, freed, is the lowest free one again */
	uinput_mouse_destroy(&self->dev);
	for (lowest = 0; lowest < 32; lowest++) {
		snprintf(path, sizeof(path), "/sys/class/sigmouse/sigmouse%d", lowest);
		if (access(path, F_OK))
			break;
	}
	ASSERT_EQ(0, uinput_mouse_create(&self->dev, "sigmouse renamed"));
	ASSERT_EQ(0, uinput_mouse_node(&self->dev, self->node, sizeof(self->node)));
	EXPECT_EQ(lowest, node_number(self->node));
	EXPECT_LE(lowest, n);
}

/* the /sys/class/sigmouse entries there are now */
static int bound_nodes(void)
{
	DIR *dir = opendir("/sys/class/sigmouse");
	struct dirent *d;
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += strncmp(d->d_name, "sigmouse", 8) == 0;
	closedir(dir);
	return n;
}

/* whether the kernel logged text since kmsg (O_NONBLOCK) was opened */
static int kmsg_says(int kmsg, const char *text)
{
	char record[1024];
	ssize_t n;
	int found = 0;

	while ((n = read(kmsg, record, sizeof(record) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		record[n] = '\0';
		found |= !!strstr(record, text);
	}
	return found;
}

/*
 * At most 32 nodes: devices bind until sigmouse31, the next gets none
 * and the kernel says "no free minor"; and a grab takes a device's
 * events from sigmouse: while evdev holds EVIOCGRAB, moves make no
 * record, after its release they do.
 */
TEST_F(own_device, thirty_two_nodes_and_grabs)
{
	enum { MAX_NODES = 32 };
	struct uinput_mouse extra[MAX_NODES + 1];
	struct sigmouse_packet p;
	char node[64];
	int made = 0, kmsg, evdev, grab = 1, i;

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, kmsg);
	ASSERT_LE(0, lseek(kmsg, 0, SEEK_END));
	while (bound_nodes() < MAX_NODES && made < MAX_NODES) {
		ASSERT_EQ(0, uinput_mouse_create(&extra[made], "sigmouse one of many"));
		made++;
	}
	EXPECT_EQ(MAX_NODES, bound_nodes());
	ASSERT_EQ(0, uinput_mouse_create(&extra[made], "sigmouse one too many"));
	made++;
	EXPECT_NE(0, uinput_mouse_node(&extra[made - 1], node, sizeof(node)));
	EXPECT_EQ(MAX_NODES, bound_nodes());
	EXPECT_TRUE(kmsg_says(kmsg, "no free minor"));
	close(kmsg);
	for (i = 0; i < made; i++)
		uinput_mouse_destroy(&extra[i]);

	ASSERT_EQ(0, uinput_mouse_create(&self->dev, "sigmouse grabbed"));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	evdev = open(uinput_mouse_evdev_node(&self->dev), O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, evdev);
	ASSERT_EQ(0, ioctl(evdev, EVIOCGRAB, grab));
	ASSERT_EQ(0, uinput_mouse_move(&self->dev, 1, 0));
	OWN_NO_MORE(self->fd, p);
	ASSERT_EQ(0, ioctl(evdev, EVIOCGRAB, 0));
	ASSERT_EQ(0, uinput_mouse_move(&self->dev, 2, 0));
	OWN_READ(self->fd, p);
	EXPECT_EQ(2, p.dx);
	close(evdev);
}

TEST_F(node, poll_and_blocking_read)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLRDNORM | POLLOUT };
	struct sigmouse_packet p;
	int flags;

	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	ASSERT_EQ(1, poll(&pfd, 1, 1000));
	EXPECT_EQ(POLLIN | POLLRDNORM, pfd.revents);

	flags = fcntl(self->fd, F_GETFL);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, flags & ~O_NONBLOCK));
	EXPECT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(1u, p.seq);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
}

/*
 * A read of the file stalled in its copy to user space, holding the
 * file's read lock: its buffer is a page userfaultfd holds back until
 * read_stall_release(). A record must be queued before read_stall().
 */
struct read_stall {
	int fd, uffd;
	long page_size;
	struct uffdio_range range;
	void *buf;
	ssize_t got;
	pthread_t reader;
};

static void *read_stalled(void *arg)
{
	struct read_stall *r = arg;

	r->got = read(r->fd, r->buf, sizeof(struct sigmouse_packet));
	return NULL;
}

/* 0 once the reader's copy has faulted, -1 (and a message) if not */
static int read_stall(struct read_stall *r, int fd, char *why, size_t size)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct pollfd pfd = { .events = POLLIN };
	struct uffd_msg msg;

	r->fd = fd;
	r->page_size = sysconf(_SC_PAGESIZE);
	r->uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (r->uffd < 0) {
		snprintf(why, size, "userfaultfd: %s (CONFIG_USERFAULTFD?)", strerror(errno));
		return -1;
	}
	r->buf = mmap(NULL, r->page_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)r->buf;
	reg.range.len = r->page_size;
	r->range = reg.range;
	if (ioctl(r->uffd, UFFDIO_API, &api) || r->buf == MAP_FAILED ||
	    ioctl(r->uffd, UFFDIO_REGISTER, &reg) ||
	    pthread_create(&r->reader, NULL, read_stalled, r)) {
		snprintf(why, size, "userfaultfd setup: %s", strerror(errno));
		return -1;
	}
	/* the read is in its copy once its fault is reported */
	pfd.fd = r->uffd;
	if (poll(&pfd, 1, 10000) != 1 ||
	    read(r->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		snprintf(why, size, "the read's copy did not fault");
		return -1;
	}
	return 0;
}

/* lets the stalled copy finish; the read's result is in r->got */
static void read_stall_release(struct read_stall *r)
{
	struct uffdio_zeropage zero = { .range = r->range };

	ioctl(r->uffd, UFFDIO_ZEROPAGE, &zero);
	pthread_join(r->reader, NULL);
}

static void read_stall_cleanup(struct read_stall *r)
{
	munmap(r->buf, r->page_size);
	close(r->uffd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * An O_NONBLOCK read never waits, not even for another thread's read of
 * the same file that is stalled in its copy to user space: it fails
 * with EAGAIN at once. A read that waited would sleep until the stalled
 * copy finished, which only this thread can let happen; an alarm ends
 * that wait with EINTR.
 */
TEST_F(node, nonblocking_read_never_waits)
{
	struct sigaction alarm_action = { .sa_handler = on_alarm };
	struct sigmouse_packet p;
	struct read_stall r;
	char why[128];
	long long start;
	ssize_t got;
	int err;

	ASSERT_EQ(0, mouse_source_move(&self->src, 3, 0, 2));
	ASSERT_EQ(0, read_stall(&r, self->fd, why, sizeof(why))) TH_LOG("%s", why);

	ASSERT_EQ(0, sigaction(SIGALRM, &alarm_action, NULL));
	alarm(2);
	start = now_ms();
	got = read(self->fd, &p, sizeof(p));
	err = errno;
	EXPECT_EQ(-1, got);
	EXPECT_EQ(EAGAIN, err) TH_LOG("a non-blocking read waited %lld ms for the stalled one",
				      now_ms() - start);
	alarm(0);

	read_stall_release(&r);
	EXPECT_EQ((ssize_t)sizeof(p), r.got);
	EXPECT_EQ(1u, ((struct sigmouse_packet *)r.buf)->seq);
	/* the second packet is still there for the next read */
	EXPECT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(2u, p.seq);
	read_stall_cleanup(&r);
}

static void *move_later(void *arg)
{
	struct timespec delay = { 0, 200 * 1000 * 1000 };

	nanosleep(&delay, NULL);
	mouse_source_move(arg, 5, 5, 1);
	return NULL;
}

TEST_F(node, blocking_read_waits)
{
	struct sigmouse_packet p;
	pthread_t mover;

	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, 0));
	ASSERT_EQ(0, pthread_create(&mover, NULL, move_later, &self->src));
	EXPECT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(5, p.dx);
	pthread_join(mover, NULL);
}

TEST_F(node, ioctls)
{
	struct sigmouse_info info;
	unsigned long bad[] = {
		0, _IO(SIGMOUSE_IOC_MAGIC, 0x02), _IOW(SIGMOUSE_IOC_MAGIC, 0x01, int),
		_IOR(SIGMOUSE_IOC_MAGIC, 0x01, int), FIONREAD, 0xffffffff,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, ioctl(self->fd, bad[i], &info));
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", bad[i]);
	}
	EXPECT_EQ(-1, ioctl(self->fd, SIGMOUSE_IOC_INFO, unmapped));
	EXPECT_EQ(EFAULT, errno);

	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 5));
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_STREQ("sigmouse uinput", info.name);
	EXPECT_EQ(BUS_VIRTUAL, (int)info.bustype);
	EXPECT_EQ(0u, info.flags);
	EXPECT_EQ(sizeof(struct sigmouse_packet), info.packet_size);
	EXPECT_LE(4u * BATCH, info.ring_size);
	EXPECT_EQ(1u, info.opens);
	EXPECT_EQ(1u, info.subscribers);
	EXPECT_EQ(5u, info.packets);
	EXPECT_EQ(0u, info.padding);
	EXPECT_EQ(0u, info.reserved);
	EXPECT_EQ(0u, info.drops);
}

/* the node is read-only by nature: opened for writing, writes still fail */
TEST_F(node, write_and_seek_refused)
{
	int fd = open(self->src.node, O_RDWR);
	char byte = 0;

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, &byte, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, lseek(fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
	EXPECT_EQ(-1, pread(fd, &byte, 1, 0));
	EXPECT_EQ(ESPIPE, errno);
	close(fd);
}

/*
 * The frame being assembled starts afresh at the first open after the
 * last close: no motion carried over, the buttons as the device has
 * them now, whatever changed while no one had the node open.
 */
TEST_F(node, frame_state_after_reopen)
{
	struct sigmouse_packet p;
	int pressed;

	ASSERT_EQ(0, mouse_source_button(&self->src, 1));
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(1u, p.buttons);

	/* released, then pressed again, each while the node is closed */
	for (pressed = 0; pressed <= 1; pressed++) {
		ASSERT_EQ(0, close(self->fd));
		ASSERT_EQ(0, mouse_source_button(&self->src, pressed));
		self->fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, self->fd);

		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
		ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
		EXPECT_EQ((unsigned int)pressed, p.buttons);
		EXPECT_EQ(1, p.dx);
		EXPECT_EQ(0, p.dy);
	}
}

/*
 * A 32-bit process on the same node: the UAPI structs through the compat
 * ioctl, 32-bit reads and 32-bit siginfo (guest-apps/sigmouse-compat32.c).
 */
/* the next line of the text at *cursor, cut at its newline; NULL at its end */
static char *next_line(char **cursor)
{
	char *line = *cursor, *end;

	if (!line || !*line)
		return NULL;
	end = strchr(line, '\n');
	if (end)
		*end++ = '\0';
	*cursor = end;
	return line;
}

/*
 * A check that runs a program the kit installs beside the test (in the
 * kit's initramfs; the selftests' install has none) skips where it is not
 */
static bool installed(const char *path)
{
	return access(path, X_OK) == 0;
}

/*
 * Run a guest program, argv[0] its path, with its stdout and stderr on
 * a pipe whose read end goes to pipefd[0]. Returns its pid, or -1.
 */
static pid_t spawn_piped(int pipefd[2], char *const argv[])
{
	pid_t child;

	if (pipe(pipefd))
		return -1;
	child = fork();
	if (child == 0) {
		sigset_t none;

		/* as from a shell: not the suite's blocked signals (exec keeps them) */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		execv(argv[0], argv);
		printf("exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	if (child < 0)
		close(pipefd[0]);
	return child;
}

/*
 * Numbering goes on across closes and opens, and a closed node makes no
 * records: with the only file closed, moves reach no one, and the first
 * record after the reopen is the one after the last record read.
 */
TEST_F(node, seq_goes_on_across_reopen)
{
	struct sigmouse_info info;
	struct sigmouse_packet p;
	__u64 last = 0;

	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 3));
	while (read(self->fd, &p, sizeof(p)) == sizeof(p))
		last = p.seq;
	ASSERT_EQ(3u, last);
	ASSERT_EQ(0, close(self->fd));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 2));
	self->fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	ASSERT_EQ((ssize_t)sizeof(p), read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(last + 1, p.seq);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(last + 1, info.packets);
}

TEST_F(node, compat_32bit_reader)
{
	enum { PACKETS = 10 };
	char out[512] = "", count[16];
	int pipefd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t child;

	if (!installed("/bin/sigmouse-compat32"))
		SKIP(return, "/bin/sigmouse-compat32 is not installed");
	snprintf(count, sizeof(count), "%d", PACKETS);
	child = spawn_piped(pipefd, (char *[]){ "/bin/sigmouse-compat32", self->src.node,
			    count, "2", "-1", NULL });
	ASSERT_LE(0, child);
	while (!strchr(out, '\n') &&
	       (n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	ASSERT_EQ(0, strncmp(out, "ready\n", 6)) TH_LOG("32-bit reader: %s", out);

	ASSERT_EQ(0, mouse_source_move(&self->src, 2, -1, PACKETS));
	while ((n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("32-bit reader: %s", out + 6);
}

struct faulting_reader {
	int fd;
	atomic_int stop;
	long faults;
};

/* read the node into an unmapped buffer, over and over */
static void *read_into_nothing(void *arg)
{
	struct faulting_reader *r = arg;
	struct sigmouse_packet *p = unmapped;

	while (!r->stop)
		if (read(r->fd, p, sizeof(*p)) < 0 && errno == EFAULT)
			r->faults++;
	return NULL;
}

/*
 * A packet put back after EFAULT is still read in order: another
 * thread reading the same file never gets the packets behind it first.
 */
TEST_F_TIMEOUT(node, efault_put_back_keeps_order, 120)
{
	enum { BATCHES = 100 };
	struct faulting_reader r = { .fd = self->fd };
	struct delivery d = { 0 };
	long long deadline;
	pthread_t thread;
	int i;

	ASSERT_EQ(0, pthread_create(&thread, NULL, read_into_nothing, &r));
	for (i = 0; i < BATCHES; i++) {
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, BATCH));
		read_packets(self->fd, &d);
	}
	/* the faulting thread may hold the last packet for a moment */
	deadline = now_ms() + DELIVERY_MS;
	while (d.packets < BATCHES * BATCH && now_ms() < deadline)
		read_packets(self->fd, &d);
	r.stop = 1;
	pthread_join(thread, NULL);

	EXPECT_LT(0, r.faults);
	EXPECT_EQ(BATCHES * BATCH, d.packets);
	EXPECT_EQ(1u, d.first_seq);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_EQ(0, d.drop_flags);
}

/* a full ring drops the oldest, counts them and flags the next packet */
TEST_F(node, ring_overflow_flags_drops)
{
	struct sigmouse_packet *p;
	struct sigmouse_info info;
	const int extra = 10;
	unsigned int ring;

	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	ring = info.ring_size;
	p = calloc(ring + 1, sizeof(*p));
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, ring + extra));
	ASSERT_EQ((ssize_t)(ring * sizeof(*p)), read(self->fd, p, (ring + 1) * sizeof(*p)));
	EXPECT_EQ(1u + extra, p[0].seq);
	EXPECT_EQ(SIGMOUSE_PACKET_DROPPED, p[0].flags);
	EXPECT_EQ(extra, p[0].dropped);
	EXPECT_EQ(0u, p[1].flags);
	EXPECT_EQ((__u64)ring + extra, p[ring - 1].seq);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(extra, info.drops);
	free(p);
}

/*
 * SIGIO's default action ends the process: a program that asked for a
 * real-time signal and neither handles nor blocks SIGIO is killed by the
 * fallback once its real-time queue is full.
 */
TEST_F(node, fallback_sigio_ends_unready_process)
{
	const struct rlimit small = { 2, 2 };
	int ready[2], status = 0;
	pid_t child, ended;
	long long deadline;
	char c;

	ASSERT_EQ(0, pipe(ready));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGIO);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		signal(SIGIO, SIG_DFL);
		if (setrlimit(RLIMIT_SIGPENDING, &small) || subscribe(self->fd, SIG_RT, getpid()))
			_exit(1);
		c = 'r';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 8));
	deadline = now_ms() + DELIVERY_MS;
	while ((ended = waitpid(child, &status, WNOHANG)) == 0 && now_ms() < deadline)
		usleep(10 * 1000);
	if (ended != child) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}
	EXPECT_EQ(child, ended) TH_LOG("the child outlived its full queue");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGIO);
}

/* lock-free atomic ints, so as async-signal-safe as a sig_atomic_t */
static atomic_int handled, handled_fd, handled_code, drained;
static int handler_fd;

/* SA_SIGINFO: the same siginfo; read() is async-signal-safe, so drain here */
static void drain_in_handler(int sig, siginfo_t *si, void *context)
{
	struct sigmouse_packet p;

	(void)sig;
	(void)context;
	handled++;
	handled_fd = si->si_fd;
	handled_code = si->si_code;
	while (read(handler_fd, &p, sizeof(p)) == sizeof(p))
		drained++;
}

TEST_F(node, handler_drains_in_signal)
{
	struct sigaction sa = { .sa_sigaction = drain_in_handler, .sa_flags = SA_SIGINFO };
	enum { PACKETS = 5 };
	sigset_t set;
	int i;

	handler_fd = self->fd;
	handled = 0;
	drained = 0;
	ASSERT_EQ(0, sigaction(SIG_RT, &sa, NULL));
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	ASSERT_EQ(0, sigprocmask(SIG_UNBLOCK, &set, NULL));
	for (i = 0; i < PACKETS; i++)
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	usleep(100 * 1000);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	signal(SIG_RT, SIG_DFL);
	EXPECT_EQ(PACKETS, handled);
	EXPECT_EQ(PACKETS, drained);
	EXPECT_EQ(self->fd, handled_fd);
	EXPECT_EQ(POLL_IN, handled_code);
}

/*
 * A full real-time queue: the kernel cannot queue the signal, sends plain
 * SIGIO instead (fs/fcntl.c: send_sigio_to_task(), "fall back on the old
 * plain SIGIO signal"), and the program that sees SIGIO reads everything.
 * Nothing is lost: every packet is in the ring, in sequence.
 */
TEST_F(node, rt_queue_full_falls_back_to_sigio)
{
	enum { QUEUE = 4, MOVES = 3 * QUEUE };
	struct rlimit small = { QUEUE, QUEUE };
	struct timespec zero = { 0, 0 };
	struct delivery d = { 0 };
	int rt = 0, plain = 0;
	sigset_t set;
	siginfo_t si;

	/* RLIMIT_SIGPENDING counts every pending signal of the user */
	ASSERT_EQ(0, setrlimit(RLIMIT_SIGPENDING, &small));
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, mouse_source_move(&self->src, 2, -1, MOVES));

	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	sigaddset(&set, SIGIO);
	while (sigtimedwait(&set, &si, &zero) > 0) {
		if (si.si_signo == SIGIO) {
			plain++;
			/* the kernel's own SIGIO: no descriptor, band 0 */
			EXPECT_EQ(SI_KERNEL, si.si_code);
			EXPECT_EQ(0, si.si_fd);
			EXPECT_EQ(0, si.si_band);
		} else {
			rt++;
			EXPECT_EQ(POLL_IN, si.si_code);
			EXPECT_EQ(BAND_IN, si.si_band);
			EXPECT_EQ(self->fd, si.si_fd);
		}
	}
	EXPECT_LE(1, rt);
	EXPECT_GE(QUEUE, rt);
	/* plain SIGIO is one pending bit however often it is sent */
	EXPECT_EQ(1, plain);
	read_packets(self->fd, &d);
	EXPECT_EQ(MOVES, d.packets);
	EXPECT_EQ(1u, d.first_seq);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_EQ(0, d.drop_flags);
	EXPECT_EQ(2 * MOVES, d.dx);
}

/* Every other command of sigmouse's magic: ENOTTY, whatever the argument. */
static int ioctl_sweep(int fd, int *wrong_cmd, int *wrong_errno)
{
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE,
	};
	const unsigned int sizes[] = {
		0, 1, sizeof(struct sigmouse_info) - 1, sizeof(struct sigmouse_info),
		sizeof(struct sigmouse_info) + 1, _IOC_SIZEMASK,
	};
	void *const args[] = { NULL, unmapped, (void *)-4096L };
	unsigned int nr, dir, size, arg, cmd;
	int tried = 0;

	for (nr = 0; nr <= _IOC_NRMASK; nr++)
		for (dir = 0; dir < 4; dir++)
			for (size = 0; size < 6; size++)
				for (arg = 0; arg < 3; arg++) {
					cmd = _IOC(dirs[dir], SIGMOUSE_IOC_MAGIC, nr, sizes[size]);
					if (cmd == SIGMOUSE_IOC_INFO)
						continue;
					tried++;
					if (ioctl(fd, cmd, args[arg]) == -1 && errno == ENOTTY)
						continue;
					if (!*wrong_cmd) {
						*wrong_cmd = cmd;
						*wrong_errno = errno;
					}
				}
	return tried;
}

/*
 * Bad input of every kind gets a clear error and loses nothing: ioctls,
 * read sizes, mmap, a thousand opens, running out of fds. The
 * node works afterwards; the kernel log is the runner's to judge.
 */
TEST_F_TIMEOUT(node, bad_input_clear_errors, 300)
{
	/* others' commands, none of which the VFS answers for a char device */
	const unsigned long foreign[] = {
		EVIOCGVERSION, EVIOCGRAB, UI_DEV_CREATE, TCGETS, TIOCGWINSZ,
		FIONREAD, _IOR('M', 1, int), _IOWR(SIGMOUSE_IOC_MAGIC + 1, 1, long),
	};
	enum { OPENS = 1000, FEW_FDS = 32 };
	struct rlimit fds, few = { FEW_FDS, FEW_FDS };
	struct sigmouse_packet p[4], *big;
	int wrong_cmd = 0, wrong_errno = 0, i, *many, opened;
	struct sigmouse_info info;
	struct delivery d = { 0 };
	void *map;

	EXPECT_LT(6000, ioctl_sweep(self->fd, &wrong_cmd, &wrong_errno));
	EXPECT_EQ(0, wrong_cmd) TH_LOG("cmd %#x: errno %d", wrong_cmd, wrong_errno);
	for (i = 0; i < (int)ARRAY_SIZE(foreign); i++) {
		EXPECT_EQ(-1, ioctl(self->fd, foreign[i], p));
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", foreign[i]);
	}
	EXPECT_EQ(-1, ioctl(self->fd, SIGMOUSE_IOC_INFO, (void *)-4096L));
	EXPECT_EQ(EFAULT, errno);

	/*
	 * reads: 1 byte, a record and a byte, a megabyte into a good and
	 * into a bad buffer, and a count past the address space (the VFS
	 * refuses that one before the driver sees it); nothing is lost
	 */
	ASSERT_EQ(0, mouse_source_move(&self->src, 3, 4, 2));
	EXPECT_EQ(-1, read(self->fd, p, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ((ssize_t)sizeof(p[0]), read(self->fd, p, sizeof(p[0]) + 1));
	EXPECT_EQ(1u, p[0].seq);
	EXPECT_EQ(-1, read(self->fd, unmapped, MIB));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, read(self->fd, p, huge_count));
	EXPECT_EQ(EFAULT, errno);
	big = malloc(MIB);
	ASSERT_NE(NULL, big);
	EXPECT_EQ((ssize_t)sizeof(p[0]), read(self->fd, big, MIB));
	EXPECT_EQ(2u, big[0].seq);
	free(big);

	/* write and lseek: write_and_seek_refused */
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, map);
	EXPECT_EQ(ENODEV, errno);

	many = calloc(OPENS, sizeof(*many));
	ASSERT_NE(NULL, many);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &fds));
	fds.rlim_cur = fds.rlim_max < 2 * OPENS ? fds.rlim_max : 2 * OPENS;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &fds));
	for (opened = 0; opened < OPENS; opened++) {
		many[opened] = open(self->src.node, O_RDONLY);
		if (many[opened] < 0)
			break;
	}
	EXPECT_EQ(OPENS, opened) TH_LOG("open %d: errno %d", opened, errno);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(opened + 1u, info.opens);
	while (opened)
		close(many[--opened]);

	/* out of fds: EMFILE from open, and nothing counted for it */
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &few));
	for (opened = 0; opened < OPENS; opened++) {
		many[opened] = open(self->src.node, O_RDONLY);
		if (many[opened] < 0)
			break;
	}
	EXPECT_EQ(EMFILE, errno);
	EXPECT_GT(FEW_FDS, opened);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(opened + 1u, info.opens);
	while (opened)
		close(many[--opened]);
	free(many);

	/* and the node still works */
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, 1, -1, BATCH, &d));
	EXPECT_EQ(BATCH, d.signals);
	EXPECT_EQ(BATCH, d.packets);
	EXPECT_EQ(3u, d.first_seq);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_STREQ("", d.mismatch);
}

/*
 * Injected faults (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_USERCOPY), one
 * call at a time as syzkaller does: writing n to this thread's fail-nth
 * makes the n-th fault point it meets fail, and reading it back says
 * whether that happened. Stepping n up from 1 fails each allocation and
 * user copy of a call in turn, until the call meets no n-th point.
 */
#define FAULT_KNOBS	"/sys/kernel/debug/"

struct fail_nth {
	int fd;
	int injected;	/* faults that fired */
};

static int fail_nth_open(struct fail_nth *f)
{
	f->injected = 0;
	/* GFP_KERNEL allocations too, and no backtrace for every fault */
	if (write_file(FAULT_KNOBS "failslab/ignore-gfp-wait", "N") ||
	    write_file(FAULT_KNOBS "failslab/verbose", "0") ||
	    write_file(FAULT_KNOBS "fail_usercopy/verbose", "0"))
		return -1;
	f->fd = open("/proc/thread-self/fail-nth", O_RDWR);
	return f->fd < 0 ? -1 : 0;
}

static void fail_nth_arm(struct fail_nth *f, int n)
{
	char text[16];

	snprintf(text, sizeof(text), "%d", n);
	if (pwrite(f->fd, text, strlen(text), 0) < 0)
		abort();
}

/*
 * Disarm; whether the armed fault fired in the call. The count goes down
 * in these two calls' own user copies too: a count left at 1 fails the
 * read (so it had not fired), and one left at 2 fails the write, which
 * disarms it as well.
 */
static int fail_nth_fired(struct fail_nth *f)
{
	char text[16] = "";
	int fired;

	fired = pread(f->fd, text, sizeof(text) - 1, 0) > 0 && atoi(text) == 0;
	if (pwrite(f->fd, "0", 1, 0) < 0 && errno != EFAULT)
		abort();
	f->injected += fired;
	return fired;
}

/* the faults that fired are a figure of the run: faults.<what> */
static void fail_nth_close(struct fail_nth *f, const char *what)
{
	close(f->fd);
	printf("# figure: faults.%s %d\n", what, f->injected);
	fflush(stdout);
}

/*
 * O_ASYNC under allocation faults: a failed F_SETFL says ENOMEM and
 * leaves the file as it was, FASYNC in F_GETFL matching whether it is
 * on the list (the subscriber counter); the call that meets no fault
 * does the change, and the node then signals every packet, or none.
 * In waitqueue mode subscribing allocates nothing, so nothing can fail.
 */
TEST_F(node, fault_in_subscribe_keeps_flag_and_list)
{
	struct sigmouse_info info;
	struct delivery d = { 0 };
	struct fail_nth f;
	int n, on, flags, ret, err, fired;

	ASSERT_EQ(0, fail_nth_open(&f));
	ASSERT_EQ(0, fcntl(self->fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(self->fd, F_SETSIG, SIG_RT));
	for (on = 1; on >= 0; on--) {
		for (n = 1, ret = -1; ret && n < 1000; n++) {
			flags = fcntl(self->fd, F_GETFL);
			fail_nth_arm(&f, n);
			ret = fcntl(self->fd, F_SETFL, on ? flags | O_ASYNC : flags & ~O_ASYNC);
			err = errno;
			fired = fail_nth_fired(&f);
			ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
			flags = fcntl(self->fd, F_GETFL);
			if (ret) {
				EXPECT_TRUE(fired);
				EXPECT_EQ(ENOMEM, err);
				EXPECT_EQ(!on, !!(flags & O_ASYNC)) TH_LOG("fault %d", n);
			} else {
				EXPECT_EQ(on, !!(flags & O_ASYNC)) TH_LOG("fault %d", n);
			}
			EXPECT_EQ(!!(flags & O_ASYNC), (int)info.subscribers) TH_LOG("fault %d", n);
		}
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, 1, 0, 10, &d));
		EXPECT_EQ(on ? 10 : 0, d.signals);
		memset(&d, 0, sizeof(d));
	}
	fail_nth_close(&f, "subscribe");
	/* waitqueue mode allocates nothing: the entry is in the open's client */
	if (notify_is_waitqueue()) {
		/* braced: an EXPECT_*() is two statements, a do-while and a for */
		EXPECT_EQ(0, f.injected);
	} else {
		EXPECT_LT(0, f.injected);
	}
}

/*
 * open() under faults, the driver's client allocation among them: each
 * failed open says ENOMEM (EFAULT for the path's copy) and leaves the
 * open count alone; each that
 * succeeds gives a file that gets every packet and its signal.
 */
TEST_F(node, fault_in_open_fails_cleanly)
{
	struct sigmouse_info info;
	struct delivery d;
	struct fail_nth f;
	int n, fd = -1, err, fired = 1;

	ASSERT_EQ(0, fail_nth_open(&f));
	for (n = 1; fired && n < 1000; n++) {
		fail_nth_arm(&f, n);
		fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
		err = errno;
		fired = fail_nth_fired(&f);
		ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
		if (fd < 0) {
			EXPECT_TRUE(fired);
			/* an allocation, or the copy of the path */
			EXPECT_TRUE(err == ENOMEM || err == EFAULT) TH_LOG("fault %d: %d", n, err);
			EXPECT_EQ(1u, info.opens) TH_LOG("fault %d", n);
			continue;
		}
		EXPECT_EQ(2u, info.opens) TH_LOG("fault %d", n);
		memset(&d, 0, sizeof(d));
		ASSERT_EQ(0, subscribe(fd, SIG_RT, getpid()));
		ASSERT_EQ(0, stream(&self->src, fd, SIG_RT, 1, 0, 5, &d));
		EXPECT_EQ(5, d.packets) TH_LOG("fault %d", n);
		EXPECT_EQ(5, d.signals) TH_LOG("fault %d", n);
		close(fd);
		read_packets(self->fd, &d);
	}
	EXPECT_FALSE(fired);
	fail_nth_close(&f, "open");
	EXPECT_LT(0, f.injected);
}

/*
 * read() under user-copy faults: the n-th copy fails, so a read returns
 * the n - 1 packets before it, or EFAULT when n is 1, and the packet it
 * could not copy is the next one read. Nothing is lost or reordered.
 */
TEST_F(node, fault_in_read_puts_packet_back)
{
	enum { PACKETS = 8 };
	struct sigmouse_packet p[PACKETS];
	struct delivery d = { 0 };
	struct fail_nth f;
	int n, left, err, fired;
	ssize_t got, want;

	ASSERT_EQ(0, fail_nth_open(&f));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, PACKETS));
	for (n = 1; d.packets < PACKETS && n <= PACKETS; n++) {
		left = PACKETS - d.packets;
		fail_nth_arm(&f, n);
		got = read(self->fd, p, sizeof(p));
		err = errno;
		fired = fail_nth_fired(&f);
		EXPECT_EQ(left >= n, fired) TH_LOG("fault %d", n);
		want = n == 1 ? -1 : (n - 1 < left ? n - 1 : left) * (ssize_t)sizeof(p[0]);
		EXPECT_EQ(want, got) TH_LOG("fault %d", n);
		if (got < 0) {
			/* braced: an EXPECT_*() is two statements */
			EXPECT_EQ(EFAULT, err);
		} else {
			count_packets(p, got / sizeof(p[0]), &d);
		}
	}
	fail_nth_close(&f, "read");
	EXPECT_EQ(PACKETS, d.packets);
	EXPECT_EQ(1u, d.first_seq);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_EQ(0, d.drop_flags);
}

/*
 * fcntl(fd, cmd, arg) under faults, n = 1, 2, ... until it meets none:
 * each failed call says ENOMEM (EFAULT for a copy of arg) and leaves the
 * file's owner and signal as they were. 0 once the call took, -1 with
 * errno set if a call failed otherwise.
 */
static int fcntl_under_faults(struct fail_nth *f, int fd, int cmd, unsigned long arg)
{
	int owner = fcntl(fd, F_GETOWN), sig = fcntl(fd, F_GETSIG);
	int n, ret, err, fired;

	for (n = 1; n < 1000; n++) {
		fail_nth_arm(f, n);
		ret = fcntl(fd, cmd, arg);
		err = errno;
		fired = fail_nth_fired(f);
		if (!ret)
			return 0;
		if (!fired || (err != ENOMEM && err != EFAULT)) {
			errno = err;
			return -1;
		}
		if (fcntl(fd, F_GETOWN) != owner || fcntl(fd, F_GETSIG) != sig) {
			errno = EEXIST;
			return -1;
		}
	}
	errno = ELOOP;
	return -1;
}

/*
 * The calls that give a file an owner, under allocation faults: 6.12
 * allocates a file's owner on its first F_SETOWN, F_SETOWN_EX, F_SETSIG,
 * F_NOTIFY or F_SETLEASE (6.1 keeps it in the file). Each failed call
 * says so and leaves no owner behind; the call that meets no fault
 * takes, and a lease taken again on the same file is renewed. What a
 * failed or renewing call allocated must be freed again: the boot's
 * kmemleak scan after the suite judges that (museum fdfe0133473a, a
 * dnotify mark lost when the owner's allocation failed).
 */
TEST_F(node, fault_in_owner_calls_leave_no_owner)
{
	struct f_owner_ex thread = { F_OWNER_TID, syscall(SYS_gettid) }, got;
	char dir[] = "/tmp/sigmouse-owner.XXXXXX", path[sizeof(dir) + 8];
	struct fail_nth f;
	int fd;

	ASSERT_EQ(0, fail_nth_open(&f));
	/* the guest's initramfs has no /tmp */
	ASSERT_TRUE(!mkdir("/tmp", 01777) || errno == EEXIST);
	ASSERT_NE(NULL, mkdtemp(dir));

	/* a new file of the node each time: its owner is allocated anew */
	fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_EQ(0, fcntl_under_faults(&f, fd, F_SETOWN, getpid())) TH_LOG("%m");
	EXPECT_EQ(getpid(), fcntl(fd, F_GETOWN));
	close(fd);
	fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_EQ(0, fcntl_under_faults(&f, fd, F_SETOWN_EX, (unsigned long)&thread))
		TH_LOG("%m");
	ASSERT_EQ(0, fcntl(fd, F_GETOWN_EX, &got));
	EXPECT_EQ(F_OWNER_TID, (int)got.type);
	EXPECT_EQ(thread.pid, got.pid);
	close(fd);
	fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_EQ(0, fcntl_under_faults(&f, fd, F_SETSIG, SIG_RT)) TH_LOG("%m");
	EXPECT_EQ(SIG_RT, fcntl(fd, F_GETSIG));
	close(fd);

	/* dnotify makes the caller the directory's owner */
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	ASSERT_EQ(0, fcntl_under_faults(&f, fd, F_NOTIFY, DN_CREATE)) TH_LOG("%m");
	EXPECT_EQ(getpid(), fcntl(fd, F_GETOWN));
	close(fd);

	/* and so does a lease, taken and then renewed */
	snprintf(path, sizeof(path), "%s/leased", dir);
	fd = open(path, O_RDONLY | O_CREAT, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fcntl_under_faults(&f, fd, F_SETLEASE, F_RDLCK)) TH_LOG("%m");
	ASSERT_EQ(0, fcntl_under_faults(&f, fd, F_SETLEASE, F_RDLCK)) TH_LOG("%m");
	EXPECT_EQ(F_RDLCK, fcntl(fd, F_GETLEASE));
	EXPECT_EQ(getpid(), fcntl(fd, F_GETOWN));
	close(fd);
	EXPECT_EQ(0, unlink(path));
	EXPECT_EQ(0, rmdir(dir));
	fail_nth_close(&f, "owner");
	/* dnotify's and the lease's allocations at least */
	EXPECT_LT(0, f.injected);
}

/*
 * Landlock's signal scoping (Linux 6.12, its ABI 6): a file's owner
 * set from inside a sandbox carries the sandbox, and its SIGIO reaches
 * no process outside it. Before 6.12 (a lower ABI or no Landlock) there
 * is nothing to check; from 6.12 on, a kernel without it lacks what the
 * selftest's config asks for.
 */
#define LANDLOCK_SIGNAL_SCOPE_ABI	6
#define LANDLOCK_SCOPE_SIGNAL_BIT	2ULL	/* LANDLOCK_SCOPE_SIGNAL: 1 << 1 */

static int landlock_abi(void)
{
	return syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
}

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int got_major = 0, got_minor = 0;

	return !uname(&u) && sscanf(u.release, "%d.%d", &got_major, &got_minor) == 2 &&
	       (got_major > major || (got_major == major && got_minor >= minor));
}

/*
 * fcntl(fd, cmd, arg) in a child sandboxed with the signal scope alone
 * (the attribute's 6.12 layout: no access rights handled). Returns the
 * child, which writes fcntl's result (0, or its errno) to *result's pipe
 * and then waits to be let go (sandbox_let_go()): a dnotify request
 * lasts only as long as its process's descriptor table.
 */
struct sandbox {
	pid_t pid;
	int result[2], stay[2];
};

static int sandbox_fcntl(struct sandbox *box, int fd, int cmd, long arg)
{
	struct { __u64 handled_access_fs, handled_access_net, scoped; } attr = {
		.scoped = LANDLOCK_SCOPE_SIGNAL_BIT,
	};
	int ruleset, err = 0;
	char byte;

	if (pipe(box->result) || pipe(box->stay))
		return -1;
	box->pid = fork();
	if (box->pid < 0)
		return -1;
	if (box->pid)
		return read(box->result[0], &err, sizeof(err)) == sizeof(err) ? err : -1;
	ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0))
		err = errno;
	else if (fcntl(fd, cmd, arg))
		err = errno;
	close(box->stay[1]);
	if (write(box->result[1], &err, sizeof(err)) != sizeof(err))
		_exit(1);
	/* until the parent closes its end */
	while (read(box->stay[0], &byte, 1) > 0)
		;
	_exit(0);
}

static int sandbox_let_go(struct sandbox *box)
{
	int status;

	close(box->stay[1]);
	close(box->stay[0]);
	close(box->result[0]);
	close(box->result[1]);
	return waitpid(box->pid, &status, 0) == box->pid && WIFEXITED(status) ?
	       WEXITSTATUS(status) : -1;
}

/* SIG_RT signals queued for a file created in dir now, with si_fd fd */
static int signals_at_create(const char *dir, const char *name, int fd)
{
	struct timespec now = { 0, 0 };
	char path[PATH_MAX];
	sigset_t set;
	siginfo_t si;
	int n = 0, file;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	file = open(path, O_WRONLY | O_CREAT, 0600);
	if (file < 0)
		return -1;
	close(file);
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	/* dnotify signals within the creating call: queued on its return */
	while (sigtimedwait(&set, &si, &now) == SIG_RT)
		n += si.si_fd == fd;
	unlink(path);
	return n;
}

/*
 * An owner's record of who set it changes only with the owner. A
 * sandboxed process that sets a directory's owner to its parent stops
 * the parent's dnotify signals (the scope at work: the negative
 * control); once the parent sets itself again they come; and a
 * sandboxed process's F_NOTIFY on the same directory, which leaves the
 * owner as it was, must leave them coming (museum 26f204380a3c: the
 * hook called even when the owner was kept).
 */
TEST_F(node, sandboxed_notify_keeps_owner)
{
	char dir[] = "/tmp/sigmouse-scope.XXXXXX";
	struct sandbox box;
	int abi = landlock_abi(), fd;

	if (abi < LANDLOCK_SIGNAL_SCOPE_ABI) {
		/* what the selftest's config asks for, the kit's 6.12 has */
		if (kernel_at_least(6, 12))
			ASSERT_LE(LANDLOCK_SIGNAL_SCOPE_ABI, abi)
				TH_LOG("needs CONFIG_SECURITY_LANDLOCK, landlock in lsm=");
		SKIP(return, "Landlock's signal scope came in 6.12 (this kernel's ABI: %d)", abi);
	}
	ASSERT_TRUE(!mkdir("/tmp", 01777) || errno == EEXIST);
	ASSERT_NE(NULL, mkdtemp(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fcntl(fd, F_SETSIG, SIG_RT));
	ASSERT_EQ(0, fcntl(fd, F_NOTIFY, DN_CREATE | DN_MULTISHOT));
	EXPECT_EQ(1, signals_at_create(dir, "own", fd));

	ASSERT_EQ(0, sandbox_fcntl(&box, fd, F_SETOWN, getpid()));
	EXPECT_EQ(0, signals_at_create(dir, "owner-from-sandbox", fd));
	EXPECT_EQ(0, sandbox_let_go(&box));

	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	EXPECT_EQ(1, signals_at_create(dir, "owner-again", fd));

	ASSERT_EQ(0, sandbox_fcntl(&box, fd, F_NOTIFY, DN_CREATE | DN_MULTISHOT));
	/* the sandbox's request signals too, to the same owner */
	EXPECT_EQ(2, signals_at_create(dir, "notify-from-sandbox", fd));
	EXPECT_EQ(0, sandbox_let_go(&box));
	EXPECT_EQ(getpid(), fcntl(fd, F_GETOWN));
	close(fd);
	EXPECT_EQ(0, rmdir(dir));
}

/*
 * The run's figures from sigmouse-fuzz's summary, "sigmouse-fuzz: N
 * devices, N packets, N signals taken, N calls failed; <call> N ...":
 * its calls are the sum of the per-call counts.
 */
/* what sigmouse-fuzz says it did, from its summary line */
struct fuzz_work {
	unsigned long devices, packets, signals, calls, least_op;
	int ops;
};

/*
 * The least work a run must have done, per second of fuzzing: well
 * under what 10 s did in each of the boots of two make tests (1,552 to
 * 9,076 calls, each of the 14 kinds at least 99 times; 713 to 2,999
 * packets; 5 to 19 devices), so that a fuzzer whose threads stalled,
 * whose mouse never streamed or whose calls all went to one kind cannot
 * pass by leaving a node that works. The signals its collector takes
 * depend on which owners the random calls left (6 to 1,187 in 10 s):
 * at least one, to show delivery was reached at all.
 */
#define FUZZ_MIN_CALLS_PER_S	20
#define FUZZ_MIN_PACKETS_PER_S	10
#define FUZZ_MIN_SIGNALS	1UL
#define FUZZ_MIN_EACH_OP_PER_S	1
#define FUZZ_KINDS_OF_CALL	14
/* sigmouse-fuzz's two mice at once, and as many that came back after dying */
#define FUZZ_MIN_DEVICES	4UL

static void fuzz_figures(const char *line, struct fuzz_work *w)
{
	unsigned long devices, packets, signals, failed, count;
	const char *ops = strchr(line, ';');
	char name[32];
	int used;

	if (!ops ||
	    sscanf(line,
		   "sigmouse-fuzz: %lu devices, %lu packets, %lu signals taken, %lu calls failed;",
		   &devices, &packets, &signals, &failed) != 4)
		return;
	w->devices = devices;
	w->packets = packets;
	w->signals = signals;
	w->least_op = ULONG_MAX;
	for (ops++; sscanf(ops, " %31s %lu%n", name, &count, &used) == 2; ops += used) {
		w->calls += count;
		w->ops++;
		if (count < w->least_op)
			w->least_op = count;
	}
	printf("# figure: fuzz.calls %lu\n# figure: fuzz.devices %lu\n"
	       "# figure: packets.fuzz %lu\n", w->calls, devices, packets);
	fflush(stdout);
}

/*
 * sigmouse-fuzz for SIGMOUSE_FUZZ_SECONDS (default 10; make fuzz sets
 * it, and SIGMOUSE_FUZZ_SEED to replay): random calls from four threads
 * while its two uinput mice stream, die and come back. It checks that a
 * fresh node works exactly afterwards, and this test that the fuzzer
 * did real work (FUZZ_MIN_*); the runner judges the kernel log.
 */
TEST_F_TIMEOUT(node, fuzz_then_node_works, 3600)
{
	const char *seconds = getenv("SIGMOUSE_FUZZ_SECONDS") ?: "10";
	const char *seed = getenv("SIGMOUSE_FUZZ_SEED");
	char out[4096] = "", *line, *cursor;
	struct fuzz_work work = { 0 };
	unsigned long s = strtoul(seconds, NULL, 10);
	int pipefd[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t child;

	if (!installed("/bin/sigmouse-fuzz"))
		SKIP(return, "/bin/sigmouse-fuzz is not installed");
	child = spawn_piped(pipefd, (char *[]){ "/bin/sigmouse-fuzz", "-t",
			    (char *)seconds,
			    seed ? "-s" : NULL, (char *)seed, NULL });
	ASSERT_LE(0, child);
	while ((n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	for (cursor = out; (line = next_line(&cursor));) {
		TH_LOG("%s", line);
		fuzz_figures(line, &work);
	}
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(FUZZ_KINDS_OF_CALL, work.ops) TH_LOG("no summary line, or another set of calls");
	EXPECT_LE(FUZZ_MIN_DEVICES, work.devices);
	EXPECT_LE(FUZZ_MIN_CALLS_PER_S * s, work.calls);
	EXPECT_LE(FUZZ_MIN_PACKETS_PER_S * s, work.packets);
	EXPECT_LE(FUZZ_MIN_SIGNALS, work.signals);
	EXPECT_LE(FUZZ_MIN_EACH_OP_PER_S * s, work.least_op);
}

#define STRESS_NG_SECONDS	"15"
/*
 * The stressors that must report work: all but sigio. stress-ng 0.15's
 * sigio stressor forks its pipe writer before it sets O_ASYNC, so a
 * writer that fills the 4 KiB pipe first can wait forever with no SIGIO
 * to come (its source says so; it reported 0 in one of the seven boots
 * run here, the kernel's pipe SIGIO meanwhile checked by this suite):
 * its count is a figure, not a requirement.
 */
#define STRESS_NG_WORKING	4

/*
 * stress-ng's bogo-ops per stressor as figures, the rest as comments;
 * returns how many stressors other than sigio did any work
 */
static int stress_ng_figures(char *out)
{
	char *line, *cursor, name[32];
	double times[5];
	int working = 0;
	long ops;

	for (cursor = out; (line = next_line(&cursor));) {
		/* "<stressor> <bogo ops> <real> <usr> <sys> <ops/s> <ops/s>" */
		if (sscanf(line, "stress-ng: metrc: [%*d] %31s %ld %lf %lf %lf %lf %lf", name,
			   &ops, &times[0], &times[1], &times[2], &times[3], &times[4]) == 7) {
			printf("# figure: bogo.%s %ld\n", name, ops);
			working += ops > 0 && strcmp(name, "sigio");
		} else {
			printf("# %s\n", line);
		}
	}
	fflush(stdout);
	return working;
}

/*
 * Debian's stress-ng beside a uinput stream: its sigio stressor (pipes
 * with O_ASYNC, so kill_fasync() under the design booted), fcntl, pipe
 * and signal stressors, and its dev stressor on this node alone (opens,
 * reads, polls, ioctls; never the host channel's serial line). Its
 * summary's bogo-ops are the run's figures; the stream's subscriber
 * still gets every packet and its signal, and the node is as before.
 */
TEST_F_TIMEOUT(node, stress_ng_beside_stream, 300)
{
	struct sigmouse_info info;
	struct delivery d = { 0 };
	char out[16384] = "";
	int pipefd[2], status = -1;
	size_t len = 0;
	long sent = 0;
	ssize_t n;
	pid_t child;

	if (!installed("/bin/stress-ng"))
		SKIP(return, "/bin/stress-ng is not installed");
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	child = spawn_piped(pipefd, (char *[]){ "/bin/stress-ng", "--timeout", STRESS_NG_SECONDS,
			    "--metrics-brief", "--sigio", "1", "--fcntl", "1", "--pipe", "1",
			    "--signal", "1", "--dev", "1", "--dev-file", self->src.node, NULL });
	ASSERT_LE(0, child);
	ASSERT_EQ(0, fcntl(pipefd[0], F_SETFL, O_NONBLOCK));
	while (waitpid(child, &status, WNOHANG) == 0) {
		ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, 1, 0, BATCH, &d));
		sent += BATCH;
		while ((n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
			len += n;
	}
	while ((n = read(pipefd[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	close(pipefd[0]);
	/* a stressor with no bogo-ops did not run */
	EXPECT_EQ(STRESS_NG_WORKING, stress_ng_figures(out));
	printf("# figure: packets.stress-ng %ld\n# figure: lost.stress-ng %ld\n",
	       sent, sent - d.packets);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_LT(0, sent);
	EXPECT_EQ(sent, d.packets);
	EXPECT_EQ(sent, d.signals);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_STREQ("", d.mismatch);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(1u, info.subscribers);
	EXPECT_EQ(1u, info.opens);
}

/* Many open files on one node: kill_fasync() walks all their entries. */
TEST_F(node, many_opens_one_list)
{
	enum { OPENS = 100 };
	int fds[OPENS], seen[OPENS] = { 0 }, i, j, signals = 0;
	struct timespec tick = { 1, 0 };
	struct sigmouse_info info;
	sigset_t set;
	siginfo_t si;

	for (i = 0; i < OPENS; i++) {
		fds[i] = open(self->src.node, O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, subscribe(fds[i], SIG_RT, getpid()));
	}
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(OPENS + 1u, info.opens);
	EXPECT_EQ((unsigned int)OPENS, info.subscribers);

	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	while (signals < OPENS && sigtimedwait(&set, &si, &tick) == SIG_RT) {
		signals++;
		for (j = 0; j < OPENS; j++)
			if (fds[j] == si.si_fd)
				seen[j]++;
		EXPECT_EQ(BAND_IN, si.si_band);
	}
	EXPECT_EQ(OPENS, signals);
	for (i = 0; i < OPENS; i++) {
		EXPECT_EQ(1, seen[i]) TH_LOG("fd %d", fds[i]);
		close(fds[i]);
	}
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(1u, info.opens);
	EXPECT_EQ(0u, info.subscribers);
}

/*
 * SIG_RT signals taken, no more than the count most, each within wait_ms
 * of the last; *for_fd says how many were fd's POLL_IN, exactly
 */
static int take_rt_signals(int fd, long wait_ms, int most, int *for_fd)
{
	struct timespec wait = { wait_ms / 1000, wait_ms % 1000 * 1000000L };
	sigset_t set;
	siginfo_t si;
	int n = 0;

	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	*for_fd = 0;
	while (n < most && sigtimedwait(&set, &si, &wait) == SIG_RT) {
		n++;
		*for_fd += si.si_code == POLL_IN && si.si_band == BAND_IN && si.si_fd == fd;
	}
	return n;
}

/* F_SETOWN to a process group: every member gets every signal */
TEST_F(node, setown_process_group)
{
	enum { MEMBERS = 2, MOVES = 20 };
	int i, status, got = 0;
	pid_t pids[MEMBERS];

	/*
	 * A group of its own, this process and the members: 6.12's harness
	 * runs the test in a child of a wrapper that is in the harness's
	 * group and does not block SIG_RT (6.1's made the test process the
	 * group's leader)
	 */
	ASSERT_EQ(0, setpgid(0, 0));
	for (i = 0; i < MEMBERS; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0) {
			int exact;

			take_rt_signals(self->fd, 2000, MOVES, &exact);
			_exit(exact);
		}
	}
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, -getpgrp()));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, MOVES));
	for (i = 0; i < MEMBERS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_EQ(MOVES, WEXITSTATUS(status));
		got += WEXITSTATUS(status);
	}
	/* this process is a member too */
	while (pending_signal(SIG_RT))
		got++;
	EXPECT_EQ((MEMBERS + 1) * MOVES, got);
}

struct thread_target {
	pid_t tid;
	int ready;
	int go;
	int got;
};

/* hold SIG_RT pending until told, then take every one queued to us */
static void *take_signals_later(void *arg)
{
	struct thread_target *t = arg;

	t->tid = syscall(SYS_gettid);
	__atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&t->go, __ATOMIC_ACQUIRE))
		usleep(1000);
	while (pending_signal(SIG_RT))
		t->got++;
	return NULL;
}

/*
 * F_SETOWN_EX to one thread: that thread, and not the process, gets it.
 * The signals are queued to the target thread alone, so while it holds
 * them pending this thread, of the same process, finds none; a signal
 * sent to the process would be on the shared queue, which it would.
 */
TEST_F(node, setown_ex_thread)
{
	struct thread_target target = { 0 };
	struct f_owner_ex owner = { .type = F_OWNER_TID };
	pthread_t thread;

	ASSERT_EQ(0, pthread_create(&thread, NULL, take_signals_later, &target));
	while (!__atomic_load_n(&target.ready, __ATOMIC_ACQUIRE))
		sched_yield();
	owner.pid = target.tid;
	ASSERT_EQ(0, fcntl(self->fd, F_SETOWN_EX, &owner));
	ASSERT_EQ(0, fcntl(self->fd, F_SETSIG, SIG_RT));
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, fcntl(self->fd, F_GETFL) | O_ASYNC));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 10));
	EXPECT_FALSE(pending_signal(SIG_RT));
	__atomic_store_n(&target.go, 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	EXPECT_EQ(10, target.got);
}

/* packets each round of the owner check moves (owner-party.h) */
#define OWNER_MOVES	5

/*
 * For every kind of owner: an unprivileged process that names another
 * user's process as a file's owner gets it no signal, while the file it
 * owns itself signals every packet (the positive control of the same
 * round; root turns O_ASYNC on for both, the permission being the
 * namer's); then root names the same process, which now gets every
 * packet's signal (so the silence was the permission check's).
 */
TEST_F(node, unprivileged_owner_cannot_signal_others)
{
	struct owner_party victim, subscriber;
	int k, own, stolen, counts[2];

	for (k = OWNER_PID; k <= OWNER_EX_PGRP; k++) {
		int mine = open(self->src.node, O_RDONLY | O_NONBLOCK);
		int theirs = open(self->src.node, O_RDONLY | O_NONBLOCK);
		int by_root = open(self->src.node, O_RDONLY | O_NONBLOCK);

		ASSERT_LE(0, mine);
		ASSERT_LE(0, theirs);
		ASSERT_LE(0, by_root);
		ASSERT_EQ(0, party_start(&victim, VICTIM_UID, -1, -1, k, 0));
		ASSERT_EQ(0, party_start(&subscriber, SUBSCRIBER_UID, mine, theirs, k,
					 victim.pid)) TH_LOG("%s", owner_kind_names[k]);
		ASSERT_EQ(0, fcntl(mine, F_SETFL, O_NONBLOCK | O_ASYNC));
		ASSERT_EQ(0, fcntl(theirs, F_SETFL, O_NONBLOCK | O_ASYNC));
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 1, OWNER_MOVES));
		ASSERT_EQ(0, party_count(&subscriber, counts));
		own = counts[1];
		ASSERT_EQ(0, party_count(&victim, counts));
		stolen = counts[0];
		EXPECT_EQ(OWNER_MOVES, own) TH_LOG("%s: uid %d's own file", owner_kind_names[k],
						   SUBSCRIBER_UID);
		EXPECT_EQ(0, stolen) TH_LOG("%s: uid %d signalled uid %d's process",
					    owner_kind_names[k], SUBSCRIBER_UID, VICTIM_UID);

		ASSERT_EQ(0, subscribe_to(by_root, k, victim.pid));
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 1, OWNER_MOVES));
		ASSERT_EQ(0, party_count(&victim, counts));
		EXPECT_EQ(OWNER_MOVES, counts[0]) TH_LOG("%s: root's file, uid %d's process",
							 owner_kind_names[k], VICTIM_UID);
		EXPECT_EQ(0, party_end(&subscriber));
		EXPECT_EQ(0, party_end(&victim));
		close(mine);
		close(theirs);
		close(by_root);
	}
}

struct exclusive_waiter {
	int fd;
	pid_t tid;
	int wakeups;
	int hangup;
};

/* epoll the node with EPOLLEXCLUSIVE, draining it at every wake-up */
static void *wait_exclusive(void *arg)
{
	struct exclusive_waiter *w = arg;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLEXCLUSIVE };
	struct sigmouse_packet p[8];
	int ep = epoll_create1(0);

	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, w->fd, &ev))
		goto out;
	__atomic_store_n(&w->tid, syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (epoll_wait(ep, &ev, 1, DELIVERY_MS) == 1) {
		if (ev.events & (EPOLLHUP | EPOLLERR)) {
			w->hangup = 1;
			break;
		}
		while (read(w->fd, p, sizeof(p)) > 0)
			;
		__atomic_add_fetch(&w->wakeups, 1, __ATOMIC_RELEASE);
	}
out:
	if (ep >= 0)
		close(ep);
	__atomic_store_n(&w->tid, -1, __ATOMIC_RELEASE);
	return NULL;
}

/* whether thread tid of this process is asleep ('S' in its stat) */
static int thread_asleep(pid_t tid)
{
	char path[64], stat[256] = "", *end;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(stat, sizeof(stat), f))
		stat[0] = '\0';
	fclose(f);
	end = strrchr(stat, ')');
	return end && end[1] == ' ' && end[2] == 'S';
}

/* wait until the waiter has handled wakeups wake-ups and sleeps again */
static int exclusive_waiter_asleep(struct exclusive_waiter *w, int wakeups)
{
	long long deadline = now_ms() + DELIVERY_MS;
	pid_t tid;

	while (now_ms() < deadline) {
		tid = __atomic_load_n(&w->tid, __ATOMIC_ACQUIRE);
		if (tid < 0)
			return 0;
		if (tid > 0 && __atomic_load_n(&w->wakeups, __ATOMIC_ACQUIRE) == wakeups &&
		    thread_asleep(tid))
			return 1;
		usleep(1000);
	}
	return 0;
}

/*
 * An EPOLLEXCLUSIVE waiter asleep on the node ends an exclusive wake-up
 * when it is woken. A subscriber that came later must still get every
 * packet's signal and the hangup's: SIGIO is not a waiter to be chosen
 * among, in either notify mode.
 */
TEST_F(node, epoll_exclusive_waiter_keeps_signals)
{
	enum { PACKETS = 20 };
	struct exclusive_waiter w = { .fd = self->fd };
	struct timespec tick = { 0, 500 * 1000 * 1000 };
	int sub, i, signals = 0;
	pthread_t thread;
	sigset_t set;
	siginfo_t si;

	ASSERT_EQ(0, pthread_create(&thread, NULL, wait_exclusive, &w));
	ASSERT_TRUE(exclusive_waiter_asleep(&w, 0));
	sub = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, sub);
	ASSERT_EQ(0, subscribe(sub, SIG_RT, getpid()));

	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	for (i = 0; i < PACKETS; i++) {
		ASSERT_TRUE(exclusive_waiter_asleep(&w, i)) TH_LOG("packet %d", i);
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
		if (sigtimedwait(&set, &si, &tick) != SIG_RT)
			continue;
		signals++;
		EXPECT_EQ(sub, si.si_fd);
		EXPECT_EQ(POLL_IN, si.si_code);
		EXPECT_EQ(BAND_IN, si.si_band);
	}
	EXPECT_EQ(PACKETS, signals);

	ASSERT_TRUE(exclusive_waiter_asleep(&w, PACKETS));
	ASSERT_EQ(0, mouse_source_unplug(&self->src));
	ASSERT_EQ(SIG_RT, sigtimedwait(&set, &si, &tick)) TH_LOG("no hangup signal");
	EXPECT_EQ(sub, si.si_fd);
	EXPECT_EQ(POLL_HUP, si.si_code);
	pthread_join(thread, NULL);
	EXPECT_EQ(1, w.hangup);
	close(sub);
}

struct churn {
	const char *node;
	atomic_int stop;	/* the stream has ended: churners stop */
	long want_dx;		/* its motion, once it has */
	int ready;		/* churners set up */
	long toggles;		/* O_ASYNC set and cleared again */
	long opens;		/* opened, subscribed, closed subscribed */
	long owner_changes;	/* F_SETOWN/F_SETOWN_EX while signals fly */
	long forks;		/* children that subscribed and exited */
	long signal_changes;	/* F_SETSIG between a real-time signal and SIGIO */
	long signals;		/* churners' signals taken */
	long errors;		/* calls that failed */
	struct delivery owner;	/* the owner changer's subscription */
};

/* the churners' own signals, so the subscribers that stay count exactly */
#define SIG_CHURN	(SIGRTMIN + 2)
#define SIG_OWNER	(SIGRTMIN + 3)
#define SIG_SETSIG	(SIGRTMIN + 4)
#define CHURN_TOGGLES	100000
/* and at least as many packets meet them */
#define CHURN_PACKETS	2000
#define CHURN_TOGGLERS	4
#define CHURN_SECONDS	600

static void churn_add(long *counter)
{
	__atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

static void churn_ready(struct churn *c)
{
	__atomic_add_fetch(&c->ready, 1, __ATOMIC_RELEASE);
}

static void churn_drain(struct churn *c)
{
	while (pending_signal(SIG_CHURN))
		churn_add(&c->signals);
}

/* set and clear O_ASYNC on a file of its own */
static void *churn_toggle(void *arg)
{
	struct churn *c = arg;
	int fd = open(c->node, O_RDONLY | O_NONBLOCK);

	if (fd < 0 || subscribe(fd, SIG_CHURN, getpid()))
		churn_add(&c->errors);
	churn_ready(c);
	while (fd >= 0 && !c->stop) {
		if (unsubscribe(fd) || subscribe(fd, SIG_CHURN, getpid()))
			churn_add(&c->errors);
		churn_add(&c->toggles);
		churn_drain(c);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* open, subscribe and close with O_ASYNC still set: the release unsubscribes */
static void *churn_open(void *arg)
{
	struct churn *c = arg;
	int fd;

	churn_ready(c);
	while (!c->stop) {
		fd = open(c->node, O_RDONLY | O_NONBLOCK);
		if (fd < 0 || subscribe(fd, SIG_CHURN, getpid()))
			churn_add(&c->errors);
		if (fd >= 0)
			close(fd);
		churn_add(&c->opens);
		churn_drain(c);
	}
	return NULL;
}

/*
 * Children that subscribe and exit still subscribed, and a file of ours
 * whose owner is such a child, reaped while packets arrive: its signals
 * then go to a pid that is gone.
 */
static void *churn_fork(void *arg)
{
	struct churn *c = arg;
	int fd, status;
	pid_t child;

	churn_ready(c);
	while (!c->stop) {
		fd = open(c->node, O_RDONLY | O_NONBLOCK);
		child = fork();
		if (child == 0) {
			int mine = open(c->node, O_RDONLY | O_NONBLOCK);

			if (mine < 0 || subscribe(mine, SIG_CHURN, getpid()))
				_exit(1);
			usleep(2000);
			_exit(0);
		}
		if (fd < 0 || child < 0 || subscribe(fd, SIG_CHURN, child) ||
		    waitpid(child, &status, 0) != child || status != 0)
			churn_add(&c->errors);
		usleep(1000);
		if (fd >= 0)
			close(fd);
		churn_add(&c->forks);
	}
	return NULL;
}

/*
 * A subscriber, this thread its owner, whose signal F_SETSIG moves between
 * a real-time signal and plain SIGIO (0) while packets arrive: each signal
 * that comes is whole, the real-time one with its own number, POLL_IN and
 * this file's fd, whichever F_SETSIG the kernel read first. The kernel
 * reads the number once per signal (send_sigio_to_task()'s READ_ONCE()):
 * read again, a change between the reads sends one signal with another's
 * number in its info, a race KCSAN's kernel sees (museum 8eeee4e2f04f).
 */
static void *churn_signal(void *arg)
{
	struct churn *c = arg;
	struct f_owner_ex thread = { F_OWNER_TID, syscall(SYS_gettid) };
	struct timespec zero = { 0, 0 };
	int fd = open(c->node, O_RDONLY | O_NONBLOCK), turn = 0, sig;
	struct delivery d = { 0 };
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIG_SETSIG);
	sigaddset(&set, SIGIO);
	if (fd < 0 || subscribe(fd, SIG_SETSIG, getpid()) || fcntl(fd, F_SETOWN_EX, &thread))
		churn_add(&c->errors);
	churn_ready(c);
	while (fd >= 0 && !c->stop) {
		if (fcntl(fd, F_SETSIG, turn++ % 2 ? 0 : SIG_SETSIG))
			churn_add(&c->errors);
		churn_add(&c->signal_changes);
		while ((sig = sigtimedwait(&set, &si, &zero)) > 0) {
			if (si.si_signo != sig || (sig == SIG_SETSIG &&
						   (si.si_code != POLL_IN || si.si_fd != fd)))
				churn_add(&c->errors);
			churn_add(&c->signals);
		}
		read_packets(fd, &d);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * A subscriber that stays while its owner moves between the process and
 * this thread: wherever it points, this thread takes the signal, so it
 * gets exactly one per packet.
 */
static void *churn_owner(void *arg)
{
	struct churn *c = arg;
	struct f_owner_ex thread = { F_OWNER_TID, syscall(SYS_gettid) };
	struct f_owner_ex process = { F_OWNER_PID, getpid() };
	struct timespec zero = { 0, 0 };
	int fd = open(c->node, O_RDONLY | O_NONBLOCK), turn = 0, error;
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIG_OWNER);
	if (fd < 0 || subscribe(fd, SIG_OWNER, getpid()))
		churn_add(&c->errors);
	churn_ready(c);
	while (fd >= 0 && !c->stop) {
		switch (turn++ % 3) {
		case 0:
			error = fcntl(fd, F_SETOWN_EX, &thread);
			break;
		case 1:
			error = fcntl(fd, F_SETOWN_EX, &process);
			break;
		default:
			error = fcntl(fd, F_SETOWN, getpid());
		}
		if (error)
			churn_add(&c->errors);
		churn_add(&c->owner_changes);
		while (sigtimedwait(&set, &si, &zero) == SIG_OWNER)
			count_signal(&si, SIG_OWNER, fd, &c->owner);
		read_packets(fd, &c->owner);
	}
	if (fd >= 0) {
		collect(fd, SIG_OWNER, __atomic_load_n(&c->want_dx, __ATOMIC_ACQUIRE), 0,
			&c->owner);
		close(fd);
	}
	return NULL;
}

/*
 * Subscribers coming and going while packets are delivered, the race
 * fasync's locking is for, sustained: at least 100 000 O_ASYNC toggles
 * from four threads and 2000 packets, files opened and closed
 * subscribed, an owner moved between process and thread, owners forked,
 * exited and reaped, all beside a uinput stream. The two subscribers
 * that stay get exactly one signal per packet naming their fd (the
 * owner changer's ring may overflow while it is starved: every packet
 * it lacks is in the drop counter); the counters come back to one; the
 * kernel log stays clean.
 */
TEST_F_TIMEOUT(node, fasync_churn_during_delivery, CHURN_SECONDS + 120)
{
	void *(*churners[])(void *) = { churn_toggle, churn_toggle, churn_toggle,
					churn_toggle, churn_open, churn_fork, churn_owner,
					churn_signal };
	enum { CHURNERS = ARRAY_SIZE(churners) };
	struct churn c = { .node = self->src.node };
	long long started = now_ms();
	pthread_t threads[CHURNERS];
	struct sigmouse_info info;
	struct delivery d = { 0 };
	unsigned int i;
	long sent = 0;

	block_signal(SIG_CHURN);
	block_signal(SIG_OWNER);
	block_signal(SIG_SETSIG);
	block_signal(SIGIO);
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	for (i = 0; i < CHURNERS; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, churners[i], &c));
	while (__atomic_load_n(&c.ready, __ATOMIC_ACQUIRE) < CHURNERS)
		usleep(1000);
	while ((__atomic_load_n(&c.toggles, __ATOMIC_RELAXED) < CHURN_TOGGLES ||
		sent < CHURN_PACKETS) && now_ms() - started < CHURN_SECONDS * 1000) {
		ASSERT_EQ(0, stream(&self->src, self->fd, SIG_RT, 1, 0, 4 * BATCH, &d));
		sent += 4 * BATCH;
	}
	__atomic_store_n(&c.want_dx, sent, __ATOMIC_RELEASE);
	c.stop = 1;
	for (i = 0; i < CHURNERS; i++)
		pthread_join(threads[i], NULL);

	printf("# figure: churn.seconds %.1f\n", (now_ms() - started) / 1000.0);
	printf("# figure: churn.toggles %ld\n", c.toggles);
	printf("# figure: packets.churn %ld\n", sent);
	printf("# figure: churn.opens %ld\n", c.opens);
	printf("# figure: churn.owner_changes %ld\n", c.owner_changes);
	printf("# figure: churn.forks %ld\n", c.forks);
	printf("# figure: churn.signal_changes %ld\n", c.signal_changes);
	printf("# figure: churn.signals %ld\n", c.signals + d.signals + c.owner.signals);
	/* packets a subscriber that stayed neither read nor saw counted as dropped */
	printf("# figure: lost.churn %ld\n",
	       (sent - d.packets) + (sent - c.owner.packets - c.owner.dropped));
	fflush(stdout);
	EXPECT_LE(CHURN_TOGGLES, c.toggles);
	EXPECT_LE(CHURN_PACKETS, sent);
	EXPECT_EQ(0, c.errors);
	EXPECT_LT(0, c.opens);
	EXPECT_LT(0, c.forks);
	EXPECT_LT(0, c.owner_changes);
	EXPECT_LT(0, c.signal_changes);
	EXPECT_LT(0, c.signals);
	EXPECT_EQ(sent, d.packets);
	EXPECT_EQ(sent, d.signals);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_STREQ("", d.mismatch);
	EXPECT_EQ(sent, c.owner.signals);
	EXPECT_EQ(sent, c.owner.packets + c.owner.dropped);
	EXPECT_EQ(0, c.owner.unexplained_gaps);
	EXPECT_STREQ("", c.owner.mismatch);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(1u, info.subscribers);
	EXPECT_EQ(1u, info.opens);
}

#define TRACEFS "/sys/kernel/tracing"

/* lines of the trace buffer that show event and contain detail */
static int trace_lines(const char *event, const char *detail)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, event) && strstr(line, detail))
			n++;
	fclose(f);
	return n;
}

/*
 * The counter clock: the trace's lines in the order their events took
 * it. The default, each CPU's local clock, orders lines of different
 * CPUs only as well as those clocks agree, and a guest under TCG marks
 * its TSCs unsynchronized: a line written after a mark on another CPU
 * could come before it (seen once in make test, a round of
 * fasync_add_race_sampler with no added entry and the next with two).
 */
static int fasync_tracing(int on)
{
	/* empty lists, such as this suite's own tty, would flood the buffer */
	return write_file(TRACEFS "/tracing_on", "0") ||
	       (on && write_file(TRACEFS "/trace_clock", "counter")) ||
	       write_file(TRACEFS "/events/fasync/kill_fasync/filter",
			  on ? "walked > 0" : "0") ||
	       write_file(TRACEFS "/events/fasync/enable", on ? "1" : "0") ||
	       (on && write_file(TRACEFS "/trace", "")) ||
	       write_file(TRACEFS "/tracing_on", on ? "1" : "0");
}

/*
 * The fasync tracepoints fire with the right fields: one fasync_add and
 * one fasync_remove per subscriber (and removes with fd -1, result 0
 * for a file that never had an entry), and per packet one kill_fasync that
 * walked both subscribers and had one signal accepted: the second file
 * has no owner, and a file with no owner gets no signal (none in
 * waitqueue mode, where nothing calls kill_fasync()).
 */
TEST_F(node, tracepoints_fire)
{
	enum { PACKETS = 5 };
	int fds[2] = { self->fd, -1 }, i, signals = 0, at_open;
	struct timespec tick = { 2, 0 };
	char detail[96];
	sigset_t set;
	siginfo_t si;

	/* the debug kernel has them: their absence is a failure, not a skip */
	ASSERT_EQ(0, access(TRACEFS "/events/fasync", F_OK));
	fds[1] = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, fasync_tracing(1));
	ASSERT_EQ(0, subscribe(fds[0], SIG_RT, getpid()));
	ASSERT_EQ(0, subscribe(fds[1], SIG_RT, 0));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, PACKETS));
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	while (signals < 2 * PACKETS && sigtimedwait(&set, &si, &tick) == SIG_RT) {
		signals++;
		EXPECT_EQ(fds[0], si.si_fd);
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, unsubscribe(fds[i]));
	/* O_ASYNC given to open() subscribes nothing: clearing it removes none */
	at_open = open(self->src.node, O_RDONLY | O_NONBLOCK | O_ASYNC);
	ASSERT_LE(0, at_open);
	ASSERT_EQ(0, fcntl(at_open, F_SETFL, O_NONBLOCK));
	close(at_open);
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "0"));

	EXPECT_EQ(PACKETS, signals);
	for (i = 0; i < 2; i++) {
		snprintf(detail, sizeof(detail), " fd=%d result=1", fds[i]);
		EXPECT_EQ(1, trace_lines("fasync_add:", detail));
		EXPECT_EQ(1, trace_lines("fasync_remove:", detail));
	}
	/* once when O_ASYNC is cleared, once at the close: the flag stuck */
	EXPECT_EQ(2, trace_lines("fasync_remove:", " fd=-1 result=0"));
	snprintf(detail, sizeof(detail), "sig=%d band=%d walked=2 accepted=1",
		 SIGIO, POLL_IN);
	/* in waitqueue mode no call at all, while the signals came */
	EXPECT_EQ(notify_is_waitqueue() ? 0 : PACKETS,
		  trace_lines("kill_fasync:", notify_is_waitqueue() ? "" : detail));
	EXPECT_EQ(0, fasync_tracing(0));
	close(fds[1]);
}

struct poller {
	int fd;
	short revents;
};

static void *poll_once(void *arg)
{
	struct poller *w = arg;
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN | POLLRDNORM };

	if (poll(&pfd, 1, DELIVERY_MS) == 1)
		w->revents = pfd.revents;
	return NULL;
}

/* one record wakes every poller of the node, each on its own file */
TEST_F(node, one_record_wakes_every_poller)
{
	struct poller w[2] = { { .fd = self->fd } };
	pthread_t threads[2];
	int i;

	w[1].fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, w[1].fd);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, poll_once, &w[i]));
	usleep(200 * 1000);
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	for (i = 0; i < 2; i++) {
		pthread_join(threads[i], NULL);
		EXPECT_EQ(POLLIN | POLLRDNORM, w[i].revents) TH_LOG("poller %d", i);
	}
	close(w[1].fd);
}

struct async_racer {
	int fd;
	pthread_barrier_t *round;
	int rounds;
	int failed;
};

static void *set_async_each_round(void *arg)
{
	struct async_racer *a = arg;
	int i;

	for (i = 0; i < a->rounds; i++) {
		pthread_barrier_wait(a->round);
		if (fcntl(a->fd, F_SETFL, O_NONBLOCK | O_ASYNC))
			a->failed++;
		pthread_barrier_wait(a->round);
	}
	return NULL;
}

#define ROUND_MARK	"sigio-test round"

/*
 * Each round's fasync_add lines of the two descriptors, between the
 * marks written into the trace before each round: the descriptors its
 * calls named (bit i for fds[i]) and whether one of them only changed
 * the descriptor (result 0). The calls trace after dropping the lock,
 * so within a round their lines need not come in the order the calls
 * took it. Returns the rounds with a result-0 line, -1 if a round has
 * other than one result-1 line.
 */
static int trace_add_rounds(const int fds[2], int *named, int rounds)
{
	FILE *f = fopen(TRACEFS "/trace", "r");
	int round = -1, updates = 0, added[256] = { 0 }, fd, result, i;
	char line[512], *at;
	bool updated = false;

	if (!f || rounds > 256)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (strstr(line, ROUND_MARK)) {
			updates += updated;
			updated = false;
			if (++round < rounds)
				named[round] = 0;
			continue;
		}
		at = strstr(line, "fasync_add:");
		if (at)
			at = strstr(at, " fd=");
		if (round < 0 || round >= rounds || !at ||
		    sscanf(at, " fd=%d result=%d", &fd, &result) != 2 ||
		    (fd != fds[0] && fd != fds[1]))
			continue;
		named[round] |= fd == fds[0] ? 1 : 2;
		added[round] += result == 1;
		updated |= result == 0;
	}
	fclose(f);
	updates += updated;
	for (i = 0; i < rounds; i++)
		if (round != rounds - 1 || added[i] != 1)
			return -1;
	return updates;
}

/*
 * Two threads turn O_ASYNC on at once through two descriptors of one
 * open file. Both may pass the VFS's test of the flag; the second call
 * of ->fasync() then finds the file's entry and changes only its
 * descriptor (fasync_add with result 0). Each round must end with one
 * entry, and the next signal carry a descriptor one of the round's calls
 * named (the one, when only one call reached ->fasync()). Which of two
 * the trace cannot tell: the calls trace after dropping the lock, so
 * their lines need not come in the order they took it (a first version
 * of this check, which took the last line's, saw two rounds the other
 * way). A sampler: it passes whether or not the two calls met, and says
 * how often they did.
 */
TEST_F_TIMEOUT(node, fasync_add_race_sampler, 300)
{
	enum { ROUNDS = 100 };
	struct timespec tick = { 2, 0 };
	struct async_racer racers[2];
	int fds[2], named[ROUNDS], carried[ROUNDS], i, round, updates;
	struct sigmouse_info info;
	pthread_t threads[2];
	pthread_barrier_t barrier;
	sigset_t set;
	siginfo_t si;

	ASSERT_EQ(0, access(TRACEFS "/events/fasync", F_OK));
	fds[0] = self->fd;
	fds[1] = dup(self->fd);
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, fcntl(self->fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(self->fd, F_SETSIG, SIG_RT));
	ASSERT_EQ(0, pthread_barrier_init(&barrier, NULL, 3));
	ASSERT_EQ(0, fasync_tracing(1));
	for (i = 0; i < 2; i++) {
		racers[i] = (struct async_racer){ .fd = fds[i], .round = &barrier,
						  .rounds = ROUNDS };
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, set_async_each_round, &racers[i]));
	}
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(0, write_file(TRACEFS "/trace_marker", ROUND_MARK));
		pthread_barrier_wait(&barrier);
		pthread_barrier_wait(&barrier);
		ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
		EXPECT_EQ(1u, info.subscribers) TH_LOG("round %d", round);
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
		carried[round] = sigtimedwait(&set, &si, &tick) == SIG_RT ? si.si_fd : -1;
		ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
		ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
		EXPECT_EQ(0u, info.subscribers) TH_LOG("round %d", round);
		drain_records(self->fd);
	}
	for (i = 0; i < 2; i++) {
		pthread_join(threads[i], NULL);
		EXPECT_EQ(0, racers[i].failed);
	}
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "0"));
	updates = trace_add_rounds(fds, named, ROUNDS);
	EXPECT_LE(0, updates) TH_LOG("the trace does not show one added entry per round");
	/* the signal carries a descriptor the round's calls named, the one if only one */
	for (round = 0; updates >= 0 && round < ROUNDS; round++) {
		i = carried[round] == fds[0] ? 1 : carried[round] == fds[1] ? 2 : 0;
		EXPECT_TRUE(i && (named[round] & i)) TH_LOG("round %d: si_fd %d, named %#x",
							    round, carried[round], named[round]);
	}
	EXPECT_EQ(0, fasync_tracing(0));
	pthread_barrier_destroy(&barrier);
	close(fds[1]);
	printf("# figure: window.fasync_add_race_sampler %d\n", updates);
	SAMPLER_LOG("%d rounds, the two calls met (fasync_add result 0) %d times",
		    ROUNDS, updates);
}

struct info_caller {
	int fd;
	atomic_int *stop;
	long calls, interrupted, bad;
};

static void *call_info(void *arg)
{
	struct info_caller *c = arg;
	struct sigmouse_info info;

	while (!*c->stop) {
		memset(&info, 0xa5, sizeof(info));
		c->calls++;
		if (ioctl(c->fd, SIGMOUSE_IOC_INFO, &info) == 0) {
			if (info.packet_size != sizeof(struct sigmouse_packet))
				c->bad++;
		} else if (errno == EINTR) {
			/* nothing was written */
			if (info.packet_size != 0xa5a5a5a5u)
				c->bad++;
			c->interrupted++;
		} else {
			c->bad++;
		}
	}
	return NULL;
}

/*
 * SIGMOUSE_IOC_INFO waits for the node's mutex interruptibly: two
 * threads call it on one file while a third sends them signals without
 * pause. Each call either succeeds with the node's figures or fails with
 * EINTR having written nothing (SA_RESTART does not restart it). A
 * sampler: only a signal that came while a call slept on the mutex
 * makes EINTR, and it says how often that was.
 */
TEST_F_TIMEOUT(node, info_interrupted_sampler, 120)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	struct info_caller callers[2];
	atomic_int stop = 0;
	pthread_t threads[2];
	long interrupted = 0;
	long long end;
	sigset_t set;
	int i;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	ASSERT_EQ(0, sigprocmask(SIG_UNBLOCK, &set, NULL));
	for (i = 0; i < 2; i++) {
		callers[i] = (struct info_caller){ .fd = self->fd, .stop = &stop };
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, call_info, &callers[i]));
	}
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	end = now_ms() + 3000;
	while (now_ms() < end)
		for (i = 0; i < 2; i++)
			pthread_kill(threads[i], SIGUSR1);
	stop = 1;
	for (i = 0; i < 2; i++) {
		pthread_join(threads[i], NULL);
		EXPECT_LT(0, callers[i].calls);
		EXPECT_EQ(0, callers[i].bad) TH_LOG("caller %d", i);
		interrupted += callers[i].interrupted;
	}
	signal(SIGUSR1, SIG_DFL);
	printf("# figure: window.info_interrupted_sampler %ld\n", interrupted);
	SAMPLER_LOG("%ld and %ld calls, %ld interrupted while waiting for the node's mutex",
		    callers[0].calls, callers[1].calls, interrupted);
}

struct woken_reader {
	int fd, cpu, signalled, records;
	short revents;
};

static int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *wait_signal_then_read(void *arg)
{
	struct woken_reader *w = arg;
	struct timespec tick = { 5, 0 };
	struct sigmouse_packet p;
	sigset_t set;

	pin_to_cpu(w->cpu);
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	w->signalled = sigtimedwait(&set, NULL, &tick) == SIG_RT;
	while (read(w->fd, &p, sizeof(p)) == sizeof(p))
		w->records++;
	return NULL;
}

static void *poll_then_read(void *arg)
{
	struct woken_reader *w = arg;
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
	struct sigmouse_packet p;

	pin_to_cpu(w->cpu);
	if (poll(&pfd, 1, 5000) == 1)
		w->revents = pfd.revents;
	while (read(w->fd, &p, sizeof(p)) == sizeof(p))
		w->records++;
	return NULL;
}

/*
 * A record is in every client's ring before anyone is told of it: a
 * subscriber woken by its signal, and a poller woken by the wait queue,
 * each on the other CPU, read it at once from the last of many clients
 * (the handler fills the rings in the order the files were opened), on
 * a file other than the one they were woken through.
 */
TEST_F(node, woken_reader_finds_record)
{
	enum { FILLERS = 62, ROUNDS = 10 };
	struct woken_reader by_signal, by_poll;
	int fillers[FILLERS], last_signal, last_poll, i, round;
	pthread_t threads[2];
	cpu_set_t all;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	for (i = 0; i < FILLERS; i++) {
		fillers[i] = open(self->src.node, O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, fillers[i]);
	}
	last_signal = open(self->src.node, O_RDONLY | O_NONBLOCK);
	last_poll = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, last_signal);
	ASSERT_LE(0, last_poll);
	/* woken through the first file, reading the last */
	ASSERT_EQ(0, subscribe(self->fd, SIG_RT, getpid()));
	ASSERT_EQ(0, pin_to_cpu(0));
	for (round = 0; round < ROUNDS; round++) {
		by_signal = (struct woken_reader){ .fd = last_signal, .cpu = 1 };
		by_poll = (struct woken_reader){ .fd = last_poll, .cpu = 1 };
		ASSERT_EQ(0, pthread_create(&threads[0], NULL, wait_signal_then_read, &by_signal));
		ASSERT_EQ(0, pthread_create(&threads[1], NULL, poll_then_read, &by_poll));
		usleep(100 * 1000);
		ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
		for (i = 0; i < 2; i++)
			pthread_join(threads[i], NULL);
		EXPECT_EQ(1, by_signal.signalled) TH_LOG("round %d", round);
		EXPECT_EQ(1, by_signal.records) TH_LOG("round %d: the signal came first", round);
		EXPECT_EQ(POLLIN, by_poll.revents) TH_LOG("round %d", round);
		EXPECT_EQ(1, by_poll.records) TH_LOG("round %d: the wake-up came first", round);
		drain_records(self->fd);
		for (i = 0; i < FILLERS; i++)
			drain_records(fillers[i]);
	}
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
	unsubscribe(self->fd);
	for (i = 0; i < FILLERS; i++)
		close(fillers[i]);
	close(last_signal);
	close(last_poll);
}

/*
 * kill_fasync's tracepoint fires for empty lists too: the hangup of a
 * node nobody subscribed to is one call with nothing walked, POLL_HUP's
 * band (none in waitqueue mode, where nothing calls kill_fasync()).
 */
TEST_F(own_device, tracepoint_on_empty_list)
{
	char detail[96];

	ASSERT_EQ(0, access(TRACEFS "/events/fasync", F_OK));
	ASSERT_EQ(0, uinput_mouse_create(&self->dev, "sigmouse unwatched"));
	ASSERT_EQ(0, own_device_open_node(self)) TH_LOG("%s: %s", self->node, strerror(errno));
	ASSERT_EQ(0, fasync_tracing(1));
	/* only POLL_HUP's calls: no tty or pipe sends one meanwhile */
	ASSERT_EQ(0, write_file(TRACEFS "/events/fasync/kill_fasync/filter", "band == 6"));
	uinput_mouse_destroy(&self->dev);
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "0"));
	snprintf(detail, sizeof(detail), "sig=%d band=%d walked=0 accepted=0", SIGIO, POLL_HUP);
	EXPECT_EQ(notify_is_waitqueue() ? 0 : 1, trace_lines("kill_fasync:", detail));
	EXPECT_EQ(0, fasync_tracing(0));
}

/*
 * kill_fasync's "accepted" counts the signals do_send_sig_info() took,
 * which include those it then drops without a word: a SIGIO the owner
 * ignores, and a standard SIGIO already pending. On a pipe's reader
 * list, which every design has whatever the node's notify mode.
 */
TEST_F(own_device, tracepoint_counts_dropped_signals)
{
	int pipefd[2], i;
	char byte = 0, detail[96];

	ASSERT_EQ(0, access(TRACEFS "/events/fasync", F_OK));
	ASSERT_EQ(0, pipe2(pipefd, O_NONBLOCK));
	ASSERT_EQ(0, subscribe(pipefd[0], 0, getpid()));
	ASSERT_EQ(0, fasync_tracing(1));
	/* ignored: accepted and dropped */
	signal(SIGIO, SIG_IGN);
	ASSERT_EQ(1, write(pipefd[1], &byte, 1));
	/* blocked: the first is queued, the second dropped as already pending */
	block_signal(SIGIO);
	signal(SIGIO, SIG_DFL);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(1, write(pipefd[1], &byte, 1));
	ASSERT_EQ(0, write_file(TRACEFS "/tracing_on", "0"));

	EXPECT_TRUE(pending_signal(SIGIO));
	EXPECT_FALSE(pending_signal(SIGIO)) TH_LOG("one SIGIO pending at most");
	snprintf(detail, sizeof(detail), "sig=%d band=%d walked=1 accepted=1", SIGIO, POLL_IN);
	EXPECT_EQ(3, trace_lines("kill_fasync:", detail));
	EXPECT_EQ(0, fasync_tracing(0));
	close(pipefd[0]);
	close(pipefd[1]);
}

/* the value of the last name= on the kernel command line, or def */
static void cmdline_value(const char *name, const char *def, char *buf, size_t len)
{
	char cmdline[1024] = "", key[64];
	const char *arg;

	snprintf(key, sizeof(key), " %s=", name);
	snprintf(buf, len, "%s", def);
	/* a leading space, so that only whole names match */
	cmdline[0] = ' ';
	if (read_line("/proc/cmdline", cmdline + 1, sizeof(cmdline) - 1))
		return;
	for (arg = strstr(cmdline, key); arg; arg = strstr(arg + 1, key))
		snprintf(buf, len, "%.*s", (int)strcspn(arg + strlen(key), "\n "),
			 arg + strlen(key));
}

/* the boot chose a fasync design, and the kernel says which */
TEST_F(node, fasync_lock_reported)
{
	char want[32], got[32] = "";

	cmdline_value("fasync_lock", "rcu", want, sizeof(want));
	ASSERT_EQ(0, read_line("/sys/kernel/debug/fasync_lock", got, sizeof(got)))
		TH_LOG("no /sys/kernel/debug/fasync_lock");
	EXPECT_STREQ(want, got);
}

/*
 * The design is fixed at boot: writing another design's name to the
 * debugfs file fails, even for root, and the file still names the
 * boot's design (fasync_lock_reported reads it first: a positive control).
 */
TEST_F(node, fasync_lock_fixed_after_boot)
{
	static const char *const designs[] = { "rwlock", "rcu", "rcu-global" };
	char want[32], got[32] = "";
	unsigned int i;

	cmdline_value("fasync_lock", "rcu", want, sizeof(want));
	for (i = 0; i < ARRAY_SIZE(designs); i++) {
		if (!strcmp(designs[i], want))
			continue;
		EXPECT_EQ(-1, write_file("/sys/kernel/debug/fasync_lock", designs[i]))
			TH_LOG("fasync_lock=%s written after boot", designs[i]);
		ASSERT_EQ(0, read_line("/sys/kernel/debug/fasync_lock", got, sizeof(got)));
		EXPECT_STREQ(want, got);
	}
}

/*
 * The boot chose how sigmouse notifies, and the module parameter says so
 * (tracepoints_fire checks that it is the mode in effect: kill_fasync()
 * calls in fasync mode, none in waitqueue mode).
 */
TEST_F(node, notify_mode_reported)
{
	char want[32], got[32] = "";

	cmdline_value("sigmouse.notify", "fasync", want, sizeof(want));
	ASSERT_EQ(0, read_line("/sys/module/sigmouse/parameters/notify", got, sizeof(got)));
	EXPECT_STREQ(want, got);
	EXPECT_EQ(strcmp(want, "waitqueue") == 0, notify_is_waitqueue());
}

struct flood {
	struct mouse_source *src;
	atomic_int stop;
	long moves;
};

static void *flood_moves(void *arg)
{
	struct flood *f = arg;

	while (!f->stop && mouse_source_move(f->src, 1, 0, 1) == 0)
		f->moves++;
	return NULL;
}

/*
 * The kill_fasync() calls traced since fasync_tracing(1) that walked a
 * list with entries; switches the events off again. Switch them on and
 * off only while no other thread runs kill_fasync(): patching the
 * tracepoint's jump label under a flood once ended in an int3 oops
 * (docs/findings/int3-tracepoint-switched-under-load.txt).
 */
static int fasync_walks_traced(void)
{
	int walks;

	if (write_file(TRACEFS "/tracing_on", "0"))
		return -1;
	walks = trace_lines("kill_fasync:", " walked=");
	return fasync_tracing(0) ? -1 : walks;
}

/*
 * Open path, let a child subscribe the file to SIGIO with itself as
 * owner, reap the child, close the file; over and over for ms. Returns
 * the rounds made.
 */
static long teardown_rounds(struct __test_metadata *_metadata,
			    const char *path, int ms)
{
	long long end = now_ms() + ms;
	long rounds = 0;
	int fd, status;
	pid_t owner;

	while (now_ms() < end) {
		fd = open(path, O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, fd);
		owner = fork();
		ASSERT_LE(0, owner);
		if (owner == 0)
			_exit(subscribe(fd, SIG_RT, getpid()) ? 1 : 0);
		ASSERT_EQ(owner, waitpid(owner, &status, 0));
		ASSERT_EQ(0, WEXITSTATUS(status));
		ASSERT_EQ(0, close(fd));
		rounds++;
	}
	return rounds;
}

/*
 * A subscriber's file torn down while packets are delivered, its owner
 * already reaped, so that the file's reference is the last one on the
 * owner's struct pid: the race the 2010 design closed by clearing
 * fa_file under fa_lock before the entry leaves the list. Runs for a
 * fixed time; what decides it is the kernel log (KASAN, lockdep), which
 * the host runner checks after the suite.
 */
TEST_F_TIMEOUT(node, teardown_during_delivery, 120)
{
	struct flood f = { .src = &self->src };
	pthread_t flooder;
	long rounds;
	int walks;

	ASSERT_EQ(0, fasync_tracing(1));
	ASSERT_EQ(0, pthread_create(&flooder, NULL, flood_moves, &f));
	rounds = teardown_rounds(_metadata, self->src.node, 10000);
	f.stop = 1;
	pthread_join(flooder, NULL);
	walks = fasync_walks_traced();
	printf("# figure: window.teardown_during_delivery %d\n", walks);
	SAMPLER_LOG("%ld teardowns during %ld moves, the window (%s) met %d times",
		    rounds, f.moves, "a delivery walking a subscriber", walks);
	EXPECT_LT(0, rounds);
	EXPECT_LT(0, f.moves);
	/* waitqueue mode calls no kill_fasync(): nothing to count there */
	if (!notify_is_waitqueue())
		EXPECT_LT(0, walks);
}

/*
 * The same teardown on a pipe, whose release, unlike sigmouse's, does
 * not wait for an RCU grace period: a reader still walking the entry
 * when the last close drops the owner's struct pid meets freed memory
 * unless removal cleared fa_file under fa_lock first. The subscribing
 * file is a second open of the pipe's read side (/proc/self/fd), so the
 * pipe lives on and the flood goes on while that file is torn down.
 */
TEST_F_TIMEOUT(node, pipe_teardown_during_delivery, 120)
{
	struct pipe_flood f = { 0 };
	char path[64];
	pthread_t flooder;
	int fds[2], walks;
	long rounds;

	ASSERT_EQ(0, pipe2(fds, O_NONBLOCK));
	f.rfd = fds[0];
	f.wfd = fds[1];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	ASSERT_EQ(0, fasync_tracing(1));
	ASSERT_EQ(0, pthread_create(&flooder, NULL, flood_pipe, &f));
	rounds = teardown_rounds(_metadata, path, 10000);
	f.stop = 1;
	pthread_join(flooder, NULL);
	walks = fasync_walks_traced();
	close(fds[0]);
	close(fds[1]);
	printf("# figure: window.pipe_teardown_during_delivery %d\n", walks);
	SAMPLER_LOG("%ld teardowns during %ld pipe writes, the window (%s) met %d times",
		    rounds, f.writes, "a delivery walking a subscriber", walks);
	EXPECT_LT(0, rounds);
	EXPECT_LT(0, f.writes);
	EXPECT_LT(0, walks);
}

/*
 * The device goes away: one POLL_HUP signal, poll says hangup, reads
 * and ioctls get ENODEV, the node disappears, close still works.
 */
static void check_hangup(struct __test_metadata *_metadata,
			 struct mouse_source *src, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct timespec tick = { 10, 0 };
	struct sigmouse_info info;
	struct sigmouse_packet p;
	long long deadline;
	sigset_t set;
	siginfo_t si;

	ASSERT_EQ(0, subscribe(fd, SIG_RT, getpid()));
	ASSERT_EQ(0, mouse_source_unplug(src));
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	ASSERT_EQ(SIG_RT, sigtimedwait(&set, &si, &tick));
	EXPECT_EQ(POLL_HUP, si.si_code);
	EXPECT_EQ(BAND_HUP, si.si_band);
	EXPECT_EQ(fd, si.si_fd);
	EXPECT_FALSE(pending_signal(SIG_RT));

	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLHUP | POLLERR, pfd.revents);
	EXPECT_EQ(-1, read(fd, &p, sizeof(p)));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_EQ(-1, ioctl(fd, SIGMOUSE_IOC_INFO, &info));
	EXPECT_EQ(ENODEV, errno);
	deadline = now_ms() + 5000;
	while (access(src->node, F_OK) == 0 && now_ms() < deadline)
		usleep(20000);
	EXPECT_NE(0, access(src->node, F_OK));
	EXPECT_EQ(0, close(fd));
}

struct info_loop {
	int fd;
	/* the name of the device behind fd */
	const char *name;
	atomic_int stop;
	/* set once the device behind fd has been destroyed */
	atomic_int destroyed;
	long calls;
	/* calls that returned the device's info across the whole teardown */
	long spanned;
	/* calls that returned another name than the device's */
	long wrong_name;
	int bad_errno;
};

#define SAMPLER_NAME	"sigmouse info sampler"

/* SIGMOUSE_IOC_INFO over and over until stop */
static void *loop_info(void *arg)
{
	struct info_loop *l = arg;
	struct sigmouse_info info;
	int before;

	while (!l->stop) {
		before = l->destroyed;
		if (ioctl(l->fd, SIGMOUSE_IOC_INFO, &info) == 0) {
			if (!before && l->destroyed)
				l->spanned++;
			if (strncmp(info.name, l->name, sizeof(info.name)))
				l->wrong_name++;
		} else if (errno != ENODEV) {
			l->bad_errno = errno;
		}
		l->calls++;
	}
	return NULL;
}

/*
 * SIGMOUSE_IOC_INFO while the device behind the node is destroyed:
 * uinput frees the device's name right after input_unregister_device(),
 * so an ioctl that copied the name after dropping the node's mutex read
 * freed memory. KASAN does not see that read (strscpy() is in
 * lib/string.o, which KASAN leaves uninstrumented), but the freed
 * object holds KASAN's free record, so the name comes back wrong: every
 * call that succeeded must return the device's name. The window is a
 * few instructions against a teardown with a grace period: this samples
 * it, a round per device, and reports how many calls returned the info
 * across a whole teardown ("spanned"), where the bug lived; the
 * widening mutant (mutants/18-info-name-after-unlock.patch) makes every
 * such call read the freed name.
 */
TEST_F_TIMEOUT(node, info_during_teardown_sampler, 300)
{
	enum { ROUNDS = 20 };
	struct info_loop l = { 0 };
	struct uinput_mouse mouse;
	long calls = 0, spanned = 0;
	pthread_t looper;
	char path[64];
	int round;

	for (round = 0; round < ROUNDS; round++) {
		ASSERT_EQ(0, uinput_mouse_create(&mouse, SAMPLER_NAME));
		ASSERT_EQ(0, uinput_mouse_node(&mouse, path, sizeof(path)));
		memset(&l, 0, sizeof(l));
		l.name = SAMPLER_NAME;
		l.fd = open(path, O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, l.fd);
		ASSERT_EQ(0, pthread_create(&looper, NULL, loop_info, &l));
		usleep(2000);
		uinput_mouse_destroy(&mouse);
		l.destroyed = 1;
		usleep(2000);
		l.stop = 1;
		pthread_join(looper, NULL);
		EXPECT_EQ(0, l.bad_errno);
		EXPECT_EQ(0, l.wrong_name);
		EXPECT_LT(0, l.calls);
		EXPECT_EQ(0, close(l.fd));
		calls += l.calls;
		spanned += l.spanned;
	}
	printf("# figure: sampler.info_teardown_calls %ld\n", calls);
	printf("# figure: window.info_during_teardown_sampler %ld\n", spanned);
	SAMPLER_LOG("%d teardowns, %ld info calls, the window (%s) met %ld times",
		    ROUNDS, calls, "a call across a whole teardown", spanned);
}

/*
 * SIGMOUSE_IOC_INFO on two devices' nodes at once, a thread each: every
 * call returns its own device's name. Each node's mutex serializes that
 * node's calls only, so whatever the driver shares between devices while
 * it fills the record is raced here (a static staging buffer, mutant
 * 157, whose race KCSAN reports in strscpy() alone); the calls are
 * counted, and each thread must have made some.
 */
TEST_F(node, info_names_on_two_devices_at_once)
{
	struct info_loop loops[2] = {
		{ .fd = self->fd, .name = self->src.input_name },
		{ .name = "sigmouse second device" },
	};
	struct uinput_mouse second;
	pthread_t threads[2];
	char path[64];
	int i;

	ASSERT_EQ(0, uinput_mouse_create(&second, loops[1].name));
	ASSERT_EQ(0, uinput_mouse_node(&second, path, sizeof(path)));
	loops[1].fd = open(path, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, loops[1].fd);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, loop_info, &loops[i]));
	usleep(1000 * 1000);
	for (i = 0; i < 2; i++) {
		loops[i].stop = 1;
		pthread_join(threads[i], NULL);
		EXPECT_EQ(0, loops[i].bad_errno);
		EXPECT_EQ(0, loops[i].wrong_name)
			TH_LOG("%ld of %ld calls on \"%s\" returned another name",
			       loops[i].wrong_name, loops[i].calls, loops[i].name);
		EXPECT_LT(0, loops[i].calls);
	}
	TH_LOG("%ld and %ld calls on the two nodes", loops[0].calls, loops[1].calls);
	EXPECT_EQ(0, close(loops[1].fd));
	uinput_mouse_destroy(&second);
}

struct blocked_read {
	int fd;
	ssize_t ret;
	int err;
};

static void *read_blocking(void *arg)
{
	struct blocked_read *r = arg;
	struct sigmouse_packet p;

	r->ret = read(r->fd, &p, sizeof(p));
	r->err = errno;
	return NULL;
}

/*
 * The device goes away with records still queued and a reader blocked
 * on another file: read() fails with ENODEV though records are left,
 * poll() says so with POLLIN beside POLLHUP | POLLERR, the blocked
 * reader wakes to ENODEV, a plain SIGIO subscriber gets SI_KERNEL, an
 * open through a node file that outlived the device fails with ENODEV
 * or ENXIO, and the number is free at once for the next device.
 */
TEST_F(node, hangup_details)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN | POLLRDNORM };
	struct blocked_read r = { .fd = -1 };
	char stale[64], fresh[64];
	struct uinput_mouse next;
	struct timespec tick = { 10, 0 };
	struct sigmouse_packet p;
	struct stat st;
	pthread_t reader;
	sigset_t set;
	siginfo_t si;
	int number, fd, i;

	number = atoi(self->src.node + strlen("/dev/sigmouse"));
	ASSERT_EQ(0, stat(self->src.node, &st));
	snprintf(stale, sizeof(stale), "/dev/stale-sigmouse-%d", getpid());
	ASSERT_EQ(0, mknod(stale, S_IFCHR | 0600, st.st_rdev));
	r.fd = open(self->src.node, O_RDONLY);
	ASSERT_LE(0, r.fd);
	ASSERT_EQ(0, pthread_create(&reader, NULL, read_blocking, &r));
	ASSERT_EQ(0, subscribe(self->fd, 0, getpid()));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 3));
	/* the blocked reader took one of its own file's records: wait for another */
	pthread_join(reader, NULL);
	ASSERT_EQ((ssize_t)sizeof(p), r.ret);
	while (pending_signal(SIGIO))
		;
	/* the other two of its file's three records: it blocks again after */
	for (i = 0; i < 2; i++)
		ASSERT_EQ((ssize_t)sizeof(p), read(r.fd, &p, sizeof(p)));
	ASSERT_EQ(0, pthread_create(&reader, NULL, read_blocking, &r));
	usleep(200 * 1000);

	ASSERT_EQ(0, mouse_source_unplug(&self->src));
	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	ASSERT_EQ(SIGIO, sigtimedwait(&set, &si, &tick));
	EXPECT_EQ(SI_KERNEL, si.si_code);
	EXPECT_EQ(0, si.si_fd);
	pthread_join(reader, NULL);
	EXPECT_EQ(-1, r.ret);
	EXPECT_EQ(ENODEV, r.err);
	close(r.fd);

	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN | POLLRDNORM | POLLHUP | POLLERR, pfd.revents);
	EXPECT_EQ(-1, read(self->fd, &p, sizeof(p)));
	EXPECT_EQ(ENODEV, errno);

	fd = open(stale, O_RDONLY | O_NONBLOCK);
	EXPECT_EQ(-1, fd);
	EXPECT_TRUE(errno == ENODEV || errno == ENXIO) TH_LOG("errno %d", errno);
	if (fd >= 0)
		close(fd);
	unlink(stale);

	ASSERT_EQ(0, uinput_mouse_create(&next, "sigmouse next"));
	ASSERT_EQ(0, uinput_mouse_node(&next, fresh, sizeof(fresh)));
	EXPECT_GE(number, atoi(fresh + strlen("/dev/sigmouse")));
	uinput_mouse_destroy(&next);
}

/* a lock-free atomic int, so as async-signal-safe as a sig_atomic_t */
static atomic_int alarms;

static void count_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * A signal ends a read blocked waiting for a record with EINTR, or
 * restarts it if the handler has SA_RESTART: the restarted read returns
 * the record that came after the signal.
 */
TEST_F(node, read_interrupted)
{
	struct sigaction sa = { .sa_handler = count_alarm };
	struct itimerval once = { .it_value = { 0, 200 * 1000 } };
	struct sigmouse_packet p;
	struct blocked_read r;
	pthread_t reader;
	int fd = open(self->src.node, O_RDONLY);
	sigset_t set;

	ASSERT_LE(0, fd);
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	ASSERT_EQ(0, sigprocmask(SIG_UNBLOCK, &set, NULL));
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	alarms = 0;
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &once, NULL));
	EXPECT_EQ(-1, read(fd, &p, sizeof(p)));
	EXPECT_EQ(EINTR, errno);
	EXPECT_EQ(1, alarms);

	/* SA_RESTART: the read goes on past the signal to the next record */
	sa.sa_flags = SA_RESTART;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	r.fd = fd;
	/* only the reader takes SIGALRM: it starts with it unblocked, this thread blocks it */
	ASSERT_EQ(0, pthread_create(&reader, NULL, read_blocking, &r));
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	usleep(100 * 1000);
	ASSERT_EQ(0, pthread_kill(reader, SIGALRM));
	usleep(300 * 1000);
	ASSERT_EQ(0, mouse_source_move(&self->src, 4, 0, 1));
	pthread_join(reader, NULL);
	EXPECT_EQ((ssize_t)sizeof(struct sigmouse_packet), r.ret) TH_LOG("errno %d", r.err);
	EXPECT_EQ(2, alarms);
	signal(SIGALRM, SIG_DFL);
	close(fd);
}

/*
 * A blocking read waiting for another thread's read of the same file
 * (stalled in its copy, holding the file's read lock) ends with EINTR
 * when a signal comes, even with SA_RESTART: it was not waiting for a
 * record. The stall is released only after the verdict, so a read that
 * kept waiting shows as one still blocked.
 */
TEST_F(node, read_interrupted_waiting_for_reader)
{
	struct sigaction sa = { .sa_handler = count_alarm, .sa_flags = SA_RESTART };
	struct blocked_read b = { .fd = self->fd, .ret = 1 };
	struct read_stall r;
	pthread_t waiter;
	long long deadline;
	char why[128];
	sigset_t set;

	ASSERT_EQ(0, mouse_source_move(&self->src, 3, 0, 2));
	ASSERT_EQ(0, read_stall(&r, self->fd, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, 0));
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	alarms = 0;
	/* only the waiter takes SIGALRM: it starts with it unblocked */
	ASSERT_EQ(0, sigprocmask(SIG_UNBLOCK, &set, NULL));
	ASSERT_EQ(0, pthread_create(&waiter, NULL, read_blocking, &b));
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	usleep(200 * 1000);
	EXPECT_EQ(1, b.ret) TH_LOG("the second read did not wait for the stalled one");
	ASSERT_EQ(0, pthread_kill(waiter, SIGALRM));
	deadline = now_ms() + 2000;
	while (b.ret == 1 && now_ms() < deadline)
		usleep(10 * 1000);
	EXPECT_EQ(-1, b.ret) TH_LOG("still waiting 2 s after the signal");
	EXPECT_EQ(EINTR, b.err);
	EXPECT_EQ(1, alarms);

	read_stall_release(&r);
	pthread_join(waiter, NULL);
	EXPECT_EQ((ssize_t)sizeof(struct sigmouse_packet), r.got);
	read_stall_cleanup(&r);
	signal(SIGALRM, SIG_DFL);
}

/*
 * F_SETOWN refuses what names no owner, as fcntl(2) says: a pid no
 * process has is ESRCH (f73127356f34), and INT_MIN, the process group
 * number that cannot be negated, EINVAL (fc3dc6747146). An owner that
 * has died and been reaped reads back as 0 from F_GETOWN and
 * F_GETOWN_EX (cc4a3f885e8f), not as its stale number, which a new
 * process may take.
 */
TEST_F(node, owner_errors_and_dead_owner)
{
	struct f_owner_ex ex;
	pid_t gone, child;
	int status;

	/* a pid just freed: pids are handed out in turn, not reused soon */
	gone = fork();
	ASSERT_LE(0, gone);
	if (!gone)
		_exit(0);
	ASSERT_EQ(gone, waitpid(gone, &status, 0));
	EXPECT_EQ(-1, fcntl(self->fd, F_SETOWN, gone));
	EXPECT_EQ(ESRCH, errno);
	EXPECT_EQ(-1, fcntl(self->fd, F_SETOWN, INT_MIN));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, fcntl(self->fd, F_GETOWN));

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		pause();
		_exit(0);
	}
	ASSERT_EQ(0, fcntl(self->fd, F_SETOWN, child));
	EXPECT_EQ(child, fcntl(self->fd, F_GETOWN));
	ASSERT_EQ(0, kill(child, SIGKILL));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, fcntl(self->fd, F_GETOWN));
	ASSERT_EQ(0, fcntl(self->fd, F_GETOWN_EX, &ex));
	EXPECT_EQ(0, ex.pid);
	EXPECT_EQ(F_OWNER_PID, (int)ex.type);
}

/*
 * The subscription belongs to the open file and is asked for the ways
 * fcntl(2) and ioctl(2) give: FIOASYNC does what O_ASYNC does; si_fd is
 * the descriptor O_ASYNC was set through, a dup of it and that
 * descriptor's close change nothing; O_ASYNC given to open() sets the
 * flag but subscribes nothing, until cleared and set again; F_SETSIG to
 * a signal with si_codes of its own (SIGCHLD) gives SI_SIGIO. The VFS's
 * FIONBIO, FIOCLEX and FIONCLEX work as for any file.
 */
TEST_F(node, subscription_forms)
{
	struct timespec tick = { 2, 0 };
	struct sigmouse_info info;
	int on = 1, off = 0, fd, dup_fd, at_open, flags;
	sigset_t set;
	siginfo_t si;

	/* FIOASYNC, and the VFS's other file ioctls */
	ASSERT_EQ(0, fcntl(self->fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(self->fd, F_SETSIG, SIG_RT));
	ASSERT_EQ(0, ioctl(self->fd, FIOASYNC, &on));
	EXPECT_TRUE(fcntl(self->fd, F_GETFL) & O_ASYNC);
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(1u, info.subscribers);
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	EXPECT_TRUE(pending_signal(SIG_RT));
	ASSERT_EQ(0, ioctl(self->fd, FIOASYNC, &off));
	ASSERT_EQ(0, sigmouse_node_info(self->fd, &info));
	EXPECT_EQ(0u, info.subscribers);
	ASSERT_EQ(0, ioctl(self->fd, FIONBIO, &off));
	EXPECT_FALSE(fcntl(self->fd, F_GETFL) & O_NONBLOCK);
	ASSERT_EQ(0, ioctl(self->fd, FIONBIO, &on));
	EXPECT_TRUE(fcntl(self->fd, F_GETFL) & O_NONBLOCK);
	ASSERT_EQ(0, ioctl(self->fd, FIOCLEX));
	EXPECT_EQ(FD_CLOEXEC, fcntl(self->fd, F_GETFD));
	ASSERT_EQ(0, ioctl(self->fd, FIONCLEX));
	EXPECT_EQ(0, fcntl(self->fd, F_GETFD));

	/* the file's subscription: si_fd is the descriptor it was set through */
	fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, subscribe(fd, SIG_RT, getpid()));
	dup_fd = dup(fd);
	ASSERT_LE(0, dup_fd);
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	sigemptyset(&set);
	sigaddset(&set, SIG_RT);
	ASSERT_EQ(SIG_RT, sigtimedwait(&set, &si, &tick));
	EXPECT_EQ(fd, si.si_fd);
	EXPECT_FALSE(pending_signal(SIG_RT));
	ASSERT_EQ(0, close(dup_fd));

	/*
	 * O_ASYNC at open: the flag, no subscription; and the flag sticks:
	 * clearing it finds no subscription to end, setting it changes
	 * nothing (only ending a subscription clears FASYNC)
	 */
	at_open = open(self->src.node, O_RDONLY | O_NONBLOCK | O_ASYNC);
	ASSERT_LE(0, at_open);
	flags = fcntl(at_open, F_GETFL);
	EXPECT_TRUE(flags & O_ASYNC);
	ASSERT_EQ(0, fcntl(at_open, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(at_open, F_SETSIG, SIG_RT));
	ASSERT_EQ(0, fcntl(at_open, F_SETFL, flags | O_ASYNC));
	ASSERT_EQ(0, sigmouse_node_info(at_open, &info));
	EXPECT_EQ(0u, info.subscribers);
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	EXPECT_FALSE(pending_signal(SIG_RT));
	ASSERT_EQ(0, fcntl(at_open, F_SETFL, flags & ~O_ASYNC));
	EXPECT_TRUE(fcntl(at_open, F_GETFL) & O_ASYNC);
	ASSERT_EQ(0, fcntl(at_open, F_SETFL, flags | O_ASYNC));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	EXPECT_FALSE(pending_signal(SIG_RT));
	close(at_open);

	/* a signal with si_codes of its own: SI_SIGIO */
	fd = open(self->src.node, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	block_signal(SIGCHLD);
	ASSERT_EQ(0, subscribe(fd, SIGCHLD, getpid()));
	ASSERT_EQ(0, mouse_source_move(&self->src, 1, 0, 1));
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	ASSERT_EQ(SIGCHLD, sigtimedwait(&set, &si, &tick));
	EXPECT_EQ(SI_SIGIO, si.si_code);
	EXPECT_EQ(fd, si.si_fd);
	close(fd);
}

/* a read-only file's write() is refused by the VFS: EBADF */
TEST_F(node, write_read_only_ebadf)
{
	char byte = 0;

	EXPECT_EQ(-1, write(self->fd, &byte, 1));
	EXPECT_EQ(EBADF, errno);
}

TEST_F(node, hangup_on_uinput_destroy)
{
	check_hangup(_metadata, &self->src, self->fd);
	self->fd = -1;
}

/* Last: a real device unplugged, QEMU's virtio mouse. */
FIXTURE(virtio_unplug) {
	struct mouse_source src;
	int fd;
};

FIXTURE_SETUP(virtio_unplug)
{
	char why[128];
	int ret;

	ret = mouse_source_open(&self->src, MOUSE_SOURCE_VIRTIO_MOUSE,
				why, sizeof(why));
	if (ret > 0)
		SKIP_SETUP("%s", why);
	ASSERT_EQ(0, ret) TH_LOG("%s", why);
	self->fd = mouse_source_open_node(&self->src, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, self->fd);
	block_signal(SIG_RT);
}

FIXTURE_TEARDOWN(virtio_unplug)
{
}

/*
 * Then plugged back: a new node (the old one is gone first, so a reused
 * number never names two devices) that works as the first one did.
 */
TEST_F(virtio_unplug, unplug_then_replug)
{
	enum { MOVES = 20 };
	struct sigmouse_info info;
	struct delivery d = { 0 };
	char why[128];
	int fd;

	check_hangup(_metadata, &self->src, self->fd);
	ASSERT_EQ(0, mouse_source_replug(&self->src, why, sizeof(why))) TH_LOG("%s", why);
	fd = mouse_source_open_node(&self->src, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", self->src.node, strerror(errno));
	/* numbered from the new node's own count, not the old one's */
	ASSERT_EQ(0, sigmouse_node_info(fd, &info));
	EXPECT_GT(10u, info.packets);
	ASSERT_EQ(0, subscribe(fd, SIG_RT, getpid()));
	ASSERT_EQ(0, stream(&self->src, fd, SIG_RT, 3, -2, MOVES, &d));
	EXPECT_STREQ("", d.mismatch);
	EXPECT_EQ(MOVES, d.packets);
	EXPECT_EQ(MOVES, d.signals);
	EXPECT_EQ(info.packets + 1, d.first_seq);
	EXPECT_EQ(0, d.seq_gaps);
	EXPECT_EQ(3L * MOVES, d.dx);
	EXPECT_EQ(-2L * MOVES, d.dy);
	close(fd);
}

/*
 * SIGIO_TEST_ONLY=name,name,... (from the kernel command line, which
 * passes it to init's environment) runs only the tests of those names,
 * in every variant: a mutant boot runs the checks that can kill it.
 */
int main(int argc, char **argv)
{
	const char *only = getenv("SIGIO_TEST_ONLY");

	if (only && *only)
		harness_keep_tests(only);
	return test_harness_run(argc, argv);
}
