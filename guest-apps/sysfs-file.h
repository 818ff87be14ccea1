/* SPDX-License-Identifier: GPL-2.0 */
/* A value of a sysfs, debugfs or tracefs file: its first line, or written whole. */
#ifndef SYSFS_FILE_H
#define SYSFS_FILE_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* 0 when path's first line, without its newline, is in buf; -1 otherwise */
static inline int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

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
