// SPDX-License-Identifier: GPL-2.0
/*
 * sigio-atlas: how the kernel's own fasync users deliver SIGIO. For each
 * source (a kind of file) and each event it can produce, subscribe with
 * F_SETOWN, F_SETSIG and O_ASYNC, provoke the event and check the queued
 * signal's si_signo, si_code, si_band and si_fd against what fcntl(2)
 * and the source's code in Linux 6.1 say; then the same without F_SETSIG,
 * with F_SETSIG(SIGIO), to one thread, after O_ASYNC is cleared and
 * without an owner. A hangup is an event of its own. Each check prints a
 * "# atlas:" JSON line naming the kernel function that sends the signal,
 * from which the host writes docs/sigio-atlas.md; where 6.1 departs from
 * the documented semantics the line carries a finding, and the check
 * asserts what 6.1 does. The checks are sigio-battery.h's, which
 * sigio-check runs on a node it is given; this file holds the sources.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/keyctl.h>
#include <linux/magic.h>
#include <linux/perf_event.h>
#include <linux/random.h>
#include <linux/rtc.h>
#include <linux/vt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* the harness is written for -Wall; this program is built with -Wextra too */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
#include "harness-only.h"
#include "sigmouse-node.h"
#include "uinput-mouse.h"

/* filling a file never takes more than this */
#define FILL_LIMIT	(256 << 20)
#define PATH_LEN	160
/* the virtual console /dev/vcsN watches: one nobody uses or shows */
#define ATLAS_CONSOLE	8
/* a perf sample every millisecond of task clock, for 20 of them */
#define PERF_PERIOD_NS	1000000
#define PERF_BURN_NS	20000000L

/* linux/watch_queue.h's, whose linux/fcntl.h clashes with glibc's */
#define O_NOTIFICATION_PIPE		O_EXCL
#define IOC_WATCH_QUEUE_SET_SIZE	_IO('W', 0x60)

/* The files of one source under test, and what provoking it needs. */
struct endpoints {
	int watched;		/* the file subscribed to */
	int peer;		/* the other end, which provokes */
	int spare;		/* a listener some sources keep open */
	char dir[PATH_LEN];	/* a temporary directory, or "" */
	char path[PATH_LEN + 16];	/* the FIFO or leased file in dir */
	unsigned int files;	/* files created in dir so far */
	struct sockaddr_storage addr;	/* a listener's address */
	socklen_t addr_len;
	int lease;		/* F_RDLCK or F_WRLCK */
	int keyring;		/* a keyring a notification pipe watches */
	void *ring;		/* a perf event's mmap()ed buffer */
	size_t ring_len;
	struct uinput_mouse mouse;
	struct libevdev *joystick_dev;
	struct libevdev_uinput *joystick;
	int axis;		/* the joystick's ABS_X */
};

static void endpoints_reset(struct endpoints *ep);
static void endpoints_close(struct endpoints *ep);

#include "sigio-battery.h"

/* ---- opening sources ---- */

/* errors of a kernel built without the source */
static bool lacking(int err)
{
	return err == ENOENT || err == ENODEV || err == ENXIO ||
	       err == ENOSYS || err == EAFNOSUPPORT ||
	       err == EPROTONOSUPPORT || err == EOPNOTSUPP || err == ENOPKG;
}

/*
 * After opening what failed: 1, a skip with the reason in why, when
 * errno says this kernel lacks the source (also: one more errno that
 * says so here, or 0), naming the options it needs; else -1.
 */
static int cannot_open(char *why, size_t len, const char *what,
		       const char *needs, int also)
{
	int err = errno;

	if (!lacking(err) && err != also)
		return fail(why, len, what);
	snprintf(why, len, "%s: %s (needs %s)", what, strerror(err), needs);
	return 1;
}

static int make_dir(struct endpoints *ep, char *why, size_t len)
{
	const char *base = getenv("TMPDIR");

	if (ep->dir[0])
		return 0;
	if (!base || !*base)
		base = "/tmp";
	/* the guest's initramfs has no /tmp */
	if (mkdir(base, 01777) && errno != EEXIST)
		return fail(why, len, base);
	snprintf(ep->dir, sizeof(ep->dir), "%s/sigio-atlas.XXXXXX", base);
	if (!mkdtemp(ep->dir)) {
		ep->dir[0] = '\0';
		return fail(why, len, "mkdtemp");
	}
	return 0;
}

static void remove_dir(struct endpoints *ep)
{
	struct dirent *d;
	DIR *dir;

	if (!ep->dir[0])
		return;
	dir = opendir(ep->dir);
	if (dir) {
		while ((d = readdir(dir)))
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
				unlinkat(dirfd(dir), d->d_name, 0);
		closedir(dir);
	}
	rmdir(ep->dir);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int open_pipe(struct endpoints *ep, char *why, size_t len,
		     bool watch_write_end, bool holding)
{
	int fds[2];

	if (pipe2(fds, O_NONBLOCK))
		return fail(why, len, "pipe2");
	ep->watched = fds[watch_write_end];
	ep->peer = fds[!watch_write_end];
	if (holding && write(fds[1], "x", 1) != 1)
		return fail(why, len, "write");
	return 0;
}

static int open_pipe_read_end(struct endpoints *ep, char *why, size_t len)
{
	return open_pipe(ep, why, len, false, false);
}

static int open_pipe_read_end_holding(struct endpoints *ep, char *why,
				      size_t len)
{
	return open_pipe(ep, why, len, false, true);
}

static int open_pipe_write_end(struct endpoints *ep, char *why, size_t len)
{
	return open_pipe(ep, why, len, true, false);
}

static int open_pipe_write_end_holding(struct endpoints *ep, char *why,
				       size_t len)
{
	return open_pipe(ep, why, len, true, true);
}

static int open_fifo_reader(struct endpoints *ep, char *why, size_t len)
{
	if (make_dir(ep, why, len))
		return -1;
	snprintf(ep->path, sizeof(ep->path), "%s/fifo", ep->dir);
	if (mkfifo(ep->path, 0600))
		return fail(why, len, ep->path);
	ep->watched = open(ep->path, O_RDONLY | O_NONBLOCK);
	return ep->watched < 0 ? fail(why, len, ep->path) : 0;
}

static int open_fifo_writer(struct endpoints *ep)
{
	ep->peer = open(ep->path, O_WRONLY | O_NONBLOCK);
	return ep->peer < 0 ? -1 : 0;
}

static int open_fifo(struct endpoints *ep, char *why, size_t len)
{
	if (open_fifo_reader(ep, why, len))
		return -1;
	return open_fifo_writer(ep) ? fail(why, len, ep->path) : 0;
}

/* /dev/ptmx, with devpts on /dev/pts (the guest's init mounts it) */
static int open_ptmx(int *fd, char *why, size_t len)
{
	*fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (*fd < 0)
		return cannot_open(why, len, "/dev/ptmx", "CONFIG_UNIX98_PTYS", 0);
	return 0;
}

/* the slave through the master (TIOCGPTPEER): no path to get wrong */
static int open_pty(struct endpoints *ep, char *why, size_t len,
		    bool watch_slave)
{
	int master, slave = -1, unlock = 0;
	int ret = open_ptmx(&master, why, len);

	if (ret)
		return ret;
	if (ioctl(master, TIOCSPTLCK, &unlock) == 0)
		slave = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (slave < 0) {
		close(master);
		return fail(why, len, "the pty's slave");
	}
	ep->watched = watch_slave ? slave : master;
	ep->peer = watch_slave ? master : slave;
	return 0;
}

static int open_pty_master(struct endpoints *ep, char *why, size_t len)
{
	return open_pty(ep, why, len, false);
}

static int open_pty_slave(struct endpoints *ep, char *why, size_t len)
{
	return open_pty(ep, why, len, true);
}

/* a raw slave: bytes flow through unedited, no echo, so the master fills */
static int open_pty_master_raw_slave(struct endpoints *ep, char *why,
				     size_t len)
{
	struct termios t;
	int ret = open_pty_master(ep, why, len);

	if (ret)
		return ret;
	if (tcgetattr(ep->peer, &t))
		return fail(why, len, "tcgetattr");
	cfmakeraw(&t);
	return tcsetattr(ep->peer, TCSANOW, &t) ? fail(why, len, "tcsetattr") : 0;
}

static int open_pty_slave_n_hdlc(struct endpoints *ep, char *why, size_t len)
{
	int ldisc = N_HDLC;
	int ret = open_pty_slave(ep, why, len);

	if (ret)
		return ret;
	if (ioctl(ep->watched, TIOCSETD, &ldisc))
		return cannot_open(why, len, "TIOCSETD N_HDLC", "CONFIG_N_HDLC",
				   EINVAL);
	return 0;
}

static int open_socketpair(struct endpoints *ep, char *why, size_t len,
			   int type)
{
	int sv[2];

	if (socketpair(AF_UNIX, type | SOCK_NONBLOCK, 0, sv))
		return cannot_open(why, len, "socketpair(AF_UNIX)",
				   "CONFIG_NET, CONFIG_UNIX", 0);
	ep->watched = sv[0];
	ep->peer = sv[1];
	return 0;
}

static int open_unix_stream(struct endpoints *ep, char *why, size_t len)
{
	return open_socketpair(ep, why, len, SOCK_STREAM);
}

static int open_unix_dgram(struct endpoints *ep, char *why, size_t len)
{
	return open_socketpair(ep, why, len, SOCK_DGRAM);
}

/* out-of-band data, tried on a pair of its own so no signal is spent */
static int open_unix_stream_oob(struct endpoints *ep, char *why, size_t len)
{
	int ret = open_unix_stream(ep, why, len);
	int sv[2];

	if (ret)
		return ret;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		return fail(why, len, "socketpair");
	ret = send(sv[1], "!", 1, MSG_OOB) == 1 ? 0 :
	      cannot_open(why, len, "send(MSG_OOB) on AF_UNIX",
			  "CONFIG_AF_UNIX_OOB", 0);
	close(sv[0]);
	close(sv[1]);
	return ret;
}

static int open_unix_listener(struct endpoints *ep, char *why, size_t len)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&ep->addr;
	int n;

	ep->watched = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (ep->watched < 0)
		return cannot_open(why, len, "socket(AF_UNIX)",
				   "CONFIG_NET, CONFIG_UNIX", 0);
	/* abstract: nothing to remove, private to the network namespace */
	un->sun_family = AF_UNIX;
	n = snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1,
		     "sigio-atlas.%d", getpid());
	ep->addr_len = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	if (bind(ep->watched, (struct sockaddr *)&ep->addr, ep->addr_len) ||
	    listen(ep->watched, 8))
		return fail(why, len, "an AF_UNIX listener");
	return 0;
}

/* The guest's /init leaves the loopback interface down. */
static int loopback_up(char *why, size_t len)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	int ret = 0;

	if (fd < 0)
		return cannot_open(why, len, "socket(AF_INET)",
				   "CONFIG_NET, CONFIG_INET", 0);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ret = fail(why, len, "SIOCGIFFLAGS lo");
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			ret = fail(why, len, "SIOCSIFFLAGS lo up");
	}
	close(fd);
	return ret;
}

/* a listener on 127.0.0.1, port chosen by the kernel, into *fd */
static int tcp_listen(struct endpoints *ep, int *fd, char *why, size_t len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&ep->addr;
	int ret = loopback_up(why, len);

	if (ret)
		return ret;
	*fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (*fd < 0)
		return fail(why, len, "socket(AF_INET)");
	in->sin_family = AF_INET;
	in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ep->addr_len = sizeof(*in);
	if (bind(*fd, (struct sockaddr *)&ep->addr, ep->addr_len) ||
	    listen(*fd, 8) ||
	    getsockname(*fd, (struct sockaddr *)&ep->addr, &ep->addr_len))
		return fail(why, len, "a TCP listener on 127.0.0.1");
	return 0;
}

static int open_tcp_listener(struct endpoints *ep, char *why, size_t len)
{
	return tcp_listen(ep, &ep->watched, why, len);
}

static int open_tcp_unconnected(struct endpoints *ep, char *why, size_t len)
{
	int ret = tcp_listen(ep, &ep->spare, why, len);

	if (ret)
		return ret;
	ep->watched = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	return ep->watched < 0 ? fail(why, len, "socket(AF_INET)") : 0;
}

/* the accepted end is watched, the connecting one provokes */
static int open_tcp(struct endpoints *ep, char *why, size_t len)
{
	int ret = tcp_listen(ep, &ep->spare, why, len);
	struct pollfd ready = { .fd = ep->spare, .events = POLLIN };

	if (ret)
		return ret;
	ep->peer = socket(AF_INET, SOCK_STREAM, 0);
	if (ep->peer < 0 ||
	    connect(ep->peer, (struct sockaddr *)&ep->addr, ep->addr_len))
		return fail(why, len, "connect to 127.0.0.1");
	/* the server's side of the handshake may lag connect() a moment */
	if (poll(&ready, 1, PATIENCE_MS) != 1)
		return fail(why, len, "no connection to accept");
	ep->watched = accept4(ep->spare, NULL, NULL, SOCK_NONBLOCK);
	if (ep->watched < 0 ||
	    fcntl(ep->peer, F_SETFL, fcntl(ep->peer, F_GETFL) | O_NONBLOCK))
		return fail(why, len, "accept4");
	return 0;
}

static int open_inotify(struct endpoints *ep, char *why, size_t len)
{
	if (make_dir(ep, why, len))
		return -1;
	ep->watched = inotify_init1(IN_NONBLOCK);
	if (ep->watched < 0)
		return cannot_open(why, len, "inotify_init1",
				   "CONFIG_INOTIFY_USER", 0);
	if (inotify_add_watch(ep->watched, ep->dir, IN_CREATE) < 0)
		return fail(why, len, "inotify_add_watch");
	return 0;
}

static int open_fanotify(struct endpoints *ep, char *why, size_t len)
{
	if (make_dir(ep, why, len))
		return -1;
	ep->watched = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY);
	if (ep->watched < 0)
		return cannot_open(why, len, "fanotify_init", "CONFIG_FANOTIFY",
				   0);
	if (fanotify_mark(ep->watched, FAN_MARK_ADD,
			  FAN_CLOSE_WRITE | FAN_EVENT_ON_CHILD, AT_FDCWD,
			  ep->dir))
		return fail(why, len, "fanotify_mark");
	return 0;
}

/*
 * Without CONFIG_DNOTIFY F_NOTIFY fails with EINVAL; tried on a second
 * descriptor, since a dnotify request makes its file's caller the owner.
 */
static int open_dnotify(struct endpoints *ep, char *why, size_t len)
{
	int probe;

	if (make_dir(ep, why, len))
		return -1;
	probe = open(ep->dir, O_RDONLY | O_DIRECTORY);
	if (probe < 0)
		return fail(why, len, ep->dir);
	if (fcntl(probe, F_NOTIFY, DN_CREATE)) {
		close(probe);
		return cannot_open(why, len, "fcntl(F_NOTIFY)", "CONFIG_DNOTIFY",
				   EINVAL);
	}
	close(probe);
	ep->watched = open(ep->dir, O_RDONLY | O_DIRECTORY);
	return ep->watched < 0 ? fail(why, len, ep->dir) : 0;
}

/*
 * A read lease needs a file open only for reading, a write lease one
 * open nowhere else. Without CONFIG_FILE_LOCKING F_SETLEASE fails with
 * EINVAL: tried first on a file of its own.
 */
static int open_leased(struct endpoints *ep, char *why, size_t len,
		       int lease)
{
	char probe[PATH_LEN + 8];
	int fd;

	if (make_dir(ep, why, len))
		return -1;
	snprintf(probe, sizeof(probe), "%s/probe", ep->dir);
	fd = open(probe, O_RDONLY | O_CREAT, 0600);
	if (fd < 0)
		return fail(why, len, probe);
	if (fcntl(fd, F_SETLEASE, F_RDLCK)) {
		close(fd);
		return cannot_open(why, len, "fcntl(F_SETLEASE)",
				   "CONFIG_FILE_LOCKING", EINVAL);
	}
	close(fd);
	ep->lease = lease;
	snprintf(ep->path, sizeof(ep->path), "%s/leased", ep->dir);
	fd = open(ep->path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0)
		return fail(why, len, ep->path);
	close(fd);
	ep->watched = open(ep->path, lease == F_RDLCK ? O_RDONLY : O_RDWR);
	return ep->watched < 0 ? fail(why, len, ep->path) : 0;
}

static int open_read_leased(struct endpoints *ep, char *why, size_t len)
{
	return open_leased(ep, why, len, F_RDLCK);
}

static int open_write_leased(struct endpoints *ep, char *why, size_t len)
{
	return open_leased(ep, why, len, F_WRLCK);
}

/*
 * A notification pipe watching a keyring of this process's own: in 6.1
 * only keys post notifications, and the keyring goes with the process.
 */
static int open_watch_queue(struct endpoints *ep, char *why, size_t len)
{
	int fds[2];

	if (pipe2(fds, O_NOTIFICATION_PIPE | O_NONBLOCK))
		return cannot_open(why, len, "pipe2(O_NOTIFICATION_PIPE)",
				   "CONFIG_WATCH_QUEUE", 0);
	ep->watched = fds[0];
	ep->peer = fds[1];
	if (ioctl(ep->watched, IOC_WATCH_QUEUE_SET_SIZE, 256))
		return fail(why, len, "IOC_WATCH_QUEUE_SET_SIZE");
	ep->keyring = syscall(SYS_add_key, "keyring", "sigio-atlas", NULL, 0,
			      KEY_SPEC_PROCESS_KEYRING);
	if (ep->keyring < 0)
		return cannot_open(why, len, "add_key(keyring)", "CONFIG_KEYS", 0);
	if (syscall(SYS_keyctl, KEYCTL_WATCH_KEY, ep->keyring, ep->watched, 1))
		return cannot_open(why, len, "KEYCTL_WATCH_KEY",
				   "CONFIG_KEY_NOTIFICATIONS", 0);
	return 0;
}

/* a software clock sampled every PERF_PERIOD_NS, disabled until provoked */
static int open_perf(struct endpoints *ep, char *why, size_t len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = PERF_PERIOD_NS,
		.sample_type = PERF_SAMPLE_IP,
		.wakeup_events = 1,
		.disabled = 1,
		.exclude_hv = 1,
	};

	ep->watched = syscall(SYS_perf_event_open, &attr, 0, -1, -1,
			      PERF_FLAG_FD_CLOEXEC);
	if (ep->watched < 0)
		return cannot_open(why, len, "perf_event_open",
				   "CONFIG_PERF_EVENTS, a perf_event_paranoid that allows it",
				   EACCES);
	ep->ring_len = 2 * sysconf(_SC_PAGESIZE);
	ep->ring = mmap(NULL, ep->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			ep->watched, 0);
	if (ep->ring == MAP_FAILED) {
		ep->ring = NULL;
		return fail(why, len, "mmap of the perf ring");
	}
	return 0;
}

/* the node of handler prefix (event, mouse, js) of a uinput device */
static int open_input_node(struct endpoints *ep, const char *syspath,
			   const char *prefix, const char *needs,
			   char *why, size_t len)
{
	char node[64];

	if (!syspath || input_node_of(syspath, prefix, "/dev/input", node,
				      sizeof(node))) {
		snprintf(why, len, "no %s* under %s (needs %s)", prefix,
			 syspath ? syspath : "the uinput device", needs);
		return 1;
	}
	ep->watched = open_node(node, O_RDONLY | O_NONBLOCK);
	return ep->watched < 0 ? cannot_open(why, len, node, needs, 0) : 0;
}

static int create_mouse(struct endpoints *ep, char *why, size_t len)
{
	int ret = uinput_mouse_create(&ep->mouse, "sigio-atlas mouse");

	if (!ret)
		return 0;
	errno = -ret;
	return cannot_open(why, len, "/dev/uinput", "CONFIG_INPUT_UINPUT", 0);
}

static int open_evdev(struct endpoints *ep, char *why, size_t len)
{
	int ret = create_mouse(ep, why, len);

	return ret ? ret : open_input_node(ep, uinput_mouse_syspath(&ep->mouse),
					   "event", "CONFIG_INPUT_EVDEV",
					   why, len);
}

static int open_mousedev(struct endpoints *ep, char *why, size_t len)
{
	int ret = create_mouse(ep, why, len);

	return ret ? ret : open_input_node(ep, uinput_mouse_syspath(&ep->mouse),
					   "mouse", "CONFIG_INPUT_MOUSEDEV",
					   why, len);
}

static int open_mice(struct endpoints *ep, char *why, size_t len)
{
	ep->watched = open("/dev/input/mice", O_RDWR | O_NONBLOCK);
	if (ep->watched < 0)
		return cannot_open(why, len, "/dev/input/mice",
				   "CONFIG_INPUT_MOUSEDEV", 0);
	return 0;
}

static int open_mice_and_mouse(struct endpoints *ep, char *why, size_t len)
{
	int ret = open_mice(ep, why, len);

	return ret ? ret : create_mouse(ep, why, len);
}

/* what joydev takes for a joystick: two axes and a trigger */
static int open_joydev(struct endpoints *ep, char *why, size_t len)
{
	struct input_absinfo abs = { .minimum = -32767, .maximum = 32767 };
	int ret;

	ep->joystick_dev = libevdev_new();
	if (!ep->joystick_dev)
		return fail(why, len, "libevdev_new");
	libevdev_set_name(ep->joystick_dev, "sigio-atlas joystick");
	libevdev_set_id_bustype(ep->joystick_dev, BUS_VIRTUAL);
	libevdev_enable_event_code(ep->joystick_dev, EV_ABS, ABS_X, &abs);
	libevdev_enable_event_code(ep->joystick_dev, EV_ABS, ABS_Y, &abs);
	libevdev_enable_event_code(ep->joystick_dev, EV_KEY, BTN_TRIGGER, NULL);
	ret = libevdev_uinput_create_from_device(ep->joystick_dev,
						 LIBEVDEV_UINPUT_OPEN_MANAGED,
						 &ep->joystick);
	if (ret) {
		ep->joystick = NULL;
		errno = -ret;
		return cannot_open(why, len, "/dev/uinput",
				   "CONFIG_INPUT_UINPUT", 0);
	}
	return open_input_node(ep, libevdev_uinput_get_syspath(ep->joystick),
			       "js", "CONFIG_INPUT_JOYDEV", why, len);
}

/* opening /dev/ttyN allocates console N, and with it /dev/vcsN */
static int open_vcs(struct endpoints *ep, char *why, size_t len)
{
	char tty[32], vcs[32];

	snprintf(tty, sizeof(tty), "/dev/tty%d", ATLAS_CONSOLE);
	snprintf(vcs, sizeof(vcs), "/dev/vcs%d", ATLAS_CONSOLE);
	ep->peer = open(tty, O_WRONLY | O_NOCTTY);
	if (ep->peer < 0)
		return cannot_open(why, len, tty, "CONFIG_VT", 0);
	ep->watched = open_node(vcs, O_RDONLY);
	return ep->watched < 0 ? cannot_open(why, len, vcs, "CONFIG_VT", 0) : 0;
}

static int open_rtc(struct endpoints *ep, char *why, size_t len)
{
	ep->watched = open("/dev/rtc0", O_RDONLY);
	if (ep->watched < 0)
		return cannot_open(why, len, "/dev/rtc0",
				   "CONFIG_RTC_CLASS, CONFIG_RTC_INTF_DEV and a driver such as CONFIG_RTC_DRV_CMOS",
				   0);
	return 0;
}

/*
 * Update interrupts need alarms (or CONFIG_RTC_INTF_DEV_UIE_EMUL). The
 * probe's own interrupt, should the second turn between RTC_UIE_ON and
 * RTC_UIE_OFF, stays in the device's irq_data until a read; left there,
 * it would answer the provocation's read before any interrupt came after
 * O_ASYNC, and the check would wait for a signal never sent.
 */
static int open_rtc_update(struct endpoints *ep, char *why, size_t len)
{
	struct pollfd p = { .events = POLLIN };
	unsigned long data;
	int ret = open_rtc(ep, why, len);

	if (ret)
		return ret;
	if (ioctl(ep->watched, RTC_UIE_ON, 0))
		return cannot_open(why, len, "RTC_UIE_ON",
				   "an RTC with alarms, or CONFIG_RTC_INTF_DEV_UIE_EMUL",
				   EINVAL);
	if (ioctl(ep->watched, RTC_UIE_OFF, 0))
		return fail(why, len, "RTC_UIE_OFF");
	p.fd = ep->watched;
	if (poll(&p, 1, 0) == 1 && read(ep->watched, &data, sizeof(data)) != sizeof(data))
		return fail(why, len, "read(2) of the probe's interrupt");
	return 0;
}

static int open_rtc_alarm(struct endpoints *ep, char *why, size_t len)
{
	struct rtc_time alarm;
	int ret = open_rtc(ep, why, len);

	if (ret)
		return ret;
	if (ioctl(ep->watched, RTC_ALM_READ, &alarm))
		return cannot_open(why, len, "RTC_ALM_READ",
				   "an RTC with alarms", EINVAL);
	return 0;
}

/* only once the crng is ready (getrandom() waits for it) */
static int open_random(struct endpoints *ep, char *why, size_t len)
{
	char byte;

	if (syscall(SYS_getrandom, &byte, 1, 0) != 1)
		return fail(why, len, "getrandom");
	ep->watched = open("/dev/random", O_RDONLY);
	ep->peer = open("/dev/random", O_WRONLY);
	if (ep->watched < 0 || ep->peer < 0)
		return cannot_open(why, len, "/dev/random", "a /dev/random node", 0);
	return 0;
}

/* ---- provoking events ---- */

static int write_byte(struct endpoints *ep)
{
	return write(ep->peer, "x", 1) == 1 ? 0 : -1;
}

static int write_line(struct endpoints *ep)
{
	return write(ep->peer, "x\n", 2) == 2 ? 0 : -1;
}

static int write_frame(struct endpoints *ep)
{
	return write(ep->peer, "frame", 5) == 5 ? 0 : -1;
}

static int read_byte(struct endpoints *ep)
{
	char c;

	return read(ep->peer, &c, 1) == 1 ? 0 : -1;
}

static int link_key(struct endpoints *ep)
{
	return syscall(SYS_add_key, "user", "sigio-atlas", "x", 1,
		       ep->keyring) < 0 ? -1 : 0;
}

static int vmsplice_byte(struct endpoints *ep)
{
	static char byte = 'x';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };

	return vmsplice(ep->peer, &iov, 1, 0) == 1 ? 0 : -1;
}

static int close_peer(struct endpoints *ep)
{
	int ret = close(ep->peer);

	ep->peer = -1;
	return ret;
}

/* write until the kernel says EAGAIN: the file is full */
static int fill(int fd)
{
	static char chunk[1 << 16];
	size_t total = 0;
	ssize_t n;

	while ((n = write(fd, chunk, sizeof(chunk))) > 0) {
		total += n;
		if (total > FILL_LIMIT) {
			errno = EFBIG;
			return -1;
		}
	}
	return errno == EAGAIN ? 0 : -1;
}

/* read until nothing more comes for DRAIN_QUIET_MS */
static int drain(int fd)
{
	static char buf[1 << 16];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	for (;;) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n == 0)
			return 0;
		if (errno != EAGAIN)
			return -1;
		if (poll(&p, 1, DRAIN_QUIET_MS) <= 0)
			return 0;
	}
}

static int fill_then_drain(struct endpoints *ep)
{
	return fill(ep->watched) || drain(ep->peer) ? -1 : 0;
}

static int shutdown_peer_writes(struct endpoints *ep)
{
	return shutdown(ep->peer, SHUT_WR);
}

static int send_oob(struct endpoints *ep)
{
	return send(ep->peer, "!", 1, MSG_OOB) == 1 ? 0 : -1;
}

static int connect_new_peer(struct endpoints *ep)
{
	ep->peer = socket(ep->addr.ss_family, SOCK_STREAM, 0);
	if (ep->peer < 0)
		return -1;
	return connect(ep->peer, (struct sockaddr *)&ep->addr, ep->addr_len);
}

static int connect_watched(struct endpoints *ep)
{
	if (connect(ep->watched, (struct sockaddr *)&ep->addr, ep->addr_len) &&
	    errno != EINPROGRESS)
		return -1;
	return 0;
}

/* a close with SO_LINGER 0 sends a reset, not a FIN */
static int reset_peer(struct endpoints *ep)
{
	struct linger now = { .l_onoff = 1, .l_linger = 0 };

	if (setsockopt(ep->peer, SOL_SOCKET, SO_LINGER, &now, sizeof(now)))
		return -1;
	return close_peer(ep);
}

static int create_file(struct endpoints *ep)
{
	char path[PATH_LEN + 16];
	int fd;

	snprintf(path, sizeof(path), "%s/file%u", ep->dir, ep->files++);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, "x", 1) != 1) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* the event must be queued, or the silence that follows proves nothing */
static int create_file_queued(struct endpoints *ep)
{
	struct pollfd p = { .fd = ep->watched, .events = POLLIN };

	if (create_file(ep))
		return -1;
	if (poll(&p, 1, PATIENCE_MS) != 1) {
		errno = ETIMEDOUT;
		return -1;
	}
	return 0;
}

/*
 * Another process opens the leased file in the conflicting mode; with
 * O_NONBLOCK its open() fails with EWOULDBLOCK instead of waiting out
 * the lease-break time, once the break has begun (and succeeds with no
 * lease to break).
 */
static int break_lease(struct endpoints *ep)
{
	int mode = ep->lease == F_RDLCK ? O_WRONLY : O_RDONLY;
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open(ep->path, mode | O_NONBLOCK);
		_exit(fd >= 0 || errno == EWOULDBLOCK ? 0 : errno);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	errno = WEXITSTATUS(status);
	return errno ? -1 : 0;
}

static void burn_cpu(long ns)
{
	struct timespec start, now;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	while ((now.tv_sec - start.tv_sec) * 1000000000L +
	       now.tv_nsec - start.tv_nsec < ns);
}

static int perf_samples(struct endpoints *ep)
{
	if (ioctl(ep->watched, PERF_EVENT_IOC_ENABLE, 0))
		return -1;
	burn_cpu(PERF_BURN_NS);
	return ioctl(ep->watched, PERF_EVENT_IOC_DISABLE, 0);
}

/* enabled for one overflow, after which perf disables the event */
static int perf_limit_reached(struct endpoints *ep)
{
	if (ioctl(ep->watched, PERF_EVENT_IOC_REFRESH, 1))
		return -1;
	burn_cpu(PERF_BURN_NS);
	return 0;
}

static int move_mouse(struct endpoints *ep)
{
	return set_errno(uinput_mouse_move(&ep->mouse, 1, 0));
}

static int unplug_mouse(struct endpoints *ep)
{
	uinput_mouse_destroy(&ep->mouse);
	return 0;
}

/* the input core drops an axis value equal to the last one */
static int move_joystick(struct endpoints *ep)
{
	int ret;

	ep->axis = ep->axis == 1000 ? -1000 : 1000;
	ret = libevdev_uinput_write_event(ep->joystick, EV_ABS, ABS_X, ep->axis);
	if (!ret)
		ret = libevdev_uinput_write_event(ep->joystick, EV_SYN,
						  SYN_REPORT, 0);
	return set_errno(ret);
}

static int unplug_joystick(struct endpoints *ep)
{
	libevdev_uinput_destroy(ep->joystick);
	ep->joystick = NULL;
	return 0;
}

static int revoke_evdev(struct endpoints *ep)
{
	return ioctl(ep->watched, EVIOCREVOKE, NULL);
}

/* PS/2's "get device ID", which mousedev answers itself */
static int ps2_get_id(struct endpoints *ep)
{
	return write(ep->watched, "\xf2", 1) == 1 ? 0 : -1;
}

/*
 * Once closed, the console goes with VT_DISALLOCATE, asked on another
 * console; the tty's last reference drops a moment after close().
 */
static int deallocate_console(struct endpoints *ep)
{
	int tries, fd, ret = -1;

	close_peer(ep);
	fd = open("/dev/tty1", O_RDONLY | O_NOCTTY);
	if (fd < 0)
		return -1;
	for (tries = 0; tries < 100; tries++) {
		ret = ioctl(fd, VT_DISALLOCATE, ATLAS_CONSOLE);
		if (ret == 0 || errno != EBUSY)
			break;
		usleep(10000);
	}
	close(fd);
	return ret;
}

/* the interrupt has come once read() returns */
static int rtc_wait_interrupt(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned long data;

	if (poll(&p, 1, PATIENCE_MS) != 1) {
		errno = ETIMEDOUT;
		return -1;
	}
	return read(fd, &data, sizeof(data)) == sizeof(data) ? 0 : -1;
}

static int rtc_update_interrupt(struct endpoints *ep)
{
	int ret;

	if (ioctl(ep->watched, RTC_UIE_ON, 0))
		return -1;
	ret = rtc_wait_interrupt(ep->watched);
	ioctl(ep->watched, RTC_UIE_OFF, 0);
	return ret;
}

static int rtc_alarm_interrupt(struct endpoints *ep)
{
	struct rtc_time rtc;
	struct tm tm = { 0 };
	time_t t;
	int ret;

	if (ioctl(ep->watched, RTC_RD_TIME, &rtc))
		return -1;
	tm.tm_sec = rtc.tm_sec;
	tm.tm_min = rtc.tm_min;
	tm.tm_hour = rtc.tm_hour;
	tm.tm_mday = rtc.tm_mday;
	tm.tm_mon = rtc.tm_mon;
	tm.tm_year = rtc.tm_year;
	t = timegm(&tm) + 2;
	gmtime_r(&t, &tm);
	rtc.tm_sec = tm.tm_sec;
	rtc.tm_min = tm.tm_min;
	rtc.tm_hour = tm.tm_hour;
	rtc.tm_mday = tm.tm_mday;
	rtc.tm_mon = tm.tm_mon;
	rtc.tm_year = tm.tm_year;
	if (ioctl(ep->watched, RTC_ALM_SET, &rtc) ||
	    ioctl(ep->watched, RTC_AIE_ON, 0))
		return -1;
	ret = rtc_wait_interrupt(ep->watched);
	ioctl(ep->watched, RTC_AIE_OFF, 0);
	return ret;
}

/* credited entropy, which the crng, long ready, only mixes in */
static int credit_entropy(struct endpoints *ep)
{
	struct {
		struct rand_pool_info info;
		__u32 buf[8];
	} pool = { .info = { .entropy_count = 256, .buf_size = 32 } };

	return ioctl(ep->peer, RNDADDENTROPY, &pool);
}

/* ---- subscribing ---- */

static int dnotify_subscribe(struct endpoints *ep, bool on)
{
	return fcntl(ep->watched, F_NOTIFY, on ? DN_CREATE | DN_MULTISHOT : 0);
}

static int lease_subscribe(struct endpoints *ep, bool on)
{
	return fcntl(ep->watched, F_SETLEASE, on ? ep->lease : F_UNLCK);
}

/* ---- the sources and their events ---- */

/* no file, mapping, device or folder: as before the source was opened */
static void endpoints_reset(struct endpoints *ep)
{
	memset(ep, 0, sizeof(*ep));
	ep->watched = -1;
	ep->peer = -1;
	ep->spare = -1;
}

static void endpoints_close(struct endpoints *ep)
{
	close_fd(&ep->watched);
	close_fd(&ep->peer);
	close_fd(&ep->spare);
	if (ep->ring)
		munmap(ep->ring, ep->ring_len);
	uinput_mouse_destroy(&ep->mouse);
	if (ep->joystick)
		libevdev_uinput_destroy(ep->joystick);
	if (ep->joystick_dev)
		libevdev_free(ep->joystick_dev);
	remove_dir(ep);
	endpoints_reset(ep);
}

static const char pipe_writer_gone[] =
	"pipe_release() signals the readers POLL_IN, the band of readable data, when the last writer goes: no POLL_HUP (poll() reports POLLHUP, SIGIO does not); read() then returns 0";

static const char tty_owner[] =
	"__tty_fasync() makes the tty's foreground process group, or else the caller, the owner (__f_setown(..., 0)) when O_ASYNC is set on a file that has none: a tty signals without F_SETOWN";

static const char sigurg_finding[] =
	"send_sigurg() sends SIGURG itself with SEND_SIG_PRIV: si_code SI_KERNEL, no band, no fd, whatever F_SETSIG says, to the F_SETOWN owner with or without O_ASYNC";

static const char urgent_pri_finding[] =
	"POLL_PRI goes only to an F_SETSIG signal: fasync_send() skips kill_fasync(..., SIGURG, POLL_PRI) for files without one, so with plain SIGIO the signal seen is the data's POLL_IN";

FIXTURE_VARIANT_ADD(source, pipe_read_data) {
	.source = "pipe",
	.open = open_pipe_read_end,
	.event = {
		.what = "data written to the write end",
		.provoke_text = "write(2) 1 byte to the write end",
		.provoke = write_byte,
		.sender = "fs/pipe.c: pipe_write()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, pipe_read_hangup) {
	.source = "pipe",
	.open = open_pipe_read_end,
	.event = {
		.what = "the last writer closes",
		.provoke_text = "close(2) the write end",
		.provoke = close_peer,
		.sender = "fs/pipe.c: pipe_release()",
		.reason = POLL_IN,
		.band_beyond_poll = POLLIN | POLLRDNORM,
		.finding = pipe_writer_gone,
	},
};

FIXTURE_VARIANT_ADD(source, pipe_read_more_data) {
	.source = "pipe",
	.open = open_pipe_read_end_holding,
	.event = {
		.what = "data written to a pipe already holding unread data",
		.provoke_text = "write(2) 1 byte to the write end of a pipe holding 1",
		.provoke = write_byte,
		.sender = "fs/pipe.c: pipe_write()",
		.reason = POLL_IN,
		.finding = "pipe_write() calls kill_fasync() after every write, while it wakes poll()ers only if the pipe was empty (or is polled): the reader is signalled again for data it has not read yet",
	},
};

FIXTURE_VARIANT_ADD(source, pipe_read_vmsplice) {
	.source = "pipe",
	.open = open_pipe_read_end,
	.event = {
		.what = "data spliced into the write end",
		.provoke_text = "vmsplice(2) 1 byte to the write end",
		.provoke = vmsplice_byte,
		.sender = "fs/splice.c: wakeup_pipe_readers()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, pipe_write_space) {
	.source = "pipe",
	.open = open_pipe_write_end,
	.event = {
		.what = "room to write again (write end watched)",
		.provoke_text = "fill the write end until EAGAIN, then read the read end dry",
		.provoke = fill_then_drain,
		.sender = "fs/pipe.c: pipe_read()",
		.reason = POLL_OUT,
		.band_beyond_poll = POLLWRBAND,
		.repeats = true,
	},
};

FIXTURE_VARIANT_ADD(source, pipe_write_space_hangup) {
	.source = "pipe",
	.open = open_pipe_write_end,
	.event = {
		.what = "the last reader closes (write end watched)",
		.provoke_text = "close(2) the read end",
		.provoke = close_peer,
		.sender = "fs/pipe.c: pipe_release()",
		.reason = POLL_OUT,
		.band_beyond_poll = POLLWRBAND,
		.finding = "pipe_release() signals the writers POLL_OUT when the last reader goes, not POLL_ERR or POLL_HUP: the next write() fails with EPIPE",
	},
};

FIXTURE_VARIANT_ADD(source, pipe_write_any_read) {
	.source = "pipe",
	.open = open_pipe_write_end_holding,
	.event = {
		.what = "a read from a pipe that was never full (write end watched)",
		.provoke_text = "read(2) the 1 byte the pipe holds",
		.provoke = read_byte,
		.sender = "fs/pipe.c: pipe_read()",
		.reason = POLL_OUT,
		.band_beyond_poll = POLLWRBAND,
		.finding = "pipe_read() calls kill_fasync(POLL_OUT) after every read, full pipe or not (only the wake-up of blocked writers depends on was_full): the writer hears of room it always had",
	},
};

FIXTURE_VARIANT_ADD(source, watch_queue_key) {
	.source = "notification pipe (watch_queue)",
	.open = open_watch_queue,
	.event = {
		.what = "a key linked into the watched keyring (KEYCTL_WATCH_KEY)",
		.provoke_text = "add_key(2) a user key to the keyring",
		.provoke = link_key,
		.sender = "kernel/watch_queue.c: post_one_notification()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, fifo_read_data) {
	.source = "FIFO",
	.open = open_fifo,
	.event = {
		.what = "data written by a writer",
		.provoke_text = "write(2) 1 byte to the FIFO opened for writing",
		.provoke = write_byte,
		.sender = "fs/pipe.c: pipe_write()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, fifo_read_hangup) {
	.source = "FIFO",
	.open = open_fifo,
	.event = {
		.what = "the last writer closes",
		.provoke_text = "close(2) the writer",
		.provoke = close_peer,
		.sender = "fs/pipe.c: pipe_release()",
		.reason = POLL_IN,
		.band_beyond_poll = POLLIN | POLLRDNORM,
		.finding = pipe_writer_gone,
	},
};

FIXTURE_VARIANT_ADD(source, fifo_writer_opens) {
	.source = "FIFO",
	.open = open_fifo_reader,
	.event = {
		.what = "a writer opens the FIFO",
		.provoke_text = "open(2) the FIFO O_WRONLY",
		.provoke = open_fifo_writer,
		.sender = "fs/pipe.c: fifo_open()",
		.reason = NO_SIGNAL,
		.finding = "fifo_open() wakes readers waiting for a writer (wake_up_partner()) but calls no kill_fasync(): an O_ASYNC reader is not told a writer came",
	},
};

FIXTURE_VARIANT_ADD(source, pty_master_data) {
	.source = "pty master",
	.open = open_pty_master,
	.owner_on_subscribe = tty_owner,
	.event = {
		.what = "the slave writes (the master reads raw)",
		.provoke_text = "write(2) 1 byte to the slave",
		.provoke = write_byte,
		.sender = "drivers/tty/n_tty.c: __receive_buf()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, pty_master_hangup) {
	.source = "pty master",
	.open = open_pty_master,
	.owner_on_subscribe = tty_owner,
	.event = {
		.what = "the slave closes",
		.provoke_text = "close(2) the slave",
		.provoke = close_peer,
		.sender = "drivers/tty/pty.c: pty_close()",
		.reason = NO_SIGNAL,
		.finding = "pty_close() of the slave sets TTY_OTHER_CLOSED on the master and wakes its queues without a key, calling no kill_fasync(): poll() on the master reports POLLHUP, no signal comes",
	},
};

FIXTURE_VARIANT_ADD(source, pty_master_write_space) {
	.source = "pty master",
	.open = open_pty_master_raw_slave,
	.owner_on_subscribe = tty_owner,
	.event = {
		.what = "room to write again: the slave reads what filled it",
		.provoke_text = "fill the master until EAGAIN, then read the raw slave dry",
		.provoke = fill_then_drain,
		.sender = "drivers/tty/n_tty.c: n_tty_write_wakeup()",
		.reason = POLL_OUT,
		.band_beyond_poll = POLLWRBAND,
	},
};

FIXTURE_VARIANT_ADD(source, pty_slave_data) {
	.source = "pty slave",
	.open = open_pty_slave,
	.owner_on_subscribe = tty_owner,
	.event = {
		.what = "a line from the master (canonical mode: at its newline)",
		.provoke_text = "write(2) x and a newline to the master",
		.provoke = write_line,
		.sender = "drivers/tty/n_tty.c: n_tty_receive_char_special()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, pty_slave_hangup) {
	.source = "pty slave",
	.open = open_pty_slave,
	.owner_on_subscribe = tty_owner,
	.event = {
		.what = "the master closes: the slave is hung up as by vhangup(2)",
		.provoke_text = "close(2) the master",
		.provoke = close_peer,
		.sender = "drivers/tty/tty_io.c: __tty_hangup()",
		.reason = NO_SIGNAL,
		.finding = "pty_close() of the master calls tty_vhangup() on the slave; __tty_hangup() takes every file of the tty off its fasync list (__tty_fasync(-1, filp, 0)) and swaps in hung_up_tty_fops before anything could signal: a hung-up tty never sends POLL_HUP",
	},
};

FIXTURE_VARIANT_ADD(source, pty_slave_n_hdlc) {
	.source = "pty slave in N_HDLC",
	.open = open_pty_slave_n_hdlc,
	.owner_on_subscribe = tty_owner,
	.event = {
		.what = "a frame from the master",
		.provoke_text = "write(2) a 5-byte frame to the master",
		.provoke = write_frame,
		.sender = "drivers/tty/n_hdlc.c: n_hdlc_tty_receive()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, unix_stream_data) {
	.source = "UNIX stream socket",
	.open = open_unix_stream,
	.event = {
		.what = "data from the peer",
		.provoke_text = "write(2) 1 byte to the peer",
		.provoke = write_byte,
		.sender = "net/core/sock.c: sock_def_readable()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, unix_stream_hangup) {
	.source = "UNIX stream socket",
	.open = open_unix_stream,
	.event = {
		.what = "the peer closes",
		.provoke_text = "close(2) the peer",
		.provoke = close_peer,
		.sender = "net/unix/af_unix.c: unix_release_sock()",
		.reason = POLL_HUP,
		.band_beyond_poll = POLLERR,
	},
};

FIXTURE_VARIANT_ADD(source, unix_stream_write_space) {
	.source = "UNIX stream socket",
	.open = open_unix_stream,
	.event = {
		.what = "room to send again: the peer reads what filled it",
		.provoke_text = "fill the socket until EAGAIN, then read the peer dry",
		.provoke = fill_then_drain,
		.sender = "net/unix/af_unix.c: unix_write_space()",
		.reason = POLL_OUT,
	},
};

FIXTURE_VARIANT_ADD(source, unix_stream_peer_shutdown) {
	.source = "UNIX stream socket",
	.open = open_unix_stream,
	.event = {
		.what = "the peer shuts down its sending side",
		.provoke_text = "shutdown(2) the peer SHUT_WR",
		.provoke = shutdown_peer_writes,
		.sender = "net/unix/af_unix.c: unix_shutdown()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, unix_stream_oob_sigurg) {
	.source = "UNIX stream socket",
	.open = open_unix_stream_oob,
	.event = {
		.what = "out-of-band byte from the peer (queue_oob()): SIGURG",
		.provoke_text = "send(2) 1 byte MSG_OOB from the peer",
		.provoke = send_oob,
		.sender = "net/core/sock.c: sk_send_sigurg()",
		.reason = BY_SIGURG,
		.repeats = true,
		.finding = sigurg_finding,
	},
};

FIXTURE_VARIANT_ADD(source, unix_stream_oob_pri) {
	.source = "UNIX stream socket",
	.open = open_unix_stream_oob,
	.event = {
		.what = "out-of-band byte from the peer (queue_oob()): POLL_PRI",
		.provoke_text = "send(2) 1 byte MSG_OOB from the peer",
		.provoke = send_oob,
		.sender = "net/core/sock.c: sk_send_sigurg()",
		.reason = POLL_PRI,
		.band_beyond_poll = POLLRDBAND,
		.repeats = true,
		.finding = urgent_pri_finding,
	},
};

FIXTURE_VARIANT_ADD(source, unix_listen_connection) {
	.source = "UNIX stream socket",
	.open = open_unix_listener,
	.event = {
		.what = "a connection to the listening socket",
		.provoke_text = "connect(2) a new socket to it",
		.provoke = connect_new_peer,
		.sender = "net/core/sock.c: sock_def_readable()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, unix_dgram_data) {
	.source = "UNIX datagram socket",
	.open = open_unix_dgram,
	.event = {
		.what = "a datagram from the peer",
		.provoke_text = "write(2) a 1-byte datagram to the peer",
		.provoke = write_byte,
		.sender = "net/core/sock.c: sock_def_readable()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, unix_dgram_hangup) {
	.source = "UNIX datagram socket",
	.open = open_unix_dgram,
	.event = {
		.what = "the peer closes",
		.provoke_text = "close(2) the peer",
		.provoke = close_peer,
		.sender = "net/unix/af_unix.c: unix_release_sock()",
		.reason = NO_SIGNAL,
		.finding = "unix_release_sock() signals POLL_HUP only to a stream or seqpacket peer; a datagram peer is not told (unix_dgram_peer_wake_disconnect() only wakes senders waiting for room)",
	},
};

FIXTURE_VARIANT_ADD(source, unix_dgram_write_space) {
	.source = "UNIX datagram socket",
	.open = open_unix_dgram,
	.event = {
		.what = "room to send again: the peer reads what filled it",
		.provoke_text = "fill the socket until EAGAIN, then read the peer dry",
		.provoke = fill_then_drain,
		.sender = "net/unix/af_unix.c: unix_write_space()",
		.reason = POLL_OUT,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_data) {
	.source = "TCP socket (loopback)",
	.open = open_tcp,
	.event = {
		.what = "data from the peer (tcp_data_ready())",
		.provoke_text = "write(2) 1 byte to the peer",
		.provoke = write_byte,
		.sender = "net/core/sock.c: sock_def_readable()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_hangup) {
	.source = "TCP socket (loopback)",
	.open = open_tcp,
	.event = {
		.what = "the peer closes: a FIN arrives",
		.provoke_text = "close(2) the peer",
		.provoke = close_peer,
		.sender = "net/ipv4/tcp_input.c: tcp_fin()",
		.reason = POLL_IN,
		.repeats = true,
		.finding = "tcp_fin() signals POLL_IN for a FIN (Do not send POLL_HUP for half duplex close): POLL_HUP only once both directions are shut, though the peer closed altogether",
	},
};

FIXTURE_VARIANT_ADD(source, tcp_oob_sigurg) {
	.source = "TCP socket (loopback)",
	.open = open_tcp,
	.event = {
		.what = "out-of-band byte from the peer (tcp_check_urg()): SIGURG",
		.provoke_text = "send(2) 1 byte MSG_OOB from the peer",
		.provoke = send_oob,
		.sender = "net/core/sock.c: sk_send_sigurg()",
		.reason = BY_SIGURG,
		.repeats = true,
		.finding = sigurg_finding,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_oob_pri) {
	.source = "TCP socket (loopback)",
	.open = open_tcp,
	.event = {
		.what = "out-of-band byte from the peer (tcp_check_urg()): POLL_PRI",
		.provoke_text = "send(2) 1 byte MSG_OOB from the peer",
		.provoke = send_oob,
		.sender = "net/core/sock.c: sk_send_sigurg()",
		.reason = POLL_PRI,
		.band_beyond_poll = POLLRDBAND,
		.repeats = true,
		.finding = urgent_pri_finding,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_write_space) {
	.source = "TCP socket (loopback)",
	.open = open_tcp,
	.event = {
		.what = "room to send again: the peer reads, its ACKs free the queue",
		.provoke_text = "fill the socket until EAGAIN, then read the peer dry",
		.provoke = fill_then_drain,
		.sender = "net/core/stream.c: sk_stream_write_space()",
		.reason = POLL_OUT,
		.band_beyond_poll = POLLWRBAND,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_peer_reset) {
	.source = "TCP socket (loopback)",
	.open = open_tcp,
	.event = {
		.what = "the peer resets the connection (tcp_reset())",
		.provoke_text = "close(2) the peer with SO_LINGER 0",
		.provoke = reset_peer,
		.sender = "net/core/sock.c: sock_def_error_report()",
		.reason = POLL_ERR,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_connect_done) {
	.source = "TCP socket (loopback)",
	.open = open_tcp_unconnected,
	.event = {
		.what = "a non-blocking connect completes",
		.provoke_text = "connect(2) the watched socket to a listener",
		.provoke = connect_watched,
		.sender = "net/ipv4/tcp_input.c: tcp_rcv_synsent_state_process()",
		.reason = POLL_OUT,
		.band_beyond_poll = POLLWRBAND,
	},
};

FIXTURE_VARIANT_ADD(source, tcp_listen_connection) {
	.source = "TCP socket (loopback)",
	.open = open_tcp_listener,
	.event = {
		.what = "a connection to the listening socket (tcp_child_process())",
		.provoke_text = "connect(2) a new socket to it",
		.provoke = connect_new_peer,
		.sender = "net/core/sock.c: sock_def_readable()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, inotify_create) {
	.source = "inotify",
	.open = open_inotify,
	.event = {
		.what = "a file created in the watched directory (IN_CREATE)",
		.provoke_text = "create and write a file there",
		.provoke = create_file,
		.sender = "fs/notify/notification.c: fsnotify_insert_event()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, fanotify_close_write) {
	.source = "fanotify",
	.open = open_fanotify,
	.event = {
		.what = "a file written and closed in the marked directory (FAN_CLOSE_WRITE)",
		.provoke_text = "create, write and close a file there; poll(2) sees the event queued",
		.provoke = create_file_queued,
		.sender = "fs/notify/notification.c: fsnotify_insert_event()",
		.reason = NO_SIGNAL,
		.finding = "fanotify_fops has no .fasync: setfl() accepts O_ASYNC without one, so group->fsn_fa stays empty and the kill_fasync() in fsnotify_insert_event() finds nobody; the event is queued, no signal ever comes",
	},
};

FIXTURE_VARIANT_ADD(source, dnotify_create) {
	.source = "dnotify",
	.open = open_dnotify,
	.subscribe = dnotify_subscribe,
	.owner_on_subscribe = "fcntl_dirnotify() makes the caller the owner (__f_setown(..., 0)) when the file has none",
	.event = {
		.what = "a file created in the directory (F_NOTIFY DN_CREATE|DN_MULTISHOT)",
		.provoke_text = "create and write a file there",
		.provoke = create_file,
		.sender = "fs/notify/dnotify/dnotify.c: dnotify_handle_event()",
		.reason = POLL_MSG,
		.band_beyond_poll = POLLMSG,
	},
};

FIXTURE_VARIANT_ADD(source, lease_read_broken) {
	.source = "file lease",
	.open = open_read_leased,
	.subscribe = lease_subscribe,
	.owner_on_subscribe = "lease_setup() makes the caller the owner (__f_setown(..., 0)) when the file has none",
	.event = {
		.what = "a read lease (F_RDLCK) broken by an open for writing",
		.provoke_text = "a child process open(2)s the file O_WRONLY|O_NONBLOCK",
		.provoke = break_lease,
		.sender = "fs/locks.c: lease_break_callback()",
		.reason = POLL_MSG,
		.band_beyond_poll = POLLMSG,
	},
};

FIXTURE_VARIANT_ADD(source, lease_write_broken) {
	.source = "file lease",
	.open = open_write_leased,
	.subscribe = lease_subscribe,
	.owner_on_subscribe = "lease_setup() makes the caller the owner (__f_setown(..., 0)) when the file has none",
	.event = {
		.what = "a write lease (F_WRLCK) broken by an open for reading",
		.provoke_text = "a child process open(2)s the file O_RDONLY|O_NONBLOCK",
		.provoke = break_lease,
		.sender = "fs/locks.c: lease_break_callback()",
		.reason = POLL_MSG,
		.band_beyond_poll = POLLMSG,
	},
};

FIXTURE_VARIANT_ADD(source, perf_overflow) {
	.source = "perf event",
	.open = open_perf,
	.event = {
		.what = "a sample: PERF_COUNT_SW_TASK_CLOCK overflows its period",
		.provoke_text = "enable the event, run 20 ms of CPU at a 1 ms sample period",
		.provoke = perf_samples,
		.sender = "kernel/events/core.c: perf_event_wakeup()",
		.reason = POLL_IN,
		.repeats = true,
	},
};

FIXTURE_VARIANT_ADD(source, perf_overflow_hangup) {
	.source = "perf event",
	.open = open_perf,
	.event = {
		.what = "the overflow limit is reached and perf disables the event",
		.provoke_text = "PERF_EVENT_IOC_REFRESH 1, run 20 ms of CPU",
		.provoke = perf_limit_reached,
		.sender = "kernel/events/core.c: perf_event_wakeup()",
		.reason = POLL_HUP,
		.band_beyond_poll = POLLHUP | POLLERR,
	},
};

FIXTURE_VARIANT_ADD(source, evdev_data) {
	.source = "evdev",
	.open = open_evdev,
	.event = {
		.what = "a frame from a uinput mouse, at its SYN_REPORT",
		.provoke_text = "REL_X 1 and SYN_REPORT through uinput",
		.provoke = move_mouse,
		.sender = "drivers/input/evdev.c: __pass_event()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, evdev_hangup) {
	.source = "evdev",
	.open = open_evdev,
	.event = {
		.what = "the device goes away",
		.provoke_text = "destroy the uinput mouse",
		.provoke = unplug_mouse,
		.sender = "drivers/input/evdev.c: evdev_hangup()",
		.reason = POLL_HUP,
	},
};

FIXTURE_VARIANT_ADD(source, evdev_revoke) {
	.source = "evdev",
	.open = open_evdev,
	.event = {
		.what = "access revoked (EVIOCREVOKE)",
		.provoke_text = "ioctl(2) EVIOCREVOKE on the watched file",
		.provoke = revoke_evdev,
		.sender = "drivers/input/evdev.c: evdev_revoke()",
		.reason = NO_SIGNAL,
		.finding = "evdev_revoke() wakes poll()ers with EPOLLHUP|EPOLLERR but calls no kill_fasync(): an O_ASYNC reader is not told it lost the device",
	},
};

FIXTURE_VARIANT_ADD(source, mousedev_data) {
	.source = "mousedev (/dev/input/mouseN)",
	.open = open_mousedev,
	.event = {
		.what = "a motion from a uinput mouse",
		.provoke_text = "REL_X 1 and SYN_REPORT through uinput",
		.provoke = move_mouse,
		.sender = "drivers/input/mousedev.c: mousedev_notify_readers()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, mousedev_hangup) {
	.source = "mousedev (/dev/input/mouseN)",
	.open = open_mousedev,
	.event = {
		.what = "the device goes away",
		.provoke_text = "destroy the uinput mouse",
		.provoke = unplug_mouse,
		.sender = "drivers/input/mousedev.c: mousedev_hangup()",
		.reason = POLL_HUP,
	},
};

FIXTURE_VARIANT_ADD(source, mice_data) {
	.source = "mousedev (/dev/input/mice)",
	.open = open_mice_and_mouse,
	.event = {
		.what = "a motion from any mouse, here a uinput one",
		.provoke_text = "REL_X 1 and SYN_REPORT through uinput",
		.provoke = move_mouse,
		.sender = "drivers/input/mousedev.c: mousedev_notify_readers()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, mice_ps2_reply) {
	.source = "mousedev (/dev/input/mice)",
	.open = open_mice,
	.event = {
		.what = "the reply to a PS/2 command written to it",
		.provoke_text = "write(2) 0xf2 (get device ID) to the watched file",
		.provoke = ps2_get_id,
		.sender = "drivers/input/mousedev.c: mousedev_write()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, joydev_data) {
	.source = "joydev",
	.open = open_joydev,
	.event = {
		.what = "an axis of a uinput joystick moves",
		.provoke_text = "ABS_X to a new value and SYN_REPORT through uinput",
		.provoke = move_joystick,
		.sender = "drivers/input/joydev.c: joydev_pass_event()",
		.reason = POLL_IN,
	},
};

FIXTURE_VARIANT_ADD(source, joydev_hangup) {
	.source = "joydev",
	.open = open_joydev,
	.event = {
		.what = "the device goes away",
		.provoke_text = "destroy the uinput joystick",
		.provoke = unplug_joystick,
		.sender = "drivers/input/joydev.c: joydev_hangup()",
		.reason = POLL_HUP,
	},
};

FIXTURE_VARIANT_ADD(source, vcs_update) {
	.source = "/dev/vcsN",
	.open = open_vcs,
	.event = {
		.what = "the console's screen changes (VT_UPDATE)",
		.provoke_text = "write(2) 1 byte to /dev/tty8, watching /dev/vcs8",
		.provoke = write_byte,
		.sender = "drivers/tty/vt/vc_screen.c: vcs_notifier()",
		.reason = POLL_PRI,
		.band_beyond_poll = POLLRDBAND,
	},
};

FIXTURE_VARIANT_ADD(source, vcs_update_hangup) {
	.source = "/dev/vcsN",
	.open = open_vcs,
	.event = {
		.what = "the console is deallocated (VT_DEALLOCATE)",
		.provoke_text = "close(2) /dev/tty8, then VT_DISALLOCATE 8",
		.provoke = deallocate_console,
		.sender = "drivers/tty/vt/vc_screen.c: vcs_notifier()",
		.reason = POLL_HUP,
	},
};

FIXTURE_VARIANT_ADD(source, rtc_update) {
	.source = "RTC (/dev/rtc0)",
	.open = open_rtc_update,
	.event = {
		.what = "an update interrupt, once a second (RTC_UIE_ON)",
		.provoke_text = "RTC_UIE_ON, read(2) the interrupt, RTC_UIE_OFF",
		.provoke = rtc_update_interrupt,
		.sender = "drivers/rtc/interface.c: rtc_handle_legacy_irq()",
		.reason = POLL_IN,
		.band_beyond_poll = POLLIN | POLLRDNORM,
	},
};

FIXTURE_VARIANT_ADD(source, rtc_alarm) {
	.source = "RTC (/dev/rtc0)",
	.open = open_rtc_alarm,
	.event = {
		.what = "the alarm goes off (RTC_AIE_ON)",
		.provoke_text = "RTC_ALM_SET 2 s ahead, RTC_AIE_ON, read(2) the interrupt, RTC_AIE_OFF",
		.provoke = rtc_alarm_interrupt,
		.sender = "drivers/rtc/interface.c: rtc_handle_legacy_irq()",
		.reason = POLL_IN,
		.band_beyond_poll = POLLIN | POLLRDNORM,
	},
};

FIXTURE_VARIANT_ADD(source, random_credit) {
	.source = "/dev/random",
	.open = open_random,
	.event = {
		.what = "entropy credited after the crng is ready",
		.provoke_text = "ioctl(2) RNDADDENTROPY of 256 bits",
		.provoke = credit_entropy,
		.sender = "drivers/char/random.c: _credit_init_bits()",
		.reason = NO_SIGNAL,
		.finding = "random.c's only kill_fasync() is in _credit_init_bits() at the moment the input pool first reaches 256 bits (crng init done), before /init runs: an O_ASYNC reader of /dev/random never hears anything",
	},
};

/*
 * A task's first perf event switches the scheduler's perf hooks on (the
 * static key perf_sched_events, patched into the kernel's text), and a
 * second after the last one closes they are switched off. Under QEMU's
 * multi-threaded TCG, text patched while another vCPU runs it can kill
 * the guest (docs/findings/int3-tracepoint-switched-under-load.txt): a
 * make test boot died of an int3 in the evdev checks, which follow the
 * perf ones. An event held open for the whole run switches the hooks on
 * once, before any check, and the checks' own events switch nothing.
 * Returns the event, or -1 where perf is missing (as the perf checks
 * will then say).
 */
static int hold_perf_hooks(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
	};

	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * SIGIO_ATLAS_ONLY=variant,variant,... (from the kernel command line,
 * which passes it to init's environment) runs only those sources and
 * events, every check of each.
 */
int main(int argc, char **argv)
{
	const char *only = getenv("SIGIO_ATLAS_ONLY");
	int perf_hooks = hold_perf_hooks();
	int ret;

	if (only && *only)
		harness_keep_variants(only);
	ret = test_harness_run(argc, argv);
	if (perf_hooks >= 0)
		close(perf_hooks);
	return ret;
}
