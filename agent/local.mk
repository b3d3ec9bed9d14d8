# agent/: the JVMTI agent libstapjava.so (see agent/README.md).

# The class-file rewriter: pure C (no JVMTI), so the unit tests, the fuzz
# target and the rewrite stress use it on its own.
noinst_LTLIBRARIES += agent/libsjrewrite.la
agent_libsjrewrite_la_SOURCES = \
	agent/cfbytes.h \
	agent/cfpool.c agent/cfpool.h \
	agent/bytecode.c agent/bytecode.h \
	agent/descriptor.c agent/descriptor.h \
	agent/codeedit.c agent/codeedit.h \
	agent/stackmap.c agent/stackmap.h \
	agent/preinit.c agent/preinit.h \
	agent/codeattr.c agent/codeattr.h \
	agent/classfile.c agent/classfile.h \
	agent/cfmethods.c agent/cfmethods.h \
	agent/cfwrap.c agent/cfwrap.h

# The event path's buffers and clock: no JVMTI, so the unit tests use them on their own.
noinst_LTLIBRARIES += agent/libsjevents.la
agent_libsjevents_la_SOURCES = \
	agent/ring.c agent/ring.h \
	agent/tbuf.c agent/tbuf.h \
	agent/evtemplate.c agent/evtemplate.h \
	agent/plainev.c agent/plainev.h \
	agent/clock.c agent/clock.h
agent_libsjevents_la_CFLAGS = $(AM_CFLAGS) $(AGENT_OPT_CFLAGS)

lib_LTLIBRARIES += agent/libstapjava.la
agent_libstapjava_la_SOURCES = \
	agent/agent.c agent/agent.h \
	agent/options.c agent/options.h \
	agent/listener.c agent/listener.h \
	agent/jfr.c agent/jfr.h agent/jfrrepo.c agent/jfrrepo.h \
	agent/io.c agent/io.h \
	agent/conn.c agent/conn.h agent/generation.h \
	agent/regset.c agent/regset.h \
	agent/lineage.c agent/lineage.h agent/lineage_jvm.c agent/lineage_jvm.h \
	agent/commands.c agent/commands.h \
	agent/jvmti_events.c agent/jvmti_events.h agent/jvmti_family.h \
	agent/emit.c agent/emit.h \
	agent/inthread.c agent/inthread.h \
	agent/nomatch.c agent/nomatch.h \
	agent/listing.c agent/listing.h \
	agent/mcache.c agent/mcache.h \
	agent/osthread.c agent/osthread.h \
	agent/fallback.c agent/fallback.h \
	agent/sites.c agent/sites.h \
	agent/records.c agent/records.h \
	agent/probe.c agent/probe.h agent/overflow.c agent/overflow.h \
	agent/inject.c agent/inject.h \
	agent/natwrap.c agent/natwrap.h \
	agent/scratch.c agent/scratch.h \
	agent/capture.c agent/capture.h \
	agent/callbacks.h \
	agent/cb_method.c agent/cb_class.c agent/cb_exception.c \
	agent/cb_thread.c agent/cb_monitor.c agent/cb_gc.c
agent_libstapjava_la_CFLAGS = $(AM_CFLAGS) $(AGENT_OPT_CFLAGS)
agent_libstapjava_la_LDFLAGS = -module -avoid-version -shared -Wl,--version-script=$(top_srcdir)/agent/exports.map \
	$(AGENT_OPT_CFLAGS)
EXTRA_agent_libstapjava_la_DEPENDENCIES = $(top_srcdir)/agent/exports.map
EXTRA_DIST += agent/exports.map
# JDK_CPPFLAGS uses -isystem: jvmti.h is not -Wstrict-prototypes clean (configure.ac).
agent_libstapjava_la_CPPFLAGS = $(AM_CPPFLAGS) $(JDK_CPPFLAGS)
agent_libstapjava_la_LIBADD = agent/libsjrewrite.la agent/libsjevents.la runtime/libsjmarkers.la runtime/libsjruntime.la -lpthread -lm
EXTRA_DIST += agent/README.md

# Tests and the bridge find the agent at a stable path in the build tree.
all-local: agent/libstapjava.so
agent/libstapjava.so: agent/libstapjava.la
	$(AM_V_GEN)rm -f $@ && ln -s .libs/libstapjava.so $@
CLEANFILES += agent/libstapjava.so

# Object.notify/notifyAll reported from their call sites (issue 14).
agent_libstapjava_la_SOURCES += agent/notifysites.c agent/notifysites.h
