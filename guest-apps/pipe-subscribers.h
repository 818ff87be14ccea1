/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entries on a pipe's fasync list without a second process: more open
 * files of the pipe's read side (/proc/self/fd/N opens a new file of the
 * same pipe), each with O_ASYNC and this process as its owner.
 */
#ifndef PIPE_SUBSCRIBERS_H
#define PIPE_SUBSCRIBERS_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/*
 * n more open files of the pipe's read side rfd, each subscribed: n
 * entries on the pipe's fasync list. The files stay open (and
 * subscribed) until the process ends. 0, or -1 with the error printed.
 */
static inline int subscribe(int rfd, int n)
{
	char path[64];
	int i, fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", rfd);
	for (i = 0; i < n; i++) {
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0 || fcntl(fd, F_SETOWN, getpid()) ||
		    fcntl(fd, F_SETFL, O_RDONLY | O_NONBLOCK | O_ASYNC)) {
			perror("a pipe subscriber");
			return -1;
		}
	}
	return 0;
}

#endif
