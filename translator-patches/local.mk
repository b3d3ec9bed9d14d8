# translator-patches: fixes for stock SystemTap (included from the top Makefile.am)

EXTRA_DIST += \
	translator-patches/README.md \
	translator-patches/stap-runtime-fix \
	translator-patches/task-work-cancel-func.patch \
	translator-patches/relay-output-loss.patch

# stap-java: the translator (see man/stap-java.1).  The paths it uses are compiled
# in; STAPJAVA_BRIDGE, STAPJAVA_AGENT, STAPJAVA_TAPSET and STAPJAVA_RUNTIME_FIX
# override them (the tests run from the build tree that way, and a staged
# install from DESTDIR): the bridge and the agent reach the tapset's aliases
# through the stapjava_paths.stpm stap-java writes (tapset/local.mk).
# Its modules, apart from main(), for tapset/gen-tapset too (the tapset's
# family aliases are written from sj_emit.c's table) and the unit tests.
noinst_LTLIBRARIES += translator-patches/libsjtranslate.la
translator_patches_libsjtranslate_la_SOURCES = \
	translator-patches/sj_buf.c translator-patches/sj_buf.h \
	translator-patches/sj_lex.c translator-patches/sj_lex.h \
	translator-patches/sj_diag.c translator-patches/sj_diag.h \
	translator-patches/sj_translate.c translator-patches/sj_translate.h \
	translator-patches/sj_emit.c translator-patches/sj_emit.h \
	translator-patches/sj_jfr.c translator-patches/sj_jfr.h \
	translator-patches/sj_cmdline.c translator-patches/sj_cmdline.h \
	translator-patches/sj_run.c translator-patches/sj_run.h \
	translator-patches/sj_srcmap.c translator-patches/sj_srcmap.h \
	translator-patches/sj_resolve.c translator-patches/sj_resolve.h \
	translator-patches/sj_files.c translator-patches/sj_files.h \
	translator-patches/sj_list.c translator-patches/sj_list.h \
	translator-patches/sj_classpath.c translator-patches/sj_classpath.h \
	translator-patches/sj_java.c translator-patches/sj_java.h \
	translator-patches/sj_java_stap.c translator-patches/sj_java_stap.h
# The class files of a --classpath are read with the agent's own code
# (agent/cfmethods.h), the jars with libzip.
translator_patches_libsjtranslate_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent $(LIBZIP_CFLAGS)
SJTRANSLATE_LIBS = translator-patches/libsjtranslate.la agent/libsjrewrite.la runtime/libsjruntime.la $(LIBZIP_LIBS)

bin_PROGRAMS += translator-patches/stap-java
translator_patches_stap_java_SOURCES = translator-patches/stap-java.c
translator_patches_stap_java_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSJ_BRIDGE_PATH='"$(bindir)/stpd-bridge"' \
	-DSJ_AGENT_PATH='"$(libdir)/libstapjava.so"' \
	-DSJ_TAPSET_DIR='"$(pkgdatadir)/tapset"' \
	-DSJ_RUNTIME_FIX='"$(runtimefixdir)/stap-runtime-fix"'
translator_patches_stap_java_LDADD = $(SJTRANSLATE_LIBS)

# The runtime fix is installed for stap-java, with the patch it applies beside it.
runtimefixdir = $(pkgdatadir)/runtime-fix
runtimefix_SCRIPTS = translator-patches/stap-runtime-fix
runtimefix_DATA = translator-patches/task-work-cancel-func.patch translator-patches/relay-output-loss.patch

dist_man1_MANS = man/stap-java.1
EXTRA_DIST += \
	testsuite/translator.bats \
	testsuite/translator/basic.expected \
	testsuite/translator/basic.stp \
	testsuite/translator/conditionals.expected \
	testsuite/translator/conditionals.stp \
	testsuite/translator/defaults.expected \
	testsuite/translator/defaults.stp \
	testsuite/translator/errors.err \
	testsuite/translator/errors.stp \
	testsuite/translator/java_errors.err \
	testsuite/translator/java_errors.stp \
	testsuite/translator/java_forms.expected \
	testsuite/translator/java_forms.stp \
	testsuite/translator/nojava.expected \
	testsuite/translator/nojava.stp \
	testsuite/translator/tricky.expected \
	testsuite/translator/tricky.stp

# A stand-in for stpd-bridge with all its markers, for testsuite/translator.bats.
check_PROGRAMS += testsuite/translator/fake-bridge
testsuite_translator_fake_bridge_SOURCES = testsuite/translator/fake-bridge.c
testsuite_translator_fake_bridge_LDADD = runtime/libsjmarkers.la runtime/libsjruntime.la

# Optional: stap-java in front of SystemTap's stap (man/stap-java.1, "As
# stap"): a link named stap in bindir, found before /usr/bin/stap in PATH.
# stap-java then runs the next stap in PATH that is not itself.
install-as-stap:
	$(MKDIR_P) "$(DESTDIR)$(bindir)"
	ln -sf stap-java "$(DESTDIR)$(bindir)/stap"

uninstall-as-stap:
	if [ -L "$(DESTDIR)$(bindir)/stap" ] && [ "$$(readlink "$(DESTDIR)$(bindir)/stap")" = stap-java ]; then \
		rm -f "$(DESTDIR)$(bindir)/stap"; fi

.PHONY: install-as-stap uninstall-as-stap
