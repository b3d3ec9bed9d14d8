/* sj_classpath.c: see sj_classpath.h. */
#define _GNU_SOURCE
#include "sj_classpath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include "log.h"

struct walk {
	sj_class_fn fn;
	void *ctx;
	unsigned problems;
	int oom;
};

/* The directories from the entry down to the one being read: a symbolic
 * link back to one of them would walk for ever. */
struct ancestors {
	dev_t dev;
	ino_t ino;
	const struct ancestors *up;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A class file's name (the last component of PATH) that holds a class. */
static bool is_class_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	return ends_with(base, ".class") && strcmp(base, "module-info.class") != 0 &&
	       strcmp(base, "package-info.class") != 0;
}

static void deliver(struct walk *w, const uint8_t *bytes, size_t len, const char *file,
		    const char *entry)
{
	if (w->fn(w->ctx, bytes, len, file, entry) == -ENOMEM)
		w->oom = 1;
}

static void read_class_file(struct walk *w, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *bytes = NULL;
	ssize_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		sj_error("cannot read %s: %s", path, strerror(errno));
		w->problems++;
		if (fd >= 0)
			close(fd);
		return;
	}
	if ((uint64_t)st.st_size > SJ_CLASS_MAX) {
		sj_error("cannot read %s: bigger than %u MiB: not a class file", path, SJ_CLASS_MAX >> 20);
		w->problems++;
		close(fd);
		return;
	}
	size_t size = (size_t)st.st_size;
	bytes = malloc(size ? size : 1);
	if (!bytes) {
		w->oom = 1;
		close(fd);
		return;
	}
	size_t have = 0;
	while (have < size && (got = read(fd, bytes + have, size - have)) > 0)
		have += (size_t)got;
	if (got < 0) {
		sj_error("cannot read %s: %s", path, strerror(errno));
		w->problems++;
	} else {
		deliver(w, bytes, have, path, NULL);
	}
	free(bytes);
	close(fd);
}

/* FN on each name in the directory DIR but . and .., as DIR/NAME. */
static void each_name(struct walk *w, const char *dir,
		      void (*fn)(struct walk *w, const char *path, const void *arg), const void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		sj_error("cannot read the directory %s: %s", dir, strerror(errno));
		w->problems++;
		return;
	}
	errno = 0;
	while (!w->oom && (e = readdir(d))) {
		char *path;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (asprintf(&path, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name) < 0) {
			w->oom = 1;
			break;
		}
		fn(w, path, arg);
		free(path);
		errno = 0;
	}
	if (!w->oom && errno) {
		sj_error("cannot read the directory %s: %s", dir, strerror(errno));
		w->problems++;
	}
	closedir(d);
}

/* One name in a directory: a class file, or a directory to go into; UP: the
 * directories from the class path's entry down to this one. */
static void read_dir_entry(struct walk *w, const char *path, const void *up)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		/* a dangling symbolic link is nobody's class */
		if (errno == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			return;
		sj_error("cannot read %s: %s", path, strerror(errno));
		w->problems++;
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		for (const struct ancestors *a = up; a; a = a->up)
			if (a->dev == st.st_dev && a->ino == st.st_ino)
				return;
		struct ancestors me = { st.st_dev, st.st_ino, up };
		each_name(w, path, read_dir_entry, &me);
	} else if (S_ISREG(st.st_mode) && is_class_name(path)) {
		read_class_file(w, path);
	}
}

static void read_jar_entry(struct walk *w, zip_t *z, zip_uint64_t i, const char *jar)
{
	const char *name = zip_get_name(z, i, ZIP_FL_ENC_GUESS);
	zip_stat_t st;

	if (!name || !is_class_name(name) || ends_with(name, "/"))
		return;
	if (zip_stat_index(z, i, 0, &st) < 0 || !(st.valid & ZIP_STAT_SIZE)) {
		sj_error("cannot read %s in the jar %s: %s", name, jar, zip_strerror(z));
		w->problems++;
		return;
	}
	if (st.size > SJ_CLASS_MAX) {
		sj_error("cannot read %s in the jar %s: bigger than %u MiB: not a class file", name, jar,
			 SJ_CLASS_MAX >> 20);
		w->problems++;
		return;
	}
	uint8_t *bytes = malloc(st.size ? (size_t)st.size : 1);
	if (!bytes) {
		w->oom = 1;
		return;
	}
	zip_file_t *f = zip_fopen_index(z, i, 0);
	zip_int64_t got = f ? zip_fread(f, bytes, st.size) : -1;
	if (got < 0 || (zip_uint64_t)got != st.size) {
		sj_error("cannot read %s in the jar %s: %s", name, jar,
			 f ? zip_file_strerror(f) : zip_strerror(z));
		w->problems++;
	} else {
		deliver(w, bytes, (size_t)got, jar, name);
	}
	if (f)
		zip_fclose(f);
	free(bytes);
}

static void read_jar(struct walk *w, const char *jar)
{
	int err = 0;
	zip_t *z = zip_open(jar, ZIP_RDONLY, &err);

	if (!z) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, err);
		sj_error("cannot read the jar %s: %s", jar, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		w->problems++;
		return;
	}
	zip_int64_t n = zip_get_num_entries(z, 0);
	for (zip_int64_t i = 0; i < n && !w->oom; i++)
		read_jar_entry(w, z, (zip_uint64_t)i, jar);
	zip_discard(z);
}

/* A name in a directory DIR given as DIR followed by a slash and a star:
 * a jar, as java -cp reads them (not below DIR), or nothing of ours. */
static void read_jar_named(struct walk *w, const char *path, const void *unused)
{
	if (ends_with(path, ".jar") || ends_with(path, ".JAR"))
		read_jar(w, path);
}

static void read_entry(struct walk *w, char *entry)
{
	struct stat st;
	size_t n = strlen(entry);

	if (n == 0)
		return;
	if (n >= 2 && strcmp(entry + n - 2, "/*") == 0) {
		entry[n - 2] = '\0';
		each_name(w, *entry ? entry : "/", read_jar_named, NULL);
		return;
	}
	if (stat(entry, &st) < 0) {
		sj_error("cannot read the class path entry %s: %s", entry, strerror(errno));
		w->problems++;
	} else if (S_ISDIR(st.st_mode)) {
		struct ancestors top = { st.st_dev, st.st_ino, NULL };
		each_name(w, entry, read_dir_entry, &top);
	} else {
		read_jar(w, entry);
	}
}

int sj_classpath_each(const char *cp, sj_class_fn fn, void *ctx)
{
	struct walk w = { .fn = fn, .ctx = ctx };
	char *copy = strdup(cp);

	if (!copy)
		return -ENOMEM;
	/* strsep, not strtok: "a::b" has an empty entry, not one separator */
	for (char *rest = copy, *e; !w.oom && (e = strsep(&rest, ":"));)
		read_entry(&w, e);
	free(copy);
	return w.oom ? -ENOMEM : (int)w.problems;
}
