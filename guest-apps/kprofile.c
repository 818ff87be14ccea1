// SPDX-License-Identifier: GPL-2.0
/*
 * kprofile: the 2003 way to see where the kernel spends its time. A
 * kernel booted with profile=SHIFT counts timer ticks per 2^SHIFT-byte
 * step of its text in /proc/profile; this charges them to functions
 * with /proc/kallsyms, as readprofile did for the RFC's diffprofile
 * table. A counter goes to every function its step overlaps (with
 * profile=0 a step is one byte, so to exactly one), aliases alike; ticks
 * outside any function go to "(unknown)".
 *
 * usage: kprofile reset
 *        kprofile report FUNCTION...   kprofile total=N FUNCTION=N ...
 *        kprofile dump                 kprofile total=N step=S, then
 *                                      ksyms NAME=N ... for every function
 *                                      with ticks (16 a line)
 *        kprofile top N                the N functions with most ticks
 * A FUNCTION that is not a text symbol of this kernel is an error, not
 * a zero: absent and idle must not look alike. KPROFILE_COUNTERS names a
 * copy of /proc/profile to read instead (one snapshot that util-linux's
 * readprofile -p reads too).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DUMP_PER_LINE	16

struct symbol {
	unsigned long addr;
	unsigned long end;	/* the next function's start */
	unsigned long ticks;
	char name[128];
};

struct profile {
	struct symbol *syms;
	size_t nsyms;
	unsigned long total;
	unsigned long unknown;
	unsigned int step;
};

static int by_addr(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_ticks(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->ticks > y->ticks ? -1 : x->ticks < y->ticks;
}

static int is_text(char type)
{
	return strchr("tTwW", type) != NULL;
}

/* text symbols of /proc/kallsyms, sorted by address, each with its end */
static struct symbol *load_symbols(size_t *count)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct symbol *syms = NULL;
	size_t n = 0, cap = 0, i, j;
	char type, name[128];
	unsigned long addr;

	if (!f)
		return NULL;
	while (fscanf(f, "%lx %c %127s%*[^\n]", &addr, &type, name) == 3) {
		if (!is_text(type))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				return NULL;
		}
		syms[n].addr = addr;
		syms[n].ticks = 0;
		snprintf(syms[n].name, sizeof(syms[n].name), "%s", name);
		n++;
	}
	fclose(f);
	qsort(syms, n, sizeof(*syms), by_addr);
	/* aliases share a start, so they share an end: the next distinct start */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && syms[j].addr == syms[i].addr; j++)
			;
		while (i < j)
			syms[i++].end = j < n ? syms[j].addr : ULONG_MAX;
	}
	*count = n;
	return syms;
}

static unsigned int *load_counters(size_t *count)
{
	size_t n = 0, cap = 1 << 20;
	unsigned int *buf = malloc(cap * sizeof(*buf));
	const char *path = getenv("KPROFILE_COUNTERS");
	int fd = open(path ? path : "/proc/profile", O_RDONLY);
	ssize_t r;

	if (fd < 0 || !buf)
		return NULL;
	while ((r = read(fd, buf + n, (cap - n) * sizeof(*buf))) > 0) {
		n += r / sizeof(*buf);
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap * sizeof(*buf));
			if (!buf)
				return NULL;
		}
	}
	close(fd);
	*count = n;
	return n < 2 ? NULL : buf;
}

static struct symbol *find(struct profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nsyms; i++)
		if (strcmp(p->syms[i].name, name) == 0)
			return &p->syms[i];
	return NULL;
}

/*
 * Counter i (after the step word) covers [_stext + i * step, + step):
 * charge it to every function that range overlaps.
 */
static int load(struct profile *p)
{
	unsigned int *counters;
	struct symbol *stext;
	size_t ncounters, i, s = 0, j;

	p->syms = load_symbols(&p->nsyms);
	counters = load_counters(&ncounters);
	if (!p->syms || !counters) {
		fprintf(stderr, "kprofile: no /proc/kallsyms or /proc/profile (boot with profile=0)\n");
		return -1;
	}
	stext = find(p, "_stext");
	if (!stext) {
		fprintf(stderr, "kprofile: no _stext in /proc/kallsyms\n");
		return -1;
	}
	p->step = counters[0];
	for (i = 1; i < ncounters; i++) {
		unsigned long lo = stext->addr + (i - 1) * p->step;
		unsigned long hi = lo + p->step;
		int charged = 0;

		if (!counters[i])
			continue;
		p->total += counters[i];
		while (s < p->nsyms && p->syms[s].end <= lo)
			s++;
		for (j = s; j < p->nsyms && p->syms[j].addr < hi; j++) {
			if (p->syms[j].end > lo) {
				p->syms[j].ticks += counters[i];
				charged = 1;
			}
		}
		if (!charged)
			p->unknown += counters[i];
	}
	free(counters);
	return 0;
}

static int reset(void)
{
	int fd = open("/proc/profile", O_WRONLY);

	if (fd < 0 || write(fd, "0", 1) != 1) {
		perror("kprofile: /proc/profile (boot with profile=0)");
		return 1;
	}
	close(fd);
	return 0;
}

static int report(struct profile *p, int argc, char **argv)
{
	struct symbol *sym;
	int a, missing = 0;

	for (a = 0; a < argc; a++) {
		if (!find(p, argv[a])) {
			fprintf(stderr, "kprofile: %s is not a function of this kernel "
				"(inlined, renamed or not built)\n", argv[a]);
			missing = 1;
		}
	}
	if (missing)
		return 1;
	printf("kprofile total=%lu", p->total);
	for (a = 0; a < argc; a++) {
		sym = find(p, argv[a]);
		printf(" %s=%lu", argv[a], sym->ticks);
	}
	printf("\n");
	return 0;
}

static int dump(struct profile *p)
{
	size_t i;
	int on_line = 0;

	printf("kprofile total=%lu step=%u\n", p->total, p->step);
	if (p->unknown) {
		printf("ksyms (unknown)=%lu", p->unknown);
		on_line = 1;
	}
	for (i = 0; i < p->nsyms; i++) {
		if (!p->syms[i].ticks)
			continue;
		printf("%s%s=%lu", on_line ? " " : "ksyms ", p->syms[i].name,
		       p->syms[i].ticks);
		if (++on_line == DUMP_PER_LINE) {
			printf("\n");
			on_line = 0;
		}
	}
	if (on_line)
		printf("\n");
	return 0;
}

static int top(struct profile *p, int n)
{
	int i;

	qsort(p->syms, p->nsyms, sizeof(*p->syms), by_ticks);
	printf("%8s %6s  %s\n", "ticks", "%", "function");
	for (i = 0; i < n && (size_t)i < p->nsyms && p->syms[i].ticks; i++)
		printf("%8lu %6.2f  %s\n", p->syms[i].ticks,
		       100.0 * p->syms[i].ticks / (p->total ? p->total : 1),
		       p->syms[i].name);
	printf("%8lu %6s  total (%lu outside any function)\n", p->total, "",
	       p->unknown);
	return 0;
}

int main(int argc, char **argv)
{
	struct profile p = { 0 };

	if (argc == 2 && strcmp(argv[1], "reset") == 0)
		return reset();
	if (argc < 2 || (strcmp(argv[1], "report") && strcmp(argv[1], "dump") &&
			 strcmp(argv[1], "top"))) {
		fprintf(stderr, "usage: kprofile reset | report FUNCTION... | dump | top N\n");
		return 2;
	}
	if (load(&p))
		return 1;
	if (strcmp(argv[1], "report") == 0)
		return report(&p, argc - 2, argv + 2);
	if (strcmp(argv[1], "dump") == 0)
		return dump(&p);
	return top(&p, argc > 2 ? atoi(argv[2]) : 20);
}
