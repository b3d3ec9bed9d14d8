# testsuite/java: Java programs and the C test client used by testsuite/agent.bats.
# Most tests observe the agent through stpd-bridge --print; sjclient is for what
# the bridge cannot do on purpose (raw bytes, another uid, Appendix-only,
# never acking). It prints with the bridge's own formatter (runtime/print.c).
# The Java classes land in $(builddir)/testsuite/java/classes. Unicode.java has
# a class named outside ASCII: javac names its file in the locale's encoding,
# so it runs in a UTF-8 locale (C.UTF-8: glibc 2.35 and later have it built in).
check_PROGRAMS += testsuite/java/sjclient
testsuite_java_sjclient_SOURCES = testsuite/java/sjclient.c \
	stpd-bridge/threadnames.c stpd-bridge/threadnames.h
testsuite_java_sjclient_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge
testsuite_java_sjclient_LDADD = runtime/libsjruntime.la $(CAP_LIBS) -lm

SJ_JAVA_FILES = testsuite/java/Families.java testsuite/java/Unloadable.java testsuite/java/LoadAll.java \
	testsuite/java/Named.java testsuite/java/Unicode.java testsuite/java/Clog.java
SJ_JAVA_FILES += testsuite/java/JfrWork.java
SJ_JAVA_FILES += testsuite/java/JfrGc.java
SJ_JAVA_FILES += testsuite/java/Roots.java
SJ_JAVA_FILES += testsuite/java/HiddenNotify.java
SJ_JAVA_FILES += testsuite/java/Natives.java testsuite/java/Retransformer.java testsuite/java/NativesGone.java
SJ_JAVA_FILES += testsuite/java/Escape.java
EXTRA_DIST += $(SJ_JAVA_FILES) testsuite/agent.bats
check_DATA += testsuite/java/classes.stamp
build-tests: testsuite/java/classes.stamp

testsuite/java/classes.stamp: $(SJ_JAVA_FILES:%=$(srcdir)/%)
	$(AM_V_GEN)rm -rf testsuite/java/classes && mkdir -p testsuite/java/classes && \
	  LC_ALL=C.UTF-8 $(JAVAC) --release 17 -d testsuite/java/classes $(SJ_JAVA_FILES:%=$(srcdir)/%) && \
	  touch $@

clean-local: clean-sj-java
clean-sj-java:
	rm -rf testsuite/java/classes testsuite/java/classes.stamp
.PHONY: clean-sj-java

# librewrite_stress.so: a JVMTI agent that puts enter, return and
# exceptional-exit calls into every method of every class the VM loads
# (agent/classfile.h), for the -Xverify:all rewrite stress
# (testsuite/rewrite-stress, and a slice of it in testsuite/agent.bats).
noinst_LTLIBRARIES += testsuite/java/librewrite_stress.la
testsuite_java_librewrite_stress_la_SOURCES = testsuite/java/rewrite_stress.c
testsuite_java_librewrite_stress_la_LIBADD = agent/libsjrewrite.la -lpthread
testsuite_java_librewrite_stress_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
testsuite_java_librewrite_stress_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/agent $(JDK_CPPFLAGS)
all-local: testsuite/java/librewrite_stress.so
testsuite/java/librewrite_stress.so: testsuite/java/librewrite_stress.la
	$(AM_V_GEN)rm -f $@ && ln -s .libs/librewrite_stress.so $@
CLEANFILES += testsuite/java/librewrite_stress.so

# javaThreadId in recorded .jfr files (testsuite/record.bats).
SJ_JAVA_FILES += testsuite/java/JavaIds.java

# retransformer.jar: a Java agent (Retransformer.java) that retransforms the
# classes it is asked to, as monitoring agents do (testsuite/agent.bats "natives").
check_DATA += testsuite/java/retransformer.jar
build-tests: testsuite/java/retransformer.jar
testsuite/java/retransformer.jar: testsuite/java/classes.stamp
	$(AM_V_GEN)printf 'Premain-Class: Retransformer\nCan-Retransform-Classes: true\n' >testsuite/java/retransformer.mf && \
	  $(JAR) --create --file $@ --manifest testsuite/java/retransformer.mf -C testsuite/java/classes Retransformer.class
CLEANFILES += testsuite/java/retransformer.jar testsuite/java/retransformer.mf

# libnatives.so: the code of Natives.java's native methods, which the agent
# wraps (agent/cfwrap.h; testsuite/agent.bats "natives").
noinst_LTLIBRARIES += testsuite/java/libnatives.la
testsuite_java_libnatives_la_SOURCES = testsuite/java/natives.c
testsuite_java_libnatives_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
testsuite_java_libnatives_la_CPPFLAGS = $(AM_CPPFLAGS) $(JDK_CPPFLAGS)
all-local: testsuite/java/libnatives.so
testsuite/java/libnatives.so: testsuite/java/libnatives.la
	$(AM_V_GEN)rm -f $@ && ln -s .libs/libnatives.so $@
CLEANFILES += testsuite/java/libnatives.so
