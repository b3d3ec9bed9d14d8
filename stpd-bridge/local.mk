# stpd-bridge/: the bridge between the agents and SystemTap (see its README).
# Everything but main() is a convenience library, so that bench/ links the
# very code the worker runs (decode, match, markers: the SDT notes come
# along with markers.o).
noinst_LTLIBRARIES += stpd-bridge/libbridge.la
# where an attached agent comes from: the installed one
stpd_bridge_libbridge_la_CPPFLAGS = $(AM_CPPFLAGS) -DSJ_AGENT_PATH='"$(libdir)/libstapjava.so"'
stpd_bridge_libbridge_la_SOURCES = \
	stpd-bridge/options.c stpd-bridge/options.h \
	stpd-bridge/registry.c stpd-bridge/registry.h \
	stpd-bridge/procfs.c stpd-bridge/procfs.h \
	stpd-bridge/discovery.c stpd-bridge/discovery.h \
	stpd-bridge/privsep.c stpd-bridge/privsep.h \
	stpd-bridge/connection.c stpd-bridge/connection.h \
	stpd-bridge/threadnames.c stpd-bridge/threadnames.h \
	stpd-bridge/slots.c stpd-bridge/slots.h \
	stpd-bridge/descent.c stpd-bridge/descent.h \
	stpd-bridge/dispatch.c stpd-bridge/dispatch.h \
	stpd-bridge/tidmap.c stpd-bridge/tidmap.h \
	stpd-bridge/handler.c stpd-bridge/handler.h \
	stpd-bridge/jfrfeed.c stpd-bridge/jfrfeed.h \
	stpd-bridge/attach.c stpd-bridge/attach.h \
	stpd-bridge/hsperf.c stpd-bridge/hsperf.h \
	stpd-bridge/worker.c stpd-bridge/worker.h \
	stpd-bridge/supervisor.c stpd-bridge/supervisor.h \
	stpd-bridge/recchan.c stpd-bridge/recchan.h \
	stpd-bridge/recfwd.c stpd-bridge/recfwd.h \
	stpd-bridge/recorder.c stpd-bridge/recorder.h \
	stpd-bridge/readrec.c stpd-bridge/readrec.h \
	stpd-bridge/jvmsel.c stpd-bridge/jvmsel.h \
	stpd-bridge/jvmsets.c stpd-bridge/jvmsets.h
# the recording formats (formats/), which the recorder and --read drive
stpd_bridge_libbridge_la_LIBADD = formats/libsjformats.la

bin_PROGRAMS += stpd-bridge/stpd-bridge
stpd_bridge_stpd_bridge_SOURCES = stpd-bridge/main.c
stpd_bridge_stpd_bridge_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la $(CAP_LIBS) -lm
EXTRA_DIST += stpd-bridge/README.md

# Unit test of the --print formatter (cmocka).
check_PROGRAMS += testsuite/unit/test_print
testsuite_unit_test_print_SOURCES = testsuite/unit/test_print.c
testsuite_unit_test_print_CPPFLAGS = $(AM_CPPFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_print_LDADD = runtime/libsjmarkers.la runtime/libsjruntime.la $(CMOCKA_LIBS) -lm
UNIT_TESTS += testsuite/unit/test_print

# Unit test of what procfs.c computes from /proc's numbers (cmocka).
check_PROGRAMS += testsuite/unit/test_procfs
testsuite_unit_test_procfs_SOURCES = testsuite/unit/test_procfs.c \
	stpd-bridge/procfs.c stpd-bridge/procfs.h
testsuite_unit_test_procfs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_procfs_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_procfs

# Unit test of how discovery.c picks an agent's socket out of net/unix (cmocka).
check_PROGRAMS += testsuite/unit/test_discovery
testsuite_unit_test_discovery_SOURCES = testsuite/unit/test_discovery.c \
	stpd-bridge/discovery.c stpd-bridge/discovery.h stpd-bridge/procfs.c stpd-bridge/procfs.h
testsuite_unit_test_discovery_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_discovery_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_discovery

# Unit test of the performance-data reader and the attach check's search (cmocka).
check_PROGRAMS += testsuite/unit/test_hsperf
testsuite_unit_test_hsperf_SOURCES = testsuite/unit/test_hsperf.c \
	stpd-bridge/hsperf.c stpd-bridge/hsperf.h
testsuite_unit_test_hsperf_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_hsperf_LDADD = $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_hsperf

# hsperf-print: a performance-data file's constants as jcmd prints them,
# for agent.bats to check the reader against the JDK.
check_PROGRAMS += testsuite/hsperf-print
testsuite_hsperf_print_SOURCES = testsuite/hsperf-print.c stpd-bridge/hsperf.c stpd-bridge/hsperf.h
testsuite_hsperf_print_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge

# Unit test of the slot matcher and its cache (cmocka).
check_PROGRAMS += testsuite/unit/test_slots
testsuite_unit_test_slots_SOURCES = testsuite/unit/test_slots.c \
	stpd-bridge/slots.c stpd-bridge/slots.h stpd-bridge/registry.c stpd-bridge/registry.h \
	stpd-bridge/descent.c stpd-bridge/descent.h
testsuite_unit_test_slots_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_slots_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_slots

# Unit test of the early-Appendix window: the agent's rule (runtime) and
# what the bridge sends with its Hello and after it (cmocka).
check_PROGRAMS += testsuite/unit/test_early_appendix
testsuite_unit_test_early_appendix_SOURCES = testsuite/unit/test_early_appendix.c \
	stpd-bridge/connection.c stpd-bridge/connection.h stpd-bridge/discovery.c stpd-bridge/discovery.h \
	stpd-bridge/procfs.c stpd-bridge/procfs.h stpd-bridge/registry.c stpd-bridge/registry.h \
	stpd-bridge/slots.c stpd-bridge/slots.h
testsuite_unit_test_early_appendix_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_early_appendix_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_early_appendix

# Unit tests of recording (cmocka): the file's output (record.c), the
# concurrency log's writer and reader, the record channel and a worker's
# forwarder. The record channel's fuzz replay links the same
# (testsuite/fuzz/local.mk).
RECORD_TEST_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la \
	$(CAP_LIBS) $(CMOCKA_LIBS) -lm
check_PROGRAMS += testsuite/unit/test_record
testsuite_unit_test_record_SOURCES = testsuite/unit/test_record.c
testsuite_unit_test_record_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_record_LDADD = $(RECORD_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_record
check_PROGRAMS += testsuite/unit/test_rec_clog
testsuite_unit_test_rec_clog_SOURCES = testsuite/unit/test_rec_clog.c
testsuite_unit_test_rec_clog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_rec_clog_LDADD = $(RECORD_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_rec_clog
check_PROGRAMS += testsuite/unit/test_recchan
testsuite_unit_test_recchan_SOURCES = testsuite/unit/test_recchan.c
testsuite_unit_test_recchan_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_recchan_LDADD = $(RECORD_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_recchan

# A fake agent for testsuite/bridge.bats: listens where an agent would and
# sends chosen bytes.
check_PROGRAMS += testsuite/fakeagent
testsuite_fakeagent_SOURCES = testsuite/fakeagent.c testsuite/fakeattach.c testsuite/fakeattach.h
testsuite_fakeagent_LDADD = runtime/libsjruntime.la

# Unit tests of the seed trace formats, JinsightLive and TPTP (cmocka): the
# writers' bytes against the seeds' layouts, round trips, bad input.
# rec_samples.c is their known event stream (the fuzz corpus's too).
REC_TEST_HELPERS = testsuite/unit/rec_samples.c testsuite/unit/rec_samples.h testsuite/unit/rec_assert.h
REC_TEST_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la $(CAP_LIBS) \
	$(CMOCKA_LIBS) -lm

check_PROGRAMS += testsuite/unit/test_rec_trc
testsuite_unit_test_rec_trc_SOURCES = testsuite/unit/test_rec_trc.c $(REC_TEST_HELPERS)
testsuite_unit_test_rec_trc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_rec_trc_LDADD = $(REC_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_rec_trc

check_PROGRAMS += testsuite/unit/test_rec_trcbin
testsuite_unit_test_rec_trcbin_SOURCES = testsuite/unit/test_rec_trcbin.c $(REC_TEST_HELPERS)
testsuite_unit_test_rec_trcbin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_rec_trcbin_LDADD = $(REC_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_rec_trcbin

# Unit test of the thread-name table: hashed, bounded whatever a peer sends (cmocka).
check_PROGRAMS += testsuite/unit/test_threadnames
testsuite_unit_test_threadnames_SOURCES = testsuite/unit/test_threadnames.c \
	stpd-bridge/threadnames.c stpd-bridge/threadnames.h
testsuite_unit_test_threadnames_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_threadnames_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_threadnames

# The JFR format (rec_jfr*.c): its unit test, and a sample file of a fixed
# synthetic stream for testsuite/record_jfr.bats (the JDK's `jfr` reads it).
check_PROGRAMS += testsuite/unit/rec_jfr_sample
testsuite_unit_rec_jfr_sample_SOURCES = testsuite/unit/rec_jfr_sample.c \
	testsuite/unit/jfr_stream.c testsuite/unit/jfr_stream.h
testsuite_unit_rec_jfr_sample_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge
testsuite_unit_rec_jfr_sample_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la $(CAP_LIBS) -lm

check_PROGRAMS += testsuite/unit/test_rec_jfr
testsuite_unit_test_rec_jfr_SOURCES = testsuite/unit/test_rec_jfr.c \
	testsuite/unit/jfr_stream.c testsuite/unit/jfr_stream.h
testsuite_unit_test_rec_jfr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_rec_jfr_LDADD = $(REC_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_rec_jfr
EXTRA_DIST += doc/recording-jfr.md testsuite/record_jfr.bats

# Unit test of --jvm's selection of JVMs (cmocka).
check_PROGRAMS += testsuite/unit/test_jvmsel
testsuite_unit_test_jvmsel_SOURCES = testsuite/unit/test_jvmsel.c \
	stpd-bridge/jvmsel.c stpd-bridge/jvmsel.h stpd-bridge/discovery.c stpd-bridge/discovery.h \
	stpd-bridge/procfs.c stpd-bridge/procfs.h
testsuite_unit_test_jvmsel_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_jvmsel_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_jvmsel

# Unit test of the sets of JVMs the supervisor keeps between scans (cmocka).
check_PROGRAMS += testsuite/unit/test_jvmsets
testsuite_unit_test_jvmsets_SOURCES = testsuite/unit/test_jvmsets.c \
	stpd-bridge/jvmsets.c stpd-bridge/jvmsets.h
testsuite_unit_test_jvmsets_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge $(CMOCKA_CFLAGS)
testsuite_unit_test_jvmsets_LDADD = $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_jvmsets

# roguebridge: a hostile bridge against a real agent (testsuite/agent.bats)
check_PROGRAMS += testsuite/roguebridge
testsuite_roguebridge_SOURCES = testsuite/roguebridge.c
testsuite_roguebridge_LDADD = runtime/libsjruntime.la
