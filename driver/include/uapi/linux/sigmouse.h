/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sigmouse: mouse packets announced with SIGIO
 *
 * Every /dev/sigmouseN node reads as a stream of struct sigmouse_packet
 * records, one per input frame (SYN_REPORT) of the mouse or tablet it
 * is bound to. Each open file gets every record, and with O_ASYNC a
 * signal for each.
 *
 * Every struct here has the same layout for 32-bit and 64-bit callers:
 * __u64 fields sit on 8-byte offsets, with explicit padding, so the
 * ioctl numbers that encode their sizes agree and no compat code is
 * needed.
 */
#ifndef _UAPI_LINUX_SIGMOUSE_H
#define _UAPI_LINUX_SIGMOUSE_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* struct sigmouse_packet.flags */
#define SIGMOUSE_PACKET_DROPPED	0x1U /* @dropped packets lost before this one */
#define SIGMOUSE_PACKET_ABS	0x2U /* dx/dy come from an absolute device */

/**
 * struct sigmouse_packet - one input frame
 * @seq: per-node sequence number, 1 for the node's first frame; the
 *	same packet has the same number in every client
 * @time_ns: CLOCK_MONOTONIC time the input core stamped on the frame
 * @dx: horizontal motion (relative, or change of ABS_X)
 * @dy: vertical motion (relative, or change of ABS_Y)
 * @wheel: REL_WHEEL motion
 * @buttons: bit 0 left, bit 1 right, bit 2 middle, bit 3 side, bit 4 extra;
 *	BTN_TOUCH reads as left, except on a touchpad
 * @flags: SIGMOUSE_PACKET_*
 * @dropped: packets this client lost to a full ring just before this one
 *	(how many the ring holds: struct sigmouse_info.ring_size)
 */
struct sigmouse_packet {
	__u64 seq;
	__u64 time_ns;
	__s32 dx;
	__s32 dy;
	__s32 wheel;
	__u32 buttons;
	__u32 flags;
	__u32 dropped;
};

/* struct sigmouse_info.flags */
#define SIGMOUSE_INFO_ABS	0x1U /* bound to an absolute device */

/**
 * struct sigmouse_info - what SIGMOUSE_IOC_INFO returns
 * @name: name of the input device, NUL-terminated
 * @bustype: input_id of the input device
 * @vendor: input_id of the input device
 * @product: input_id of the input device
 * @version: input_id of the input device
 * @flags: SIGMOUSE_INFO_*; other bits 0
 * @packet_size: sizeof(struct sigmouse_packet) as the kernel sees it
 * @ring_size: packets an open file's ring holds before the oldest is
 *	dropped
 * @opens: open files of this node
 * @subscribers: open files subscribed to SIGIO (O_ASYNC)
 * @padding: always 0
 * @packets: frames completed since the device was bound
 * @reserved: always 0
 * @drops: packets lost to full rings, summed over all clients
 */
struct sigmouse_info {
	char name[64];
	__u16 bustype;
	__u16 vendor;
	__u16 product;
	__u16 version;
	__u32 flags;
	__u32 packet_size;
	__u32 ring_size;
	__u32 opens;
	__u32 subscribers;
	__u32 padding;
	__u64 packets;
	__u64 reserved;
	__u64 drops;
};

#define SIGMOUSE_IOC_MAGIC	0xB9 /* free in 6.1's and 6.12's ioctl-number.rst */
#define SIGMOUSE_IOC_INFO	_IOR(SIGMOUSE_IOC_MAGIC, 0x01, struct sigmouse_info)

#endif /* _UAPI_LINUX_SIGMOUSE_H */
