/* SPDX-License-Identifier: GPL-2.0 */
/* Finding the /dev/sigmouseN (and evdev) node bound to an input device. */
#ifndef SIGMOUSE_NODE_H
#define SIGMOUSE_NODE_H

#include <stddef.h>
#include <linux/sigmouse.h>

/*
 * Wait up to timeout_ms for a node whose input device name contains
 * name_part; its /dev path goes to path. Returns 0, or -1 on timeout.
 */
int sigmouse_node_wait(const char *name_part, int timeout_ms,
		       char *path, size_t len);

/*
 * The sysfs path (/sys/class/input/inputN) of the first input device
 * whose name contains name_part. Returns 0, or -1 when there is none.
 */
int input_syspath_by_name(const char *name_part, char *path, size_t len);

/* The node of the input device at sysfs path input_syspath. */
int sigmouse_node_of_input(const char *input_syspath, char *path, size_t len);

/*
 * The node in dev_dir of the first entry of input_syspath named prefix*:
 * a handler's node for the device (js, mouse, event...).
 */
int input_node_of(const char *input_syspath, const char *prefix,
		  const char *dev_dir, char *path, size_t len);

/* Its evdev node, /dev/input/eventN: the in-tree peer for benchmarks. */
int evdev_node_of_input(const char *input_syspath, char *path, size_t len);

int sigmouse_node_info(int fd, struct sigmouse_info *info);

#endif
