# man/: manual pages (included from the top Makefile.am). stap-java(1) is
# installed by translator-patches/local.mk (dist_man1_MANS).
dist_man8_MANS = man/stpd-bridge.8
dist_man3_MANS = man/stapprobes-java.3stap
