# testsuite/unit: cmocka unit tests of the wire codec (runtime/wire*.c).
# wire_samples.c builds one sample of every message and holds a reference
# encoder written from the seed's tables; the fuzz corpus generator
# (testsuite/fuzz/local.mk) reuses it.
WIRE_TEST_HELPERS = \
	testsuite/unit/wire_samples.c testsuite/unit/wire_samples.h \
	testsuite/unit/wire_ref.c

check_PROGRAMS += testsuite/unit/test_wire_roundtrip
testsuite_unit_test_wire_roundtrip_SOURCES = testsuite/unit/test_wire_roundtrip.c $(WIRE_TEST_HELPERS)
testsuite_unit_test_wire_roundtrip_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_wire_roundtrip_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_wire_roundtrip

check_PROGRAMS += testsuite/unit/test_wire_layout
testsuite_unit_test_wire_layout_SOURCES = testsuite/unit/test_wire_layout.c $(WIRE_TEST_HELPERS)
testsuite_unit_test_wire_layout_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_wire_layout_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_wire_layout

check_PROGRAMS += testsuite/unit/test_wire_fast
testsuite_unit_test_wire_fast_SOURCES = testsuite/unit/test_wire_fast.c $(WIRE_TEST_HELPERS)
testsuite_unit_test_wire_fast_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_wire_fast_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_wire_fast
check_PROGRAMS += testsuite/unit/test_wire_malformed
testsuite_unit_test_wire_malformed_SOURCES = testsuite/unit/test_wire_malformed.c $(WIRE_TEST_HELPERS)
testsuite_unit_test_wire_malformed_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_wire_malformed_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_wire_malformed

check_PROGRAMS += testsuite/unit/test_wire_encode
testsuite_unit_test_wire_encode_SOURCES = testsuite/unit/test_wire_encode.c $(WIRE_TEST_HELPERS)
testsuite_unit_test_wire_encode_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_wire_encode_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_wire_encode

check_PROGRAMS += testsuite/unit/test_wire_stream
testsuite_unit_test_wire_stream_SOURCES = testsuite/unit/test_wire_stream.c $(WIRE_TEST_HELPERS)
testsuite_unit_test_wire_stream_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_wire_stream_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_wire_stream

EXTRA_DIST += testsuite/unit/README.md

check_PROGRAMS += testsuite/unit/test_log
testsuite_unit_test_log_SOURCES = testsuite/unit/test_log.c
testsuite_unit_test_log_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_log_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_log

check_PROGRAMS += testsuite/unit/test_fdio
testsuite_unit_test_fdio_SOURCES = testsuite/unit/test_fdio.c
testsuite_unit_test_fdio_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_fdio_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_fdio

# The class-file rewriter (agent/libsjrewrite.la) is pure C, no JVMTI: each
# module is tested on its own, and classfile.c on whole class files.
SJREWRITE_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent
SJREWRITE_TEST_LDADD = agent/libsjrewrite.la $(CMOCKA_LIBS)

check_PROGRAMS += testsuite/unit/test_bytecode
testsuite_unit_test_bytecode_SOURCES = testsuite/unit/test_bytecode.c
testsuite_unit_test_bytecode_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_bytecode_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_bytecode_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_bytecode

check_PROGRAMS += testsuite/unit/test_codeedit
testsuite_unit_test_codeedit_SOURCES = testsuite/unit/test_codeedit.c
testsuite_unit_test_codeedit_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_codeedit_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_codeedit_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_codeedit

check_PROGRAMS += testsuite/unit/test_stackmap
testsuite_unit_test_stackmap_SOURCES = testsuite/unit/test_stackmap.c
testsuite_unit_test_stackmap_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_stackmap_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_stackmap_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_stackmap

check_PROGRAMS += testsuite/unit/test_preinit
testsuite_unit_test_preinit_SOURCES = testsuite/unit/test_preinit.c
testsuite_unit_test_preinit_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_preinit_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_preinit_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_preinit

check_PROGRAMS += testsuite/unit/test_classfile
testsuite_unit_test_classfile_SOURCES = testsuite/unit/test_classfile.c
testsuite_unit_test_classfile_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_classfile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_classfile_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_classfile

check_PROGRAMS += testsuite/unit/test_descriptor
testsuite_unit_test_descriptor_SOURCES = testsuite/unit/test_descriptor.c
testsuite_unit_test_descriptor_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_descriptor_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_descriptor_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_descriptor

check_PROGRAMS += testsuite/unit/test_cfmethods
testsuite_unit_test_cfmethods_SOURCES = testsuite/unit/test_cfmethods.c
testsuite_unit_test_cfmethods_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_cfmethods_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_cfmethods_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_cfmethods

check_PROGRAMS += testsuite/unit/test_cfwrap
testsuite_unit_test_cfwrap_SOURCES = testsuite/unit/test_cfwrap.c
testsuite_unit_test_cfwrap_CPPFLAGS = $(SJREWRITE_TEST_CPPFLAGS)
testsuite_unit_test_cfwrap_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_cfwrap_LDADD = $(SJREWRITE_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_cfwrap

# The one table of events (runtime/events.c) against the codec, --print and the markers.
check_PROGRAMS += testsuite/unit/test_events
testsuite_unit_test_events_SOURCES = testsuite/unit/test_events.c
testsuite_unit_test_events_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_events_LDADD = runtime/libsjmarkers.la runtime/libsjruntime.la $(CMOCKA_LIBS) -lm
UNIT_TESTS += testsuite/unit/test_events

# The bounded edit distance of the "did you mean" messages (runtime/similar.c).
check_PROGRAMS += testsuite/unit/test_similar
testsuite_unit_test_similar_SOURCES = testsuite/unit/test_similar.c
testsuite_unit_test_similar_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_similar_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_similar

check_PROGRAMS += testsuite/unit/test_jvmsock
testsuite_unit_test_jvmsock_SOURCES = testsuite/unit/test_jvmsock.c
testsuite_unit_test_jvmsock_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_jvmsock_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_jvmsock

check_PROGRAMS += testsuite/unit/test_mutf8
testsuite_unit_test_mutf8_SOURCES = testsuite/unit/test_mutf8.c
testsuite_unit_test_mutf8_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_mutf8_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_mutf8

# The event path's buffers and clock (agent/libsjevents.la): no JVMTI.
SJEVENTS_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent
SJEVENTS_TEST_LDADD = agent/libsjevents.la $(CMOCKA_LIBS) -lpthread

check_PROGRAMS += testsuite/unit/test_ring
testsuite_unit_test_ring_SOURCES = testsuite/unit/test_ring.c
testsuite_unit_test_ring_CPPFLAGS = $(SJEVENTS_TEST_CPPFLAGS)
testsuite_unit_test_ring_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_ring_LDADD = $(SJEVENTS_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_ring

check_PROGRAMS += testsuite/unit/test_tbuf
testsuite_unit_test_tbuf_SOURCES = testsuite/unit/test_tbuf.c
testsuite_unit_test_tbuf_CPPFLAGS = $(SJEVENTS_TEST_CPPFLAGS)
testsuite_unit_test_tbuf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_tbuf_LDADD = $(SJEVENTS_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_tbuf

check_PROGRAMS += testsuite/unit/test_evtemplate
testsuite_unit_test_evtemplate_SOURCES = testsuite/unit/test_evtemplate.c
testsuite_unit_test_evtemplate_CPPFLAGS = $(SJEVENTS_TEST_CPPFLAGS)
testsuite_unit_test_evtemplate_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_evtemplate_LDADD = $(SJEVENTS_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_evtemplate

check_PROGRAMS += testsuite/unit/test_plainev
testsuite_unit_test_plainev_SOURCES = testsuite/unit/test_plainev.c
testsuite_unit_test_plainev_CPPFLAGS = $(SJEVENTS_TEST_CPPFLAGS)
testsuite_unit_test_plainev_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_plainev_LDADD = agent/libsjevents.la runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_plainev

check_PROGRAMS += testsuite/unit/test_clock
testsuite_unit_test_clock_SOURCES = testsuite/unit/test_clock.c
testsuite_unit_test_clock_CPPFLAGS = $(SJEVENTS_TEST_CPPFLAGS)
testsuite_unit_test_clock_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_clock_LDADD = $(SJEVENTS_TEST_LDADD)
UNIT_TESTS += testsuite/unit/test_clock

# The variables of the Java probe points' aliases (translator-patches/sj_emit.c),
# which the slots' and the tapset's family aliases are written from.
check_PROGRAMS += testsuite/unit/test_alias_vars
testsuite_unit_test_alias_vars_SOURCES = testsuite/unit/test_alias_vars.c
testsuite_unit_test_alias_vars_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/translator-patches
testsuite_unit_test_alias_vars_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_alias_vars_LDADD = $(SJTRANSLATE_LIBS) $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_alias_vars

# An index of patterns gives what trying every pattern gives (runtime/patindex.c).
check_PROGRAMS += testsuite/unit/test_patindex
testsuite_unit_test_patindex_SOURCES = testsuite/unit/test_patindex.c
testsuite_unit_test_patindex_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_patindex_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_patindex

# A connection's registrations: published in batches, matched through their
# index, bounded (agent/regset.c; inthread.c's fire ids stubbed).
check_PROGRAMS += testsuite/unit/test_regset
testsuite_unit_test_regset_SOURCES = testsuite/unit/test_regset.c agent/regset.c agent/regset.h \
	agent/lineage.c agent/lineage.h
testsuite_unit_test_regset_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent $(CMOCKA_CFLAGS)
testsuite_unit_test_regset_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS) -lpthread
UNIT_TESTS += testsuite/unit/test_regset

# Which methods of which class carry injected calls (agent/records.c).
check_PROGRAMS += testsuite/unit/test_records
testsuite_unit_test_records_SOURCES = testsuite/unit/test_records.c agent/records.c agent/records.h
testsuite_unit_test_records_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent $(CMOCKA_CFLAGS)
testsuite_unit_test_records_LDADD = $(CMOCKA_LIBS) -lpthread
UNIT_TESTS += testsuite/unit/test_records

# The injected calls' site ids and their cached matches (agent/sites.c; the
# method cache stubbed in the test).
check_PROGRAMS += testsuite/unit/test_sites
testsuite_unit_test_sites_SOURCES = testsuite/unit/test_sites.c agent/sites.c agent/sites.h
testsuite_unit_test_sites_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent $(JDK_CPPFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_sites_LDADD = $(CMOCKA_LIBS) -lpthread
UNIT_TESTS += testsuite/unit/test_sites

# SystemTap's java() probe points in stap-java's translation (translator-patches/sj_java.c).
check_PROGRAMS += testsuite/unit/test_sj_java
testsuite_unit_test_sj_java_SOURCES = testsuite/unit/test_sj_java.c
testsuite_unit_test_sj_java_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/translator-patches
testsuite_unit_test_sj_java_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_sj_java_LDADD = $(SJTRANSLATE_LIBS) $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_sj_java

# The live JFR chunk parser (formats/jfr_live*.c) on hand-built chunks.
JFR_LIVE_TEST_HELPERS = testsuite/unit/jfr_live_chunk.c testsuite/unit/jfr_live_chunk.h
check_PROGRAMS += testsuite/unit/test_jfr_live
testsuite_unit_test_jfr_live_SOURCES = testsuite/unit/test_jfr_live.c $(JFR_LIVE_TEST_HELPERS)
testsuite_unit_test_jfr_live_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_jfr_live_LDADD = formats/libsjformats.la runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_jfr_live

# The JFR wishes of a session (runtime/jfrspec.c): --jfr and JfrSettings.
check_PROGRAMS += testsuite/unit/test_jfrspec
testsuite_unit_test_jfrspec_SOURCES = testsuite/unit/test_jfrspec.c
testsuite_unit_test_jfrspec_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_jfrspec_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_jfrspec

# A parsed JFR event as the bridge hands it on (stpd-bridge/jfrfeed.c): the
# JfrEvent text an in-thread agent fires, and the bridge's own jfr marker.
check_PROGRAMS += testsuite/unit/test_jfrfeed
testsuite_unit_test_jfrfeed_SOURCES = testsuite/unit/test_jfrfeed.c
testsuite_unit_test_jfrfeed_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats
testsuite_unit_test_jfrfeed_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_jfrfeed_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la \
	$(CAP_LIBS) $(CMOCKA_LIBS) -lm
UNIT_TESTS += testsuite/unit/test_jfrfeed

check_PROGRAMS += testsuite/unit/test_methodids
testsuite_unit_test_methodids_SOURCES = testsuite/unit/test_methodids.c
testsuite_unit_test_methodids_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_methodids_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_methodids
