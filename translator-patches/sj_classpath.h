/* sj_classpath.h: the class files of a Java class path, for stap-java -l/-L.
 *
 * Contract: sj_classpath_each() goes through CP, entries separated by ':'
 * as java -cp takes them: a directory (its *.class files at any depth,
 * symbolic links followed, a directory met again below itself skipped),
 * a directory followed by a slash and a star (the *.jar files in it), or a
 * jar or other zip file (its *.class entries).  module-info.class and
 * package-info.class are skipped, and so are empty entries.  FN gets each
 * class file's bytes (at most SJ_CLASS_MAX) with FILE, the file or jar it
 * is in, and ENTRY, its name in the jar (NULL for a file); it returns 0, or
 * -ENOMEM to stop.  What cannot be read (an entry that does not exist, a
 * directory, file or jar entry that cannot be read, a file that is not a
 * zip archive, a class file too big) is said on stderr, naming it, and the
 * walk goes on.  Returns how many such problems there were (0: all was
 * read), or -ENOMEM.  The order of the class files is the file system's.
 */
#ifndef STAPJAVA_SJ_CLASSPATH_H
#define STAPJAVA_SJ_CLASSPATH_H

#include <stddef.h>
#include <stdint.h>

/* No class file this big is one a JVM loads in practice: it guards against a
 * jar entry that claims gigabytes. */
#define SJ_CLASS_MAX (64u << 20)

typedef int (*sj_class_fn)(void *ctx, const uint8_t *bytes, size_t len, const char *file,
			   const char *entry);

int sj_classpath_each(const char *cp, sj_class_fn fn, void *ctx);

#endif
