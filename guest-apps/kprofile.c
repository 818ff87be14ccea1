// SPDX-License-Identifier: GPL-2.0
/*
 * kprofile: the 2003 way to see where the kernel spends its time. The
 * kernel booted with profile=2 counts timer ticks per 4-byte step of
 * its text in /proc/profile; this sums them per function with
 * /proc/kallsyms, as readprofile did for the RFC's diffprofile table.
 *
 * usage: kprofile reset
 *        kprofile report FUNCTION...
 * prints: kprofile total=N FUNCTION=N ...   (ticks, all CPUs)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct symbol {
	unsigned long addr;
	char name[128];
};

static int by_addr(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* text symbols of /proc/kallsyms, sorted by address */
static struct symbol *load_symbols(size_t *count)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	struct symbol *syms = NULL;
	size_t n = 0, cap = 0;
	char type, name[128];
	unsigned long addr;

	if (!f)
		return NULL;
	while (fscanf(f, "%lx %c %127s%*[^\n]", &addr, &type, name) == 3) {
		if (type != 't' && type != 'T')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				return NULL;
		}
		syms[n].addr = addr;
		snprintf(syms[n].name, sizeof(syms[n].name), "%s", name);
		n++;
	}
	fclose(f);
	qsort(syms, n, sizeof(*syms), by_addr);
	*count = n;
	return syms;
}

static unsigned int *load_profile(size_t *count, unsigned int *step)
{
	size_t n = 0, cap = 1 << 20;
	unsigned int *buf = malloc(cap * sizeof(*buf));
	int fd = open("/proc/profile", O_RDONLY);
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
	if (n < 2)
		return NULL;
	*step = buf[0];
	*count = n - 1;
	return buf;
}

int main(int argc, char **argv)
{
	unsigned long stext = 0, total = 0, *ticks;
	size_t nsyms = 0, nprof = 0, i, s = 0;
	struct symbol *syms;
	unsigned int *prof, step = 0;
	int a, fd;

	if (argc >= 2 && strcmp(argv[1], "reset") == 0) {
		fd = open("/proc/profile", O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1) {
			perror("kprofile: /proc/profile (boot with profile=2)");
			return 1;
		}
		close(fd);
		return 0;
	}
	if (argc < 3 || strcmp(argv[1], "report")) {
		fprintf(stderr, "usage: kprofile reset | kprofile report FUNCTION...\n");
		return 2;
	}
	syms = load_symbols(&nsyms);
	prof = load_profile(&nprof, &step);
	if (!syms || !prof) {
		fprintf(stderr, "kprofile: no /proc/kallsyms or /proc/profile\n");
		return 1;
	}
	for (i = 0; i < nsyms; i++)
		if (strcmp(syms[i].name, "_stext") == 0)
			stext = syms[i].addr;
	ticks = calloc(argc, sizeof(*ticks));
	if (!stext || !ticks)
		return 1;

	/* counter i covers [_stext + i * step, _stext + (i + 1) * step) */
	for (i = 0; i < nprof; i++) {
		unsigned long pc = stext + i * step;

		total += prof[i + 1];
		if (!prof[i + 1])
			continue;
		while (s + 1 < nsyms && syms[s + 1].addr <= pc)
			s++;
		for (a = 2; a < argc; a++)
			if (strcmp(syms[s].name, argv[a]) == 0)
				ticks[a] += prof[i + 1];
	}
	printf("kprofile total=%lu", total);
	for (a = 2; a < argc; a++)
		printf(" %s=%lu", argv[a], ticks[a]);
	printf("\n");
	return 0;
}
