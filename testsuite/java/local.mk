# testsuite/java: Java programs and the C test client used by testsuite/agent.bats.
# sjclient stands in for stpd-bridge (it prints the --print format); the Java
# classes land in $(builddir)/testsuite/java/classes.
check_PROGRAMS += testsuite/java/sjclient
testsuite_java_sjclient_SOURCES = testsuite/java/sjclient.c \
	testsuite/java/sjprint.c testsuite/java/sjprint.h
testsuite_java_sjclient_LDADD = runtime/libsjruntime.la $(CAP_LIBS) -lm

SJ_JAVA_FILES = testsuite/java/Families.java testsuite/java/Unloadable.java
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
