/* sj_files.h: the files stap-java writes.
 *
 * Contract (each returns 0 or -errno):
 *  - sj_write_file(): PATH holds TEXT[0..LEN), created with MODE or truncated.
 *  - sj_args_file_path(): where a bridge argument list WORDS[0..LEN) too long for
 *    system() is kept, named after its content so that a module built with -p4
 *    still finds it when it runs later: $STAPJAVA_CACHE, else
 *    $XDG_CACHE_HOME/stapjava, else ~/.cache/stapjava, then /bridge-args-HASH;
 *    malloc'ed in *PATH.
 *  - sj_store_private(): PATH (its directories made) holds TEXT[0..LEN).  The root
 *    bridge reads it when the session starts, maybe long after -p4, so nobody else
 *    may be able to change it: its directory must be ours and closed to others
 *    (-EPERM otherwise), and it is written through a new file (no symlink
 *    followed) renamed into place.  Failures are reported on stderr.
 */
#ifndef STAPJAVA_SJ_FILES_H
#define STAPJAVA_SJ_FILES_H

#include <stddef.h>
#include <sys/types.h>

int sj_write_file(const char *path, const char *text, size_t len, mode_t mode);
int sj_args_file_path(const char *words, size_t len, char **path);
int sj_store_private(const char *path, const char *text, size_t len);

#endif
