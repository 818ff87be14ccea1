// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "sigmouse-node.h"

#define SIGMOUSE_CLASS "/sys/class/sigmouse"
#define INPUT_CLASS "/sys/class/input"

static int read_line(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The first entry prefix* of the sysfs class folder class whose file
 * <entry>/name_file contains name_part: its name goes to entry.
 */
static int class_entry_named(const char *class, const char *prefix, const char *name_file,
			     const char *name_part, char *entry, size_t len)
{
	DIR *dir = opendir(class);
	struct dirent *d;
	char file[512], name[256];
	int ret = -1;

	if (!dir)
		return -1;
	while (ret && (d = readdir(dir))) {
		if (strncmp(d->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(file, sizeof(file), "%s/%s/%s", class, d->d_name, name_file);
		if (read_line(file, name, sizeof(name)) == 0 && strstr(name, name_part)) {
			snprintf(entry, len, "%s", d->d_name);
			ret = 0;
		}
	}
	closedir(dir);
	return ret;
}

static int find_by_name(const char *name_part, char *path, size_t len)
{
	char entry[256];

	if (class_entry_named(SIGMOUSE_CLASS, "sigmouse", "device/name", name_part,
			      entry, sizeof(entry)))
		return -1;
	snprintf(path, len, "/dev/%s", entry);
	return 0;
}

int input_syspath_by_name(const char *name_part, char *path, size_t len)
{
	char entry[256];

	if (class_entry_named(INPUT_CLASS, "input", "name", name_part, entry, sizeof(entry)))
		return -1;
	snprintf(path, len, INPUT_CLASS "/%s", entry);
	return 0;
}

int sigmouse_node_wait(const char *name_part, int timeout_ms,
		       char *path, size_t len)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };

	for (;;) {
		if (find_by_name(name_part, path, len) == 0)
			return 0;
		if (timeout_ms <= 0)
			return -1;
		nanosleep(&tick, NULL);
		timeout_ms -= 50;
	}
}

int input_node_of(const char *syspath, const char *prefix,
		  const char *dev_dir, char *path, size_t len)
{
	DIR *dir = opendir(syspath);
	struct dirent *d;
	int ret = -1;

	if (!dir)
		return -1;
	while (ret && (d = readdir(dir))) {
		if (strncmp(d->d_name, prefix, strlen(prefix)) == 0) {
			snprintf(path, len, "%s/%s", dev_dir, d->d_name);
			ret = 0;
		}
	}
	closedir(dir);
	return ret;
}

int sigmouse_node_of_input(const char *input_syspath, char *path, size_t len)
{
	return input_node_of(input_syspath, "sigmouse", "/dev", path, len);
}

int evdev_node_of_input(const char *input_syspath, char *path, size_t len)
{
	return input_node_of(input_syspath, "event", "/dev/input", path, len);
}

int sigmouse_node_info(int fd, struct sigmouse_info *info)
{
	return ioctl(fd, SIGMOUSE_IOC_INFO, info);
}
