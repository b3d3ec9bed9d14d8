# testsuite/java: Java programs and the C test client used by testsuite/agent.bats.
# Most tests observe the agent through stpd-bridge --print; sjclient is for what
# the bridge cannot do on purpose (raw bytes, another uid, Appendix-only,
# never acking). It prints with the bridge's own formatter (stpd-bridge/print.c).
# The Java classes land in $(builddir)/testsuite/java/classes.
check_PROGRAMS += testsuite/java/sjclient
testsuite_java_sjclient_SOURCES = testsuite/java/sjclient.c \
	stpd-bridge/print.c stpd-bridge/print.h \
	stpd-bridge/threadnames.c stpd-bridge/threadnames.h
testsuite_java_sjclient_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/stpd-bridge
testsuite_java_sjclient_LDADD = runtime/libsjruntime.la $(CAP_LIBS) -lm

SJ_JAVA_FILES = testsuite/java/Families.java testsuite/java/Unloadable.java \
	testsuite/java/Named.java
EXTRA_DIST += $(SJ_JAVA_FILES) testsuite/agent.bats
check_DATA += testsuite/java/classes.stamp
build-tests: testsuite/java/classes.stamp

testsuite/java/classes.stamp: $(SJ_JAVA_FILES:%=$(srcdir)/%)
	$(AM_V_GEN)rm -rf testsuite/java/classes && mkdir -p testsuite/java/classes && \
	  $(JAVAC) --release 17 -d testsuite/java/classes $(SJ_JAVA_FILES:%=$(srcdir)/%) && touch $@

clean-local: clean-sj-java
clean-sj-java:
	rm -rf testsuite/java/classes testsuite/java/classes.stamp
.PHONY: clean-sj-java
