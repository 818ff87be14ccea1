/* SPDX-License-Identifier: GPL-2.0 */
/* A synthetic mouse in the guest, made with libevdev's uinput API. */
#ifndef UINPUT_MOUSE_H
#define UINPUT_MOUSE_H

#include <stddef.h>

struct libevdev;
struct libevdev_uinput;

struct uinput_mouse {
	struct libevdev *dev;
	struct libevdev_uinput *uidev;
};

/* Returns 0 or a negative errno. */
int uinput_mouse_create(struct uinput_mouse *mouse, const char *name);
/* input_id's vendor, product and version (the bus is always BUS_VIRTUAL) */
struct uinput_ids {
	unsigned short vendor, product, version;
};

/* A relative device: these ids, keys and EV_REL axes. */
int uinput_relative_create(struct uinput_mouse *mouse, const char *name,
			   const struct uinput_ids *ids,
			   const unsigned int *keys, unsigned int key_count,
			   const unsigned int *axes, unsigned int axis_count);
/* The same mouse with EV_REP: the input core repeats a button held down. */
int uinput_repeating_mouse_create(struct uinput_mouse *mouse, const char *name);
/* An absolute device: ABS_X and ABS_Y from min to max, and the keys given. */
int uinput_absolute_create(struct uinput_mouse *mouse, const char *name,
			   int min, int max, const unsigned int *keys,
			   unsigned int count);
/* A tablet: an absolute device with BTN_LEFT. */
int uinput_tablet_create(struct uinput_mouse *mouse, const char *name,
			 int min, int max);
void uinput_mouse_destroy(struct uinput_mouse *mouse);

/* The mouse's input device in sysfs (/sys/devices/virtual/input/inputN). */
const char *uinput_mouse_syspath(struct uinput_mouse *mouse);

/* Its evdev node (/dev/input/eventN), where it shows what the input core passed on. */
const char *uinput_mouse_evdev_node(struct uinput_mouse *mouse);

/* The /dev/sigmouseN node the mouse is bound to. */
int uinput_mouse_node(struct uinput_mouse *mouse, char *path, size_t len);

/* One frame: REL_X, REL_Y, SYN_REPORT. Returns 0 or a negative errno. */
int uinput_mouse_move(struct uinput_mouse *mouse, int dx, int dy);

/* One frame: a button (BTN_LEFT...) pressed (1) or released (0). */
int uinput_mouse_button(struct uinput_mouse *mouse, unsigned int code,
			int pressed);

/* One frame: count events of type, then SYN_REPORT. */
int uinput_mouse_frame(struct uinput_mouse *mouse, unsigned int type,
		       const unsigned int *codes, const int *values,
		       unsigned int count);

/* One event, no SYN_REPORT after it: a frame left in progress. */
int uinput_mouse_event(struct uinput_mouse *mouse, unsigned int type,
		       unsigned int code, int value);

#endif
