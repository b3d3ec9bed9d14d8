/* nomatch.h: telling a session that a pattern selects nothing loaded.
 *
 * Why: a method pattern with a wrong descriptor, or a class that is never
 * loaded, gave a session zero events and no word. We cannot refuse it
 * (classes load later), but we say it.
 *
 * Contract: nomatch_check() runs on the I/O thread after a connection's
 * registrations changed (their update applied). Each literal method
 * registration of C (no '*') not checked before is checked once against the
 * loaded classes; when the class it names is loaded and has no such method
 * (a wrong descriptor, a misspelt name), C is told by a Notice (PROTOCOL.md;
 * logged here too): "java.method pattern 'P': its class is loaded and
 * declares no such method (an inherited one is its declaring class's);
 * similar: NAME", with the closest of its methods when one is close; once
 * per pattern text. A class not loaded yet says nothing: it may load later, and a
 * session usually registers before main runs. The patterns of a batch
 * are checked together: one walk of the prepared classes, each class
 * looked up in their index (patindex.h), and only the classes a pattern
 * may select are opened; a pattern's search stops at its first match.
 */
#ifndef STAPJAVA_AGENT_NOMATCH_H
#define STAPJAVA_AGENT_NOMATCH_H

#include <jvmti.h>
#include <stdint.h>

struct conn;

void nomatch_check(struct conn *c, JNIEnv *jni);

/* Tell connections WANT that line pattern TEXT selects LINE of METHOD,
 * which has no code there; BELOW and ABOVE the nearest lines that have (0:
 * none). Also what a class loaded after the registration shows (inject.c). */
void nomatch_say_line(uint32_t want, const char *text, uint32_t line, const char *method, uint32_t below,
		      uint32_t above);

#endif
