/* tidmap.c: see tidmap.h. */
#include "tidmap.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TIDMAP_SIZE 4096u   /* a power of two; more threads than that: the table restarts */

struct tidmap_entry {
	uint32_t ns;            /* 0: empty */
	uint32_t host;          /* 0: looked for and not found */
	uint64_t checked_ns;    /* when the mapping was last confirmed */
};

int tidmap_init(struct tidmap *m, const struct jvm_id *jvm)
{
	struct stat self;

	m->pid = jvm->pid;
	m->e = NULL;
	/* same namespace as ours: tids are already the host's (as far as tid() goes) */
	m->identity = stat("/proc/self/ns/pid", &self) < 0 || (uint64_t)self.st_ino == jvm->pidns;
	if (m->identity)
		return 0;
	m->e = calloc(TIDMAP_SIZE, sizeof *m->e);
	return m->e ? 0 : -ENOMEM;
}

void tidmap_free(struct tidmap *m)
{
	free(m->e);
	m->e = NULL;
}

/* The innermost pid on the NSpid: line of /proc/PID/task/TID/status; 0 if none. */
static uint32_t task_nstid(pid_t pid, unsigned long tid)
{
	char path[64], buf[2048];
	uint32_t last = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/task/%lu/status", (int)pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(buf, sizeof buf, f)) {
		char *p = buf + 6, *end;

		if (strncmp(buf, "NSpid:", 6) != 0)
			continue;
		for (;;) {
			unsigned long v = strtoul(p, &end, 10);

			if (end == p)
				break;
			last = (uint32_t)v;
			p = end;
		}
		break;
	}
	fclose(f);
	return last;
}

static struct tidmap_entry *slot_for(struct tidmap *m, uint32_t ns, bool create)
{
	for (unsigned i = 0; i < TIDMAP_SIZE; i++) {
		struct tidmap_entry *e = &m->e[(ns + i) & (TIDMAP_SIZE - 1)];

		if (e->ns == ns)
			return e;
		if (e->ns == 0) {
			if (!create)
				return NULL;
			e->ns = ns;
			return e;
		}
	}
	if (!create)
		return NULL;
	memset(m->e, 0, TIDMAP_SIZE * sizeof *m->e); /* full: start again */
	m->e[ns & (TIDMAP_SIZE - 1)].ns = ns;
	return &m->e[ns & (TIDMAP_SIZE - 1)];
}

/* Read every task of the JVM and record its mapping. */
static void rescan(struct tidmap *m, uint64_t now_ns)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof path, "/proc/%d/task", (int)m->pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)) != NULL) {
		char *end;
		unsigned long host = strtoul(d->d_name, &end, 10);
		uint32_t ns;
		struct tidmap_entry *e;

		if (end == d->d_name || *end)
			continue;
		ns = task_nstid(m->pid, host);
		if (ns == 0)
			continue;
		e = slot_for(m, ns, true);
		e->host = (uint32_t)host;
		e->checked_ns = now_ns;
	}
	closedir(dir);
}

uint64_t tidmap_host(struct tidmap *m, uint64_t ns_tid, uint64_t now_ns)
{
	struct tidmap_entry *e;

	if (m->identity || ns_tid == 0 || ns_tid > UINT32_MAX)
		return ns_tid;
	if (!m->e)
		return 0;
	e = slot_for(m, (uint32_t)ns_tid, false);
	if (e && now_ns - e->checked_ns < TIDMAP_RECHECK_NS)
		return e->host;
	if (e && e->host && task_nstid(m->pid, e->host) == ns_tid) {
		e->checked_ns = now_ns;
		return e->host;
	}
	rescan(m, now_ns);
	e = slot_for(m, (uint32_t)ns_tid, true);
	/* not found: a new entry stays 0 (none); an old one keeps its last host tid */
	e->checked_ns = now_ns;
	return e->host;
}
