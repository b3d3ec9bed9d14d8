/* listing.h: the loaded methods and classes a pattern selects (ListMatches),
 * which stap-java -L lists from a running JVM.
 *
 * Contract: I/O thread only, with its JNIEnv. listing_answer() compiles
 * PATTERN as a pattern of KIND and queues on C, as events, one Match per
 * prepared class or method that it selects -- a method by its wire name
 * ("Shop.buy(I)V"; not abstract or native ones, which no probe can report),
 * a class by its signature, an exception as a class that is a Throwable --
 * then one MatchEnd with their total. Matches stop before C's queue is half
 * full (the total still counts them all, so the bridge can say how many were
 * left out). Returns 0, or -EINVAL for a pattern that does not compile
 * (logged with the reason, as a refused registration is).
 */
#ifndef STAPJAVA_AGENT_LISTING_H
#define STAPJAVA_AGENT_LISTING_H

#include <jvmti.h>
#include <stdint.h>

#include "conn.h"
#include "wire.h"

int listing_answer(struct conn *c, JNIEnv *jni, uint8_t kind, const struct wire_str *pattern);

#endif
