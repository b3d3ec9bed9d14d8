# tapset/: the java.* probe aliases and functions (included from the top Makefile.am).
#
# stapjava.stp is stapjava.stp.in (its doc comments and functions, written by
# hand) with each family alias, after its doc comment, written by gen-tapset
# from the tables: runtime/events.h (the events and their markers) and
# translator-patches/sj_emit.c (the variables, which the slots' aliases set
# too), so that adding a variable or a family touches those tables only.
#
# stapjava.stp's aliases name the bridge binary and the agent library through
# two macros, process(@__stapjava_bridge).mark(...) and
# process(@__stapjava_agent).mark(...), defined in stapjava_paths.stpm beside
# it.  stapjava.stp is the same everywhere; stapjava_paths.stpm is generated
# from its .in twice:
#  - in the build tree, with the build tree's bridge and agent (the tests set
#    STAPJAVA_TAPSET=$(abs_top_builddir)/tapset);
#  - at `make install`, with the installed bridge $(bindir)/stpd-bridge and
#    agent $(libdir)/libstapjava.so, into $(tapsetdir), where stap-java looks
#    by default (SJ_TAPSET_DIR).
# DESTDIR is only where the files go, never part of the path written inside.
# Plain `stap -I $(tapsetdir)` uses these paths; stap-java writes a
# stapjava_paths.stpm of its own, with the paths it resolved (STAPJAVA_BRIDGE,
# STAPJAVA_AGENT, else the installed ones), in a temporary -I directory that
# it gives stap first: stap reads only the first tapset file of a name.  So a
# staged install runs with the STAPJAVA_* variables pointing into DESTDIR.
tapsetdir = $(pkgdatadir)/tapset
EXTRA_DIST += tapset/stapjava.stp.in tapset/stapjava.stpm.in tapset/stapjava_paths.stpm.in
tapset_DATA = tapset/stapjava.stp tapset/stapjava.stpm
noinst_DATA = tapset/stapjava_paths.stpm
CLEANFILES += tapset/stapjava.stp tapset/stapjava.stpm tapset/stapjava_paths.stpm

SJ_PATHS_SED = sed -e 's|@STPD_BRIDGE@|$(1)|g' -e 's|@STAPJAVA_AGENT@|$(2)|g'

noinst_PROGRAMS += tapset/gen-tapset
tapset_gen_tapset_SOURCES = tapset/gen-tapset.c
tapset_gen_tapset_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/translator-patches
tapset_gen_tapset_LDADD = $(SJTRANSLATE_LIBS)

tapset/stapjava.stp: $(srcdir)/tapset/stapjava.stp.in tapset/gen-tapset$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) tapset && \
	  { tapset/gen-tapset $(srcdir)/tapset/stapjava.stp.in >$@.tmp || { rm -f $@.tmp; exit 1; }; } && mv $@.tmp $@

# The public macros (@java_stack_frame ...): copied as they are. A .in, so
# that VPATH does not take the source for the build tree's copy.
tapset/stapjava.stpm: $(srcdir)/tapset/stapjava.stpm.in
	$(AM_V_GEN)$(MKDIR_P) tapset && cp $(srcdir)/tapset/stapjava.stpm.in $@.tmp && mv $@.tmp $@

tapset/stapjava_paths.stpm: $(srcdir)/tapset/stapjava_paths.stpm.in Makefile
	$(AM_V_GEN)$(MKDIR_P) tapset && \
	  $(call SJ_PATHS_SED,$(abs_top_builddir)/stpd-bridge/stpd-bridge,$(abs_top_builddir)/agent/.libs/libstapjava.so) \
	    $(srcdir)/tapset/stapjava_paths.stpm.in >$@.tmp && mv $@.tmp $@

install-data-local: install-sj-paths
install-sj-paths: $(srcdir)/tapset/stapjava_paths.stpm.in
	$(MKDIR_P) '$(DESTDIR)$(tapsetdir)'
	$(call SJ_PATHS_SED,$(bindir)/stpd-bridge,$(libdir)/libstapjava.so) $(srcdir)/tapset/stapjava_paths.stpm.in \
	  >'$(DESTDIR)$(tapsetdir)/stapjava_paths.stpm.tmp' && \
	  chmod 644 '$(DESTDIR)$(tapsetdir)/stapjava_paths.stpm.tmp' && \
	  mv '$(DESTDIR)$(tapsetdir)/stapjava_paths.stpm.tmp' '$(DESTDIR)$(tapsetdir)/stapjava_paths.stpm'

# after stapjava.stp is gone, so that the directory is empty for rmdir
uninstall-local: uninstall-sj-paths
uninstall-sj-paths: uninstall-tapsetDATA
	rm -f '$(DESTDIR)$(tapsetdir)/stapjava_paths.stpm'
	-rmdir '$(DESTDIR)$(tapsetdir)'

.PHONY: install-sj-paths uninstall-sj-paths

EXTRA_DIST += testsuite/install.bats testsuite/tapset.bats testsuite/vm/java_probes.bats
