# testsuite/fuzz: a libFuzzer target for the wire decoders.
#
#   make fuzz [FUZZ_SECONDS=N]   build the target with $(FUZZ_CC) and run it
#                                on a copy of the corpus for N seconds (60)
#   make fuzz-corpus             regenerate testsuite/fuzz/corpus/ from
#                                testsuite/unit/wire_samples.c
#
# The target is compiled straight from the runtime's sources with
# -fsanitize=fuzzer (the libtool library is not), outside automake's rules.
# A crash (an oracle's abort, a sanitizer report) fails `make fuzz`; its
# input is left as testsuite/fuzz/crash-* (or leak-*, timeout-*).

noinst_PROGRAMS += testsuite/fuzz/make_corpus
testsuite_fuzz_make_corpus_SOURCES = testsuite/fuzz/make_corpus.c \
	testsuite/unit/wire_samples.c testsuite/unit/wire_samples.h testsuite/unit/wire_ref.c
testsuite_fuzz_make_corpus_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/testsuite/unit
testsuite_fuzz_make_corpus_LDADD = runtime/libsjruntime.la

FUZZ_SECONDS = 60
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/unit
FUZZ_WIRE_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_wire_decode.c \
	$(top_srcdir)/testsuite/unit/wire_samples.c \
	$(top_srcdir)/testsuite/unit/wire_ref.c \
	$(top_srcdir)/runtime/wire_codes.c \
	$(top_srcdir)/runtime/wire_encode.c \
	$(top_srcdir)/runtime/wire_decode.c \
	$(top_srcdir)/runtime/wire_reader.c
FUZZ_WIRE_DEPS = \
	$(top_srcdir)/runtime/wire.h $(top_srcdir)/runtime/wire_bytes.h \
	$(top_srcdir)/testsuite/unit/wire_samples.h

EXTRA_DIST += testsuite/fuzz/fuzz_wire_decode.c testsuite/fuzz/corpus
CLEANFILES += testsuite/fuzz/fuzz_wire_decode

testsuite/fuzz/fuzz_wire_decode: $(FUZZ_WIRE_SRC) $(FUZZ_WIRE_DEPS)
	@if test -n "$(FUZZ_MISSING)"; then echo "$(FUZZ_MISSING)" >&2; exit 1; fi
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_WIRE_SRC) -o $@

fuzz:
	@if test -n "$(FUZZ_MISSING)"; then echo "$(FUZZ_MISSING)" >&2; exit 1; fi
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_wire_decode
	rm -rf testsuite/fuzz/corpus-run
	$(MKDIR_P) testsuite/fuzz/corpus-run
	cp $(top_srcdir)/testsuite/fuzz/corpus/* testsuite/fuzz/corpus-run/
	testsuite/fuzz/fuzz_wire_decode -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=testsuite/fuzz/ testsuite/fuzz/corpus-run

fuzz-corpus: testsuite/fuzz/make_corpus$(EXEEXT)
	rm -rf $(top_srcdir)/testsuite/fuzz/corpus
	$(MKDIR_P) $(top_srcdir)/testsuite/fuzz/corpus
	testsuite/fuzz/make_corpus $(top_srcdir)/testsuite/fuzz/corpus

.PHONY: fuzz fuzz-corpus

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_corpus
testsuite_fuzz_replay_corpus_SOURCES = testsuite/fuzz/replay_corpus.c \
	testsuite/fuzz/fuzz_wire_decode.c $(WIRE_TEST_HELPERS)
testsuite_fuzz_replay_corpus_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/testsuite/unit \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus"'
testsuite_fuzz_replay_corpus_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_corpus_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_corpus
EXTRA_DIST += testsuite/fuzz/make_corpus.c
