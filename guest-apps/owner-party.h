/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Owners across users. fcntl(2): sending a signal to the owner needs
 * the same permission as kill(2) from the process that made the
 * F_SETOWN call (sigio_perm(): its uid or euid against the target's uid
 * or saved uid, or euid root). The guest runs everything as root, so
 * the checks make their own users: the files are opened as root, then
 * a party, a process of its own group, drops to SUBSCRIBER_UID and
 * names as owner itself or a process that runs as VICTIM_UID.
 */
#ifndef OWNER_PARTY_H
#define OWNER_PARTY_H

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIG_RT		(SIGRTMIN + 1)
#define SUBSCRIBER_UID	1000
#define VICTIM_UID	2000

enum owner_kind { OWNER_PID, OWNER_PGRP, OWNER_EX_TID, OWNER_EX_PID, OWNER_EX_PGRP };

static const char *const owner_kind_names[] = {
	"F_SETOWN pid", "F_SETOWN -pgrp", "F_OWNER_TID", "F_OWNER_PID", "F_OWNER_PGRP",
};

/* pid is a single-threaded process that leads its own group */
static inline int set_owner(int fd, enum owner_kind kind, pid_t pid)
{
	struct f_owner_ex ex = { .pid = pid };

	switch (kind) {
	case OWNER_PID:
		return fcntl(fd, F_SETOWN, pid);
	case OWNER_PGRP:
		return fcntl(fd, F_SETOWN, -pid);
	case OWNER_EX_TID:
		ex.type = F_OWNER_TID;
		break;
	case OWNER_EX_PID:
		ex.type = F_OWNER_PID;
		break;
	case OWNER_EX_PGRP:
		ex.type = F_OWNER_PGRP;
		break;
	}
	return fcntl(fd, F_SETOWN_EX, &ex);
}

/* the owner named the way kind says, and F_SETSIG SIG_RT */
static inline int name_owner(int fd, enum owner_kind kind, pid_t pid)
{
	return set_owner(fd, kind, pid) || fcntl(fd, F_SETSIG, SIG_RT) ? -1 : 0;
}

/* name_owner(), then O_ASYNC */
static inline int subscribe_to(int fd, enum owner_kind kind, pid_t pid)
{
	if (name_owner(fd, kind, pid))
		return -1;
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
}

static inline int drop_to(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		return -1;
	return 0;
}

/* what a party takes: SIG_RT, and SIGURG, which names no file */
static inline void party_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIG_RT);
	sigaddset(set, SIGURG);
}

/*
 * The signals pending now: (all, those for its own file fd: SIG_RT
 * naming it, or SIGURG when it has one)
 */
static inline void party_take(int fd, int counts[2])
{
	struct timespec zero = { 0, 0 };
	sigset_t set;
	siginfo_t si;
	int sig;

	party_signals(&set);
	counts[0] = 0;
	counts[1] = 0;
	while ((sig = sigtimedwait(&set, &si, &zero)) > 0) {
		counts[0]++;
		counts[1] += fd >= 0 && (sig == SIGURG || si.si_fd == fd);
	}
}

/*
 * A party: a process of its own group, as uid, holding no file of its
 * parent but fd and fd2 (a hangup its parent provokes by closing a file
 * must not wait for the party's copy). It answers each byte on ctl with
 * the SIG_RT signals it has taken since (and those that named fd),
 * until ctl closes. With fd >= 0 it first names itself the owner of fd,
 * the way kind says, and with victim > 0 names victim the owner of fd2
 * (name_owner()): the owner's permission is taken from whoever named it,
 * so the caller may subscribe the files afterwards, as root.
 */
struct owner_party {
	pid_t pid;
	int ctl, res;
};

static inline int party_start(struct owner_party *p, uid_t uid, int fd, int fd2,
			      enum owner_kind kind, pid_t victim)
{
	int ctl[2], res[2], counts[2], ok, i;
	sigset_t set;
	char c;

	if (pipe(ctl) || pipe(res))
		return -1;
	p->pid = fork();
	if (p->pid < 0)
		return -1;
	if (p->pid == 0) {
		for (i = 3; i < 1024; i++)
			if (i != fd && i != fd2 && i != ctl[0] && i != res[1])
				close(i);
		/* queued for party_take(), whatever the parent left unblocked */
		party_signals(&set);
		sigprocmask(SIG_BLOCK, &set, NULL);
		ok = setpgid(0, 0) == 0 && drop_to(uid) == 0 &&
		     (fd < 0 || name_owner(fd, kind, getpid()) == 0) &&
		     (victim <= 0 || name_owner(fd2, kind, victim) == 0);
		c = ok ? 'r' : 'e';
		if (write(res[1], &c, 1) != 1 || !ok)
			_exit(1);
		while (read(ctl[0], &c, 1) == 1) {
			party_take(fd, counts);
			if (write(res[1], counts, sizeof(counts)) != sizeof(counts))
				_exit(1);
		}
		_exit(0);
	}
	close(ctl[0]);
	close(res[1]);
	p->ctl = ctl[1];
	p->res = res[0];
	return read(p->res, &c, 1) == 1 && c == 'r' ? 0 : -1;
}

/* signals taken by the party since the last count: (all, naming its file) */
static inline int party_count(struct owner_party *p, int counts[2])
{
	char c = 'c';

	if (write(p->ctl, &c, 1) != 1)
		return -1;
	return read(p->res, counts, 2 * sizeof(int)) == 2 * sizeof(int) ? 0 : -1;
}

static inline int party_end(struct owner_party *p)
{
	int status;

	close(p->ctl);
	close(p->res);
	if (waitpid(p->pid, &status, 0) != p->pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

#endif
