#!/usr/bin/env bats
# `make install DESTDIR=...` from the build tree puts every file where the
# documentation says (man/stapprobes-java.3stap FILES, man/stap-java.1
# ENVIRONMENT, tapset/local.mk), and nothing else; the installed tapset names
# the installed bridge, not the build tree's; and the staged install runs
# (stap-java -p2: elaboration, the limit on a host whose kernel cannot load
# modules) with the STAPJAVA_* variables pointing into DESTDIR.
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
	rm -rf "$DEST" "$DEST.dirs" "$DEST.dirs.mk" "$DEST.log" "$DEST.stp"
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
		$pkgdatadir/tapset/stapjava.stpm
		$pkgdatadir/tapset/stapjava_paths.stpm
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
	for f in "$pkgdatadir/tapset/stapjava.stp" "$pkgdatadir/tapset/stapjava_paths.stpm" "$mandir/man8/stpd-bridge.8" \
		"$mandir/man3/stapprobes-java.3stap"; do
		[ "$(stat -c %a "$DEST$f")" = 644 ] || { echo "mode $(stat -c %a "$DEST$f"): $f"; false; }
	done
}

# the @define lines of a stapjava_paths.stpm
defines() {
	grep -v '^//' "$1"
}

@test "the installed tapset names the installed bridge and agent and nothing of the build tree" {
	dirs
	local tapset=$DEST$pkgdatadir/tapset/stapjava.stp paths=$DEST$pkgdatadir/tapset/stapjava_paths.stpm
	# the aliases name them through the macros of stapjava_paths.stpm only
	run grep -c 'process(@__stapjava_bridge).mark(' "$tapset"
	[ "$output" = 12 ]
	# every family but lost fires in the agent too (in-thread dispatch; jfr
	# in the agent's thread, for the bridge that parsed the event)
	run grep -c 'process(@__stapjava_agent).mark(' "$tapset"
	[ "$output" = 11 ]
	run grep -c 'process(' "$tapset"
	[ "$output" = 23 ]
	[ "$(defines "$paths")" = "@define __stapjava_bridge %( \"$bindir/stpd-bridge\" %)
@define __stapjava_agent %( \"$libdir/libstapjava.so\" %)" ]
	run grep -F -e "$STAPJAVA_BUILDDIR" -e "$DEST" -e @STPD_BRIDGE@ -e @STAPJAVA_AGENT@ "$tapset" "$paths"
	[ "$status" -eq 1 ]
}

@test "the build tree's tapset names the build tree's bridge and agent" {
	local b
	b=$(cd "$STAPJAVA_BUILDDIR" && pwd)
	[ "$(defines "$STAPJAVA_BUILDDIR/tapset/stapjava_paths.stpm")" = "@define __stapjava_bridge %( \"$b/stpd-bridge/stpd-bridge\" %)
@define __stapjava_agent %( \"$b/agent/.libs/libstapjava.so\" %)" ]
	# stapjava.stp names no path: the installed one is the build tree's
	dirs
	cmp "$STAPJAVA_BUILDDIR/tapset/stapjava.stp" "$DEST$pkgdatadir/tapset/stapjava.stp"
}

@test "the installed tapset is valid SystemTap for plain stap -I: stap -p2 and stap -L with it" {
	dirs
	# The installed paths exist only under DESTDIR: point a copy of the
	# directory there, stapjava_paths.stpm's paths only.
	local t=$DEST.tapset
	mkdir -p "$t"
	cp "$DEST$pkgdatadir/tapset/stapjava.stp" "$DEST$pkgdatadir/tapset/stapjava.stpm" "$t/"
	sed -e "s|\"$bindir/stpd-bridge\"|\"$DEST$bindir/stpd-bridge\"|" \
		-e "s|\"$libdir/libstapjava.so\"|\"$DEST$libdir/libstapjava.so\"|" \
		"$DEST$pkgdatadir/tapset/stapjava_paths.stpm" >"$t/stapjava_paths.stpm"
	krel=$(ls /lib/modules | sort -V | tail -n1)
	run --separate-stderr stap -r "$krel" -p2 -I "$t" -e '
		probe java.gc.start { printf("%d %d %d\n", java_pid, java_tid, java_timestamp) }
		probe java.monitor.waited { printf("%d %d %d\n", java_object, java_timeout_ms, java_timed_out) }
		probe java.thread.start { printf("%s %d %s\n", java_thread_name, java_stack_depth, @java_stack_frame(1)); print_java_stack(java_stack) }
		probe java.lost { println(java_lost) }'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(grep -oE '/[^ "]*(stpd-bridge|libstapjava\.so)' <<<"$output" | sort -u)" = "$DEST$bindir/stpd-bridge
$DEST$libdir/libstapjava.so" ]
	run --separate-stderr stap -r "$krel" -I "$t" -L 'java.**'
	rm -rf "$t"
	[ "$status" -eq 0 ]
	common='java_event_name:string java_event:long java_pid:long java_tid:long java_timestamp:long java_thread_name:string java_stack:string java_stack_depth:long'
	args='$arg1:long $arg2:long $arg3:long $arg4:long $arg5:long $arg6:long $arg7:long $arg8:long $arg9:long $arg10:long $arg11:long $arg12:long'
	expected="java.gc.finish $common $args
java.gc.start $common $args
java.jfr $common jfr_type:string jfr_start_ns:long jfr_duration_ns:long $args
java.lost $common java_lost:long $args
java.monitor.contended_enter $common java_object:long java_monitor_class:string java_monitor_owner_tid:long java_monitor_owner_name:string $args
java.monitor.contended_entered $common java_object:long java_monitor_class:string $args
java.monitor.wait $common java_object:long java_monitor_class:string java_timeout_ms:long $args
java.monitor.waited $common java_object:long java_monitor_class:string java_timeout_ms:long java_timed_out:long $args
java.thread.end $common $args
java.thread.start $common $args
java.vm.death $common $args
java.vm.init $common $args"
	diff -u <(echo "$expected") <(echo "$output")
}

# The staged install's stap-java with the documented variables pointing into
# DESTDIR (man/stap-java.1, ENVIRONMENT), and a script with a family probe and
# a java.method probe in $DEST.stp.
staged() {
	dirs
	export STAPJAVA_BRIDGE=$DEST$bindir/stpd-bridge STAPJAVA_AGENT=$DEST$libdir/libstapjava.so
	export STAPJAVA_TAPSET=$DEST$pkgdatadir/tapset
	export STAPJAVA_RUNTIME_FIX=$DEST$pkgdatadir/runtime-fix/stap-runtime-fix
	krel=$(ls /lib/modules | sort -V | tail -n1)
	printf '%s\n' 'probe java.gc.start { println(java_pid) }' \
		'probe java.method("Demo.add(II)I").return { println(java_return) }' >"$DEST.stp"
}

# stap-java said MESSAGE, on its own (stap never ran), and failed
only_message() {
	[ "$status" -eq 1 ] && [ "${#lines[@]}" -eq 1 ] && [[ ${lines[0]} =~ ^stap-java\[[0-9]+\]:\ (.*)$ ]] &&
		[ "${BASH_REMATCH[1]}" = "$1" ] || { echo "status $status: $output"; false; }
}

@test "a staged install runs: stap-java -p2 with STAPJAVA_* in DESTDIR, the staged bridge and agent only" {
	staged
	# the configured paths do not exist yet: had stap seen one, it would fail
	for mode in --java-async --java-sync; do
		run --separate-stderr "$DEST$bindir/stap-java" -r "$krel" -p2 -v $mode "$DEST.stp"
		[ "$status" -eq 0 ] || { echo "$mode: $stderr"; false; }
		# every path of a bridge or an agent in the elaborated probes and
		# their handlers (-v prints them), the family's and the slot's
		[ "$(grep -oE '/[^ "'\'']*(stpd-bridge|libstapjava\.so)' <<<"$output" | sort -u)" = "$STAPJAVA_BRIDGE
$STAPJAVA_AGENT" ] || { echo "$mode: $output"; false; }
	done
}

@test "a staged run whose STAPJAVA_BRIDGE is missing names that bridge, not a tapset file, and fails" {
	staged
	STAPJAVA_BRIDGE=$DEST/missing/stpd-bridge run "$DEST$bindir/stap-java" -r "$krel" -p2 "$DEST.stp"
	only_message "error: the bridge $DEST/missing/stpd-bridge (STAPJAVA_BRIDGE) does not exist"
}

@test "a staged run whose STAPJAVA_AGENT is missing names that agent, not a tapset file, and fails" {
	staged
	STAPJAVA_AGENT=$DEST/missing/libstapjava.so run "$DEST$bindir/stap-java" -r "$krel" -p2 "$DEST.stp"
	only_message "error: the agent $DEST/missing/libstapjava.so (STAPJAVA_AGENT) does not exist"
}

@test "a staged run without STAPJAVA_BRIDGE uses the installed path, not there yet, and says so" {
	staged
	[ ! -e "$bindir/stpd-bridge" ] || skip "$bindir/stpd-bridge is installed on this host"
	unset STAPJAVA_BRIDGE
	run "$DEST$bindir/stap-java" -r "$krel" -p2 "$DEST.stp"
	only_message "error: the bridge $bindir/stpd-bridge (the installed one: STAPJAVA_BRIDGE is not set) does not exist"
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

@test "make install-as-stap: bindir's stap is stap-java, which runs SystemTap's stap after it in PATH, never itself" {
	staged
	# (the install again: a test before this one took it out)
	make -s -C "$STAPJAVA_BUILDDIR" install install-as-stap DESTDIR="$DEST" >/dev/null 2>&1
	[ "$(readlink "$DEST$bindir/stap")" = stap-java ]
	# a harness that calls `stap` gets SystemTap's java() points, translated
	PATH=$DEST$bindir:$PATH run --separate-stderr stap -r "$krel" -p2 \
		-e 'probe java("Demo").class("Demo").method("add(int,int)").return { println(pn()) }'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$(grep -oE '/[^ "'\'']*stpd-bridge' <<<"$output" | sort -u)" = "$STAPJAVA_BRIDGE" ] || { echo "$output"; false; }
	# and everything else goes to SystemTap's
	PATH=$DEST$bindir:$PATH run stap -V
	[ "$status" -eq 0 ] && [[ ${lines[0]} == "Systemtap translator/driver"* ]] || { echo "$status $output"; false; }
	# with no other stap in PATH it says so instead of running itself
	run --separate-stderr env PATH="$DEST$bindir" "$DEST$bindir/stap" -p2 -e 'probe begin { }'
	[ "$status" -eq 1 ] && [[ $stderr =~ ^stap-java\[[0-9]+\]:\ error:\ no\ stap\ in\ PATH\ but\ stap-java\ itself:\ install\ SystemTap,\ or\ set\ STAPJAVA_STAP$ ]] ||
		{ echo "$status $stderr"; false; }
	make -s -C "$STAPJAVA_BUILDDIR" uninstall-as-stap uninstall DESTDIR="$DEST" >/dev/null
	[ ! -e "$DEST$bindir/stap" ] && [ ! -L "$DEST$bindir/stap" ]
}
