/* privsep.c: see privsep.h. */
#define _GNU_SOURCE /* setresuid, getresuid */
#include "privsep.h"

#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#define FAIL(step)                    \
	do {                          \
		*what = (step);       \
		return errno ? -errno : -EPERM; \
	} while (0)

/* The bounding set can only shrink with CAP_SETPCAP, i.e. before setuid
 * takes our capabilities away. Without it (a bridge not started as root)
 * it cannot shrink at all; no_new_privs then makes it moot, since nothing
 * can regain a capability by exec. */
static int drop_bounding_set(bool may_fail_eperm)
{
	cap_value_t max = (cap_value_t)cap_max_bits();

	for (cap_value_t c = 0; c < max; c++) {
		if (cap_get_bound(c) == 0)
			continue;
		if (cap_drop_bound(c) < 0) {
			if (errno == EPERM && may_fail_eperm)
				return 0;
			return -errno;
		}
	}
	return 0;
}

static bool bounding_set_is_empty(void)
{
	cap_value_t max = (cap_value_t)cap_max_bits();

	for (cap_value_t c = 0; c < max; c++)
		if (cap_get_bound(c) != 0)
			return false;
	return true;
}

static bool ambient_set_is_empty(void)
{
	cap_value_t max = (cap_value_t)cap_max_bits();

	for (cap_value_t c = 0; c < max; c++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, (unsigned long)c, 0, 0) > 0)
			return false;
	return true;
}

static bool proc_caps_are_empty(void)
{
	cap_t now = cap_get_proc(), none = cap_init();
	bool empty = now && none && cap_compare(now, none) == 0;

	cap_free(now);
	cap_free(none);
	return empty;
}

static int clear_proc_caps(void)
{
	cap_t none = cap_init();
	int rc;

	if (!none)
		return -errno;
	rc = cap_set_proc(none);
	cap_free(none);
	return rc < 0 ? -errno : 0;
}

int privsep_drop(uid_t uid, gid_t gid, const char **what)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	bool was_root = geteuid() == 0;

	errno = 0;
	/* keep-caps would let capabilities survive setresuid */
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		FAIL("prctl(PR_SET_KEEPCAPS, 0)");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		FAIL("prctl(PR_CAP_AMBIENT_CLEAR_ALL)");
	errno = 0;
	if (drop_bounding_set(!was_root) < 0)
		FAIL("drop the capability bounding set");
	if (was_root && setgroups(0, NULL) < 0)
		FAIL("setgroups");
	if (setresgid(gid, gid, gid) < 0)
		FAIL("setresgid");
	if (setresuid(uid, uid, uid) < 0)
		FAIL("setresuid");
	/* setresuid clears them for a non-root uid; for root (a root JVM) it does not */
	if (clear_proc_caps() < 0)
		FAIL("cap_set_proc (clear all sets)");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		FAIL("prctl(PR_SET_NO_NEW_PRIVS)");

	/* verify: trust what the kernel reports, not what the calls returned */
	errno = 0;
	if (getresuid(&ru, &eu, &su) < 0 || ru != uid || eu != uid || su != uid)
		FAIL("verify uids");
	if (getresgid(&rg, &eg, &sg) < 0 || rg != gid || eg != gid || sg != gid)
		FAIL("verify gids");
	if (was_root && getgroups(0, NULL) != 0)
		FAIL("verify no supplementary groups");
	if (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0))
		FAIL("verify root cannot be regained");
	errno = 0;
	if (!proc_caps_are_empty())
		FAIL("verify no capabilities (effective, permitted, inheritable)");
	if (!ambient_set_is_empty())
		FAIL("verify no ambient capabilities");
	if (was_root && !bounding_set_is_empty())
		FAIL("verify empty bounding set");
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		FAIL("verify no_new_privs");
	return 0;
}
