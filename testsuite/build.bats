#!/usr/bin/env bats
# The build and the test runner: configure names the Debian package of every
# missing dependency; run-tests tallies TAP honestly; quickstart rejects bad
# commands.

setup_file() {
	export SRC=${STAPJAVA_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
	[ -x "$SRC/configure" ] || (cd "$SRC" && autoreconf -fi >/dev/null 2>&1)
	# One full configure run fills a cache; each test below then reruns
	# configure from that cache with one dependency forced missing.
	mkdir -p "$BATS_FILE_TMPDIR/ok"
	(cd "$BATS_FILE_TMPDIR/ok" && "$SRC/configure" --cache-file="$BATS_FILE_TMPDIR/config.cache" >out 2>&1)
}

# configure_without VAR=VALUE...: configure from the cache with VAR forced.
configure_without() {
	local dir
	dir=$(mktemp -d "$BATS_FILE_TMPDIR/c.XXXXXX")
	cp "$BATS_FILE_TMPDIR/config.cache" "$dir/config.cache"
	cd "$dir"
	run env "$@" "$SRC/configure" --cache-file=config.cache "$@"
}

# configure_fresh VAR=VALUE...: the same without the cache, for autoconf's
# "precious" variables (JAVA_HOME, PKG_CONFIG_*), which a cache refuses to see change.
configure_fresh() {
	cd "$(mktemp -d "$BATS_FILE_TMPDIR/c.XXXXXX")"
	run env "$@" "$SRC/configure" "$@"
}

@test "configure succeeds on this machine and finds the JDK headers" {
	grep -q '^checking for a JDK with jni.h and jvmti.h... /' "$BATS_FILE_TMPDIR/ok/out"
}

@test "configure without a JDK names openjdk-17-jdk-headless" {
	configure_fresh JAVA_HOME=/nonexistent
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: no JDK with include/jni.h and include/jvmti.h (JAVA_HOME='/nonexistent'): install the Debian package 'openjdk-17-jdk-headless' or set JAVA_HOME to a JDK" ]]
}

@test "configure without sys/sdt.h names systemtap-sdt-dev" {
	configure_without ac_cv_header_sys_sdt_h=no
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: sys/sdt.h not found: install the Debian package 'systemtap-sdt-dev' (apt-get install systemtap-sdt-dev)" ]]
}

@test "configure without libcap names libcap-dev" {
	configure_without ac_cv_header_sys_capability_h=no
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: sys/capability.h not found: install the Debian package 'libcap-dev' (apt-get install libcap-dev)" ]]
	configure_without ac_cv_lib_cap_cap_get_proc=no
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: libcap not found: install the Debian package 'libcap-dev' (apt-get install libcap-dev)" ]]
}

@test "configure without elfutils names libelf-dev and libdw-dev" {
	configure_without ac_cv_header_libelf_h=no
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: libelf.h not found: install the Debian package 'libelf-dev' (apt-get install libelf-dev)" ]]
	configure_without ac_cv_header_elfutils_libdw_h=no
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: elfutils/libdw.h not found: install the Debian package 'libdw-dev' (apt-get install libdw-dev)" ]]
}

@test "configure without libzip names libzip-dev" {
	configure_fresh PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH=
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: libzip (stap-java) not found: install the Debian package 'libzip-dev' (apt-get install libzip-dev)" ]]
}

@test "configure without the test tools names cmocka, bats, systemtap, systemtap-runtime" {
	# pkg-config finds nothing; libzip (checked before cmocka) is given by hand
	configure_fresh PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH= LIBZIP_CFLAGS=-I/usr/include LIBZIP_LIBS=-lzip
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: cmocka (C unit tests) not found: install the Debian package 'libcmocka-dev' (apt-get install libcmocka-dev)" ]]
	configure_without ac_cv_path_BATS=
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: bats (testsuite) not found: install the Debian package 'bats' (apt-get install bats)" ]]
	configure_without ac_cv_path_STAP=
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: stap (SystemTap translator) not found: install the Debian package 'systemtap' (apt-get install systemtap)" ]]
	configure_without ac_cv_path_STAPRUN=
	[ "$status" -ne 0 ]
	[[ ${lines[-1]} == "configure: error: staprun (SystemTap runtime) not found: install the Debian package 'systemtap-runtime' (apt-get install systemtap-runtime)" ]]
}

# A fake build tree whose "unit tests" are scripts printing chosen TAP.
make_fake_build() {
	local dir=$1
	shift
	mkdir -p "$dir"
	printf 'print-unit-tests:\n\t@echo "config.status: creating Makefile"\n\t@echo "UNIT_TESTS: %s"\n' "$*" >"$dir/Makefile"
}

fake_test() { # fake_test DIR NAME BODY
	printf '#!/bin/sh\n%s\n' "$3" >"$1/$2"
	chmod +x "$1/$2"
}

@test "run-tests counts passes, failures, skips and a crash that cuts the plan short" {
	local b=$BATS_TEST_TMPDIR/fake
	make_fake_build "$b" t_pass t_fail t_skip t_crash
	fake_test "$b" t_pass 'echo 1..2; echo "ok 1 - a"; echo "ok 2 - b"'
	fake_test "$b" t_fail 'echo 1..1; echo "not ok 1 - c"; exit 1'
	fake_test "$b" t_skip 'echo 1..1; echo "not ok 1 # SKIP d"'
	fake_test "$b" t_crash 'echo 1..3; echo "ok 1 - e"; kill -SEGV $$'
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 1 ]
	[[ $output == *"not ok - t_crash: 2 of 3 planned tests never reported (crashed?)"* ]]
	[[ $output == *"unit:      3 passed, 3 failed, 1 skipped"* ]]
	[[ $output == *"skipped tests fail the run"* ]]
	[ "${lines[-1]}" = "total: 3 passed, 3 failed, 1 skipped" ]
}

@test "run-tests fails a run with a skip unless --allow-skip, and passes a clean one" {
	local b=$BATS_TEST_TMPDIR/fake
	make_fake_build "$b" t_pass t_skip
	fake_test "$b" t_pass 'echo 1..1; echo "ok 1 - a"'
	fake_test "$b" t_skip 'echo 1..1; echo "ok 1 - b # skip no reason"'
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "total: 1 passed, 0 failed, 1 skipped" ]
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" --allow-skip unit
	[ "$status" -eq 0 ]
	make_fake_build "$b" t_pass
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "total: 1 passed, 0 failed, 0 skipped" ]
}

@test "run-tests fails when a unit program was not built, or nothing ran" {
	local b=$BATS_TEST_TMPDIR/fake
	make_fake_build "$b" t_missing
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 1 ]
	[[ $output == *"not ok 1 - t_missing was not built (run make check)"* ]]
	make_fake_build "$b"
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 1 ]
	[[ $output == *"no test ran"* ]]
	run "$SRC/testsuite/run-tests" nonsense
	[ "$status" -eq 2 ]
	[ "$output" = "run-tests: unknown tier or option 'nonsense' (tiers: unit unit-asan bats vm)" ]
}

@test "quickstart rejects an unknown command and shows usage on request" {
	run "$SRC/quickstart" frobnicate
	[ "$status" -eq 1 ]
	[ "$output" = "quickstart: unknown command 'frobnicate' (commands: demo, test, bench, build, deps)" ]
	run "$SRC/quickstart" --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "quickstart: install what is missing, build, and run stapjava." ]
}

@test "run-tests fails a program that reports success but exits non-zero" {
	local b=$BATS_TEST_TMPDIR/fake
	make_fake_build "$b" t_leak
	fake_test "$b" t_leak 'echo 1..1; echo "ok 1 - a"; echo "LeakSanitizer: detected memory leaks" >&2; exit 23'
	STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 1 ]
	[[ $output == *"not ok - t_leak: exited with status 23 after its tests"* ]]
	[ "${lines[-1]}" = "total: 1 passed, 1 failed, 0 skipped" ]
}

@test "run-tests stops a hung program at its bound and counts it as failed" {
	local b=$BATS_TEST_TMPDIR/fake
	make_fake_build "$b" t_hang
	fake_test "$b" t_hang 'echo 1..2; echo "ok 1 - a"; exec sleep 600'
	STAPJAVA_TEST_TIMEOUT=2 STAPJAVA_BUILDDIR=$b run "$SRC/testsuite/run-tests" unit
	[ "$status" -eq 1 ]
	[[ $output == *"# TIMEOUT: t_hang was stopped after 2 s"* ]]
	# each producer's time against its bound, and the tier's slowest
	[ "$(grep -c '^# time: [0-9]* s of the 2 s bound$' <<<"$output")" -eq 1 ]
	[[ $output == *"unit:      1 passed, 1 failed, 0 skipped (slowest: t_hang, "[0-9]*" s of 2 s)"* ]]
	[[ $output == *"not ok - t_hang: 1 of 2 planned tests never reported (crashed?)"* ]]
	[ "${lines[-1]}" = "total: 1 passed, 1 failed, 0 skipped" ]
}

# The threads' own event buffers (agent/ring.c, agent/tbuf.c) are lock-free:
# their unit tests, concurrent producers and a drainer included, run once
# more under ThreadSanitizer (the unit tiers run them plain and under ASan).
@test "thread buffers: the ring and merge unit tests under ThreadSanitizer, no report" {
	local t
	cd "$BATS_FILE_TMPDIR"
	for t in ring tbuf; do
		run gcc -std=gnu11 -O1 -g -fsanitize=thread -I"$SRC/agent" -o "tsan_$t" \
			"$SRC/testsuite/unit/test_$t.c" "$SRC/agent/ring.c" "$SRC/agent/tbuf.c" \
			$(pkg-config --cflags --libs cmocka) -lpthread
		[ "$status" -eq 0 ]
		run env TSAN_OPTIONS=halt_on_error=1:exitcode=66 "./tsan_$t"
		[ "$status" -eq 0 ]
		[[ $output != *ThreadSanitizer* ]]
		[[ $output == *"[  PASSED  ] "*" test(s)."* ]]
		[[ $output != *FAILED* ]]
	done
}

# Issue 12: "no circle of includes in agent/". Include guards hide a circle
# from the compiler; testsuite/include-cycles.py finds one from the headers'
# own #include lines.
@test "no header of agent/, stpd-bridge/, runtime/ or formats/ includes itself through others; a circle is named" {
	local n d=$BATS_TEST_TMPDIR/circle
	n=$(ls "$SRC"/agent/*.h "$SRC"/stpd-bridge/*.h "$SRC"/runtime/*.h "$SRC"/formats/*.h | wc -l)
	cd "$SRC"
	run python3 testsuite/include-cycles.py agent stpd-bridge runtime formats
	[ "$status" -eq 0 ]
	[ "$output" = "no circle: $n headers in 4 directories" ]
	# the check itself: a circle of three, one of a header with itself,
	# and a header that only joins one
	mkdir -p "$d"
	printf '#include "b.h"\n' >"$d/a.h"
	printf '#include <stdio.h>\n#include "c.h"\n' >"$d/b.h"
	printf '  # include "a.h"\n' >"$d/c.h"
	printf '#include "d.h"\n' >"$d/d.h"
	printf '#include "a.h"\n' >"$d/e.h"
	run python3 testsuite/include-cycles.py "$d"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "$d: a.h -> b.h -> c.h -> a.h" ]
	[ "${lines[1]}" = "$d: d.h -> d.h" ]
	run python3 testsuite/include-cycles.py "$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 2 ]
	[ "$output" = "include-cycles.py: $BATS_TEST_TMPDIR/none: No such file or directory" ]
}

# The fuzz targets are built outside automake's rules, from source lists kept
# by hand in testsuite/fuzz/local.mk: five of them once stopped linking
# (runtime/print.c came to need outbuf.c) and nothing noticed. `make
# fuzz-replay` builds every one with clang's libFuzzer, ASan and UBSan and
# runs it once on each input of its corpus (bounded work: no fuzzing).
@test "every fuzz target builds with libFuzzer and runs each input of its corpus once, and every corpus has its target" {
	local build=${STAPJAVA_BUILDDIR:-$SRC} t n c expected=() corpora=()
	local -A inputs=()
	run make -s -C "$build" fuzz-targets
	[ "$status" -eq 0 ]
	local -a targets=($output)
	for t in "${targets[@]}"; do
		n=${t%%:*}
		inputs[$n]=$(ls "$SRC/testsuite/fuzz/${t#*:}" | wc -l)
		expected+=("fuzz-replay: fuzz_$n: ${inputs[$n]} inputs, each run once")
		corpora+=("${t#*:}")
	done
	# no corpus without its target
	for c in "$SRC"/testsuite/fuzz/corpus*/; do
		c=$(basename "$c")
		[[ " ${corpora[*]} " == *" $c "* ]] || { echo "no fuzz target runs $c"; false; }
	done
	run make -s -j"$(nproc)" -C "$build" --no-print-directory fuzz-replay
	echo "$output" | tail -n 20
	[ "$status" -eq 0 ]
	mapfile -t got < <(printf '%s\n' "${lines[@]}" | grep '^fuzz-replay: ')
	[ "${#got[@]}" -eq "${#expected[@]}" ]
	for i in "${!expected[@]}"; do
		[ "${got[$i]}" = "${expected[$i]}" ]
	done
	# each input ran to its end under the sanitizers (libFuzzer's reproducer says so)
	for n in "${!inputs[@]}"; do
		[ "$(grep -c '^Executed ' "$build/testsuite/fuzz/replay-$n.log")" -eq "${inputs[$n]}" ]
	done
}

# The vm tier compares the Tour run's output with its pid and tids masked
# (testsuite/vm/tour_mask.bash). A fresh guest's tids are small numbers: a
# run whose worker-1 got tid 300 once failed "every family fires", its mask
# having turned Tour.check's argument 300 into W1. Only pid=, tid= and the
# osTid() call's return value are masked.
@test "the vm tier's mask of the Tour run names a tid where it stands, not an argument of the same value" {
	load vm/tour_mask
	local d=$BATS_TEST_TMPDIR
	printf '%s\n' 'pid 277' 'tid main=300' 'caught: on purpose' 'tid worker-1=301' 'done' >"$d/java.out"
	printf '%s\n' 'vm.init pid=277 tid=300 ts ok' \
		'method.enter pid=277 tid=300 ts ok Tour.check(ZBSF)Z args=false,-1,300,1.5' \
		'method.enter pid=277 tid=301 ts ok Tour.add(II)I args=277,301' \
		'method.return pid=277 tid=300 ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="300"' \
		'method.return pid=277 tid=300 ts ok Tour.nothing(Ljava/lang/Object;)Ljava/lang/Object; popped=0 ret=java.lang.Object@1f#12' \
		'method.return pid=277 tid=301 ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="301"' >"$d/out"
	run mask_tour "$d/java.out" "$d/out"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' '== MAIN' 'vm.init pid=PID tid=MAIN ts ok' \
		'method.enter pid=PID tid=MAIN ts ok Tour.check(ZBSF)Z args=false,-1,300,1.5' \
		'method.return pid=PID tid=MAIN ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="MAIN"' \
		'method.return pid=PID tid=MAIN ts ok Tour.nothing(Ljava/lang/Object;)Ljava/lang/Object; popped=0 ret=java.lang.Object@H#ID' \
		'== W1' 'method.enter pid=PID tid=W1 ts ok Tour.add(II)I args=277,301' \
		'method.return pid=PID tid=W1 ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="W1"')" ]
}

# The vm tier's -x tests build their script for pid 5000 before the guest
# runs and start the JVM with ns_last_pid at 4999: a kernel thread the guest
# forks at that moment would take 5000 (testsuite/vm/guest_pid.bash). Here
# in a pid namespace of its own: the pid comes, and when another process
# holds it, each try is killed and the snippet fails with the reason.
@test "the vm tier's start_with_pid gives the command its pid, and says so when it cannot" {
	load vm/guest_pid
	local d=$BATS_TEST_TMPDIR
	run unshare --pid --fork --mount-proc sh -c "$(start_with_pid 5000 "sleep 30 >$d/out 2>&1" "$d/pid"); kill \$(cat $d/pid); echo started"
	[ "$status" -eq 0 ]
	[ "$output" = started ]
	[ "$(cat "$d/pid")" = 5000 ]
	rm -f "$d/pid"
	run unshare --pid --fork --mount-proc sh -c "echo 4999 >/proc/sys/kernel/ns_last_pid; sleep 30 & $(start_with_pid 5000 "sleep 30 >$d/out 2>&1" "$d/pid"); echo started"
	[ "$status" -eq 1 ]
	[ "$output" = 'start_with_pid: no pid 5000 in 20 tries (the last: 5001)' ]
	[ ! -e "$d/pid" ]
}
