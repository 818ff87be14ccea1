// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "host-channel.h"
#include "mouse-source.h"
#include "sigmouse-node.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NODE_TIMEOUT_MS	15000
#define SYNC_TRIES	40
#define SYNC_WAIT_MS	250

static const struct {
	const char *host_name;
	const char *input_name;
} qemu_mice[] = {
	[MOUSE_SOURCE_PS2] = { "ps2", "PS/2" },
	[MOUSE_SOURCE_VIRTIO_MOUSE] = { "virtio-mouse", "Virtio Mouse" },
	[MOUSE_SOURCE_VIRTIO_TABLET] = { "virtio-tablet", "Virtio Tablet" },
};

int mouse_source_name_qemu(struct mouse_source *src, const char *host_name)
{
	size_t kind;

	memset(src, 0, sizeof(*src));
	for (kind = 0; kind < ARRAY_SIZE(qemu_mice); kind++) {
		if (qemu_mice[kind].host_name && !strcmp(qemu_mice[kind].host_name, host_name)) {
			src->kind = kind;
			src->host_name = qemu_mice[kind].host_name;
			src->input_name = qemu_mice[kind].input_name;
			return 0;
		}
	}
	return -1;
}

int mouse_source_open(struct mouse_source *src, enum mouse_source_kind kind,
		      char *why, size_t why_len)
{
	int ret;

	memset(src, 0, sizeof(*src));
	src->kind = kind;

	if (kind == MOUSE_SOURCE_UINPUT) {
		src->host_name = "uinput";
		src->input_name = "sigmouse uinput";
		ret = uinput_mouse_create(&src->uinput, src->input_name);
		if (ret) {
			snprintf(why, why_len, "uinput: %s", strerror(-ret));
			return -1;
		}
		if (uinput_mouse_node(&src->uinput, src->node, sizeof(src->node))) {
			snprintf(why, why_len, "uinput mouse has no sigmouse node");
			return -1;
		}
		return 0;
	}

	src->host_name = qemu_mice[kind].host_name;
	src->input_name = qemu_mice[kind].input_name;
	if (!host_channel_available()) {
		snprintf(why, why_len, "%s needs the host runner", src->host_name);
		return 1;
	}
	if (sigmouse_node_wait(src->input_name, NODE_TIMEOUT_MS,
			       src->node, sizeof(src->node))) {
		snprintf(why, why_len, "no sigmouse node for \"%s\"", src->input_name);
		return -1;
	}
	return 0;
}

void mouse_source_close(struct mouse_source *src)
{
	if (src->kind == MOUSE_SOURCE_UINPUT)
		uinput_mouse_destroy(&src->uinput);
}

static void drain(int fd)
{
	struct sigmouse_packet packets[16];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (poll(&pfd, 1, SYNC_WAIT_MS) > 0 && (pfd.revents & POLLIN))
		if (read(fd, packets, sizeof(packets)) <= 0)
			break;
}

int mouse_source_open_node(struct mouse_source *src, int flags)
{
	struct pollfd pfd = { .events = POLLIN };
	int i, fd;

	fd = open(src->node, flags);
	if (fd < 0 || src->kind == MOUSE_SOURCE_UINPUT)
		return fd;

	pfd.fd = fd;
	for (i = 0; i < SYNC_TRIES; i++) {
		if (mouse_source_move(src, 1, 1, 1))
			break;
		if (poll(&pfd, 1, SYNC_WAIT_MS) > 0) {
			/* the tablet's way back, so repeated syncs stay in range */
			mouse_source_move(src, -1, -1, 1);
			drain(fd);
			return fd;
		}
	}
	close(fd);
	errno = ETIMEDOUT;
	return -1;
}

int mouse_source_move(struct mouse_source *src, int dx, int dy, int count)
{
	int i;

	if (src->kind != MOUSE_SOURCE_UINPUT)
		return host_request(NULL, 0, "mouse %s move %d %d %d",
				    src->host_name, dx, dy, count);
	for (i = 0; i < count; i++)
		if (uinput_mouse_move(&src->uinput, dx, dy))
			return -1;
	return 0;
}

int mouse_source_button(struct mouse_source *src, int pressed)
{
	if (src->kind != MOUSE_SOURCE_UINPUT)
		return host_request(NULL, 0, "mouse %s button left %d",
				    src->host_name, pressed);
	return uinput_mouse_button(&src->uinput, BTN_LEFT, pressed) ? -1 : 0;
}

int mouse_source_position(struct mouse_source *src, int *x, int *y)
{
	struct input_absinfo abs_x, abs_y;
	char syspath[128], evdev[64];
	int fd, ret;

	snprintf(syspath, sizeof(syspath), "/sys/class/sigmouse/%s/device",
		 src->node + strlen("/dev/"));
	if (evdev_node_of_input(syspath, evdev, sizeof(evdev)))
		return -1;
	fd = open(evdev, O_RDONLY);
	if (fd < 0)
		return -1;
	ret = ioctl(fd, EVIOCGABS(ABS_X), &abs_x) ||
	      ioctl(fd, EVIOCGABS(ABS_Y), &abs_y) ? -1 : 0;
	close(fd);
	*x = abs_x.value;
	*y = abs_y.value;
	return ret;
}

int mouse_source_check_host_position(struct mouse_source *src, int x, int y,
				     char *why, unsigned int why_len)
{
	return host_request(why, why_len, "mouse %s at %d %d",
			    src->host_name, x, y);
}

int mouse_source_unplug(struct mouse_source *src)
{
	if (src->kind != MOUSE_SOURCE_UINPUT)
		return host_request(NULL, 0, "unplug %s", src->host_name);
	uinput_mouse_destroy(&src->uinput);
	return 0;
}

int mouse_source_replug(struct mouse_source *src, char *why, size_t why_len)
{
	if (src->kind != MOUSE_SOURCE_UINPUT &&
	    host_request(why, why_len, "plug %s", src->host_name))
		return -1;
	return mouse_source_open(src, src->kind, why, why_len);
}
