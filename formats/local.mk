# formats/: the recording formats (JFR, JinsightLive, TPTP, the concurrency
# log), codecs like the wire codec: one struct record_format each in
# record_formats.c's table, written through record.h's record_out and read
# back from bytes in memory. The bridge's recorder and --read drive them.
noinst_LTLIBRARIES += formats/libsjformats.la
formats_libsjformats_la_SOURCES = \
	formats/record.c formats/record.h formats/record_formats.c \
	formats/rec_bytes.c formats/rec_bytes.h \
	formats/rec_tables.c formats/rec_tables.h \
	formats/rec_text.c formats/rec_text.h \
	formats/rec_trc.c formats/rec_trc_read.c formats/rec_trc.h \
	formats/rec_trcbin.c formats/rec_trcbin_read.c formats/rec_trcbin.h \
	formats/clog_text.c formats/clog_text.h \
	formats/rec_clog.c formats/rec_clog.h formats/rec_clog_read.c \
	formats/rec_jfr.c formats/rec_jfr_writer.h formats/rec_jfr_pairs.c \
	formats/rec_jfr_bytes.c formats/rec_jfr_bytes.h \
	formats/rec_jfr_types.c formats/rec_jfr_types.h \
	formats/rec_jfr_pool.c formats/rec_jfr_pool.h \
	formats/rec_jfr_parse.c formats/rec_jfr_parse.h \
	formats/rec_jfr_meta.c formats/rec_jfr_meta.h \
	formats/rec_jfr_read.c formats/rec_jfr_read.h \
	formats/rec_jfr_decode.c formats/rec_jfr_decode.h \
	formats/rec_jfr_value.c formats/rec_jfr_value.h
# The live JFR chunk parser (issue 15): the JVM's own chunks, as they arrive.
formats_libsjformats_la_SOURCES += \
	formats/jfr_live.c formats/jfr_live.h \
	formats/jfr_live_event.c formats/jfr_live_event.h formats/jfr_live_stack.c
# jfr-live-dump: a .jfr file through jfr_live in pieces, its events as JSON
# lines (testsuite/jfr_live.bats, bench/run).
check_PROGRAMS += testsuite/jfr-live-dump
testsuite_jfr_live_dump_SOURCES = testsuite/jfr-live-dump.c
testsuite_jfr_live_dump_LDADD = formats/libsjformats.la runtime/libsjruntime.la
EXTRA_DIST += testsuite/jfr_live.bats testsuite/jfr_live_compare.py
