/* SPDX-License-Identifier: GPL-2.0 */
/* Writing a value to a sysfs, debugfs or tracefs file, whole or not at all. */
#ifndef WRITE_FILE_H
#define WRITE_FILE_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* 0 when text was written to path in one write(), -1 otherwise */
static inline int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t len = strlen(text), n;

	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	close(fd);
	return n == len ? 0 : -1;
}

#endif
