/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Requests to the host test runner over the guest channel, the serial
 * line named by $SIGMOUSE_HOST_CHANNEL: one "@@ <seq> <request>" line
 * out, one "@@ <seq> ok" or "@@ <seq> error <why>" line back, seq
 * counting the process's requests. The host drives QEMU's mice over QMP
 * in between, so a reply means the events were sent.
 */
#ifndef HOST_CHANNEL_H
#define HOST_CHANNEL_H

/* Whether a host runner is listening; without one, QEMU sources skip. */
int host_channel_available(void);

/*
 * Send one request and wait for its reply, at most a minute. Returns 0
 * on "ok", -1 with the reason in why (may be NULL) otherwise.
 */
int host_request(char *why, unsigned int why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
