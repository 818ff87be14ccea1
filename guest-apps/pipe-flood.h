/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread that keeps a pipe's kill_fasync() busy: a byte written, what
 * is there read back, until told to stop, so that the pipe never fills
 * and every write wakes the read side's fasync list.
 */
#ifndef PIPE_FLOOD_H
#define PIPE_FLOOD_H

#include <errno.h>
#include <stdatomic.h>
#include <unistd.h>

struct pipe_flood {
	int wfd;	/* O_NONBLOCK, both */
	int rfd;
	atomic_int stop;
	long writes;
};

static inline void *flood_pipe(void *arg)
{
	struct pipe_flood *f = arg;
	char buf[64];

	while (!f->stop) {
		if (write(f->wfd, "x", 1) == 1)
			f->writes++;
		if (read(f->rfd, buf, sizeof(buf)) < 0 && errno != EAGAIN)
			break;
	}
	return NULL;
}

#endif
