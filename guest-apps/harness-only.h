/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running part of a kselftest harness program, from a list of names
 * (NAME,NAME,... in an environment variable the kernel command line
 * sets): only the tests, or only the fixture variants, of those names.
 * The harness's lists are static to each program, so this is a header,
 * included after kselftest_harness.h.
 */
#ifndef HARNESS_ONLY_H
#define HARNESS_ONLY_H

#include <stdbool.h>
#include <string.h>

/* whether name is one of the comma-separated names in list */
static inline bool harness_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (!len)
		return false;
	for (p = list; (p = strstr(p, name)); p++)
		if ((p == list || p[-1] == ',') &&
		    (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

/* keep the tests named in only, in every fixture and variant */
static inline void harness_keep_tests(const char *only)
{
	struct __fixture_metadata *f;
	struct __test_metadata **link;

	for (f = __fixture_list; f; f = f->next)
		for (link = &f->tests; *link; )
			if (harness_listed(only, (*link)->name))
				link = &(*link)->next;
			else
				*link = (*link)->next;
}

/* keep the fixture variants named in only, with all their tests */
static inline void harness_keep_variants(const char *only)
{
	struct __fixture_variant_metadata **link;
	struct __fixture_metadata *f;

	for (f = __fixture_list; f; f = f->next) {
		if (!f->variant)
			continue;
		for (link = &f->variant; *link; )
			if (harness_listed(only, (*link)->name))
				link = &(*link)->next;
			else
				*link = (*link)->next;
		/* the harness runs a fixture without variants once, bare */
		if (!f->variant)
			f->tests = NULL;
	}
}

#endif
