// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

/* longest a request may take on the host: a hot-unplug takes seconds */
#define REPLY_TIMEOUT_MS	60000

/*
 * Read lines until the host's reply to request seq ("@@ <seq> <text>");
 * its text goes to reply. A late reply to an earlier request and other
 * output on the line are skipped. Returns 0, or -1 on a timeout or a
 * closed line.
 */
static int read_reply(int fd, unsigned int seq, char *reply, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char line[256], want[32];
	size_t n = 0;
	char c;

	snprintf(want, sizeof(want), "@@ %u ", seq);
	for (;;) {
		ssize_t r;

		if (poll(&pfd, 1, REPLY_TIMEOUT_MS) == 0)
			return -1;
		r = read(fd, &c, 1);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return -1;
		if (c == '\r')
			continue;
		if (c != '\n') {
			if (n + 1 < sizeof(line))
				line[n++] = c;
			continue;
		}
		line[n] = '\0';
		n = 0;
		if (strncmp(line, want, strlen(want)) == 0) {
			snprintf(reply, len, "%s", line + strlen(want));
			return 0;
		}
	}
}

int host_request(char *why, unsigned int why_len, const char *fmt, ...)
{
	static unsigned int seq;
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

	/* numbered, so that a late reply is never taken for this one's */
	seq++;
	len = snprintf(request, sizeof(request), "@@ %u ", seq);
	va_start(ap, fmt);
	len += vsnprintf(request + len, sizeof(request) - len - 1, fmt, ap);
	va_end(ap);
	request[len++] = '\n';

	/* stdout shares the line: flush it so lines do not interleave */
	fflush(stdout);
	fflush(stderr);
	if (write(fd, request, len) != len) {
		if (why && why_len)
			snprintf(why, why_len, "writing the request: %s", strerror(errno));
	} else if (read_reply(fd, seq, reply, sizeof(reply))) {
		if (why && why_len)
			snprintf(why, why_len, "no reply from the host in %d s",
				 REPLY_TIMEOUT_MS / 1000);
	} else if (strcmp(reply, "ok") == 0) {
		ret = 0;
	} else if (why && why_len) {
		snprintf(why, why_len, "%s", reply);
	}
	close(fd);
	return ret;
}
