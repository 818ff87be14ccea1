// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host-channel.h"

int host_channel_available(void)
{
	const char *path = getenv("SIGMOUSE_HOST_CHANNEL");

	return path && access(path, R_OK | W_OK) == 0;
}

static int read_reply(int fd, char *line, size_t len)
{
	size_t n = 0;
	char c;

	for (;;) {
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (c == '\r')
			continue;
		if (c == '\n') {
			line[n] = '\0';
			/* stray output from an earlier request is not ours */
			if (strncmp(line, "@@ ", 3) == 0)
				return 0;
			n = 0;
			continue;
		}
		if (n + 1 < len)
			line[n++] = c;
	}
}

int host_request(char *why, unsigned int why_len, const char *fmt, ...)
{
	char request[256], reply[256];
	va_list ap;
	int fd, len, ret = -1;

	if (why && why_len)
		snprintf(why, why_len, "no host channel");
	if (!host_channel_available())
		return -1;

	fd = open(getenv("SIGMOUSE_HOST_CHANNEL"), O_RDWR | O_NOCTTY);
	if (fd < 0)
		return -1;

	len = snprintf(request, sizeof(request), "@@ ");
	va_start(ap, fmt);
	len += vsnprintf(request + len, sizeof(request) - len - 1, fmt, ap);
	va_end(ap);
	request[len++] = '\n';

	/* stdout shares the line: flush it so lines do not interleave */
	fflush(stdout);
	fflush(stderr);
	if (write(fd, request, len) == len && read_reply(fd, reply, sizeof(reply)) == 0) {
		if (strcmp(reply, "@@ ok") == 0)
			ret = 0;
		else if (why && why_len)
			snprintf(why, why_len, "%s", reply + 3);
	}
	close(fd);
	return ret;
}
