// SPDX-License-Identifier: GPL-2.0
/*
 * path-fixture: kill_fasync()'s shape in a small user program, for
 * test_path_lengths.py. The program runs under QEMU's user-mode TCG with
 * the kill-fasync-count plugin while the test walks its disassembly
 * with kill_fasync_path.py: the two counts of the empty-list path must
 * agree, today's design and, with its jump label patched as the kernel
 * patches it, the 2.6.0 one.
 *
 * As in the kernel: a jump label (a 5-byte NOP and its __jump_table
 * entry) picks the design; today's tests the list head unlocked and
 * walks out of line; 2.6.0's takes a read lock on every call, its slow
 * path out of line, and walks under it.
 *
 * usage: path-fixture rcu|rwlock N...
 * For each N: phase_mark(), then CALLS calls on a list of N entries.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CALLS 100
/* the kernel's name; glibc's <sys/cdefs.h> has __always_inline */
#define noinline __attribute__((__noinline__))

struct static_key {
	int enabled;
};

struct jump_entry {
	int code;	/* each relative to its own field */
	int target;
	long key;
};

struct fasync_struct {
	long magic;
	struct fasync_struct *next;
};

extern struct jump_entry __start___jump_table[], __stop___jump_table[];
static struct static_key fasync_design_rwlock;
static int fasync_rwlock;	/* 2 per reader, bit 0 a writer */
long signals;

static __always_inline int static_branch_unlikely(struct static_key *key)
{
	asm goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
		 ".pushsection __jump_table, \"aw\"\n\t"
		 ".balign 8\n\t"
		 ".long 1b - ., %l[yes] - .\n\t"
		 ".quad %c0 - .\n\t"
		 ".popsection"
		 : : "i" (key) : : yes);
	return 0;
yes:
	return 1;
}

/* the kernel's static_branch_enable(): each site of key becomes a jmp */
static void static_branch_enable(struct static_key *key)
{
	long page = sysconf(_SC_PAGESIZE);
	struct jump_entry *e;

	for (e = __start___jump_table; e < __stop___jump_table; e++) {
		unsigned char *code = (unsigned char *)&e->code + e->code;
		unsigned char *target = (unsigned char *)&e->target + e->target;
		int rel = target - (code + 5);

		if ((char *)&e->key + e->key != (char *)key)
			continue;
		if (mprotect((void *)((long)code & -page), 2 * page,
			     PROT_READ | PROT_WRITE | PROT_EXEC))
			exit(1);
		code[0] = 0xe9;
		memcpy(code + 1, &rel, sizeof(rel));
	}
	key->enabled = 1;
}

static noinline void read_lock_slowpath(int *lock)
{
	while (__atomic_load_n(lock, __ATOMIC_ACQUIRE) & 1)
		;
}

static noinline void read_lock(int *lock)
{
	if (__atomic_add_fetch(lock, 2, __ATOMIC_ACQUIRE) & 1)
		read_lock_slowpath(lock);
}

static noinline void send_sigio(struct fasync_struct *fa)
{
	signals += fa->magic;
}

static noinline void kill_fasync_walk(struct fasync_struct **fp)
{
	struct fasync_struct *fa;

	for (fa = *fp; fa; fa = fa->next)
		send_sigio(fa);
}

static noinline void kill_fasync_rwlock(struct fasync_struct **fp)
{
	struct fasync_struct *fa;

	read_lock(&fasync_rwlock);
	for (fa = *fp; fa; fa = fa->next)
		send_sigio(fa);
	__atomic_sub_fetch(&fasync_rwlock, 2, __ATOMIC_RELEASE);
}

noinline void kill_fasync(struct fasync_struct **fp)
{
	if (static_branch_unlikely(&fasync_design_rwlock))
		kill_fasync_rwlock(fp);
	else if (*fp)
		kill_fasync_walk(fp);
}

/* the plugin's mark: a new phase starts at each call */
noinline void phase_mark(void)
{
	asm volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	int i, n, arg;

	if (argc < 3 || (strcmp(argv[1], "rcu") && strcmp(argv[1], "rwlock")))
		return 2;
	if (!strcmp(argv[1], "rwlock"))
		static_branch_enable(&fasync_design_rwlock);
	for (arg = 2; arg < argc; arg++) {
		struct fasync_struct *head = NULL, *fa;

		for (n = atoi(argv[arg]); n > 0; n--) {
			fa = calloc(1, sizeof(*fa));
			if (!fa)
				return 1;
			fa->magic = 1;
			fa->next = head;
			head = fa;
		}
		phase_mark();
		for (i = 0; i < CALLS; i++)
			kill_fasync(&head);
	}
	phase_mark();
	return signals < 0;
}
