/* generation.h: the registrations' generation, the key of every cached match.
 *
 * Contract: conn_generation only grows; conn.c bumps it whenever the
 * registrations of any connection change (a connection opened or closed, a
 * registration set published). A match cached with the generation it was
 * made for (sites.h, mcache.h) is stale once the generation moves on. Read
 * it with an atomic load; no lock.
 */
#ifndef STAPJAVA_AGENT_GENERATION_H
#define STAPJAVA_AGENT_GENERATION_H

#include <stdatomic.h>

extern atomic_uint_fast64_t conn_generation;

#endif
