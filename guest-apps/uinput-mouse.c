// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>

#include "sigmouse-node.h"
#include "uinput-mouse.h"

/* Make the uinput device of mouse->dev, as its capabilities say. */
static int uinput_mouse_make(struct uinput_mouse *mouse)
{
	int ret;

	ret = libevdev_uinput_create_from_device(mouse->dev,
						 LIBEVDEV_UINPUT_OPEN_MANAGED,
						 &mouse->uidev);
	if (ret) {
		libevdev_free(mouse->dev);
		mouse->dev = NULL;
	}
	return ret;
}

static int uinput_mouse_start(struct uinput_mouse *mouse, const char *name)
{
	mouse->uidev = NULL;
	mouse->dev = libevdev_new();
	if (!mouse->dev)
		return -ENOMEM;
	libevdev_set_name(mouse->dev, name);
	libevdev_set_id_bustype(mouse->dev, BUS_VIRTUAL);
	return 0;
}

static void uinput_mouse_enable(struct uinput_mouse *mouse, unsigned int type,
				const unsigned int *codes, unsigned int count,
				const void *data)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		libevdev_enable_event_code(mouse->dev, type, codes[i], data);
}

/* A mouse's capabilities: three buttons, two axes and the wheel. */
static int uinput_mouse_caps(struct uinput_mouse *mouse, const char *name)
{
	static const unsigned int buttons[] = { BTN_LEFT, BTN_RIGHT, BTN_MIDDLE };
	static const unsigned int axes[] = { REL_X, REL_Y, REL_WHEEL };

	if (uinput_mouse_start(mouse, name))
		return -ENOMEM;
	uinput_mouse_enable(mouse, EV_KEY, buttons, 3, NULL);
	uinput_mouse_enable(mouse, EV_REL, axes, 3, NULL);
	return 0;
}

int uinput_mouse_create(struct uinput_mouse *mouse, const char *name)
{
	if (uinput_mouse_caps(mouse, name))
		return -ENOMEM;
	return uinput_mouse_make(mouse);
}

int uinput_relative_create(struct uinput_mouse *mouse, const char *name,
			   const struct uinput_ids *ids,
			   const unsigned int *keys, unsigned int key_count,
			   const unsigned int *axes, unsigned int axis_count)
{
	if (uinput_mouse_start(mouse, name))
		return -ENOMEM;
	libevdev_set_id_vendor(mouse->dev, ids->vendor);
	libevdev_set_id_product(mouse->dev, ids->product);
	libevdev_set_id_version(mouse->dev, ids->version);
	uinput_mouse_enable(mouse, EV_KEY, keys, key_count, NULL);
	uinput_mouse_enable(mouse, EV_REL, axes, axis_count, NULL);
	return uinput_mouse_make(mouse);
}

int uinput_repeating_mouse_create(struct uinput_mouse *mouse, const char *name)
{
	if (uinput_mouse_caps(mouse, name))
		return -ENOMEM;
	libevdev_enable_event_type(mouse->dev, EV_REP);
	return uinput_mouse_make(mouse);
}

int uinput_absolute_create(struct uinput_mouse *mouse, const char *name,
			   int min, int max, const unsigned int *keys,
			   unsigned int count)
{
	static const unsigned int axes[] = { ABS_X, ABS_Y };
	struct input_absinfo axis = { .minimum = min, .maximum = max };

	if (uinput_mouse_start(mouse, name))
		return -ENOMEM;
	uinput_mouse_enable(mouse, EV_KEY, keys, count, NULL);
	uinput_mouse_enable(mouse, EV_ABS, axes, 2, &axis);
	return uinput_mouse_make(mouse);
}

int uinput_tablet_create(struct uinput_mouse *mouse, const char *name,
			 int min, int max)
{
	const unsigned int button = BTN_LEFT;

	return uinput_absolute_create(mouse, name, min, max, &button, 1);
}

void uinput_mouse_destroy(struct uinput_mouse *mouse)
{
	if (mouse->uidev)
		libevdev_uinput_destroy(mouse->uidev);
	if (mouse->dev)
		libevdev_free(mouse->dev);
	mouse->uidev = NULL;
	mouse->dev = NULL;
}

const char *uinput_mouse_syspath(struct uinput_mouse *mouse)
{
	return libevdev_uinput_get_syspath(mouse->uidev);
}

const char *uinput_mouse_evdev_node(struct uinput_mouse *mouse)
{
	return libevdev_uinput_get_devnode(mouse->uidev);
}

int uinput_mouse_node(struct uinput_mouse *mouse, char *path, size_t len)
{
	const char *syspath = uinput_mouse_syspath(mouse);

	if (!syspath)
		return -ENOENT;
	return sigmouse_node_of_input(syspath, path, len) ? -ENOENT : 0;
}

int uinput_mouse_event(struct uinput_mouse *mouse, unsigned int type,
		       unsigned int code, int value)
{
	return libevdev_uinput_write_event(mouse->uidev, type, code, value);
}

int uinput_mouse_frame(struct uinput_mouse *mouse, unsigned int type,
		       const unsigned int *codes, const int *values,
		       unsigned int count)
{
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = libevdev_uinput_write_event(mouse->uidev, type,
						  codes[i], values[i]);
		if (ret)
			return ret;
	}
	return libevdev_uinput_write_event(mouse->uidev, EV_SYN, SYN_REPORT, 0);
}

int uinput_mouse_move(struct uinput_mouse *mouse, int dx, int dy)
{
	const unsigned int codes[] = { REL_X, REL_Y };
	const int values[] = { dx, dy };

	return uinput_mouse_frame(mouse, EV_REL, codes, values, 2);
}

int uinput_mouse_button(struct uinput_mouse *mouse, unsigned int code,
			int pressed)
{
	return uinput_mouse_frame(mouse, EV_KEY, &code, &pressed, 1);
}
