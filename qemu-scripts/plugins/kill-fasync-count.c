// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kill-fasync-count: a QEMU TCG plugin that counts, exactly, the guest
 * instructions each kill_fasync() call executes, callees included.
 *
 *   -plugin kill-fasync-count.so,entry=ADDR,mark=ADDR,out=FILE
 *
 * entry is kill_fasync()'s address and mark a function's the guest
 * calls between its phases (the guest boots with nokaslr, so both come
 * from System.map); under user-mode QEMU, a program's functions the
 * same way (test_path_lengths.py's fixture). Each call to mark starts
 * the next phase. FILE gets, per phase, how many calls executed how
 * many instructions, and the blocks of the first call of each count,
 * rewritten at every mark and at exit:
 *
 *   calls phase=P instructions=N calls=C
 *   longer phase=P calls=C  (calls of MAX_INSNS or more)
 *   blocks phase=P instructions=N ADDR+INSNS ADDR+INSNS ...
 *
 * How a call is followed: TCG ends a translation block at every branch,
 * call and return, and a vCPU takes an interrupt only between blocks, so
 * a block runs whole and its last instruction says what follows. A call
 * starts with the block at entry; from there every block its vCPU runs
 * is added, each block ending in a call opens a frame and each ending in
 * a return closes one, and the call ends when its own frame closes. An
 * interrupt taken inside adds its handler's instructions (it ends in
 * iret, no return), so a phase's counts are a distribution whose most
 * frequent value is the path, not one number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS 64
#define MAX_PHASES 16
#define MAX_INSNS (1 << 18)	/* a call of more is counted apart */
#define MAX_BLOCKS 512	/* blocks kept of one call */
#define SHOWN_COUNTS 8	/* counts whose first call's blocks are kept */

/* a translated block: where it starts, its size, how it ends */
struct block {
	uint64_t vaddr;
	unsigned int insns;
	int frames;	/* +1 ends in a call, -1 in a return, 0 otherwise */
};

/* the call a vCPU is in, if any; only that vCPU's thread touches it */
struct vcpu_call {
	int depth;	/* open frames; 0: in no call */
	int phase;
	unsigned long insns;
	unsigned int nblocks;
	const struct block *blocks[MAX_BLOCKS];
};

/* a call's blocks, kept for the first call of a count */
struct shown_call {
	int ready;	/* set, with release, once the rest is written */
	unsigned long insns;
	unsigned int nblocks;
	uint64_t vaddr[MAX_BLOCKS];
	unsigned int block_insns[MAX_BLOCKS];
};

static uint64_t entry, mark;
static const char *out_path;
static int phase;	/* marks seen, atomically */
static struct vcpu_call vcpus[MAX_VCPUS];
static unsigned long calls[MAX_PHASES][MAX_INSNS], longer[MAX_PHASES];
static struct shown_call shown[MAX_PHASES][SHOWN_COUNTS];
static int nclaimed[MAX_PHASES];

/*
 * What a block's last instruction does to the frames: the x86 call
 * (E8, or FF /2) and near return (C3, C2) opcodes, after any legacy or
 * REX prefixes.
 */
static int block_frames(const struct qemu_plugin_insn *insn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn), i = 0;

	static const unsigned char prefixes[] = {
		0x66, 0x67, 0xf2, 0xf3, 0x2e, 0x3e, 0x26, 0x36, 0x64, 0x65, 0xf0,
	};

	while (i < n && (memchr(prefixes, b[i], sizeof(prefixes)) || (b[i] & 0xf0) == 0x40))
		i++;
	if (i >= n)
		return 0;
	if (b[i] == 0xe8 || (b[i] == 0xff && i + 1 < n && ((b[i + 1] >> 3) & 7) == 2))
		return 1;
	if (b[i] == 0xc3 || b[i] == 0xc2)
		return -1;
	return 0;
}

static void write_counts(void)
{
	FILE *f = fopen(out_path, "w");
	int p, s;
	unsigned int i, n;

	if (!f)
		return;
	for (p = 0; p < MAX_PHASES; p++) {
		for (n = 0; n < MAX_INSNS; n++) {
			unsigned long c = __atomic_load_n(&calls[p][n], __ATOMIC_RELAXED);

			if (c)
				fprintf(f, "calls phase=%d instructions=%u calls=%lu\n", p, n, c);
		}
		if (__atomic_load_n(&longer[p], __ATOMIC_RELAXED))
			fprintf(f, "longer phase=%d calls=%lu\n", p, longer[p]);
		for (s = 0; s < SHOWN_COUNTS; s++) {
			if (!__atomic_load_n(&shown[p][s].ready, __ATOMIC_ACQUIRE))
				continue;
			fprintf(f, "blocks phase=%d instructions=%lu", p, shown[p][s].insns);
			for (i = 0; i < shown[p][s].nblocks; i++)
				fprintf(f, " %llx+%u", (unsigned long long)shown[p][s].vaddr[i],
					shown[p][s].block_insns[i]);
			fputc('\n', f);
		}
	}
	fclose(f);
}

/* a call ended: count it, and keep its blocks if its count is new */
static void call_ended(struct vcpu_call *v)
{
	struct shown_call *s;
	unsigned int i;
	int slot;

	if (v->insns >= MAX_INSNS) {
		__atomic_fetch_add(&longer[v->phase], 1, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_fetch_add(&calls[v->phase][v->insns], 1, __ATOMIC_RELAXED) ||
	    v->nblocks > MAX_BLOCKS)
		return;
	slot = __atomic_fetch_add(&nclaimed[v->phase], 1, __ATOMIC_RELAXED);
	if (slot >= SHOWN_COUNTS)
		return;
	s = &shown[v->phase][slot];
	s->insns = v->insns;
	s->nblocks = v->nblocks;
	for (i = 0; i < v->nblocks; i++) {
		s->vaddr[i] = v->blocks[i]->vaddr;
		s->block_insns[i] = v->blocks[i]->insns;
	}
	__atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
}

static void block_exec(unsigned int vcpu_index, void *userdata)
{
	const struct block *b = userdata;
	struct vcpu_call *v;

	if (vcpu_index >= MAX_VCPUS)
		return;
	v = &vcpus[vcpu_index];
	if (!v->depth) {
		if (b->vaddr == mark) {
			if (__atomic_add_fetch(&phase, 1, __ATOMIC_RELAXED) < MAX_PHASES)
				write_counts();
			return;
		}
		if (b->vaddr != entry)
			return;
		v->phase = __atomic_load_n(&phase, __ATOMIC_RELAXED);
		if (v->phase >= MAX_PHASES)
			return;
		v->depth = 1;
		v->insns = 0;
		v->nblocks = 0;
	}
	v->insns += b->insns;
	if (v->nblocks < MAX_BLOCKS)
		v->blocks[v->nblocks] = b;
	v->nblocks++;
	v->depth += b->frames;
	if (!v->depth)
		call_ended(v);
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	(void)id;
	if (!n)
		return;
	/* kept for the block's life, which the interface does not tell */
	b = malloc(sizeof(*b));
	if (!b)
		abort();
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = n;
	b->frames = block_frames(qemu_plugin_tb_get_insn(tb, n - 1));
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	write_counts();
}

static int address_argument(const char *arg, const char *name, uint64_t *value)
{
	size_t len = strlen(name);
	char *end;

	if (strncmp(arg, name, len) || arg[len] != '=')
		return 0;
	*value = strtoull(arg + len + 1, &end, 0);
	return *end == '\0' && end != arg + len + 1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4])
			out_path = argv[i] + 4;
		else if (!address_argument(argv[i], "entry", &entry) &&
			 !address_argument(argv[i], "mark", &mark))
			break;
	}
	if (i < argc || !entry || !mark || !out_path ||
	    (info->system_emulation && info->system.max_vcpus > MAX_VCPUS)) {
		qemu_plugin_outs("kill-fasync-count: usage: entry=ADDR,mark=ADDR,out=FILE "
				 "(at most 64 vCPUs)\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
