/* jfrrepo.h: the JVM's JFR chunk data read from JFR's repository and
 * queued to a connection as JfrData (issue 15). The recordings, their
 * settings and every JNI call are jfr.h's.
 *
 * Contract: the JFR thread's only (jfr.c's); no JNI, no Java object, no
 * lock but the connection's for queueing. JFR writes its chunks into its
 * repository (a directory, one file a chunk, named by time), flushing about
 * once a second, and keeps each file's header current: its size, which it
 * sets once the data before it is in the file, and at byte 64 a state (0
 * once the chunk is complete, 255 while it rewrites the header). A stream
 * follows one recording's chunks from the one jfrrepo_open_newest() opened
 * (start() begins a new chunk, the newest file) to each next one once the
 * one before is complete, and jfrrepo_send() queues what is written beyond
 * what it sent: pieces of at most a wire string, the first of each chunk
 * flagged CHUNK_BEGIN, only while the connection of that generation is
 * open and its queue under half full (the rest waits in the file: nothing
 * is dropped, and Java events keep half the queue). A descriptor held open
 * keeps a chunk JFR deletes (its maxSize, the JVM's exit) readable to its
 * end. A repository our first recording made is removed once JFR has
 * emptied it, after the last recording of ours closed (jfrrepo_release,
 * then jfrrepo_tidy() each round, a bounded number of tries). Why the files
 * and not the FlightRecorderMXBean stream: agent/README.md, "JFR events".
 */
#ifndef STAPJAVA_AGENT_JFRREPO_H
#define STAPJAVA_AGENT_JFRREPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jfrrepo {
	char dir[4096];          /* JFR's repository, "" before the first recording */
	bool ours;               /* our first recording made it */
	int rmdir_tries;         /* rounds left to remove it, 0: not now */
};

struct jfrrepo_stream {
	int fd;                  /* the chunk being read, -1: none */
	char file[256];          /* its name in the repository */
	uint64_t offset;         /* what was queued of it */
};

#define JFRREPO_STREAM_INIT ((struct jfrrepo_stream){ .fd = -1 })

/* Open R's newest chunk for ST (from its start): 0, -ENOENT (none), or
 * open(2)'s error. */
int jfrrepo_open_newest(const struct jfrrepo *r, struct jfrrepo_stream *st);
/* Queue ST's unsent bytes to conns[IDX] while it is the connection opened
 * as GEN (opened_gen); the bytes queued. */
size_t jfrrepo_send(const struct jfrrepo *r, struct jfrrepo_stream *st, unsigned idx, uint64_t gen);
/* Tell conns[IDX], while it is the connection opened as GEN and
 * negotiated CAP_JFR_NONE, that its JfrSettings got no recording (a JfrData
 * flagged NONE): a bridge that waits for the JVM's JFR data (listing the
 * types) stops waiting. 0, or -errno (not queued). */
int jfrrepo_send_none(unsigned idx, uint64_t gen);
/* Has ST's chunk more written than was queued? */
bool jfrrepo_unsent(const struct jfrrepo_stream *st);
void jfrrepo_close(struct jfrrepo_stream *st);
/* No recording of ours is left: R's directory, if ours, is to go. */
void jfrrepo_release(struct jfrrepo *r);
/* A recording of ours starts: R's directory stays. */
void jfrrepo_keep(struct jfrrepo *r);
/* Once a round: remove R's directory if it is to go and JFR emptied it. */
void jfrrepo_tidy(struct jfrrepo *r);

#endif
