/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event sources behind one interface: an in-guest uinput mouse, or
 * one of QEMU's mice moved by the host over QMP.
 */
#ifndef MOUSE_SOURCE_H
#define MOUSE_SOURCE_H

#include <stddef.h>

#include "uinput-mouse.h"

enum mouse_source_kind {
	MOUSE_SOURCE_UINPUT,
	MOUSE_SOURCE_PS2,
	MOUSE_SOURCE_VIRTIO_MOUSE,
	MOUSE_SOURCE_VIRTIO_TABLET,
};

struct mouse_source {
	enum mouse_source_kind kind;
	const char *host_name;	/* the host runner's name for it */
	const char *input_name;	/* part of the guest's input device name */
	struct uinput_mouse uinput;
	char node[64];		/* its /dev/sigmouseN */
};

/*
 * Name one of QEMU's mice by the host runner's name for it (ps2,
 * virtio-mouse, virtio-tablet): src's kind, host_name and input_name,
 * nothing opened; for a program that wants another handler's node than
 * sigmouse's. Returns 0, or -1 for a name that is none of them.
 */
int mouse_source_name_qemu(struct mouse_source *src, const char *host_name);

/*
 * Make the source ready and find its node. Returns 0, or -1 with the
 * reason in why; a source that cannot exist here (no host runner)
 * returns 1.
 */
int mouse_source_open(struct mouse_source *src, enum mouse_source_kind kind,
		      char *why, size_t why_len);
void mouse_source_close(struct mouse_source *src);

/*
 * Open the node with flags, and for QEMU's mice move until a packet
 * arrives, then drain: QEMU drops events until the guest has enabled
 * the mouse, and a tablet's first report has no known starting point.
 * Returns the fd or -1.
 */
int mouse_source_open_node(struct mouse_source *src, int flags);

/* count frames of (dx, dy) each; returns 0 or -1 */
int mouse_source_move(struct mouse_source *src, int dx, int dy, int count);

/* left button pressed (1) or released (0) */
int mouse_source_button(struct mouse_source *src, int pressed);

/*
 * An absolute source's position as the input core holds it (from the
 * device's evdev node, EVIOCGABS); returns 0 or -1.
 */
int mouse_source_position(struct mouse_source *src, int *x, int *y);

/*
 * Ask the host whether QEMU's tablet is at (x, y), where its injected
 * path ended; returns 0, or -1 with the host's answer in why.
 */
int mouse_source_check_host_position(struct mouse_source *src, int x, int y,
				     char *why, unsigned int why_len);

/* Make the source's device go away (uinput destroy, QEMU hot-unplug). */
int mouse_source_unplug(struct mouse_source *src);

/*
 * After mouse_source_unplug(): a new device of the same kind (uinput
 * create, QEMU hot-plug) and its node, as mouse_source_open() returns.
 */
int mouse_source_replug(struct mouse_source *src, char *why, size_t why_len);

#endif
