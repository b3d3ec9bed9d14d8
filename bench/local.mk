# bench/: the C benchmarks of the event path (issue 5) and the null JVMTI
# agent. bench/run (the harness), bench/java/ and bench/README.md say how
# they are run together; each program's header comment says what it
# measures and how. They print "RESULT <name> <value> <unit>" lines on
# stdout and nothing else there (notes go to stderr, starting with "#").
#
# bench-decode-match: the worker's per-event code (runtime decoder,
#   stpd-bridge/handler.c: --print filter and line, slot match and cache,
#   marker strings, SDT markers) over an agent stream in memory, linked
#   from the bridge's own objects (stpd-bridge/libbridge.la), so the SDT
#   markers stapjava:slot0..255 are in this binary too. The stream is
#   synthetic by default (bench/evstream.c, made with runtime/wire_encode.c);
#   --generate FILE writes it, --stream FILE replays one, --record SOCKET
#   --output FILE records a real agent's (bench-decode-match --help).
#   RESULT decode_match_events_per_s, _ns_per_event, _events, _fires.
#   With a uprobe counting every fired slot marker (the default slot table
#   uses slots 0 to 7; `slot*` works too, but detaching 256 uprobes takes
#   about a minute here):
#     P=usdt:build/bench/bench-decode-match:stapjava
#     bpftrace -e "$P:slot0,$P:slot1,$P:slot2,$P:slot3,$P:slot4,$P:slot5,$P:slot6,$P:slot7
#                  { @c = count(); } BEGIN { printf(\"attached\n\"); }" &
#     # wait for "attached" (printed once every probe is in), then:
#     build/bench/bench-decode-match
#     # then SIGINT bpftrace: @c = RESULT decode_match_fires * (1 + 1/loops),
#     # the untimed counting pass included.
#   The bridge reads the markers' semaphores (stpd-bridge/dispatch.c): the
#   marker strings are formatted only for an event one of whose markers is
#   probed, so the run with bpftrace adds that formatting and the trap.
# bench-sync-rtt: synchronous round trip (send -> Ack) through a real
#   stpd-bridge it starts itself (build/stpd-bridge/stpd-bridge; --fire
#   --sync and two slots by default; options after "--" replace them, e.g.
#   -- --print -o /dev/null --sync -m bench.Hot.add). RESULT sync_rtt_p50_us,
#   _p90_us, _p99_us, _max_us, _mean_us, _count, _same_cpu_pct.
#   --socket-floor: the same exchange with an echoing child, no bridge
#   (RESULT socket_rtt_*). --flood N: the bridge's throughput through its
#   socket (RESULT flood_events_per_s, flood_ns_per_event).
# libnullagent.so: a JVMTI agent with empty MethodEntry/MethodExit callbacks
#   (option "entry": MethodEntry only; "breakpoint=CLASS.METHOD": an empty
#   Breakpoint callback; "inject=PATTERN", "inject-return=PATTERN":
#   agent/classfile.c's injected calls to empty natives in the methods a
#   method pattern selects), at bench/libnullagent.so. It links the agent's
#   class-file rewriter (agent/libsjrewrite.la: agent/classfile.c and the
#   parts it is built on) and the runtime's pattern matcher, not the agent.
# bench-record-rate-seed: the JinsightLive and TPTP writers (formats/rec_trc.c,
#   rec_trcbin.c) over synthetic method enter/return events, to /dev/null
#   (bench/record_rate_seed.c says how). RESULT record_trc_events_per_s,
#   record_trcbin_events_per_s, _ns_per_event, _bytes_per_event, _events_per_cpu_s;
#   --format jfr: the JFR writer (formats/rec_jfr.c), record_jfr_*.
# bench-record-stream: a recording format (every one, or --format NAME) over
#   the stream of row 9a2 (evstream.c), its decoding timed apart and taken off,
#   a tick every million events (bench/record_stream.c). RESULT
#   record_stream_NAME_events_per_s, _ns_per_event, _bytes_per_event.
noinst_PROGRAMS += bench/bench-decode-match bench/bench-sync-rtt bench/bench-record-rate-seed \
	bench/bench-record-stream

bench_bench_decode_match_SOURCES = bench/decode_match.c bench/evstream.c bench/evstream.h
bench_bench_decode_match_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge
bench_bench_decode_match_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la $(CAP_LIBS) -lm

bench_bench_record_rate_seed_SOURCES = bench/record_rate_seed.c
bench_bench_record_rate_seed_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge
bench_bench_record_rate_seed_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la $(CAP_LIBS) -lm

bench_bench_record_stream_SOURCES = bench/record_stream.c bench/evstream.c bench/evstream.h
bench_bench_record_stream_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge
bench_bench_record_stream_LDADD = $(bench_bench_record_rate_seed_LDADD)

bench_bench_sync_rtt_SOURCES = bench/sync_rtt.c bench/evstream.c bench/evstream.h
bench_bench_sync_rtt_LDADD = runtime/libsjruntime.la

# A shared object that is not installed: -rpath makes libtool build one.
noinst_LTLIBRARIES += bench/libnullagent.la
bench_libnullagent_la_SOURCES = bench/nullagent.c
bench_libnullagent_la_LIBADD = agent/libsjrewrite.la runtime/libsjruntime.la
bench_libnullagent_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
bench_libnullagent_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent -I$(top_srcdir)/runtime $(JDK_CPPFLAGS)

# The harness finds the agent at a stable path in the build tree.
all-local: bench/libnullagent.so
bench/libnullagent.so: bench/libnullagent.la
	$(AM_V_GEN)rm -f $@ && ln -s .libs/libnullagent.so $@
CLEANFILES += bench/libnullagent.so

# bench-reg-apply: a burst of registrations from one session against a
#   real agent, and what it costs the workload and another session (issue
#   16 §1; bench/reg-apply runs it with a JVM). RESULT reg_apply_ms_N,
#   reg_refused_N, reg_rate_ratio_N, reg_a_max_gap_ms_N, reg_a_lost_N.
noinst_PROGRAMS += bench/bench-reg-apply
bench_bench_reg_apply_SOURCES = bench/reg_apply.c
bench_bench_reg_apply_LDADD = runtime/libsjruntime.la

# bench-thread-buffer: a plain method event's record put into the Java
#   thread's own buffer (agent/tbuf.c), the producer alone, the lines it
#   writes last read by a drainer on another core (bench/thread_buffer.c
#   says how). RESULT thread_buffer_put_ns (tbuf_put with an encoder),
#   thread_buffer_put_small_ns (tbuf_put_small), and _fast_ns of each (the
#   fastest tenth of the batches).
noinst_PROGRAMS += bench/bench-thread-buffer
bench_bench_thread_buffer_SOURCES = bench/thread_buffer.c bench/batchstat.c bench/batchstat.h
bench_bench_thread_buffer_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent
bench_bench_thread_buffer_LDADD = agent/libsjevents.la -lpthread

# bench-clock-read: the event's timestamp, agent/clock.h's clock_raw() (the
#   TSC where the kernel's clock runs on it), beside the vDSO's
#   clock_gettime (bench/clock_read.c says how). RESULT clock_raw_ns,
#   clock_gettime_ns, their _fast_ns (the fastest tenth of the batches),
#   clock_raw_is_tsc.
noinst_PROGRAMS += bench/bench-clock-read
bench_bench_clock_read_SOURCES = bench/clock_read.c bench/batchstat.c bench/batchstat.h
bench_bench_clock_read_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent
bench_bench_clock_read_LDADD = agent/libsjevents.la

# bench-jfr-live: the live JFR chunk parser (formats/jfr_live*.c) over a .jfr
#   file, parsed again and again on one core with every event type wanted
#   (testsuite/jfr-live-dump.c's --bench, the same program). RESULT
#   jfr_live_events_per_s (a thread's CPU time), _ns_per_event, _mb_per_s,
#   _events (a pass), _bytes. Row 9j (bench/run) feeds it a JDK's
#   default.jfc recording of the Workload.
noinst_PROGRAMS += bench/bench-jfr-live
bench_bench_jfr_live_SOURCES = testsuite/jfr-live-dump.c
bench_bench_jfr_live_LDADD = formats/libsjformats.la runtime/libsjruntime.la

# bench-uprobe-floor: one uprobe trap on this machine, nothing of ours in it
#   (bench/uprobe_floor.c says how): an SDT marker hit in a C loop, row 12f's
#   floor under rows 12b and 9b. Prints a FLOOR line.
noinst_PROGRAMS += bench/bench-uprobe-floor
bench_bench_uprobe_floor_SOURCES = bench/uprobe_floor.c
