# testsuite/fuzz: libFuzzer targets for the wire decoders and the class-file rewriter.
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
# The recipes every target shares: $(FUZZ_CHECK) fails with the packages to
# install when there is no $(FUZZ_CC); $(call FUZZ_RUN,NAME,CORPUS) runs
# testsuite/fuzz/fuzz_NAME on a copy of testsuite/fuzz/CORPUS/.
FUZZ_CHECK = if test -n "$(FUZZ_MISSING)"; then echo "$(FUZZ_MISSING)" >&2; exit 1; fi
FUZZ_RUN = rm -rf testsuite/fuzz/$(2)-run && $(MKDIR_P) testsuite/fuzz/$(2)-run && \
	cp $(top_srcdir)/testsuite/fuzz/$(2)/* testsuite/fuzz/$(2)-run/ && \
	testsuite/fuzz/fuzz_$(1) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=testsuite/fuzz/ testsuite/fuzz/$(2)-run
FUZZ_FLAGS = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 \
	-I$(top_srcdir)/runtime -I$(top_srcdir)/testsuite/unit
FUZZ_WIRE_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_wire_decode.c \
	$(top_srcdir)/testsuite/unit/wire_samples.c \
	$(top_srcdir)/testsuite/unit/wire_ref.c \
	$(top_srcdir)/runtime/wire_codes.c \
	$(top_srcdir)/runtime/events.c \
	$(top_srcdir)/runtime/wire_encode.c \
	$(top_srcdir)/runtime/wire_decode.c \
	$(top_srcdir)/runtime/wire_reader.c
FUZZ_WIRE_DEPS = \
	$(top_srcdir)/runtime/wire.h $(top_srcdir)/runtime/wire_bytes.h $(top_srcdir)/runtime/events.h \
	$(top_srcdir)/testsuite/unit/wire_samples.h

EXTRA_DIST += testsuite/fuzz/fuzz_wire_decode.c testsuite/fuzz/corpus
CLEANFILES += testsuite/fuzz/fuzz_wire_decode

testsuite/fuzz/fuzz_wire_decode: $(FUZZ_WIRE_SRC) $(FUZZ_WIRE_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_WIRE_SRC) -o $@

fuzz:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_wire_decode
	$(call FUZZ_RUN,wire_decode,corpus)

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
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus"' \
	-DCORPUS_MIN_FILES=500 -DREPLAY_GROUP='"fuzz_corpus"'
testsuite_fuzz_replay_corpus_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_corpus_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_corpus
EXTRA_DIST += testsuite/fuzz/make_corpus.c

# ---- the class-file rewriter (agent/libsjrewrite.la)
#
#   make fuzz-classfile [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_classfile with
#                                          $(FUZZ_CC) and run it on a copy of
#                                          testsuite/fuzz/corpus-classfile/ for N
#                                          seconds (60); crashes as for `make fuzz`
#   make fuzz-classfile-corpus             regenerate that corpus with $(JAVAC)
#
# The corpus: class files javac -g made from testsuite/fuzz/classfile-src/*.java
# (switches, try/catch/finally, constructors, lambdas and type annotations,
# long/double; Modern.java's records and switch expressions), with --release 8
# (r8-*) and --release 17 (r17-*), "$" in a class name as "-". Only classes
# with code (each must be rewritten: REPLAY_ACCEPTED in replay_corpus.c), a dozen, each a few KiB.
FUZZ_CLASSFILE_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_classfile.c \
	$(top_srcdir)/agent/cfpool.c \
	$(top_srcdir)/agent/bytecode.c \
	$(top_srcdir)/agent/descriptor.c \
	$(top_srcdir)/agent/codeedit.c \
	$(top_srcdir)/agent/stackmap.c \
	$(top_srcdir)/agent/preinit.c \
	$(top_srcdir)/agent/codeattr.c \
	$(top_srcdir)/agent/classfile.c \
	$(top_srcdir)/agent/cfmethods.c \
	$(top_srcdir)/agent/cfwrap.c
FUZZ_CLASSFILE_DEPS = \
	$(top_srcdir)/agent/cfbytes.h $(top_srcdir)/agent/cfpool.h $(top_srcdir)/agent/bytecode.h \
	$(top_srcdir)/agent/descriptor.h $(top_srcdir)/agent/codeedit.h \
	$(top_srcdir)/agent/stackmap.h $(top_srcdir)/agent/preinit.h \
	$(top_srcdir)/agent/codeattr.h $(top_srcdir)/agent/classfile.h \
	$(top_srcdir)/agent/cfmethods.h $(top_srcdir)/agent/cfwrap.h
FUZZ_CLASSFILE_JFILES = \
	testsuite/fuzz/classfile-src/Ctors.java testsuite/fuzz/classfile-src/Lambdas.java \
	testsuite/fuzz/classfile-src/Numbers.java testsuite/fuzz/classfile-src/Switches.java \
	testsuite/fuzz/classfile-src/TryCatch.java
FUZZ_CLASSFILE_JFILES17 = $(FUZZ_CLASSFILE_JFILES) testsuite/fuzz/classfile-src/Modern.java
# RELEASE:CLASS, "-" for "$"
FUZZ_CLASSFILE_CORPUS = \
	8:Ctors 8:Ctors-Inner 8:Lambdas 8:Numbers 8:Switches 8:TryCatch \
	17:Ctors 17:Ctors-1 17:Lambdas 17:Modern 17:Modern-Circle 17:Switches 17:TryCatch

EXTRA_DIST += testsuite/fuzz/fuzz_classfile.c testsuite/fuzz/corpus-classfile \
	$(FUZZ_CLASSFILE_JFILES17)
CLEANFILES += testsuite/fuzz/fuzz_classfile

testsuite/fuzz/fuzz_classfile: $(FUZZ_CLASSFILE_SRC) $(FUZZ_CLASSFILE_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/agent $(FUZZ_CLASSFILE_SRC) -o $@

fuzz-classfile:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_classfile
	$(call FUZZ_RUN,classfile,corpus-classfile)

fuzz-classfile-corpus:
	rm -rf testsuite/fuzz/classfile-javac
	$(MKDIR_P) testsuite/fuzz/classfile-javac/8 testsuite/fuzz/classfile-javac/17
	$(JAVAC) -g --release 8 -d testsuite/fuzz/classfile-javac/8 \
	  $(FUZZ_CLASSFILE_JFILES:%=$(top_srcdir)/%)
	$(JAVAC) -g --release 17 -d testsuite/fuzz/classfile-javac/17 \
	  $(FUZZ_CLASSFILE_JFILES17:%=$(top_srcdir)/%)
	rm -rf $(top_srcdir)/testsuite/fuzz/corpus-classfile
	$(MKDIR_P) $(top_srcdir)/testsuite/fuzz/corpus-classfile
	for rc in $(FUZZ_CLASSFILE_CORPUS); do \
	  r=$${rc%%:*}; c=$${rc#*:}; \
	  cp "testsuite/fuzz/classfile-javac/$$r/`echo $$c | tr - '$$'`.class" \
	    "$(top_srcdir)/testsuite/fuzz/corpus-classfile/r$$r-$$c.class" || exit 1; \
	done
	rm -rf testsuite/fuzz/classfile-javac

.PHONY: fuzz-classfile fuzz-classfile-corpus

# The committed class-file corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_classfile
testsuite_fuzz_replay_classfile_SOURCES = testsuite/fuzz/replay_corpus.c \
	testsuite/fuzz/fuzz_classfile.c
testsuite_fuzz_replay_classfile_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-classfile"' \
	-DCORPUS_MIN_FILES=12 -DREPLAY_GROUP='"fuzz_classfile_corpus"' \
	-DREPLAY_ACCEPTED=fuzz_classfile_rewritten
testsuite_fuzz_replay_classfile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_classfile_LDADD = agent/libsjrewrite.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_classfile

# ---- probe-point patterns (runtime/pattern.c, runtime/signature.c): what a
# bridge registers is compiled by the agent, so every byte is untrusted.
#
#   make fuzz-pattern [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_pattern with
#                                        $(FUZZ_CC) and run it on a copy of
#                                        testsuite/fuzz/corpus-pattern/ for N seconds
FUZZ_PATTERN_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_pattern.c \
	$(top_srcdir)/runtime/pattern.c \
	$(top_srcdir)/runtime/patindex.c \
	$(top_srcdir)/runtime/signature.c \
	$(top_srcdir)/runtime/errtext.c \
	$(top_srcdir)/runtime/mutf8.c
FUZZ_PATTERN_DEPS = $(top_srcdir)/runtime/pattern.h $(top_srcdir)/runtime/patindex.h \
	$(top_srcdir)/runtime/signature.h \
	$(top_srcdir)/runtime/errtext.h $(top_srcdir)/runtime/mutf8.h

EXTRA_DIST += testsuite/fuzz/fuzz_pattern.c testsuite/fuzz/corpus-pattern
CLEANFILES += testsuite/fuzz/fuzz_pattern

testsuite/fuzz/fuzz_pattern: $(FUZZ_PATTERN_SRC) $(FUZZ_PATTERN_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_PATTERN_SRC) -o $@

fuzz-pattern:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_pattern
	$(call FUZZ_RUN,pattern,corpus-pattern)

.PHONY: fuzz-pattern

# The committed pattern corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_pattern
testsuite_fuzz_replay_pattern_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_pattern.c
testsuite_fuzz_replay_pattern_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-pattern"' \
	-DCORPUS_MIN_FILES=20 -DREPLAY_GROUP='"fuzz_pattern_corpus"'
testsuite_fuzz_replay_pattern_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_pattern_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_pattern

# ---- modified UTF-8 (runtime/mutf8.c): rewrites in place the names a JVM and
# its class files hand the agent, whatever bytes a constant pool holds.
#
#   make fuzz-mutf8 [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_mutf8 with $(FUZZ_CC)
#                                      and run it on a copy of
#                                      testsuite/fuzz/corpus-mutf8/ for N seconds
FUZZ_MUTF8_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_mutf8.c \
	$(top_srcdir)/runtime/mutf8.c \
	$(top_srcdir)/runtime/utf8.c
FUZZ_MUTF8_DEPS = $(top_srcdir)/runtime/mutf8.h $(top_srcdir)/runtime/utf8.h

EXTRA_DIST += testsuite/fuzz/fuzz_mutf8.c testsuite/fuzz/corpus-mutf8
CLEANFILES += testsuite/fuzz/fuzz_mutf8

testsuite/fuzz/fuzz_mutf8: $(FUZZ_MUTF8_SRC) $(FUZZ_MUTF8_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_MUTF8_SRC) -o $@

fuzz-mutf8:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_mutf8
	$(call FUZZ_RUN,mutf8,corpus-mutf8)

.PHONY: fuzz-mutf8

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_mutf8
testsuite_fuzz_replay_mutf8_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_mutf8.c
testsuite_fuzz_replay_mutf8_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-mutf8"' \
	-DCORPUS_MIN_FILES=12 -DREPLAY_GROUP='"fuzz_mutf8_corpus"'
testsuite_fuzz_replay_mutf8_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_mutf8_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_mutf8

# ---- a class file's name and methods (agent/cfmethods.c): stap-java -L reads
# every class file of a class path it is given, whoever wrote them.
#
#   make fuzz-cfmethods [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_cfmethods with
#                                          $(FUZZ_CC) and run it on a copy of
#                                          testsuite/fuzz/corpus-cfmethods/ for N seconds
#   make fuzz-cfmethods-corpus             regenerate that corpus with $(JAVAC)
#
# The corpus: the rewriter's corpus (corpus-classfile) and the class files
# javac --release 17 makes of classfile-src/Kinds.java (an interface with a
# default and a static method, an abstract class, natives, an enum, a
# record, an annotation), plus a few truncated and malformed ones.
FUZZ_CFMETHODS_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_cfmethods.c \
	$(filter-out %/fuzz_classfile.c,$(FUZZ_CLASSFILE_SRC))
FUZZ_CFMETHODS_DEPS = $(FUZZ_CLASSFILE_DEPS)

EXTRA_DIST += testsuite/fuzz/fuzz_cfmethods.c testsuite/fuzz/corpus-cfmethods \
	testsuite/fuzz/classfile-src/Kinds.java
CLEANFILES += testsuite/fuzz/fuzz_cfmethods

testsuite/fuzz/fuzz_cfmethods: $(FUZZ_CFMETHODS_SRC) $(FUZZ_CFMETHODS_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/agent $(FUZZ_CFMETHODS_SRC) -o $@

fuzz-cfmethods:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_cfmethods
	$(call FUZZ_RUN,cfmethods,corpus-cfmethods)

# regenerate that corpus with $(JAVAC)
fuzz-cfmethods-corpus:
	rm -rf testsuite/fuzz/cfmethods-javac $(top_srcdir)/testsuite/fuzz/corpus-cfmethods
	$(MKDIR_P) testsuite/fuzz/cfmethods-javac $(top_srcdir)/testsuite/fuzz/corpus-cfmethods
	$(JAVAC) --release 17 -d testsuite/fuzz/cfmethods-javac \
	  $(top_srcdir)/testsuite/fuzz/classfile-src/Kinds.java
	set -e; c=$(top_srcdir)/testsuite/fuzz/corpus-cfmethods; \
	cp $(top_srcdir)/testsuite/fuzz/corpus-classfile/*.class "$$c/"; \
	for f in testsuite/fuzz/cfmethods-javac/*.class; do \
	  b=`basename "$$f" | tr '$$' -`; cp "$$f" "$$c/r17-$$b"; \
	done; \
	k="$$c/r17-Kinds.class"; \
	head -c 9 "$$k" >"$$c/bad-header"; head -c 200 "$$k" >"$$c/bad-pool"; \
	head -c `expr \`wc -c <"$$k"\` - 12` "$$k" >"$$c/bad-tail"; \
	{ cat "$$k"; printf x; } >"$$c/bad-trailing"; \
	{ printf '\312\376\272\277'; tail -c +5 "$$k"; } >"$$c/bad-magic"
	rm -rf testsuite/fuzz/cfmethods-javac

.PHONY: fuzz-cfmethods fuzz-cfmethods-corpus

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_cfmethods
testsuite_fuzz_replay_cfmethods_SOURCES = testsuite/fuzz/replay_corpus.c \
	testsuite/fuzz/fuzz_cfmethods.c
testsuite_fuzz_replay_cfmethods_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-cfmethods"' \
	-DCORPUS_MIN_FILES=20 -DREPLAY_GROUP='"fuzz_cfmethods_corpus"'
testsuite_fuzz_replay_cfmethods_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_cfmethods_LDADD = agent/libsjrewrite.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_cfmethods

# ---- the readers of the recording formats (formats/rec_trc_read.c,
# rec_trcbin_read.c, rec_clog_read.c): `stpd-bridge --read FILE` parses
# whatever file it is given.
#
#   make fuzz-trc [FUZZ_SECONDS=N]      build testsuite/fuzz/fuzz_trc with $(FUZZ_CC)
#                                       and run it on a copy of testsuite/fuzz/corpus-trc/
#   make fuzz-trcbin [FUZZ_SECONDS=N]   the same for TPTP (corpus-trcbin/)
#   make fuzz-clog [FUZZ_SECONDS=N]     the same for the concurrency log (corpus-clog/)
#   make fuzz-rec-corpus                regenerate both corpora from
#                                       testsuite/unit/rec_samples.c (make_rec_corpus)
#
# One target source, fuzz_rec_read.c, built once per format (-DREC_FORMAT=...):
# each links every format, since the table of formats (record_formats.c) names them.
FUZZ_REC_JFR_LIB = \
	$(top_srcdir)/formats/rec_jfr.c $(top_srcdir)/formats/rec_jfr_pairs.c \
	$(top_srcdir)/formats/rec_jfr_bytes.c $(top_srcdir)/formats/rec_jfr_types.c \
	$(top_srcdir)/formats/rec_jfr_pool.c $(top_srcdir)/formats/rec_jfr_parse.c \
	$(top_srcdir)/formats/rec_jfr_meta.c $(top_srcdir)/formats/rec_jfr_read.c \
	$(top_srcdir)/formats/rec_jfr_decode.c $(top_srcdir)/formats/rec_jfr_value.c
# runtime/print.c and what it calls, for the targets that print events
FUZZ_PRINT_SRC = $(top_srcdir)/runtime/print.c $(top_srcdir)/runtime/outbuf.c
FUZZ_REC_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_rec_read.c \
	$(top_srcdir)/formats/record.c $(top_srcdir)/formats/record_formats.c \
	$(top_srcdir)/formats/rec_bytes.c $(top_srcdir)/formats/rec_tables.c \
	$(top_srcdir)/formats/rec_text.c \
	$(top_srcdir)/formats/rec_trc.c $(top_srcdir)/formats/rec_trc_read.c \
	$(top_srcdir)/formats/rec_trcbin.c $(top_srcdir)/formats/rec_trcbin_read.c \
	$(top_srcdir)/formats/rec_clog.c $(top_srcdir)/formats/rec_clog_read.c \
	$(top_srcdir)/formats/clog_text.c \
	$(FUZZ_REC_JFR_LIB) \
	$(FUZZ_PRINT_SRC) $(top_srcdir)/runtime/events.c $(top_srcdir)/runtime/wire_codes.c \
	$(top_srcdir)/runtime/pattern.c $(top_srcdir)/runtime/signature.c $(top_srcdir)/runtime/errtext.c \
	$(top_srcdir)/runtime/mutf8.c $(top_srcdir)/runtime/utf8.c $(top_srcdir)/runtime/fdio.c
FUZZ_REC_DEPS = \
	$(top_srcdir)/formats/record.h $(top_srcdir)/formats/rec_bytes.h \
	$(top_srcdir)/formats/rec_tables.h $(top_srcdir)/formats/rec_text.h \
	$(top_srcdir)/formats/rec_trc.h $(top_srcdir)/formats/rec_trcbin.h \
	$(top_srcdir)/formats/rec_clog.h $(top_srcdir)/formats/clog_text.h \
	$(top_srcdir)/runtime/print.h $(top_srcdir)/runtime/wire.h

EXTRA_DIST += testsuite/fuzz/fuzz_rec_read.c testsuite/fuzz/make_rec_corpus.c \
	testsuite/fuzz/corpus-trc testsuite/fuzz/corpus-trcbin testsuite/fuzz/corpus-clog
CLEANFILES += testsuite/fuzz/fuzz_trc testsuite/fuzz/fuzz_trcbin testsuite/fuzz/fuzz_clog

testsuite/fuzz/fuzz_trc: $(FUZZ_REC_SRC) $(FUZZ_REC_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats -DREC_FORMAT=record_format_trc $(FUZZ_REC_SRC) -lm -o $@

testsuite/fuzz/fuzz_trcbin: $(FUZZ_REC_SRC) $(FUZZ_REC_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats -DREC_FORMAT=record_format_trcbin $(FUZZ_REC_SRC) -lm -o $@

testsuite/fuzz/fuzz_clog: $(FUZZ_REC_SRC) $(FUZZ_REC_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats -DREC_FORMAT=record_format_clog $(FUZZ_REC_SRC) -lm -o $@

fuzz-trc:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_trc
	$(call FUZZ_RUN,trc,corpus-trc)

fuzz-trcbin:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_trcbin
	$(call FUZZ_RUN,trcbin,corpus-trcbin)

noinst_PROGRAMS += testsuite/fuzz/make_rec_corpus
testsuite_fuzz_make_rec_corpus_SOURCES = testsuite/fuzz/make_rec_corpus.c $(REC_TEST_HELPERS)
testsuite_fuzz_make_rec_corpus_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats -I$(top_srcdir)/testsuite/unit
testsuite_fuzz_make_rec_corpus_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la \
	$(CAP_LIBS) -lm

fuzz-rec-corpus: testsuite/fuzz/make_rec_corpus$(EXEEXT)
	for f in trc trcbin; do \
	  rm -rf $(top_srcdir)/testsuite/fuzz/corpus-$$f && \
	  $(MKDIR_P) $(top_srcdir)/testsuite/fuzz/corpus-$$f && \
	  testsuite/fuzz/make_rec_corpus $$f $(top_srcdir)/testsuite/fuzz/corpus-$$f || exit 1; \
	done

fuzz-clog:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_clog
	$(call FUZZ_RUN,clog,corpus-clog)

.PHONY: fuzz-trc fuzz-trcbin fuzz-clog fuzz-rec-corpus

# The committed corpora replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_trc testsuite/fuzz/replay_trcbin
testsuite_fuzz_replay_trc_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_rec_read.c
testsuite_fuzz_replay_trc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats \
	-DREC_FORMAT=record_format_trc -DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-trc"' \
	-DCORPUS_MIN_FILES=20 -DREPLAY_GROUP='"fuzz_trc_corpus"'
testsuite_fuzz_replay_trc_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_trc_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la \
	$(CAP_LIBS) $(CMOCKA_LIBS) -lm
UNIT_TESTS += testsuite/fuzz/replay_trc
testsuite_fuzz_replay_trcbin_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_rec_read.c
testsuite_fuzz_replay_trcbin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats \
	-DREC_FORMAT=record_format_trcbin -DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-trcbin"' \
	-DCORPUS_MIN_FILES=20 -DREPLAY_GROUP='"fuzz_trcbin_corpus"'
testsuite_fuzz_replay_trcbin_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_trcbin_LDADD = $(testsuite_fuzz_replay_trc_LDADD)
UNIT_TESTS += testsuite/fuzz/replay_trcbin
# corpus-clog/: written by hand and by the bridge (testsuite/record.bats' workload)
check_PROGRAMS += testsuite/fuzz/replay_clog
testsuite_fuzz_replay_clog_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_rec_read.c
testsuite_fuzz_replay_clog_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats \
	-DREC_FORMAT=record_format_clog -DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-clog"' \
	-DCORPUS_MIN_FILES=14 -DREPLAY_GROUP='"fuzz_clog_corpus"'
testsuite_fuzz_replay_clog_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_clog_LDADD = $(testsuite_fuzz_replay_trc_LDADD)
UNIT_TESTS += testsuite/fuzz/replay_clog

# ---- the record channel (stpd-bridge/recchan.c): the recorder decodes
# what the workers send it, and they parse the JVMs' bytes.
#
#   make fuzz-recchan [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_recchan with
#                                        $(FUZZ_CC) and run it on a copy of
#                                        testsuite/fuzz/corpus-recchan/ for N seconds
FUZZ_RECCHAN_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_recchan.c \
	$(top_srcdir)/stpd-bridge/recchan.c \
	$(FUZZ_PRINT_SRC) \
	$(top_srcdir)/runtime/events.c \
	$(top_srcdir)/runtime/utf8.c \
	$(top_srcdir)/runtime/wire_codes.c \
	$(top_srcdir)/runtime/wire_encode.c \
	$(top_srcdir)/runtime/wire_decode.c \
	$(filter-out %/fuzz_pattern.c,$(FUZZ_PATTERN_SRC))
FUZZ_RECCHAN_DEPS = $(FUZZ_RECCHAN_SRC) $(top_srcdir)/stpd-bridge/recchan.h $(FUZZ_WIRE_DEPS)

EXTRA_DIST += testsuite/fuzz/fuzz_recchan.c testsuite/fuzz/corpus-recchan
CLEANFILES += testsuite/fuzz/fuzz_recchan

testsuite/fuzz/fuzz_recchan: $(FUZZ_RECCHAN_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats $(FUZZ_RECCHAN_SRC) -o $@

fuzz-recchan:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_recchan
	$(call FUZZ_RUN,recchan,corpus-recchan)

.PHONY: fuzz-recchan

check_PROGRAMS += testsuite/fuzz/replay_recchan
testsuite_fuzz_replay_recchan_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_recchan.c
testsuite_fuzz_replay_recchan_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-recchan"' \
	-DCORPUS_MIN_FILES=6 -DREPLAY_GROUP='"fuzz_recchan_corpus"'
testsuite_fuzz_replay_recchan_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_recchan_LDADD = $(RECORD_TEST_LDADD)
UNIT_TESTS += testsuite/fuzz/replay_recchan

# ---- the JFR reader (formats/rec_jfr_read.c, rec_jfr_parse.c,
# rec_jfr_value.c): `stpd-bridge --read` parses whatever file it is given.
#
#   make fuzz-rec-jfr [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_rec_jfr with
#                                        $(FUZZ_CC) and run it on a copy of
#                                        testsuite/fuzz/corpus-rec-jfr/ for N seconds
#   make fuzz-rec-jfr-corpus             regenerate that corpus with
#                                        testsuite/unit/rec_jfr_sample
#
# The corpus: the synthetic stream's recording (jfr_stream.c) whole, its
# first chunk, what a bridge killed after two chunks leaves, and the whole
# one cut in a chunk header and in the middle of its last chunk.
FUZZ_REC_JFR_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_rec_jfr.c \
	$(top_srcdir)/formats/rec_jfr_read.c \
	$(top_srcdir)/formats/rec_jfr_decode.c \
	$(top_srcdir)/formats/rec_jfr_parse.c \
	$(top_srcdir)/formats/rec_jfr_meta.c \
	$(top_srcdir)/formats/rec_jfr_value.c \
	$(top_srcdir)/formats/rec_jfr_bytes.c \
	$(top_srcdir)/formats/rec_tables.c \
	$(FUZZ_PRINT_SRC) \
	$(top_srcdir)/runtime/events.c \
	$(top_srcdir)/runtime/pattern.c \
	$(top_srcdir)/runtime/signature.c \
	$(top_srcdir)/runtime/errtext.c \
	$(top_srcdir)/runtime/utf8.c \
	$(top_srcdir)/runtime/mutf8.c \
	$(top_srcdir)/runtime/wire_codes.c \
	$(top_srcdir)/runtime/wire_encode.c \
	$(top_srcdir)/runtime/wire_decode.c
FUZZ_REC_JFR_DEPS = \
	$(top_srcdir)/formats/rec_jfr_read.h $(top_srcdir)/formats/rec_jfr_parse.h \
	$(top_srcdir)/formats/rec_jfr_meta.h $(top_srcdir)/formats/rec_jfr_decode.h \
	$(top_srcdir)/formats/rec_jfr_value.h $(top_srcdir)/formats/rec_jfr_bytes.h \
	$(top_srcdir)/formats/rec_jfr_types.h $(top_srcdir)/formats/record.h \
	$(top_srcdir)/runtime/print.h $(top_srcdir)/runtime/wire.h

EXTRA_DIST += testsuite/fuzz/fuzz_rec_jfr.c testsuite/fuzz/corpus-rec-jfr
CLEANFILES += testsuite/fuzz/fuzz_rec_jfr

testsuite/fuzz/fuzz_rec_jfr: $(FUZZ_REC_JFR_SRC) $(FUZZ_REC_JFR_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats -lm $(FUZZ_REC_JFR_SRC) -o $@

fuzz-rec-jfr:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_rec_jfr
	$(call FUZZ_RUN,rec_jfr,corpus-rec-jfr)

fuzz-rec-jfr-corpus: testsuite/unit/rec_jfr_sample$(EXEEXT)
	rm -rf $(top_srcdir)/testsuite/fuzz/corpus-rec-jfr
	$(MKDIR_P) $(top_srcdir)/testsuite/fuzz/corpus-rec-jfr
	set -e; c=$(top_srcdir)/testsuite/fuzz/corpus-rec-jfr; \
	testsuite/unit/rec_jfr_sample write "$$c/sample.jfr"; \
	testsuite/unit/rec_jfr_sample write "$$c/first-chunk.jfr" --until 12; \
	testsuite/unit/rec_jfr_sample write "$$c/killed.jfr" --until 30; \
	k=`wc -c <"$$c/killed.jfr"`; n=`wc -c <"$$c/sample.jfr"`; \
	head -c `expr $$k + 20` "$$c/sample.jfr" >"$$c/cut-header.jfr"; \
	head -c `expr \( $$k + $$n \) / 2` "$$c/sample.jfr" >"$$c/cut-middle.jfr"

.PHONY: fuzz-rec-jfr fuzz-rec-jfr-corpus

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_rec_jfr
testsuite_fuzz_replay_rec_jfr_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_rec_jfr.c
testsuite_fuzz_replay_rec_jfr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/formats \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-rec-jfr"' \
	-DCORPUS_MIN_FILES=5 -DREPLAY_GROUP='"fuzz_rec_jfr_corpus"'
testsuite_fuzz_replay_rec_jfr_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_rec_jfr_LDADD = stpd-bridge/libbridge.la runtime/libsjmarkers.la runtime/libsjruntime.la \
	$(CAP_LIBS) $(CMOCKA_LIBS) -lm
UNIT_TESTS += testsuite/fuzz/replay_rec_jfr

# ---- lines of /proc/PID/net/unix (stpd-bridge/procfs.c): the bridge finds an
# agent's socket there, and any local process chooses the paths it shows.
#
#   make fuzz-unix-line [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_unix_line with
#                                          $(FUZZ_CC) and run it on a copy of
#                                          testsuite/fuzz/corpus-unixline/ for N seconds
FUZZ_UNIX_LINE_SRC = $(top_srcdir)/testsuite/fuzz/fuzz_unix_line.c $(top_srcdir)/stpd-bridge/procfs.c \
	$(top_srcdir)/runtime/jvmsock.c $(top_srcdir)/runtime/fdio.c

EXTRA_DIST += testsuite/fuzz/fuzz_unix_line.c testsuite/fuzz/corpus-unixline
CLEANFILES += testsuite/fuzz/fuzz_unix_line

testsuite/fuzz/fuzz_unix_line: $(FUZZ_UNIX_LINE_SRC) $(top_srcdir)/stpd-bridge/procfs.h
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/runtime $(FUZZ_UNIX_LINE_SRC) -o $@

fuzz-unix-line:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_unix_line
	$(call FUZZ_RUN,unix_line,corpus-unixline)

.PHONY: fuzz-unix-line

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_unix_line
testsuite_fuzz_replay_unix_line_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_unix_line.c \
	stpd-bridge/procfs.c
testsuite_fuzz_replay_unix_line_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-unixline"' \
	-DCORPUS_MIN_FILES=15 -DREPLAY_GROUP='"fuzz_unix_line_corpus"'
testsuite_fuzz_replay_unix_line_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_unix_line_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_unix_line

# ---- /proc/PID/stat texts (runtime/jvmsock.c): the bridge reads a JVM's
# start time there, after a command name the process itself chose.
#
#   make fuzz-proc-stat [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_proc_stat with
#                                          $(FUZZ_CC) and run it on a copy of
#                                          testsuite/fuzz/corpus-procstat/ for N seconds
FUZZ_PROC_STAT_SRC = $(top_srcdir)/testsuite/fuzz/fuzz_proc_stat.c $(top_srcdir)/runtime/jvmsock.c \
	$(top_srcdir)/runtime/fdio.c

EXTRA_DIST += testsuite/fuzz/fuzz_proc_stat.c testsuite/fuzz/corpus-procstat
CLEANFILES += testsuite/fuzz/fuzz_proc_stat

testsuite/fuzz/fuzz_proc_stat: $(FUZZ_PROC_STAT_SRC) $(top_srcdir)/runtime/jvmsock.h
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/runtime $(FUZZ_PROC_STAT_SRC) -o $@

fuzz-proc-stat:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_proc_stat
	$(call FUZZ_RUN,proc_stat,corpus-procstat)

.PHONY: fuzz-proc-stat

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_proc_stat
testsuite_fuzz_replay_proc_stat_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_proc_stat.c
testsuite_fuzz_replay_proc_stat_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-procstat"' \
	-DCORPUS_MIN_FILES=15 -DREPLAY_GROUP='"fuzz_proc_stat_corpus"'
testsuite_fuzz_replay_proc_stat_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_proc_stat_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_proc_stat

# ---- HotSpot performance-data files (stpd-bridge/hsperf.c): the worker
# reads a JVM's /tmp/hsperfdata_USER/PID, which that user can write anything into.
#
#   make fuzz-hsperf [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_hsperf with
#                                       $(FUZZ_CC) and run it on a copy of
#                                       testsuite/fuzz/corpus-hsperf/ for N seconds
#
# The corpus: JDK 17's and 25's files (one with -XX:+DisableAttachMechanism),
# cut at their used bytes, and small ones with one fault each.
FUZZ_HSPERF_SRC = $(top_srcdir)/testsuite/fuzz/fuzz_hsperf.c $(top_srcdir)/stpd-bridge/hsperf.c

EXTRA_DIST += testsuite/fuzz/fuzz_hsperf.c testsuite/fuzz/corpus-hsperf
CLEANFILES += testsuite/fuzz/fuzz_hsperf

testsuite/fuzz/fuzz_hsperf: $(FUZZ_HSPERF_SRC) $(top_srcdir)/stpd-bridge/hsperf.h \
	$(top_srcdir)/runtime/wire_bytes.h
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/stpd-bridge -I$(top_srcdir)/runtime $(FUZZ_HSPERF_SRC) -o $@

fuzz-hsperf:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_hsperf
	$(call FUZZ_RUN,hsperf,corpus-hsperf)

.PHONY: fuzz-hsperf

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_hsperf
testsuite_fuzz_replay_hsperf_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_hsperf.c \
	stpd-bridge/hsperf.c
testsuite_fuzz_replay_hsperf_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-hsperf"' \
	-DCORPUS_MIN_FILES=14 -DREPLAY_GROUP='"fuzz_hsperf_corpus"'
testsuite_fuzz_replay_hsperf_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_hsperf_LDADD = $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_hsperf

# ---- the live JFR chunk parser (formats/jfr_live*.c): the bridge parses
# whatever chunk bytes a JVM's agent streams to it (issue 15).
#
#   make fuzz-jfr-live [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_jfr_live with
#                                         $(FUZZ_CC) and run it on a copy of
#                                         testsuite/fuzz/corpus-jfr-live/ for N seconds
#   make fuzz-jfr-live-corpus             regenerate that corpus: the unit tests'
#                                         chunks (make_jfr_live_corpus) and a JDK's
#                                         recording of JfrWork, whole and cut
#
# An input is a piece-size byte, then one chunk's bytes.
FUZZ_JFR_LIVE_SRC = \
	$(top_srcdir)/testsuite/fuzz/fuzz_jfr_live.c \
	$(top_srcdir)/formats/jfr_live.c \
	$(top_srcdir)/formats/jfr_live_event.c \
	$(top_srcdir)/formats/jfr_live_stack.c \
	$(top_srcdir)/formats/rec_jfr_parse.c \
	$(top_srcdir)/formats/rec_jfr_meta.c \
	$(top_srcdir)/formats/rec_jfr_bytes.c \
	$(top_srcdir)/formats/rec_tables.c
FUZZ_JFR_LIVE_DEPS = \
	$(top_srcdir)/formats/jfr_live.h $(top_srcdir)/formats/jfr_live_event.h \
	$(top_srcdir)/formats/rec_jfr_parse.h $(top_srcdir)/formats/rec_jfr_meta.h \
	$(top_srcdir)/formats/rec_jfr_bytes.h $(top_srcdir)/formats/rec_tables.h $(top_srcdir)/formats/record.h

EXTRA_DIST += testsuite/fuzz/fuzz_jfr_live.c testsuite/fuzz/make_jfr_live_corpus.c testsuite/fuzz/corpus-jfr-live
CLEANFILES += testsuite/fuzz/fuzz_jfr_live

testsuite/fuzz/fuzz_jfr_live: $(FUZZ_JFR_LIVE_SRC) $(FUZZ_JFR_LIVE_DEPS)
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -I$(top_srcdir)/formats $(FUZZ_JFR_LIVE_SRC) -o $@

fuzz-jfr-live:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_jfr_live
	$(call FUZZ_RUN,jfr_live,corpus-jfr-live)

noinst_PROGRAMS += testsuite/fuzz/make_jfr_live_corpus
testsuite_fuzz_make_jfr_live_corpus_SOURCES = testsuite/fuzz/make_jfr_live_corpus.c $(JFR_LIVE_TEST_HELPERS)
testsuite_fuzz_make_jfr_live_corpus_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/testsuite/unit
testsuite_fuzz_make_jfr_live_corpus_LDADD = formats/libsjformats.la runtime/libsjruntime.la

fuzz-jfr-live-corpus: testsuite/fuzz/make_jfr_live_corpus$(EXEEXT) testsuite/java/classes.stamp
	rm -rf $(top_srcdir)/testsuite/fuzz/corpus-jfr-live testsuite/fuzz/jfr-live-jdk
	$(MKDIR_P) $(top_srcdir)/testsuite/fuzz/corpus-jfr-live testsuite/fuzz/jfr-live-jdk
	testsuite/fuzz/make_jfr_live_corpus $(top_srcdir)/testsuite/fuzz/corpus-jfr-live
	set -e; j=testsuite/fuzz/jfr-live-jdk; c=$(top_srcdir)/testsuite/fuzz/corpus-jfr-live; \
	$(JAVA) -XX:StartFlightRecording=filename=$$j/work.jfr,settings=default,exceptions=all \
	  -cp testsuite/java/classes JfrWork $$j/written.bin >/dev/null; \
	{ printf '\007'; cat $$j/work.jfr; } >"$$c/jdk-default"; \
	{ printf '\000'; head -c 120000 $$j/work.jfr; } >"$$c/jdk-cut"
	rm -rf testsuite/fuzz/jfr-live-jdk

.PHONY: fuzz-jfr-live fuzz-jfr-live-corpus

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_jfr_live
testsuite_fuzz_replay_jfr_live_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_jfr_live.c
testsuite_fuzz_replay_jfr_live_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-jfr-live"' \
	-DCORPUS_MIN_FILES=10 -DREPLAY_GROUP='"fuzz_jfr_live_corpus"'
testsuite_fuzz_replay_jfr_live_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_jfr_live_LDADD = formats/libsjformats.la runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_jfr_live

# ---- the JFR wishes (runtime/jfrspec.c): a bridge's JfrSettings lines are
# read by the agent, so every byte is untrusted.
#
#   make fuzz-jfrspec [FUZZ_SECONDS=N]   build testsuite/fuzz/fuzz_jfrspec with
#                                        $(FUZZ_CC) and run it on a copy of
#                                        testsuite/fuzz/corpus-jfrspec/ for N seconds
FUZZ_JFRSPEC_SRC = $(top_srcdir)/testsuite/fuzz/fuzz_jfrspec.c $(top_srcdir)/runtime/jfrspec.c

EXTRA_DIST += testsuite/fuzz/fuzz_jfrspec.c testsuite/fuzz/corpus-jfrspec
CLEANFILES += testsuite/fuzz/fuzz_jfrspec

testsuite/fuzz/fuzz_jfrspec: $(FUZZ_JFRSPEC_SRC) $(top_srcdir)/runtime/jfrspec.h
	@$(FUZZ_CHECK)
	@$(MKDIR_P) testsuite/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_JFRSPEC_SRC) -o $@

fuzz-jfrspec:
	@$(FUZZ_CHECK)
	$(MAKE) $(AM_MAKEFLAGS) testsuite/fuzz/fuzz_jfrspec
	$(call FUZZ_RUN,jfrspec,corpus-jfrspec)

.PHONY: fuzz-jfrspec

# The committed corpus replayed through the target's oracles by the unit tiers.
check_PROGRAMS += testsuite/fuzz/replay_jfrspec
testsuite_fuzz_replay_jfrspec_SOURCES = testsuite/fuzz/replay_corpus.c testsuite/fuzz/fuzz_jfrspec.c
testsuite_fuzz_replay_jfrspec_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCORPUS_DIR='"$(abs_top_srcdir)/testsuite/fuzz/corpus-jfrspec"' \
	-DCORPUS_MIN_FILES=20 -DREPLAY_GROUP='"fuzz_jfrspec_corpus"'
testsuite_fuzz_replay_jfrspec_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
testsuite_fuzz_replay_jfrspec_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/fuzz/replay_jfrspec

# Every target and its corpus (NAME:CORPUS). `make fuzz-replay` builds each
# and runs it once on every input of its corpus (given as files: a
# reproducer's run, no mutation, nothing written), under the same ASan and
# UBSan: the bounded check (testsuite/build.bats) that no target has
# stopped building or running -- the source lists above are kept by hand,
# apart from automake's, and five of them once went a session unbuilt.
FUZZ_TARGETS = wire_decode:corpus classfile:corpus-classfile pattern:corpus-pattern \
	mutf8:corpus-mutf8 cfmethods:corpus-cfmethods trc:corpus-trc trcbin:corpus-trcbin \
	clog:corpus-clog recchan:corpus-recchan rec_jfr:corpus-rec-jfr unix_line:corpus-unixline proc_stat:corpus-procstat \
	jfr_live:corpus-jfr-live jfrspec:corpus-jfrspec hsperf:corpus-hsperf
fuzz-replay:
	@$(FUZZ_CHECK)
	@# built again each time: a program left from before would hide a list that no longer links
	rm -f $(foreach t,$(FUZZ_TARGETS),testsuite/fuzz/fuzz_$(firstword $(subst :, ,$(t))))
	$(MAKE) $(AM_MAKEFLAGS) $(foreach t,$(FUZZ_TARGETS),testsuite/fuzz/fuzz_$(firstword $(subst :, ,$(t))))
	@for t in $(FUZZ_TARGETS); do \
	  n=$${t%%:*}; c=$(top_srcdir)/testsuite/fuzz/$${t#*:}; \
	  if ! testsuite/fuzz/fuzz_$$n $$c/* >testsuite/fuzz/replay-$$n.log 2>&1; then \
	    echo "fuzz-replay: fuzz_$$n failed on an input of $$c (testsuite/fuzz/replay-$$n.log):" >&2; \
	    tail -n 5 testsuite/fuzz/replay-$$n.log >&2; exit 1; \
	  fi; \
	  echo "fuzz-replay: fuzz_$$n: $$(ls $$c | wc -l) inputs, each run once"; \
	done
.PHONY: fuzz-replay
CLEANFILES += $(FUZZ_TARGETS:%=testsuite/fuzz/replay-%.log)
# the list, for testsuite/build.bats
fuzz-targets:
	@echo $(FUZZ_TARGETS)
.PHONY: fuzz-targets
