# tapset/: the java.* probe aliases and functions (included from the top Makefile.am).
#
# stapjava.stp names the bridge binary and the agent library
# (process("PATH").mark(...)), so it is generated from stapjava.stp.in twice:
#  - in the build tree, with the build tree's bridge and agent, for the tests
#    (they set STAPJAVA_TAPSET=$(abs_top_builddir)/tapset);
#  - at `make install`, with the installed bridge $(bindir)/stpd-bridge and
#    agent $(libdir)/libstapjava.so, into
#    $(tapsetdir), where stap-java looks by default (SJ_TAPSET_DIR).
# DESTDIR is only where the files go, never part of the path written inside.
tapsetdir = $(pkgdatadir)/tapset
EXTRA_DIST += tapset/stapjava.stp.in tapset/stapjava.stpm.in
noinst_DATA = tapset/stapjava.stp tapset/stapjava.stpm
CLEANFILES += tapset/stapjava.stp tapset/stapjava.stpm

# The macros (stapjava.stpm) name no path: copied as they are beside the
# tapset (stap reads the *.stpm of each -I directory).
tapset/stapjava.stpm: $(srcdir)/tapset/stapjava.stpm.in
	$(AM_V_GEN)$(MKDIR_P) tapset && cp $(srcdir)/tapset/stapjava.stpm.in $@

SJ_TAPSET_SED = sed -e 's|@STPD_BRIDGE@|$(1)|g' -e 's|@STAPJAVA_AGENT@|$(2)|g'

tapset/stapjava.stp: $(srcdir)/tapset/stapjava.stp.in Makefile
	$(AM_V_GEN)$(MKDIR_P) tapset && \
	  $(call SJ_TAPSET_SED,$(abs_top_builddir)/stpd-bridge/stpd-bridge,$(abs_top_builddir)/agent/.libs/libstapjava.so) \
	    $(srcdir)/tapset/stapjava.stp.in >$@.tmp && mv $@.tmp $@

install-data-local: install-sj-tapset
install-sj-tapset: $(srcdir)/tapset/stapjava.stp.in
	$(MKDIR_P) '$(DESTDIR)$(tapsetdir)'
	$(call SJ_TAPSET_SED,$(bindir)/stpd-bridge,$(libdir)/libstapjava.so) $(srcdir)/tapset/stapjava.stp.in \
	  >'$(DESTDIR)$(tapsetdir)/stapjava.stp.tmp' && \
	  chmod 644 '$(DESTDIR)$(tapsetdir)/stapjava.stp.tmp' && \
	  mv '$(DESTDIR)$(tapsetdir)/stapjava.stp.tmp' '$(DESTDIR)$(tapsetdir)/stapjava.stp'
	$(INSTALL_DATA) $(srcdir)/tapset/stapjava.stpm.in '$(DESTDIR)$(tapsetdir)/stapjava.stpm'

uninstall-local: uninstall-sj-tapset
uninstall-sj-tapset:
	rm -f '$(DESTDIR)$(tapsetdir)/stapjava.stp' '$(DESTDIR)$(tapsetdir)/stapjava.stpm'
	-rmdir '$(DESTDIR)$(tapsetdir)'

.PHONY: install-sj-tapset uninstall-sj-tapset

EXTRA_DIST += testsuite/install.bats testsuite/vm/java_probes.bats
