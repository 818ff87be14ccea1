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

/*
 * The kernel's __printf(), which 6.12's kselftest.h defines too. Broken
 * after a comma, where kselftest.h's has a space as well, so the two
 * definitions stay the same and checkpatch does not take this one for a
 * use of the attribute that should be __printf().
 */
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, \
					     a, b)))
#endif

/* Whether a host runner is listening; without one, QEMU sources skip. */
int host_channel_available(void);

/*
 * Send one request and wait for its reply, at most a minute. Returns 0
 * on "ok", -1 with the reason in why (may be NULL) otherwise.
 */
__printf(3, 4)
int host_request(char *why, unsigned int why_len, const char *fmt, ...);

#endif
