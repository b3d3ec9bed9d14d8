#!/usr/bin/env bats
# `make install DESTDIR=...` from the build tree puts every file where the
# documentation says (man/stapprobes-java.3stap FILES, man/stap-java.1
# ENVIRONMENT, tapset/local.mk), and nothing else; the installed tapset names
# the installed bridge, not the build tree's.
# STAPJAVA_SRCDIR / STAPJAVA_BUILDDIR: source and build trees (default: the
# repository top).

bats_require_minimum_version 1.5.0

setup_file() {
	local top
	top=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	export STAPJAVA_SRCDIR=${STAPJAVA_SRCDIR:-$top}
	export STAPJAVA_BUILDDIR=${STAPJAVA_BUILDDIR:-$top}
	[ -f "$STAPJAVA_BUILDDIR/Makefile" ] || { echo "no Makefile in $STAPJAVA_BUILDDIR: configure and build first" >&2; return 1; }
	export DEST
	DEST=$(mktemp -d "${BATS_FILE_TMPDIR:-/tmp}/install.XXXXXX")
	# The configured directories, as make expands them.
	printf 'sj-print-dirs:\n\t@echo "bindir=$(bindir)"\n\t@echo "libdir=$(libdir)"\n\t@echo "pkgdatadir=$(pkgdatadir)"\n\t@echo "mandir=$(mandir)"\n' >"$DEST.dirs.mk"
	make -s -C "$STAPJAVA_BUILDDIR" -f Makefile -f "$DEST.dirs.mk" sj-print-dirs >"$DEST.dirs"
	make -s -C "$STAPJAVA_BUILDDIR" install DESTDIR="$DEST" >"$DEST.log" 2>&1 \
		|| { cat "$DEST.log" >&2; return 1; }
}

teardown_file() {
	rm -rf "$DEST" "$DEST.dirs" "$DEST.dirs.mk" "$DEST.log"
}

dirs() {
	# shellcheck disable=SC1090
	. "$DEST.dirs"
}

@test "make install DESTDIR puts exactly the documented files in place" {
	dirs
	expected=$(sort <<-EOF
		$bindir/stap-java
		$bindir/stpd-bridge
		$libdir/libstapjava.la
		$libdir/libstapjava.so
		$mandir/man1/stap-java.1
		$mandir/man3/stapprobes-java.3stap
		$mandir/man8/stpd-bridge.8
		$pkgdatadir/runtime-fix/stap-runtime-fix
		$pkgdatadir/runtime-fix/task-work-cancel-func.patch
		$pkgdatadir/runtime-fix/relay-output-loss.patch
		$pkgdatadir/tapset/stapjava.stp
	EOF
	)
	run --separate-stderr sh -c "cd '$DEST' && find . ! -type d | sed 's|^\./|/|' | sort"
	[ "$status" -eq 0 ]
	diff -u <(echo "$expected") <(echo "$output")
}

@test "the programs are executable, the data files are not" {
	dirs
	for f in "$bindir/stap-java" "$bindir/stpd-bridge" "$pkgdatadir/runtime-fix/stap-runtime-fix"; do
		[ -x "$DEST$f" ] || { echo "not executable: $f"; false; }
	done
	for f in "$pkgdatadir/tapset/stapjava.stp" "$mandir/man8/stpd-bridge.8" \
		"$mandir/man3/stapprobes-java.3stap"; do
		[ "$(stat -c %a "$DEST$f")" = 644 ] || { echo "mode $(stat -c %a "$DEST$f"): $f"; false; }
	done
}

@test "the installed tapset names the installed bridge and agent and nothing of the build tree" {
	dirs
	local tapset=$DEST$pkgdatadir/tapset/stapjava.stp
	run grep -c "process(\"$bindir/stpd-bridge\").mark(" "$tapset"
	[ "$output" = 11 ]
	# every family but lost fires in the agent too (in-thread dispatch)
	run grep -c "process(\"$libdir/libstapjava.so\").mark(" "$tapset"
	[ "$output" = 10 ]
	run grep -o 'process("[^"]*")' "$tapset"
	[ "$(sort -u <<<"$output")" = "$(printf '%s\n' "process(\"$bindir/stpd-bridge\")" "process(\"$libdir/libstapjava.so\")")" ]
	run grep -F -e "$STAPJAVA_BUILDDIR" -e "$DEST" -e @STPD_BRIDGE@ -e @STAPJAVA_AGENT@ "$tapset"
	[ "$status" -eq 1 ]
}

@test "the build tree's tapset names the build tree's bridge and agent" {
	local tapset=$STAPJAVA_BUILDDIR/tapset/stapjava.stp b
	b=$(cd "$STAPJAVA_BUILDDIR" && pwd)
	run grep -o 'process("[^"]*")' "$tapset"
	[ "$(sort -u <<<"$output")" = "$(printf '%s\n' "process(\"$b/agent/.libs/libstapjava.so\")" "process(\"$b/stpd-bridge/stpd-bridge\")")" ]
}

@test "the installed tapset is valid SystemTap: stap -p2 and stap -L with it" {
	dirs
	# The installed bridge path exists only under DESTDIR: point a copy there.
	local t=$DEST.tapset
	mkdir -p "$t"
	sed -e "s|process(\"$bindir/stpd-bridge\")|process(\"$DEST$bindir/stpd-bridge\")|" \
		-e "s|process(\"$libdir/libstapjava.so\")|process(\"$DEST$libdir/libstapjava.so\")|" \
		"$DEST$pkgdatadir/tapset/stapjava.stp" >"$t/stapjava.stp"
	krel=$(ls /lib/modules | sort -V | tail -n1)
	run --separate-stderr stap -r "$krel" -p2 -I "$t" -e '
		probe java.gc.start { printf("%d %d %d\n", java_pid, java_tid, java_timestamp) }
		probe java.monitor.waited { printf("%d %d %d\n", java_object, java_timeout_ms, java_timed_out) }
		probe java.thread.start { printf("%s\n", java_thread_name); print_java_stack(java_stack) }
		probe java.lost { println(java_lost) }'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run --separate-stderr stap -r "$krel" -I "$t" -L 'java.**'
	rm -rf "$t"
	[ "$status" -eq 0 ]
	common='java_event:long java_event_name:string java_pid:long java_tid:long java_timestamp:long java_thread_name:string java_stack:string'
	args='$arg1:long $arg2:long $arg3:long $arg4:long $arg5:long $arg6:long $arg7:long $arg8:long $arg9:long $arg10:long $arg11:long $arg12:long'
	expected="java.gc.finish $common $args
java.gc.start $common $args
java.lost $common java_lost:long $args
java.monitor.contended_enter $common java_object:long $args
java.monitor.contended_entered $common java_object:long $args
java.monitor.wait $common java_object:long java_timeout_ms:long $args
java.monitor.waited $common java_object:long java_timeout_ms:long java_timed_out:long $args
java.thread.end $common $args
java.thread.start $common $args
java.vm.death $common $args
java.vm.init $common $args"
	diff -u <(echo "$expected") <(echo "$output")
}

@test "the man pages render without warnings" {
	dirs
	for m in man1/stap-java.1 man3/stapprobes-java.3stap man8/stpd-bridge.8; do
		run --separate-stderr env LC_ALL=C.UTF-8 groff -t -man -ww -z -Tutf8 "$DEST$mandir/$m"
		[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$m: $stderr"; false; }
	done
}

@test "stapprobes-java(3stap) lists every probe point of the tapset and of stap-java" {
	dirs
	page=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$DEST$mandir/man3/stapprobes-java.3stap" 2>/dev/null)
	for p in java.gc.start java.gc.finish java.vm.init java.vm.death java.thread.start \
		java.thread.end java.monitor.contended_enter java.monitor.contended_entered \
		java.monitor.wait java.monitor.waited java.lost \
		'java.method("PATTERN").enter' 'java.method("PATTERN").return' 'java.method("PATTERN").compile' \
		'java.class("PATTERN").load' 'java.class("PATTERN").prepare' 'java.class("PATTERN").unload' \
		'java.exception("PATTERN").thrown' 'java.exception("PATTERN").catch'; do
		grep -qF -- "$p" <<<"$page" || { echo "missing: $p"; false; }
	done
	for v in java_pid java_tid java_timestamp java_event java_event_name java_thread_name \
		java_stack java_name method_name class_name exception_name java_method java_args \
		java_return java_popped java_code_size java_code_addr java_object java_timeout_ms \
		java_timed_out java_lost sprint_java_stack print_java_stack java_arg java_arg_long \
		java_value_long; do
		grep -qw -- "$v" <<<"$page" || { echo "missing: $v"; false; }
	done
}

@test "make uninstall DESTDIR removes every file" {
	make -s -C "$STAPJAVA_BUILDDIR" uninstall DESTDIR="$DEST" >/dev/null
	run sh -c "find '$DEST' ! -type d"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
