# Unit tests of runtime/pattern.c (names and probe-point patterns), cmocka.
check_PROGRAMS += testsuite/unit/test_pattern
testsuite_unit_test_pattern_SOURCES = testsuite/unit/test_pattern.c
testsuite_unit_test_pattern_CPPFLAGS = $(AM_CPPFLAGS) $(CMOCKA_CFLAGS)
testsuite_unit_test_pattern_LDADD = runtime/libsjruntime.la $(CMOCKA_LIBS)
UNIT_TESTS += testsuite/unit/test_pattern
