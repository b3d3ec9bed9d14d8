# examples/: example scripts and the Java programs they watch (included from the
# top Makefile.am). The classes land in $(builddir)/examples/java/classes:
#   test.java  the program of the seed's example 6.2 (java.io.BufferedWriter), verbatim
#   Tour.java  every kind of Java event, in a fixed order (examples/tour.stp)
#   Shop.java  an order that waits for a lock, deep in its stack (examples/contention.stp)
#   SlowRequests.java  requests slow by GC, a lock, I/O (examples/slow-request.stp: JFR)
# Hello.java is compiled by ./quickstart demo itself.
SJ_EXAMPLES_JAVAFILES = examples/java/test.java examples/java/Tour.java examples/java/Shop.java \
	examples/java/SlowRequests.java
SJ_EXAMPLES_STPFILES = examples/gc-time.stp examples/bufferedwriter.stp \
	examples/bufferedwriter-seed.stp examples/tour.stp examples/contention.stp \
	examples/slow-request.stp
EXTRA_DIST += $(SJ_EXAMPLES_JAVAFILES) $(SJ_EXAMPLES_STPFILES) examples/java/Hello.java \
	examples/demo-6.2.sh doc/first-session.md
check_DATA += examples/java/classes.stamp

examples/java/classes.stamp: $(SJ_EXAMPLES_JAVAFILES:%=$(srcdir)/%)
	$(AM_V_GEN)rm -rf examples/java/classes && mkdir -p examples/java/classes && \
	  $(JAVAC) --release 17 -d examples/java/classes $(SJ_EXAMPLES_JAVAFILES:%=$(srcdir)/%) && touch $@

CLEANFILES += examples/java/classes.stamp
clean-local: clean-sj-examples
clean-sj-examples:
	rm -rf examples/java/classes
.PHONY: clean-sj-examples
