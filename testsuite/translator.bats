#!/usr/bin/env bats
# stap-java: translation of java.* probe points (golden files in translator/),
# its error messages, the bridge command line, stap's options, the runtime fix,
# %( %) conditionals and macros decided by stap's own pass 1, stap's messages
# shown in the user's text, and real `stap -p2` runs on the output against a
# stand-in bridge binary (translator/fake-bridge) that has stpd-bridge's SDT markers.

bats_require_minimum_version 1.5.0

setup_file() {
	export SRC=${STAPJAVA_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
	export BUILD=${STAPJAVA_BUILDDIR:-$SRC}
	export SJ=$BUILD/translator-patches/stap-java
	export FAKE_BRIDGE=$BUILD/testsuite/translator/fake-bridge
	export REAL_AGENT=$(readlink -f "$BUILD/agent/libstapjava.so")
	[ -x "$SJ" ] || { echo "no $SJ: build first" >&2; return 1; }
	[ -x "$FAKE_BRIDGE" ] || { echo "no $FAKE_BRIDGE: make build-tests builds it" >&2; return 1; }
	# the kernel stap elaborates for: one whose headers are installed
	export KREL
	KREL=$(ls /lib/modules | while read -r k; do [ -e "/lib/modules/$k/build" ] && echo "$k"; done | sort -V | tail -n1)
	[ -n "$KREL" ] || { echo "no kernel headers under /lib/modules/*/build" >&2; return 1; }
}

setup() {
	T=$(mktemp -d /tmp/stap-java-test.XXXXXX)
	# fixed paths, so golden files do not depend on where things are built
	export STAPJAVA_BRIDGE=/opt/stapjava/bin/stpd-bridge
	export STAPJAVA_AGENT=/opt/stapjava/lib/libstapjava.so
	export STAPJAVA_TAPSET=/opt/stapjava/share/stapjava/tapset
	export STAPJAVA_CACHE=/var/cache/stapjava-test
	# a runtime fix that says what it was asked
	cat >"$T/fix" <<-'EOF2'
		#!/bin/sh
		[ "$1" = -r ] || exit 2
		echo -R
		echo /cache/runtime-4.8
		echo "-DFIX_FOR=$2"
	EOF2
	chmod +x "$T/fix"
	export STAPJAVA_RUNTIME_FIX=$T/fix
	unset JAVA_TOOL_OPTIONS
	cd "$SRC/testsuite/translator"
}

teardown() {
	rm -rf "$T"
}

# golden NAME [ARGS...]: --dump of NAME.stp (ARGS: options and script arguments), with stap's pass 2 (so no runtime fix);
# the kernel release (-r "$KREL", for stap's pass 1) reads as KREL
golden() {
	local name=$1
	shift
	run "$SJ" --dump -p2 "$name.stp" "$@"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	diff -u "$name.expected" <(printf '%s\n' "${output//"$KREL"/KREL}")
}

# wait_nonempty FILE: until FILE has something in it (what a program in the
# background writes), bounded: 120 s, then says so.
wait_nonempty() {
	local _
	for _ in $(seq 2400); do [ -s "$1" ] && return 0; sleep 0.05; done
	echo "$1 still empty after 120 s" >&2
	return 1
}

# the section of --dump output after the line "# stap-java --dump: $1"
section() {
	printf '%s\n' "$output" | awk -v h="# stap-java --dump: $1" '$0 == h { on = 1; next } /^# stap-java --dump: / { on = 0 } on'
}

@test "golden: the design's example (method enter/return and a syscall: sync)" {
	golden basic
}

@test "golden: default event types, shared slots, families, optional data, async" {
	golden defaults
}

@test "golden: comments, strings, aliases, lists, ?, !, if, %( %), @define, embedded C, layout" {
	golden tricky -g -r "$KREL"
}

@test "golden: %( %) on every kind of condition and @define macros: only what stap's pass 1 keeps" {
	golden conditionals -r "$KREL" one two
}

@test "golden: a script without Java probes passes unchanged and starts no bridge" {
	golden nojava
}

@test "golden: every error of the Java syntax, in stap's format, and nothing runs" {
	STAPJAVA_STAP=/bin/false run "$SJ" --dump errors.stp only-one-arg
	[ "$status" -eq 1 ]
	diff -u errors.err <(printf '%s\n' "$output")
}

@test "golden: SystemTap's java(\"PNAME\"|PID).class().method() points, their variables and functions" {
	golden java_forms
}

@test "golden: every error of SystemTap's java() points, with stap's wording where stap has one" {
	STAPJAVA_STAP=/bin/false run "$SJ" --dump java_errors.stp
	[ "$status" -eq 1 ]
	diff -u java_errors.err <(printf '%s\n' "$output")
}

@test "golden: java.jfr points: types, settings, wildcards, shared numbers, the bridge's --jfr-slot, aliases on its jfr marker" {
	golden jfr
}

@test "golden: every error of java.jfr points, in stap's format, and nothing runs" {
	STAPJAVA_STAP=/bin/false run "$SJ" --dump jfr_errors.stp
	[ "$status" -eq 1 ]
	diff -u jfr_errors.err <(printf '%s\n' "$output")
}

@test "java.jfr points elaborate with stap -p2 against a binary with the bridge's markers, @jfr_field included" {
	export STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT STAPJAVA_TAPSET=$BUILD/tapset TMPDIR=$T
	run "$SJ" -p2 -r "$KREL" jfr.stp
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# each point's alias on the jfr marker, the fields read through the one function
	[ "$(grep -c '^process(".*fake-bridge").statement' <<<"$output")" -eq 5 ]
	grep -q '^__stapjava_jfr_field:string (addr:long, path:string)' <<<"$output"
}

@test "java.jfr with a kernel probe and -c: in-thread, no bridge in the command's tree (the agent fires java.jfr)" {
	run "$SJ" --target-command 'java Demo' -e 'probe java.jfr("jdk.GarbageCollection") { } probe syscall.write { }'
	[ "$status" -eq 0 ]
	[ "$output" = "sh -c 'export JAVA_TOOL_OPTIONS=-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000; exec java Demo'" ]
	# asynchronous, the bridge fires it in the tree
	run "$SJ" --target-command 'java Demo' -e 'probe java.jfr("jdk.GarbageCollection") { }'
	[ "$output" = "sh -c 'exec /opt/stapjava/bin/stpd-bridge --parent \$PPID --fire --jfr-slot 0:jdk.GarbageCollection </dev/null & export JAVA_TOOL_OPTIONS=-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000; exec java Demo'" ]
}

@test "java.jfr with a kernel probe and -x PID: its alias is on the agent's jfr marker, for the script's session, and nothing is warned" {
	run --separate-stderr "$SJ" --dump -p2 -x 1234 -e 'probe java.jfr("jdk.GarbageCollection"), syscall.read {}'
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	diff -u - <(sed -n '/^# stap-java --dump: tapset <tmpdir>\/stapjava_slots.stp/,/^# stap-java --dump: bridge/p' <<<"$output") <<'EOF'
# stap-java --dump: tapset <tmpdir>/stapjava_slots.stp
// generated by stap-java: one alias per java.jfr point, on the agent's jfr marker, keeping its own events ($arg10, doc/markers.md)
// 0: java.jfr("jdk.GarbageCollection")
probe __stapjava_j0 = process("/opt/stapjava/lib/libstapjava.so").mark("jfr") {
	if (!(($arg10 >> 0) & 1)) next
	if (($arg1 >> 16) != stp_pid()) next
	java_event_name = "jfr"; java_event = $arg1 & 0xff; java_pid = $arg2; java_tid = $arg3; java_timestamp = $arg4; java_thread_name = user_string($arg11); java_stack = __stapjava_stack($arg12); java_stack_depth = __stapjava_stack_depth($arg12); jfr_type = user_string($arg5); jfr_start_ns = $arg7; jfr_duration_ns = $arg9;
}
# stap-java --dump: bridge
EOF
	# the bridge is told in-thread: it sends the events to the agent
	grep -qx "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--jfr-slot' '0:jdk.GarbageCollection' '--in-thread' '-x' '1234' '--agent' '/opt/stapjava/lib/libstapjava.so'" <<<"$output"
}

@test "in-thread java.jfr points elaborate with stap -p2 against the agent's jfr marker" {
	export STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT STAPJAVA_TAPSET=$BUILD/tapset TMPDIR=$T
	run "$SJ" -p2 -r "$KREL" -e 'probe java.jfr("jdk.GarbageCollection") { println(@jfr_field("cause")) } probe syscall.read { }'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(grep -c '^process(".*libstapjava.so").statement' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^process(".*fake-bridge").statement' <<<"$output")" -eq 0 ]
}

@test "line and column of every token outside rewritten points are unchanged" {
	run "$SJ" --dump -p2 -g -r "$KREL" tricky.stp
	[ "$status" -eq 0 ]
	section "script tricky.stp" >"$T/out.stp"
	# same number of lines, plus the begin probe, the bridge's end probe and the
	# report of probe points that never fired (two lines); rewritten lines keep
	# their length unless a name is longer than the text it replaces (never on one line)
	[ "$(wc -l <tricky.stp)" -eq $(($(wc -l <"$T/out.stp") - 6)) ]
	# line by line: a byte differs only where a point was blanked or named
	head -n "$(wc -l <tricky.stp)" "$T/out.stp" >"$T/user.stp"
	awk 'NR == FNR { orig[FNR] = $0; next }
	     {
		a = orig[FNR]; b = $0
		while (match(b, /__stapjava_s[0-9]+/)) {
			pad = sprintf("%*s", RLENGTH, "")
			b = substr(b, 1, RSTART - 1) pad substr(b, RSTART + RLENGTH)
			if (length(b) > length(a) && a ~ /java$/) b = substr(b, 1, length(a))
		}
		if (length(a) != length(b)) { print "length " FNR ": " a; bad = 1 }
		for (i = 1; i <= length(a); i++)
			if (substr(a, i, 1) != substr(b, i, 1) && substr(b, i, 1) != " ") { print "byte " FNR ":" i ": " a; bad = 1; break }
	     }
	     END { exit bad }' tricky.stp "$T/user.stp"
	# a point split over lines keeps its line count and what follows keeps its column
	grep -n '^             { println(java_name) }$' "$T/out.stp"
}

@test "too many distinct Java probe points: the 257th is an error" {
	for i in $(seq 0 256); do echo "probe java.method(\"C.m$i\") { }"; done >"$T/many.stp"
	run "$SJ" --dump "$T/many.stp"
	[ "$status" -eq 1 ]
	[ "$output" = "parse error: too many Java probe points: at most 256 distinct java.method/class/exception points per script, all branches of %( %) conditionals counted
        saw: identifier 'java' at $T/many.stp:257:7
     source: probe java.method(\"C.m256\") { }
                   ^

1 parse error.
Pass 1: parse failed.  [stap-java]" ]
	# 256 are fine, and the same point again takes no new slot
	sed -i '$d' "$T/many.stp"
	echo 'probe java.method("C.m0") { }' >>"$T/many.stp"
	run "$SJ" --dump -p2 "$T/many.stp"
	[ "$status" -eq 0 ]
	[ "$(section "tapset <tmpdir>/stapjava_slots.stp" | grep -c '^probe __stapjava_s')" -eq 256 ]
}

@test "-e and -E: both translated, one slot table, errors name <input> and <input1>" {
	run "$SJ" --dump -p2 -e 'probe java.class("A") {}' -E 'probe java.class("B"), java.class("A") {}'
	[ "$status" -eq 0 ]
	[ "$(section "script <input>")" = 'probe __stapjava_s0   {}
probe begin { __stapjava_pgrp = pgrp(); system("exec '\''/opt/stapjava/bin/stpd-bridge'\'' --parent " . sprint(stp_pid()) . " '\''--fire'\'' '\''--slot'\'' '\''0:class.load:A'\'' '\''--slot'\'' '\''1:class.load:B'\'' </dev/null &") } // generated by stap-java: starts stpd-bridge
global __stapjava_pgrp
probe process("/opt/stapjava/bin/stpd-bridge").end { if (execname() == "stpd-bridge" && pgrp() == __stapjava_pgrp) warn(sprintf("stpd-bridge (pid %d) exited: Java probe points fire no more", pid())) } // generated by stap-java: reports the bridge'\''s end
probe end { if (!@count(__stapjava_fired0)) warn("java.class(\"A\").load never fired: no event of any JVM matched it"); if (!@count(__stapjava_fired1)) warn("java.class(\"B\").load never fired: no event of any JVM matched it"); } // generated by stap-java: says which Java probe points never fired
global __stapjava_fired0, __stapjava_fired1' ]
	[ "$(section "script <input1>")" = 'probe __stapjava_s1  , __stapjava_s0   {}' ]
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -I /opt/stapjava/share/stapjava/tapset -e <script> -E <script>" ]
	run "$SJ" --dump -e 'probe begin {}' -E 'probe java.class(A) {}'
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "        saw: identifier 'A' at <input1>:1:18" ]
}

@test "script arguments: @N as a pattern, and passed on after --" {
	run "$SJ" --dump -p2 -e 'probe java.method(@2).return { println(@1) }' -- first 'Demo.add(II)I'
	[ "$status" -eq 0 ]
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:method.return:Demo.add(II)I'" ]
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -I /opt/stapjava/share/stapjava/tapset -e <script> -- first 'Demo.add(II)I'" ]
}

@test "dispatch: kernel and process probes force --in-thread; --java-sync/--java-async override" {
	run "$SJ" --dump -p2 -e 'probe java.class("A"), kernel.function("vfs_read") {}'
	[[ "$(section bridge)" == *" '--in-thread'" ]]
	run "$SJ" --dump -p2 -e 'probe java.class("A") {} probe process("/bin/ls").function("main") {}'
	[[ "$(section bridge)" == *" '--in-thread'" ]]
	run "$SJ" --dump -p2 -e 'probe java.class("A") {} probe begin, end, error, never, timer.ms(100) {}'
	[[ "$(section bridge)" != *"--in-thread"* ]]
	# an alias the script defines counts by what it stands for
	run "$SJ" --dump -p2 -e 'probe a = java.class("A") {} probe a {} probe b = timer.s(1) {} probe b {}'
	[[ "$(section bridge)" != *"--in-thread"* ]]
	run "$SJ" --dump -p2 -e 'probe k = syscall.read {} probe java.class("A") {}'
	[[ "$(section bridge)" == *" '--in-thread'" ]]
	run "$SJ" --dump -p2 --java-sync -e 'probe java.class("A") {}'
	[[ "$(section bridge)" == *" '--in-thread'" ]]
	run "$SJ" --dump -p2 --java-async -e 'probe java.class("A"), syscall.read {}'
	[[ "$(section bridge)" != *"--in-thread"* ]]
	# in-thread, the slot's alias is on the agent's marker, skips other sessions,
	# and -x goes to stap too (target(), and the JVM's tree for uprobes)
	run "$SJ" --dump -p2 -x 1234 -e 'probe java.class("A"), syscall.read {}'
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -x 1234 -d /opt/stapjava/lib/libstapjava.so -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	[[ "$(section "tapset <tmpdir>/stapjava_slots.stp")" == *'probe __stapjava_s0 = process("/opt/stapjava/lib/libstapjava.so").mark("slot0") {'$'\n''	if (($arg1 >> 16) != stp_pid()) next; java_event_name = "class.load";'* ]]
	# (stap -x checks the pid at build time, and the bridge is not in the
	# target's tree: no probe on the bridge's end, no process group noted)
	[[ "$(section "script <input>")" == *'probe begin { system("exec '* ]]
	[[ "$(section "script <input>")" != *'stpd-bridge").end'* ]]
	run "$SJ" --dump -p2 -x 1234 -e 'probe java.class("A") {}'
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	[[ "$(section "script <input>")" == *'probe begin { __stapjava_pgrp = pgrp(); system("exec '* ]]
	[[ "$(section "script <input>")" == *'stpd-bridge").end'* ]]
	[[ "$(section "tapset <tmpdir>/stapjava_slots.stp")" == *'probe __stapjava_s0 = process("/opt/stapjava/bin/stpd-bridge").mark("slot0") {'$'\n''	java_event_name = "class.load";'* ]]
}

@test "conditionals: stap's pass 1 decides with the run's own options and arguments (-g, --unprivileged, \$#)" {
	run "$SJ" --dump -p2 -g -r "$KREL" conditionals.stp 1 2 3 4 5 6
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:method.enter:macro.Used.run' '--slot' '2:class.load:args.Two' '--slot' '3:class.load:args.Other' '--slot' '4:class.load:args.Any' '--slot' '6:method.enter:kernel.New' '--slot' '8:method.enter:A.b' '--slot' '10:exception.thrown:runtime.Kernel' '--slot' '12:class.load:config.Modules' '--slot' '13:method.enter:stap.Four' '--slot' '15:method.enter:priv.Dev' '--slot' '18:method.enter:guru.On' '--slot' '19:class.load:nested.Many' '--slot' '22:method.return:A.b' '--gc' '--args' '--in-thread'" ]
	run "$SJ" --dump -p2 --unprivileged -r "$KREL" conditionals.stp 1 two
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:method.enter:macro.Used.run' '--slot' '2:class.load:args.Two' '--slot' '4:class.load:args.Any' '--slot' '6:method.enter:kernel.New' '--slot' '8:method.enter:A.b' '--slot' '10:exception.thrown:runtime.Kernel' '--slot' '12:class.load:config.Modules' '--slot' '13:method.enter:stap.Four' '--slot' '16:method.enter:priv.User' '--slot' '17:method.enter:guru.Off' '--slot' '20:class.load:nested.Few' '--slot' '22:method.return:A.b' '--return'" ]
	# every branch takes a slot: 257 distinct points are too many even if stap keeps half
	{
		echo '%( arch == "nosuch" %?'
		for i in $(seq 0 128); do echo "probe java.method(\"C.m$i\") { }"; done
		echo '%:'
		for i in $(seq 129 256); do echo "probe java.method(\"C.m$i\") { }"; done
		echo '%)'
	} >"$T/many.stp"
	run "$SJ" --dump -p2 -r "$KREL" "$T/many.stp"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "parse error: too many Java probe points: at most 256 distinct java.method/class/exception points per script, all branches of %( %) conditionals counted" ]
	[ "${lines[1]}" = "        saw: identifier 'java' at $T/many.stp:259:7" ]
}

@test "conditionals with -c: the target command registers only the branch stap keeps" {
	run "$SJ" --target-command 'java Demo' -r "$KREL" -e 'probe %( arch == "nosuch" %? java.class("Then") %: java.class("Else") %) {}'
	[ "$status" -eq 0 ]
	[ "$output" = "sh -c 'exec /opt/stapjava/bin/stpd-bridge --parent \$PPID --fire --slot 1:class.load:Else </dev/null & export JAVA_TOOL_OPTIONS=-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000; exec java Demo'" ]
	# no Java probe point left: the command as given, no bridge, no slot tapset
	run "$SJ" --target-command 'java Demo' -r "$KREL" -e '%( arch == "nosuch" %? probe java.class("Then") {} %) probe begin {}'
	[ "$output" = "java Demo" ]
	run "$SJ" --dump -p2 -r "$KREL" -e '%( arch == "nosuch" %? probe java.class("Then") {} %) probe begin {}'
	[ "$output" = "# stap-java --dump: script <input>
%( arch == \"nosuch\" %? probe __stapjava_s0      {} %) probe begin {}
# stap-java --dump: tapset <tmpdir>/stapjava_paths.stpm
// generated by stap-java: the bridge and the agent it uses, for the aliases of
// stapjava.stp (instead of the tapset directory's stapjava_paths.stpm)
@define __stapjava_bridge %( \"/opt/stapjava/bin/stpd-bridge\" %)
@define __stapjava_agent %( \"/opt/stapjava/lib/libstapjava.so\" %)
# stap-java --dump: stap
stap -I '<tmpdir>/tapset' -p 2 -r $KREL -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
}

@test "macros: a @macro probe point counts by what it expands to, the script's own or a tapset's" {
	mkdir "$T/tapset"
	echo '@define LIB_KERNEL %( kernel.function("vfs_read") %)' >"$T/tapset/lib.stpm"
	export STAPJAVA_TAPSET=$T/tapset
	run "$SJ" --dump -p2 -r "$KREL" -e '@define J %( java.class("A") %) probe @J {}'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:class.load:A'" ]
	run "$SJ" --dump -p2 -r "$KREL" -e '@define K %( kernel.function("vfs_read") %) probe java.class("A") {} probe @K {}'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:class.load:A' '--in-thread'" ]
	run "$SJ" --dump -p2 -r "$KREL" -e 'probe java.class("A") {} probe @LIB_KERNEL {}'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:class.load:A' '--in-thread'" ]
	# a macro never used, or used in a branch stap leaves out, counts for nothing
	run "$SJ" --dump -p2 -r "$KREL" -e '@define K %( syscall.read %) @define U %( java.class("U") %) probe java.class("A") {} %( arch == "nosuch" %? probe @K {} %)'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '1:class.load:A'" ]
	# macros in macros, in an alias; and in an -E script, with its own macros
	run "$SJ" --dump -p2 -r "$KREL" -e '@define J %( java.method("M.x").return %) @define L %( @J, java.class("B") %) probe a = @L {} probe a { println(java_return) }'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:method.return:M.x' '--slot' '1:class.load:B' '--return'" ]
	run "$SJ" --dump -p2 -r "$KREL" -e 'probe begin {}' -E '@define J %( java.class("E") %) probe @J {}'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:class.load:E'" ]
}

@test "stap's pass 1 for conditionals gets the run's options but -p, -o, -c, -x, -k, -i" {
	# a stap that notes its arguments and, for -p 1, prints a parse tree with slot 0
	cat >"$T/stap" <<-EOF2
		#!/bin/sh
		printf '%s|' "\$@" >>"$T/args"; echo >>"$T/args"
		case " \$* " in *" -p 1 "*) printf 'probe __stapjava_s0{\n}\n' ;; esac
	EOF2
	chmod +x "$T/stap"
	# the runs from pass 2 on need a bridge and an agent that are there
	export STAPJAVA_STAP=$T/stap STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT TMPDIR=$T
	run "$SJ" -v -p4 -k -o out -i -x 42 -r 6.1.0-test -g -D X=1 --privilege=stapsys -I /my/tapset \
		-e '%( arch == "x" %? probe java.class("A") {} %)' -- arg
	[ "$status" -eq 0 ]
	# the generated tapset directory first, in both runs
	gen="-I|$T/stap-java.??????/tapset|"
	line=$(head -n 1 "$T/args")
	[ "${line#$gen}" = '-v|-r|6.1.0-test|-g|-D|X=1|--privilege=stapsys|-I|/my/tapset|-p|1|-I|/opt/stapjava/share/stapjava/tapset|-e|%( arch == "x" %? probe __stapjava_s0   {} %)|--|arg|' ]
	line=$(sed -n 2p "$T/args")
	[[ "${line#$gen}" == '-v|-p|4|-k|-o|out|-i|-r|6.1.0-test|-g|-D|X=1|--privilege=stapsys|-I|/my/tapset|-I|/opt/stapjava/share/stapjava/tapset|-R|/cache/runtime-4.8|-DFIX_FOR=6.1.0-test|-e|'* ]]
	rm "$T/args"
	run "$SJ" -p2 -c 'java Demo' -e '%( arch == "x" %? probe java.class("A") {} %)'
	line=$(head -n 1 "$T/args")
	[ "${line#$gen}" = '-p|1|-I|/opt/stapjava/share/stapjava/tapset|-e|%( arch == "x" %? probe __stapjava_s0   {} %)|' ]
	# without %(, @ or $ in a probe point, no pass 1 is needed
	rm "$T/args"
	run "$SJ" -p2 -e 'probe java.class("A") {}'
	[ "$(grep -c -e '-p|' "$T/args")" -eq 1 ]
	line=$(cat "$T/args")
	[[ "${line#$gen}" == '-p|2|'* ]]
}

@test "a pass-1 failure is stap's: its messages with the user's lines, its exit status, nothing run after" {
	printf '%s\n' 'global n' '%( arch == "nosuch" %? probe begin {} %)' 'probe java.class("A") { n = 1 +* 2 }' >"$T/bad.stp"
	stap_p2 "$T/bad.stp"
	[ "$status" -eq 1 ]
	diff -u - <(grep -v -e '^WARNING: Kernel function symbol table missing' -e '^Tip: ' <<<"$output") <<-EOF2
		parse error: expected literal string or number
		        saw: operator '*' at $T/bad.stp:3:32
		     source: probe java.class("A") { n = 1 +* 2 }
		                                            ^

		1 parse error.
		Pass 1: parse failed.  [man error::pass1]
	EOF2
}

@test "optional data: requested only when the script names java_args, java_return, java_stack" {
	run "$SJ" --dump -p2 -e 'probe java.method("A.b") { println(java_name) /* java_args */ print("java_stack") }'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:method.enter:A.b'" ]
	run "$SJ" --dump -p2 -e 'probe java.method("A.b").return { println(java_return) }'
	[[ "$(section bridge)" == *"'--return'" ]]
	run "$SJ" --dump -p2 -e 'probe java.method("A.b") { f() } function f() { println(java_args, java_stack) }'
	[[ "$(section bridge)" == *"'--args' '--stack'" ]]
}

@test "monitor detail and whole stacks: --monitor-detail when a java_monitor_ variable is named; stap -p2 elaborates the variables and the macros" {
	run "$SJ" --dump -p2 -e 'probe java.monitor.contended_enter { println(java_object) }'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--monitors'" ]
	run "$SJ" --dump -p2 -e 'probe java.monitor.contended_enter { println(java_monitor_owner_tid) }'
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--monitors' '--monitor-detail'" ]
	run "$SJ" --dump -p2 -e 'probe java.method("A.b") { println(@java_stack_frame(9)) }'
	[[ "$(section bridge)" == *"'--stack'" ]]
	cat >"$T/m.stp" <<-'EOF2'
		probe java.monitor.contended_enter {
			printf("%s %d %s %d\n", java_monitor_class, java_monitor_owner_tid, java_monitor_owner_name, java_stack_depth)
		}
		probe java.monitor.waited { println(java_monitor_class, java_timed_out) }
		probe java.method("A.b(I)V").enter {
			printf("%s|%s|%s|%d|%d\n", java_stack, @java_stack_frame(12), @java_stack_compact(5),
			       java_stack_depth, java_stack_depth(java_stack))
			println(java_stack_frame(java_stack, 1), sprint_java_stack(java_stack))
		}
	EOF2
	stap_p2 "$T/m.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *'__stapjava_stack_frame:string (addr:long, n:long)'* ]]
	# the tapset functions' locals are their own, whatever globals the script has
	# (examples/bufferedwriter.stp's depth[] met __stapjava_stack_depth's depth)
	cat >"$T/g.stp" <<-'EOF2'
		global depth, text, len, i, rest, out, frame, start, index, quoted, c, k, at, cut, from
		global before, colon, inside, last, name, open, short
		probe java.method("A.b(I)V").enter {
			depth[java_tid]++
			printf("%s %s %s %d %d %s\n", java_arg(java_args, 1), java_stack_frame(java_stack, 1),
			       sprint_java_stack(java_stack), java_stack_depth(java_stack), java_arg_long(java_args, 2),
			       @java_stack_compact(3))
		}
	EOF2
	stap_p2 "$T/g.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *'__stapjava_stack_compact:string (addr:long, n:long)'* ]]
}

@test "-x PID: the bridge gets it (and the agent to load into a JVM without one), stap does not (its uprobes would fire only in PID's tree)" {
	run "$SJ" --dump -p2 -x 4242 -e 'probe java.vm.init {}'
	[ "$status" -eq 0 ]
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--vm' '-x' '4242' '--agent' '/opt/stapjava/lib/libstapjava.so'" ]
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	# the bridge's end is reported, and why it may end
	[[ "$(section "script <input>")" == *'warn(sprintf("stpd-bridge (pid %d) exited: Java probe points fire no more (with -x 4242 it ends when that JVM does)", pid()))'* ]]
	# no Java probe point: -x stays stap's
	run "$SJ" --dump -p2 -x 4242 -e 'probe begin {}'
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -x 4242 -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	run "$SJ" --dump -p2 -x 12ab -e 'probe java.vm.init {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: -x '12ab': not a process id" ]]
	run "$SJ" --dump -p2 -x 1 -c true -e 'probe java.vm.init {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: -c and -x cannot be given together" ]]
}

@test "-c CMD: the command starts the bridge in the target's tree, with the agent and wait_ms" {
	run "$SJ" --dump -p2 -c 'java -cp . Demo' -e 'probe java.class("Outer$In") { println(java_event) }'
	[ "$status" -eq 0 ]
	[ "$(section "target command")" = "sh -c 'exec /opt/stapjava/bin/stpd-bridge --parent \$PPID --fire --slot \"0:class.load:Outer\\\$In\" </dev/null & export JAVA_TOOL_OPTIONS=-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000; exec java -cp . Demo'" ]
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -c <target command> -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	# no system() begin probe; the bridge's end is the target's child's
	[ "$(section "script <input>")" = 'probe __stapjava_s0          { println(java_event) }
probe process("/opt/stapjava/bin/stpd-bridge").end { if (ppid() == target()) warn(sprintf("stpd-bridge (pid %d) exited: Java probe points fire no more", pid())) } // generated by stap-java: reports the bridge'\''s end
probe end { if (!@count(__stapjava_fired0)) warn("java.class(\"Outer$In\").load never fired: no event of any JVM matched it"); } // generated by stap-java: says which Java probe points never fired
global __stapjava_fired0' ]
	[[ "$output" != *JAVA_TOOL_OPTIONS=-agentpath*JAVA_TOOL_OPTIONS* ]]
	# a JAVA_TOOL_OPTIONS of the caller's comes after the agent, quoted; STAPJAVA_WAIT_MS
	JAVA_TOOL_OPTIONS="-Xmx64m -Dq='a b'" STAPJAVA_WAIT_MS=60000 run "$SJ" --dump -p2 -c 'java Demo' -e 'probe java.class("Demo") {}'
	[[ "$(section "target command")" == *" & export JAVA_TOOL_OPTIONS=\"-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=60000 -Xmx64m -Dq='\\''a b'\\''\"; exec java Demo'" ]]
	# STAPJAVA_AGENT_OPTS: more agent options (a sockdir= to match the bridge's --sockdir)
	STAPJAVA_AGENT_OPTS=sockdir=/run/sj,loglevel=info run "$SJ" --dump -p2 -c 'java Demo' -e 'probe java.class("Demo") {}'
	[[ "$(section "target command")" == *" & export JAVA_TOOL_OPTIONS=-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000,sockdir=/run/sj,loglevel=info; exec java Demo'" ]]
	STAPJAVA_AGENT_OPTS='sockdir=/a b' run "$SJ" --dump -p2 -c 'java Demo' -e 'probe java.class("Demo") {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: STAPJAVA_AGENT_OPTS 'sockdir=/a b': the agent's options are separated by commas" ]]
	STAPJAVA_WAIT_MS=600001 run "$SJ" --dump -p2 -c 'java Demo' -e 'probe java.class("Demo") {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: STAPJAVA_WAIT_MS '600001': not a number of milliseconds from 0 to 600000" ]]
	# no Java probe point: the command and the environment are left alone
	run "$SJ" --dump -p2 -c 'java Demo' -e 'probe begin {}'
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -c 'java Demo' -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	[[ "$output" != *JAVA_TOOL_OPTIONS* ]]
}

@test "-c CMD in-thread: the begin probe starts the bridge, outside the target's tree; the command only loads the agent" {
	run "$SJ" --dump -p2 -c 'java Demo' -e 'probe java.method("Demo.run").enter { println(tid()) } probe syscall.write {}'
	[ "$status" -eq 0 ]
	[ "$(section "target command")" = "sh -c 'export JAVA_TOOL_OPTIONS=-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000; exec java Demo'" ]
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -p 2 -c <target command> -d /opt/stapjava/lib/libstapjava.so -I /opt/stapjava/share/stapjava/tapset -e <script>" ]
	# stap's process probes are the target's: the bridge's end is not watched
	[ "$(section "script <input>")" = 'probe __stapjava_s0                 { println(tid()) } probe syscall.write {}
probe begin { system("exec '\''/opt/stapjava/bin/stpd-bridge'\'' --parent " . sprint(stp_pid()) . " '\''--fire'\'' '\''--slot'\'' '\''0:method.enter:Demo.run'\'' '\''--in-thread'\'' </dev/null &") } // generated by stap-java: starts stpd-bridge
probe end { if (!@count(__stapjava_fired0)) warn("java.method(\"Demo.run\").enter never fired: no event of any JVM matched it"); } // generated by stap-java: says which Java probe points never fired
global __stapjava_fired0' ]
}

@test "-c CMD: a command with shell syntax is run by the shell, as stap's sh -c would; wordexp's errors" {
	run "$SJ" --dump -p2 -c "cd /srv && java 'it'\\''s' Demo >out" -e 'probe java.class("Demo") {}'
	[ "$status" -eq 0 ]
	[[ "$(section "target command")" == *"/libstapjava.so=wait_ms=10000; cd /srv && java '\\''it'\\''\\'\\'''\\''s'\\'' Demo >out'" ]]
	run "$SJ" --dump -p2 -c 'java $(cat opts) Demo' -e 'probe java.class("Demo") {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: -c 'java \$(cat opts) Demo': command substitution (\$(...), \`...\`), which stap refuses" ]]
	run "$SJ" --dump -p2 -c "java 'Demo" -e 'probe java.class("Demo") {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"syntax error (unmatched quotes?)" ]]
	run "$SJ" --dump -p2 -c '  ' -e 'probe java.class("Demo") {}'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: -c '  ': empty command" ]]
}

# split: the words stapio's wordexp(3) makes of a command without command
# substitution or unquoted metacharacters (the shell's quote removal is the same)
split() {
	sh -c 'eval "set -- $1"; printf "%s\n" "$@"' split "$1"
}

@test "--target-command: prints what staprun -c needs; run, it starts the bridge and the command" {
	export STAPJAVA_BRIDGE=$T/bridge
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" "ppid=$PPID" >"%s/bridge.args"\n' "$T" >"$T/bridge"
	printf '#!/bin/sh\nprintf "%%s\\n" "$JAVA_TOOL_OPTIONS" "$$" "$1" >"%s/java.out"\n' "$T" >"$T/java"
	chmod +x "$T/bridge" "$T/java"
	script='probe java.method("Outer$In.*").return { println(java_return) }'
	export JAVA_TOOL_OPTIONS="-Dq='x y'"
	run "$SJ" --dump -p4 -c "$T/java 'a b'" -e "$script"
	dumped=$(section "target command")
	# the same as --dump's, on one line, and nothing else
	run "$SJ" --target-command "$T/java 'a b'" -p4 -e "$script"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "$dumped" ]
	# stapio's part: split the words, start them as a child, as start_cmd() does
	split "$output" >"$T/words"
	[ "$(head -n 2 "$T/words")" = "sh
-c" ]
	[ "$(wc -l <"$T/words")" -eq 3 ]
	(
		mapfile -t w <"$T/words"
		"${w[@]}" &
		echo "$!" >"$T/target"
		echo "$BASHPID" >"$T/stapio"
		wait
	)
	wait_nonempty "$T/bridge.args"
	# the bridge: stapio as --parent, the target as its parent, the pattern intact
	[ "$(head -n 6 "$T/bridge.args")" = "--parent
$(cat "$T/stapio")
--fire
--slot
0:method.return:Outer\$In.*
--return" ]
	# the command: exec'ed (target() is its pid), the agent first, the caller's options after
	[ "$(cat "$T/java.out")" = "-agentpath:/opt/stapjava/lib/libstapjava.so=wait_ms=10000 -Dq='x y'
$(cat "$T/target")
a b" ]
	# without Java probe points, the command as given
	run "$SJ" --target-command "$T/java 'a b'" -e 'probe begin {}'
	[ "$output" = "$T/java 'a b'" ]
}

@test "-c CMD: the real run gives stap the rewritten command and exports nothing" {
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/args"; printf "%%s\\n" "${JAVA_TOOL_OPTIONS-unset}" >"%s/env"\n' "$T" "$T" >"$T/stap"
	chmod +x "$T/stap"
	export STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT
	STAPJAVA_STAP=$T/stap run "$SJ" -p2 -c 'java Demo' -e 'probe java.class("Demo") {}'
	[ "$status" -eq 0 ]
	[ "$(cat "$T/env")" = unset ]
	run "$SJ" --target-command 'java Demo' -e 'probe java.class("Demo") {}'
	grep -qxF -- "$output" "$T/args"
	[ "$(sed -n '1p;3,5p' "$T/args")" = "-I
-p
2
-c" ]
}

@test "STAPJAVA_BRIDGE_OPTS: words appended to the bridge's arguments, in every form; quotes refused" {
	STAPJAVA_BRIDGE_OPTS='--sockdir /run/sj  --rescan-ms 50' run "$SJ" --dump -p2 -e 'probe java.class("A") {}'
	[ "$status" -eq 0 ]
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:class.load:A' '--sockdir' '/run/sj' '--rescan-ms' '50'" ]
	[[ "$output" == *"'--sockdir' '/run/sj' '--rescan-ms' '50' </dev/null &\") }"* ]]
	STAPJAVA_BRIDGE_OPTS='--sockdir /run/sj' run "$SJ" --dump -p2 -c 'java Demo' -e 'probe java.class("A") {}'
	[[ "$(section "target command")" == *" --slot 0:class.load:A --sockdir /run/sj </dev/null & "* ]]
	for bad in "--log-file 'x y'" '--sockdir $HOME' 'a\b' '--x="1"' $'a\nb'; do
		STAPJAVA_BRIDGE_OPTS=$bad run "$SJ" --dump -p2 -e 'probe java.class("A") {}'
		[ "$status" -eq 1 ]
		[[ "$output" == *"error: STAPJAVA_BRIDGE_OPTS '"*"': quotes, backslashes, '\$', '\`' and control characters are not allowed" ]]
	done
	# and in the arguments file of a long command
	for i in $(seq 1 12); do echo "probe java.method(\"com.example.service.Class$i.method\") {}"; done >"$T/long.stp"
	STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_CACHE=$T/cache STAPJAVA_STAP=/bin/true STAPJAVA_BRIDGE_OPTS='--sockdir /run/sj' \
		run "$SJ" -p2 "$T/long.stp"
	[ "$status" -eq 0 ]
	[ "$(tail -n 2 "$T"/cache/bridge-args-*)" = "--sockdir
/run/sj" ]
}

@test "options pass through in order; stap-java's own are removed" {
	run "$SJ" --dump -v -k -p4 -o out.txt -r 6.1.0-test -m mymod -D X=1 -g --suppress-time-limits \
		--tmpdir /tmp/x --java-async -e 'probe java.class("A") {}' -- a1 a2
	[ "$status" -eq 0 ]
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -v -k -p 4 -o out.txt -r 6.1.0-test -m mymod -D X=1 -g --suppress-time-limits --tmpdir /tmp/x -I /opt/stapjava/share/stapjava/tapset -R /cache/runtime-4.8 -DFIX_FOR=6.1.0-test -e <script> -- a1 a2" ]
	# clustered short options, and options after the script (stap permutes too)
	run "$SJ" --dump -kvp2 nojava.stp -x 7 arg
	[ "$(section stap)" = "stap -I '<tmpdir>/tapset' -k -v -p 2 -x 7 -I /opt/stapjava/share/stapjava/tapset '<tmpdir>/script.stp' -- arg" ]
	run "$SJ" --dump -p2 -e 'probe begin {}' -o
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: option requires an argument -- 'o'" ]]
}

@test "runtime fix: for -r's release or uname -r, from pass 3 on, never with -R or --runtime=bpf" {
	run "$SJ" --dump -p3 -r 6.1.0-56-amd64 nojava.stp
	[[ "$(section stap)" == *" -R /cache/runtime-4.8 -DFIX_FOR=6.1.0-56-amd64 '<tmpdir>/script.stp'" ]]
	run "$SJ" --dump nojava.stp
	[[ "$(section stap)" == *" -R /cache/runtime-4.8 -DFIX_FOR=$(uname -r) '<tmpdir>/script.stp'" ]]
	run "$SJ" --dump -p2 nojava.stp
	[[ "$output" != *FIX_FOR* ]]
	run "$SJ" --dump -R /my/runtime nojava.stp
	[[ "$output" != *FIX_FOR* ]]
	run "$SJ" --dump --runtime=bpf nojava.stp
	[[ "$output" != *FIX_FOR* ]]
	# a failing fix is reported, and stap runs without it
	STAPJAVA_RUNTIME_FIX=/bin/false run "$SJ" --dump -p4 nojava.stp
	[ "$status" -eq 0 ]
	[[ "$output" == *"warn: /bin/false -r $(uname -r) failed; running stap without the runtime fix"* ]]
}

@test "a long bridge command goes through an arguments file that the begin probe reads" {
	for i in $(seq 1 12); do echo "probe java.method(\"com.example.service.Class$i.method\") {}"; done >"$T/long.stp"
	export STAPJAVA_CACHE=$T/cache STAPJAVA_STAP=/bin/true
	STAPJAVA_BRIDGE=$FAKE_BRIDGE run "$SJ" -p2 "$T/long.stp"
	[ "$status" -eq 0 ]
	f=$(ls "$T"/cache/bridge-args-*)
	[ "$(head -n 3 "$f")" = "--fire
--slot
0:method.enter:com.example.service.Class1.method" ]
	[ "$(wc -l <"$f")" -eq 25 ]
	run "$SJ" --dump -p2 "$T/long.stp"
	grep -F "probe begin { __stapjava_pgrp = pgrp(); system(\"set -f; exec '/opt/stapjava/bin/stpd-bridge' --parent \" . sprint(stp_pid()) . \" \$(cat '$f') </dev/null &\") }" <<<"$output"
	# what the shell makes of it: one word per argument, '*' not globbed
	printf -- '--fire\n--slot\n0:method.enter:*\n' >"$f"
	(cd "$T" && touch a b && set -f && printf '<%s>' $(cat "$f")) >"$T/words"
	[ "$(cat "$T/words")" = "<--fire><--slot><0:method.enter:*>" ]
}

@test "the arguments file: only in a private cache directory, never through a symlink" {
	for i in $(seq 1 12); do echo "probe java.method(\"com.example.service.Class$i.method\") {}"; done >"$T/long.stp"
	export STAPJAVA_STAP=/bin/true STAPJAVA_BRIDGE=$FAKE_BRIDGE
	# a cache others can write to is refused: the root bridge reads the file later
	mkdir -m 0777 "$T/open"
	chmod 0777 "$T/open"
	STAPJAVA_CACHE=$T/open run "$SJ" -p2 "$T/long.stp"
	[ "$status" -ne 0 ]
	[[ $output == *"cache directory '$T/open' must be a directory of uid 0, not writable by group or others (STAPJAVA_CACHE chooses another)"* ]]
	[ -z "$(ls "$T/open")" ]
	# a symlink planted at the file's name is replaced, its target untouched
	export STAPJAVA_CACHE=$T/cache
	run "$SJ" -p2 "$T/long.stp"
	[ "$status" -eq 0 ]
	f=$(ls "$T"/cache/bridge-args-*)
	rm "$f"
	echo victim >"$T/victim"
	ln -s "$T/victim" "$f"
	run "$SJ" -p2 "$T/long.stp"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/victim")" = victim ]
	[ -f "$f" ] && [ ! -L "$f" ]
	[ "$(stat -c %a "$f")" = 600 ]
	[ "$(head -n 1 "$f")" = "--fire" ]
}

@test "listing modes (-l, -L, -V) go to stap with the tapset and the paths stap-java uses" {
	cat >"$T/stap" <<-EOF2
		#!/bin/sh
		printf '%s|' "\$@" >"$T/args"
		cat "\$2/stapjava_paths.stpm" >"$T/paths"
		exit 3
	EOF2
	chmod +x "$T/stap"
	TMPDIR=$T STAPJAVA_STAP=$T/stap run "$SJ" -L 'java.gc.*'
	[ "$status" -eq 3 ]
	line=$(cat "$T/args")
	[ "${line#-I|$T/stap-java.??????/tapset|}" = "-L|java.gc.*|-I|/opt/stapjava/share/stapjava/tapset|" ]
	[ "$(grep -v '^//' "$T/paths")" = '@define __stapjava_bridge %( "/opt/stapjava/bin/stpd-bridge" %)
@define __stapjava_agent %( "/opt/stapjava/lib/libstapjava.so" %)' ]
	# and the temporary directory is gone
	[ -z "$(find "$T" -name 'stap-java.*')" ]
}

@test "a bridge or agent that cannot be used: stap-java names it and its variable, and stap never runs" {
	printf '#!/bin/sh\ntouch "%s/stap-ran"\n' "$T" >"$T/stap"
	chmod +x "$T/stap"
	touch "$T/plain"
	export STAPJAVA_STAP=$T/stap STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT
	# MESSAGE, alone, status 1, and no stap
	only() {
		[ "$status" -eq 1 ] && [ "${#lines[@]}" -eq 1 ] && [[ ${lines[0]} =~ ^stap-java\[[0-9]+\]:\ (.*)$ ]] &&
			[ "${BASH_REMATCH[1]}" = "$1" ] && [ ! -e "$T/stap-ran" ] || { echo "status $status: $output"; return 1; }
	}
	STAPJAVA_BRIDGE=$T/nope run "$SJ" -p2 -e 'probe java.class("A") {}'
	only "error: the bridge $T/nope (STAPJAVA_BRIDGE) does not exist"
	STAPJAVA_BRIDGE=$T/plain run "$SJ" -p2 -e 'probe java.class("A") {}'
	only "error: the bridge $T/plain (STAPJAVA_BRIDGE) is not executable"
	STAPJAVA_BRIDGE=$T run "$SJ" -p2 -e 'probe java.class("A") {}'
	only "error: the bridge $T (STAPJAVA_BRIDGE) is not a regular file"
	STAPJAVA_BRIDGE=$T/plain/x run "$SJ" -p2 -e 'probe java.class("A") {}'
	only "error: the bridge $T/plain/x (STAPJAVA_BRIDGE) does not exist"
	# the agent: for a family's alias (it names both), in-thread, -c and -x
	export STAPJAVA_AGENT=$T/nope.so
	agent_missing="error: the agent $T/nope.so (STAPJAVA_AGENT) does not exist"
	run "$SJ" -p2 -e 'probe java.gc.start {}'
	only "$agent_missing"
	run "$SJ" -p2 --java-sync -e 'probe java.class("A") {}'
	only "$agent_missing"
	run "$SJ" -p2 -c 'java Demo' -e 'probe java.class("A") {}'
	only "$agent_missing"
	run "$SJ" -p2 -x 1 -e 'probe java.class("A") {}'
	only "$agent_missing"
	# not for a slot of the bridge alone, nor without Java probes
	run "$SJ" -p2 -e 'probe java.class("A") {}'
	[ "$status" -eq 0 ]
	[ -e "$T/stap-ran" ]
	rm "$T/stap-ran"
	STAPJAVA_BRIDGE=$T/nope run "$SJ" -p2 -e 'probe begin {}'
	[ "$status" -eq 0 ]
	[ -e "$T/stap-ran" ]
	rm "$T/stap-ran"
	# nor when nothing reads them: pass 1 only, --dump
	STAPJAVA_BRIDGE=$T/nope run "$SJ" -p1 -e 'probe java.gc.start {}'
	[ "$status" -eq 0 ]
	[ -e "$T/stap-ran" ]
	STAPJAVA_BRIDGE=$T/nope run "$SJ" --dump -p2 -e 'probe java.gc.start {}'
	[ "$status" -eq 0 ]
}

# --- the output is valid stap: real elaboration against the stand-in bridge ---------

stap_p2() {
	# the build tree's tapset (its functions, which the slot aliases call);
	# its paths are stap-java's (the stand-in bridge, the agent)
	mkdir -p "$T/tapset"
	cp "$BUILD/tapset/stapjava.stp" "$BUILD/tapset/stapjava.stpm" "$T/tapset/"
	STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT STAPJAVA_TAPSET=$T/tapset run "$SJ" -p2 -r "$KREL" "$@"
}

@test "stap -p2 elaborates translated scripts (slots, lists, aliases, conditionals, macros)" {
	cat >"$T/a.stp" <<-'EOF2'
		global t
		@define JM %( java.method("macro.Body.run") %)
		probe java.method("A.b(I)V").enter { t[java_tid] = gettimeofday_us() }
		probe java.method("A.b(I)V").return { printf("%d %s %d\n", gettimeofday_us() - t[java_tid], java_return, java_popped) }
		probe myalias = java.class("alias.Rhs").prepare, java.class("alias.Rhs").unload { tag = class_name }
		probe myalias { println(tag) }
		probe java.exception("java.lang.*").catch ?, java.exception("X")! { printf("%s %s %s %s\n", java_event_name, exception_name, java_method, java_stack) }
		probe java.method("Cond.x").compile if (java_pid_filter > 0) { println(java_code_size, java_code_addr) }
		probe %( arch == "x86_64" %? java.class("Then") %: java.class("Else") %) { println(java_thread_name, java_timestamp, java_event, java_pid, java_args) }
		probe @JM { println(method_name) }
		probe process("/bin/true").begin { println(pid()) }
		global java_pid_filter = 1
	EOF2
	stap_p2 "$T/a.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# mixed with a process probe: the slots are on the agent's markers
	[[ "$output" == *'process("'"$REAL_AGENT"'").statement('* ]]
	# no warnings about the variables a handler does not use
	! grep '^WARNING:.*java_' <<<"$output" || return 1
	# every kind of condition, decided by stap's pass 1 first
	stap_p2 conditionals.stp one two
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "stap -p2 elaborates the bridge's end probe: with system(), with -c (target()), with -x" {
	stap_p2 -e 'probe java.class("A") { println(java_event, java_flags, java_sync) }'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *'process("'"$FAKE_BRIDGE"'").end'* ]]
	[[ "$output" == *'__stapjava_pgrp'* ]]
	stap_p2 -c 'java Demo' -e 'probe java.method("A.b") { println(target()) }'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *'process("'"$FAKE_BRIDGE"'").end'* ]]
	[[ "$output" != *'__stapjava_pgrp'* ]]
	stap_p2 -x 1 -e 'probe java.class("A") {}'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "stap's own errors in user code keep the user's file, line and column" {
	cat >"$T/b.stp" <<-'EOF2'
		probe java.class("A") { println(java_name) }
		probe java.method("Demo.add(II)I").return { x = 1 + nosuch(java_return) }
	EOF2
	stap_p2 "$T/b.stp"
	[ "$status" -ne 0 ]
	[[ "$output" == *"semantic error: unresolved function nosuch"*": identifier 'nosuch' at $T/b.stp:2:53"* ]]
	[[ "$output" != *stap-java.*/b.stp* ]]
	# and for -e
	stap_p2 -e 'probe java.class("A") { println(nosuch2) }'
	[ "$status" -ne 0 ]
	[[ "$output" == *"identifier 'nosuch2' at <input>:1:33"* ]]
}

@test "stap's messages show the user's own lines: semantic errors on a Java probe's line and on another" {
	printf '%s\n' 'global n' 'probe java.method("Demo.add(II)I").return { n = 1 + java_popped }' \
		'probe java.class("A") { println(java_name) }' 'probe begin { n = "s" }' >"$T/c.stp"
	stap_p2 "$T/c.stp"
	[ "$status" -eq 1 ]
	diff -u - <(grep -v -e '^WARNING: Kernel function symbol table missing' -e '^Tip: ' <<<"$output") <<-EOF2
		semantic error: type mismatch (long): identifier 'n' at $T/c.stp:2:45
		        source: probe java.method("Demo.add(II)I").return { n = 1 + java_popped }
		                                                            ^

		semantic error: type was first inferred here (string): identifier 'n' at :4:15
		        source: probe begin { n = "s" }
		                              ^

		Pass 2: analysis failed.  [man error::pass2]
	EOF2
}

@test "stap's messages show the user's own lines: parse errors, tabs under the caret, -e and -E" {
	stap_p2 -e "$(printf 'probe java.method(\t"A.b") { x = 1 +* 2 }')"
	[ "$status" -eq 1 ]
	[ "$(grep -A3 '^parse error' <<<"$output")" = "$(printf '%s\n' 'parse error: expected literal string or number' \
		"        saw: operator '*' at <input>:1:36" \
		"$(printf '     source: probe java.method(\t"A.b") { x = 1 +* 2 }')" \
		"$(printf '                               \t                ^')")" ]
	stap_p2 -e 'probe begin {}' -E "$(printf 'probe begin {}\nprobe java.class("B") { println(nosuch3()) }')"
	[ "$status" -eq 1 ]
	[[ "$(grep '^semantic error' <<<"$output")" == "semantic error: unresolved function nosuch3 "*": identifier 'nosuch3' at <input1>:2:33" ]]
	[ "$(grep -A2 '^semantic error' <<<"$output" | tail -n 2)" = "        source: probe java.class(\"B\") { println(nosuch3()) }
                                                ^" ]
}

@test "stap's messages about generated code are left alone" {
	# a bridge binary without the markers: the errors are in the generated tapset
	printf '%s\n' '# one' '# two' 'probe java.class("A") { }' >"$T/d.stp"
	STAPJAVA_BRIDGE=/bin/true STAPJAVA_TAPSET=$T run "$SJ" -p2 -r "$KREL" "$T/d.stp"
	[ "$status" -eq 1 ]
	[[ "$output" == *"semantic error: while resolving probe point: identifier 'process' at /"*"/tapset/stapjava_slots.stp:3:23
        source: probe __stapjava_s0 = process(\"/bin/true\").mark(\"slot0\") {
                                      ^"* ]]
}

@test "stap's stderr streams through line by line; the last line, exit status and SIGTERM are kept" {
	cat >"$T/stap" <<-EOF2
		#!/bin/sh
		trap 'echo "got TERM at $T/x:1:1" >&2; exit 5' TERM
		echo "first at $T/x:1:1" >&2
		for _ in \$(seq 12000); do [ -e "$T/go" ] && break; sleep 0.05; done	# bounded: 600 s
		printf 'last, without a newline' >&2
		exit 7
	EOF2
	chmod +x "$T/stap"
	export STAPJAVA_STAP=$T/stap
	"$SJ" -p2 -e 'probe begin {}' 2>"$T/err" &
	pid=$!
	# the first line is there before stap-java ends
	wait_nonempty "$T/err"
	[ "$(cat "$T/err")" = "first at $T/x:1:1" ]
	touch "$T/go"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 7 ]
	[ "$(cat "$T/err")" = "first at $T/x:1:1
last, without a newline" ]
	rm "$T/go"
	"$SJ" -p2 -e 'probe begin {}' 2>"$T/err2" &
	pid=$!
	wait_nonempty "$T/err2"
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 5 ]
	[ "$(cat "$T/err2")" = "first at $T/x:1:1
got TERM at $T/x:1:1" ]
}

@test "stap -p2 of a script with 256 slots" {
	for i in $(seq 0 255); do echo "probe java.method(\"C.m$i\") { println(java_name) }"; done >"$T/many.stp"
	stap_p2 "$T/many.stp"
	[ "$status" -eq 0 ] || { echo "$output" | tail; return 1; }
}

@test "stap's messages name a Java probe point as the user wrote it, never __stapjava_sN" {
	printf 'probe java.method("A.c").return { }\nprobe java.class("B") { println(class_name) }\n' >"$T/el.stp"
	stap_p2 "$T/el.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# a Java probe with an empty handler is kept (its events are counted for
	# the report at the end), so stap has no elision to report
	! grep -q 'elided' <<<"$output" || { echo "$output"; return 1; }
	printf 'probe java.method("A.c").return { }\nprobe java.class("B") { println(class_name, x) }\n' >"$T/el2.stp"
	stap_p2 "$T/el2.stp"
	[ "$status" -ne 0 ]
	grep -qE "^WARNING: never-assigned local variable 'x' .*: identifier 'x' at $T/el2.stp:2:45\$" <<<"$output" ||
		{ echo "$output"; return 1; }
	# (the -p2 listing on stdout shows the generated code; the messages do not)
	! grep -E '^(WARNING|[a-z]+ error)' <<<"$output" | grep -q '__stapjava' || { echo "$output"; return 1; }
}

@test "a method's parameters written as Java source reach the bridge as a descriptor pattern" {
	run "$SJ" --dump -p2 -e 'probe java.method("Shop.handle(int, String)").return { println(java_return) }'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(section bridge)" = "/opt/stapjava/bin/stpd-bridge --parent <stapio pid> '--fire' '--slot' '0:method.return:Shop.handle(IL*String;)*' '--return'" ]
	run "$SJ" --dump -p2 -e 'probe java.method("Shop.handle(I)") { }'
	[ "$status" -ne 0 ]
	[[ $output == *"'Shop.handle(I)' has no return type after ')' at offset 13: write Shop.handle(I)V (or another type, or * for any), or the parameters as Java types, e.g. (int, String)"* ]] || { echo "$output"; return 1; }
}

@test "the end of the session names each Java probe point that never fired" {
	printf 'probe java.method("A.c(I)J").return { println(1) }\nprobe java.class("B").load { println(2) }\n%%( $# > 5 %%? probe java.method("Left.Out") { } %%)\n' >"$T/nf.stp"
	run "$SJ" --dump -p2 -r "$KREL" "$T/nf.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# one probe end after the rest: a warning per Java probe point stap keeps
	[ "$(section "script $T/nf.stp" | tail -n 2)" = 'probe end { if (!@count(__stapjava_fired0)) warn("java.method(\"A.c(I)J\").return never fired: no event of any JVM matched it"); if (!@count(__stapjava_fired1)) warn("java.class(\"B\").load never fired: no event of any JVM matched it"); } // generated by stap-java: says which Java probe points never fired
global __stapjava_fired0, __stapjava_fired1' ] || { echo "$output"; return 1; }
	# each alias counts its own (after the session filter, in-thread)
	section "tapset <tmpdir>/stapjava_slots.stp" | grep -q '^	.*; java_popped = \$arg9; __stapjava_fired0 <<< 1;$'
	section "tapset <tmpdir>/stapjava_slots.stp" | grep -q '^	.*; class_name = java_name; __stapjava_fired1 <<< 1;$'
	# and stap elaborates it: the counts are statistics
	stap_p2 "$T/nf.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	grep -qx '__stapjava_fired0:stats' <<<"$output"
	grep -qx '__stapjava_fired1:stats' <<<"$output"
}

@test "stap-java -x PID of no JVM: the bridge's reason, status 1, and stap never runs" {
	printf '#!/bin/sh\ntouch "%s/stap-ran"\n' "$T" >"$T/stap"
	chmod +x "$T/stap"
	STAPJAVA_BRIDGE=$BUILD/stpd-bridge/stpd-bridge STAPJAVA_AGENT=$REAL_AGENT STAPJAVA_STAP=$T/stap \
		run "$SJ" -x 999999 -e 'probe java.method("A.b") { println(1) }'
	[ "$status" -eq 1 ]
	[[ $output =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ 999999:\ no\ such\ process$ ]] || { echo "$output"; return 1; }
	[ ! -e "$T/stap-ran" ]
	# building only (-p4, as a harness that runs the module elsewhere): no check
	STAPJAVA_BRIDGE=$BUILD/stpd-bridge/stpd-bridge STAPJAVA_AGENT=$REAL_AGENT STAPJAVA_STAP=$T/stap \
		run "$SJ" -p4 -x 999999 -e 'probe java.method("A.b") { println(1) }'
	[ -e "$T/stap-ran" ]
}

# --- -l / -L ---------------------------------------------------------------------

# What the slot aliases set (translator-patches/sj_emit.c), as stap -L lists them.
SLOT_VARS="java_event_name:string java_event:long java_flags:long java_sync:long java_pid:long java_tid:long java_timestamp:long java_name:string java_method:string java_args:string java_return:string java_thread_name:string java_stack:string java_stack_depth:long"

# $SHOP: a class path made once per run of this file with the JDK's javac and
# jar: classes/ (with a package-info.class and a module-info.class that is no
# class file, both to be skipped) and shop.jar of the same classes (and the
# package-info.class).
shop_classes() {
	export SHOP=$BATS_FILE_TMPDIR/shop
	[ -e "$SHOP/shop.jar" ] && return 0
	local jdk=/usr/lib/jvm/java-17-openjdk-amd64/bin
	mkdir -p "$SHOP/src/shop" "$SHOP/classes"
	cat >"$SHOP/src/shop/Shop.java" <<-'EOF2'
		package shop;
		import java.util.List;
		public class Shop {
		    public static class OutOfStock extends RuntimeException {
		        public OutOfStock(String item) { super(item); }
		    }
		    static class Refused extends OutOfStock { Refused() { super("refused"); } }
		    public interface Priced { long price(); }
		    public abstract static class Item implements Priced {
		        public abstract String name();
		        String label() { return name(); }
		    }
		    private int stock;
		    public void buy(int n) { stock -= n; }
		    public boolean buy(String item, int n) { buy(n); return stock >= 0; }
		    public void handle(int code, List<String> lines) { }
		    public native void peek();
		    static int total() { return 0; }
		}
	EOF2
	cat >"$SHOP/src/shop/Order.java" <<-'EOF2'
		package shop;
		class Order { void buy() { } }
	EOF2
	printf '@Deprecated\npackage shop;\n' >"$SHOP/src/shop/package-info.java"
	printf 'public class Main { public static void main(String[] args) { } }\n' >"$SHOP/src/Main.java"
	# a name outside the BMP: a surrogate pair in the class file's modified UTF-8
	printf 'class Unicode { void h\\uD835\\uDD18llo() { } }\n' >"$SHOP/src/Unicode.java"
	"$jdk/javac" --release 17 -d "$SHOP/classes" "$SHOP/src/shop/"*.java "$SHOP/src/Main.java" "$SHOP/src/Unicode.java"
	[ -e "$SHOP/classes/shop/package-info.class" ]
	"$jdk/jar" cf "$SHOP/shop.jar.new" -C "$SHOP/classes" .
	echo 'not a class file' >"$SHOP/classes/module-info.class"
	mv "$SHOP/shop.jar.new" "$SHOP/shop.jar"
}

# stderr of the last `run --separate-stderr`, the pids of stap-java's messages taken out
errors() {
	sed -E 's/^stap-java\[[0-9]+\]: /stap-java: /' <<<"$stderr"
}

@test "-L java.method(...) --classpath: every method selected, from a directory or a jar, sorted, with the slot's variables" {
	shop_classes
	local want="java.method(\"shop.Shop.buy(I)V\").enter $SLOT_VARS method_name:string
java.method(\"shop.Shop.buy(Ljava/lang/String;I)Z\").enter $SLOT_VARS method_name:string"
	# no '(': every overload; the same from the directory, the jar, and both
	for cp in "$SHOP/classes" "$SHOP/shop.jar" "$SHOP/shop.jar:$SHOP/classes"; do
		run --separate-stderr "$SJ" -L 'java.method("shop.Shop.buy")' --classpath "$cp"
		[ "$status" -eq 0 ] && [ "$output" = "$want" ] && [ -z "$stderr" ] || { echo "$cp: $status $output $stderr"; return 1; }
	done
	# DIR/*: the jars in DIR
	run --separate-stderr "$SJ" -l 'java.method("shop.Shop.buy")' --classpath "$SHOP/*"
	[ "$status" -eq 0 ]
	[ "$output" = 'java.method("shop.Shop.buy(I)V").enter
java.method("shop.Shop.buy(Ljava/lang/String;I)Z").enter' ]
	# a name outside the BMP comes out in UTF-8, as the agent names it, and a
	# pattern in UTF-8 selects it
	run --separate-stderr "$SJ" -l 'java.method("Unicode.h𝔘*")' --classpath "$SHOP/shop.jar"
	[ "$status" -eq 0 ]
	[ "$output" = 'java.method("Unicode.h𝔘llo()V").enter' ]
	# an event, internal names, and --classpath=CP
	run --separate-stderr "$SJ" -L 'java.method("shop/Shop.buy(I)V").return' --classpath="$SHOP/shop.jar"
	[ "$status" -eq 0 ]
	[ "$output" = "java.method(\"shop.Shop.buy(I)V\").return $SLOT_VARS method_name:string java_popped:long" ]
	run --separate-stderr "$SJ" -L 'java.method("shop.Shop.total").compile' --classpath "$SHOP/classes"
	[ "$output" = "java.method(\"shop.Shop.total()I\").compile $SLOT_VARS method_name:string java_code_size:long java_code_addr:long" ]
	# parameters as Java source writes them; any class; -l: the points alone
	run --separate-stderr "$SJ" -l 'java.method("shop.Shop.handle(int, List)")' --classpath "$SHOP/classes"
	[ "$output" = 'java.method("shop.Shop.handle(ILjava/util/List;)V").enter' ]
	run --separate-stderr "$SJ" -l 'java.method("*.buy")' --classpath "$SHOP/shop.jar"
	[ "$output" = 'java.method("shop.Order.buy()V").enter
java.method("shop.Shop.buy(I)V").enter
java.method("shop.Shop.buy(Ljava/lang/String;I)Z").enter' ]
	# every method of the package: abstract and native ones (no code: they never
	# fire) are not listed; package-info and module-info are not classes
	run --separate-stderr "$SJ" -l 'java.method("shop.*"),java.method("Main.*")' --classpath "$SHOP/classes"
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$status $stderr"; return 1; }
	[ "$output" = 'java.method("Main.<init>()V").enter
java.method("Main.main([Ljava/lang/String;)V").enter
java.method("shop.Order.<init>()V").enter
java.method("shop.Order.buy()V").enter
java.method("shop.Shop$Item.<init>()V").enter
java.method("shop.Shop$Item.label()Ljava/lang/String;").enter
java.method("shop.Shop$OutOfStock.<init>(Ljava/lang/String;)V").enter
java.method("shop.Shop$Refused.<init>()V").enter
java.method("shop.Shop.<init>()V").enter
java.method("shop.Shop.buy(I)V").enter
java.method("shop.Shop.buy(Ljava/lang/String;I)Z").enter
java.method("shop.Shop.handle(ILjava/util/List;)V").enter
java.method("shop.Shop.total()I").enter' ] || { echo "$output"; return 1; }
}

@test "-l/-L java(...).class(...).method(...) --classpath: each method in SystemTap's form, its parameters in Java source form, ^CLASS's overrides, stap's arguments" {
	shop_classes
	# a class without its package: any package's, and no other class
	run --separate-stderr "$SJ" -l 'java("Shop").class("Shop").method("buy")' --classpath "$SHOP/classes"
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$status $stderr"; return 1; }
	[ "$output" = 'java("Shop").class("shop.Shop").method("buy(int)")
java("Shop").class("shop.Shop").method("buy(java.lang.String,int)")' ] || { echo "$output"; return 1; }
	# by pid, .return, -L: the slot's variables, then stap's arguments
	run --separate-stderr "$SJ" -L 'java(4242).class("shop.Shop").method("handle(int, java.util.List)").return' --classpath "$SHOP/shop.jar"
	[ "$status" -eq 0 ]
	[ "$output" = "java(4242).class(\"shop.Shop\").method(\"handle(int,java.util.List)\").return $SLOT_VARS method_name:string java_popped:long arg1:string arg2:string \$arg1:long \$arg2:long" ] || { echo "$output"; return 1; }
	# ^CLASS: the class's and every override in its subclasses (Refused's <init>)
	run --separate-stderr "$SJ" -l 'java("Shop").class("^shop.Shop$OutOfStock").method("<init>"),java("Main").class("Main").method("main")' --classpath "$SHOP/classes"
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "$status $stderr"; return 1; }
	[ "$output" = 'java("Main").class("Main").method("main(java.lang.String[])")
java("Shop").class("shop.Shop$OutOfStock").method("<init>(java.lang.String)")
java("Shop").class("shop.Shop$Refused").method("<init>()")' ] || { echo "$output"; return 1; }
	# none: said as for java.method, status 1
	run --separate-stderr "$SJ" -l 'java("Shop").class("shop.Order").method("sell")' --classpath "$SHOP/classes"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[ "$(errors)" = 'stap-java: error: no method of the class path matches java("Shop").class("shop.Order").method("sell")' ]
}

@test "-L java.class(...) and java.exception(...) --classpath: the classes, and for exceptions those that may be Throwables" {
	shop_classes
	run --separate-stderr "$SJ" -L 'java.class("shop.Shop*")' --classpath "$SHOP/shop.jar"
	[ "$status" -eq 0 ]
	[ "$output" = "java.class(\"shop.Shop\").load $SLOT_VARS class_name:string
java.class(\"shop.Shop\$Item\").load $SLOT_VARS class_name:string
java.class(\"shop.Shop\$OutOfStock\").load $SLOT_VARS class_name:string
java.class(\"shop.Shop\$Priced\").load $SLOT_VARS class_name:string
java.class(\"shop.Shop\$Refused\").load $SLOT_VARS class_name:string" ] || { echo "$output"; return 1; }
	run --separate-stderr "$SJ" -l 'java.class("Main").unload' --classpath "$SHOP/classes"
	[ "$output" = 'java.class("Main").unload' ]
	# OutOfStock extends RuntimeException (not in the class path: it may be one),
	# Refused extends OutOfStock; the others end at Object, or are interfaces
	run --separate-stderr "$SJ" -L 'java.exception("*")' --classpath "$SHOP/classes"
	[ "$status" -eq 0 ]
	[ "$output" = "java.exception(\"shop.Shop\$OutOfStock\").thrown $SLOT_VARS exception_name:string
java.exception(\"shop.Shop\$Refused\").thrown $SLOT_VARS exception_name:string" ] || { echo "$output"; return 1; }
	run --separate-stderr "$SJ" -l 'java.exception("shop.Shop$Refused").catch' --classpath "$SHOP/classes"
	[ "$output" = 'java.exception("shop.Shop$Refused").catch' ]
}

@test "-l/-L --classpath: what cannot be read is named, the rest is listed, status 1" {
	shop_classes
	echo 'not a zip' >"$T/bad.jar"
	mkdir -p "$T/dir/shop"
	cp "$SHOP/classes/shop/Order.class" "$T/dir/shop/"
	# symbolic links are followed, a way back up is not, a dangling one is nobody's
	ln -s .. "$T/dir/shop/up"
	ln -s "$SHOP/classes/Main.class" "$T/dir/Linked.class"
	ln -s "$T/gone" "$T/dir/Gone.class"
	head -c 100 "$SHOP/classes/shop/Shop.class" >"$T/dir/shop/Cut.class"
	mkdir -p "$T/jar"
	cp "$T/dir/shop/Cut.class" "$T/jar/"
	/usr/lib/jvm/java-17-openjdk-amd64/bin/jar cf "$T/cut.jar" -C "$T/jar" Cut.class
	run --separate-stderr "$SJ" -l 'java.method("*.buy"),java.class("Main")' --classpath "$T/nope:$T/bad.jar:$T/dir:$T/cut.jar"
	[ "$status" -eq 1 ]
	[ "$output" = 'java.class("Main").load
java.method("shop.Order.buy()V").enter' ]
	[ "$(errors)" = "stap-java: error: cannot read the class path entry $T/nope: No such file or directory
stap-java: error: cannot read the jar $T/bad.jar: Not a zip archive
stap-java: error: malformed class file $T/dir/shop/Cut.class: constant pool truncated
stap-java: error: malformed class file Cut.class in the jar $T/cut.jar: constant pool truncated" ] || { echo "$stderr"; return 1; }
}

@test "-l/-L of a pattern: no match, no --classpath, -x without --classpath, --classpath without -l/-L: one message, status 1" {
	shop_classes
	printf '#!/bin/sh\ntouch "%s/stap-ran"\n' "$T" >"$T/stap"
	chmod +x "$T/stap"
	export STAPJAVA_STAP=$T/stap
	# MESSAGE alone on stderr, nothing on stdout, status 1, and no stap
	only() {
		[ "$status" -eq 1 ] && [ -z "$output" ] && [ "$(errors)" = "$1" ] && [ ! -e "$T/stap-ran" ] ||
			{ echo "status $status: $output / $stderr"; return 1; }
	}
	run --separate-stderr "$SJ" -L 'java.method("shop.Shop.nosuch")' --classpath "$SHOP/classes"
	only 'stap-java: error: no method of the class path matches java.method("shop.Shop.nosuch")'
	run --separate-stderr "$SJ" -l 'java.class("nosuch.*").unload' --classpath "$SHOP/classes"
	only 'stap-java: error: no class of the class path matches java.class("nosuch.*").unload'
	run --separate-stderr "$SJ" -l 'java.exception("shop.Shop$Item")' --classpath "$SHOP/classes"
	only 'stap-java: error: no exception class of the class path matches java.exception("shop.Shop$Item")'
	# -x PID: the bridge asks that JVM; one that does not exist is the bridge's to say
	STAPJAVA_BRIDGE=$BUILD/stpd-bridge/stpd-bridge STAPJAVA_AGENT=$REAL_AGENT \
		run --separate-stderr "$SJ" -L 'java.method("Shop.*")' -x 999999
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ ! -e "$T/stap-ran" ]
	[[ "$(errors)" == *"-x 999999: no such process"* ]] || { echo "$stderr"; false; }
	# a bridge that is not there is named as a run names it
	run --separate-stderr "$SJ" -L 'java.method("Shop.*")' -x 999999
	only 'stap-java: error: the bridge /opt/stapjava/bin/stpd-bridge (STAPJAVA_BRIDGE) does not exist'
	run --separate-stderr "$SJ" -l 'java.gc.*,java.class("Shop")'
	only "stap-java: error: -l java.class(\"Shop\") lists from a class path or a running JVM: give --classpath CP (directories and jars, separated by ':') or -x PID"
	run --separate-stderr "$SJ" --classpath "$SHOP/classes" -e 'probe begin {}'
	only 'stap-java: error: --classpath is for -l and -L: it says where their java.method, java.class and java.exception points are listed from'
	run --separate-stderr "$SJ" -l 'java.class("A")' --classpath
	only "stap-java: error: option '--classpath' requires an argument"
	# a mistake in the Java syntax: stap's format, as stap shows -L's argument
	run --separate-stderr "$SJ" -L 'java.method("a b")' --classpath "$SHOP/classes"
	[ "$status" -eq 1 ] && [ -z "$output" ] && [ ! -e "$T/stap-ran" ]
	[ "$stderr" = 'parse error: bad pattern in java.method: space at offset 1 cannot occur in a Java name
        saw: string "a b" at <input>:1:19
     source: probe java.method("a b") {}
                               ^

1 parse error.' ] || { echo "$stderr"; return 1; }
	run --separate-stderr "$SJ" -l 'java.method("A.b")java.class("C")' --classpath "$SHOP/classes"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[ "$stderr" = "parse error: 'java.method(\"A.b\")java.class(\"C\")' is not one Java probe point" ]
}

@test "-L of the tapset's points: stap's lines without the markers' \$argN; other points' lines as stap prints them" {
	# a stand-in stap: what it was asked, and lines as stap -L prints them
	cat >"$T/stap" <<-EOF2
		#!/bin/sh
		printf '%s|' "\$@" >"$T/args"
		echo 'java.gc.start java_event:long java_pid:long \$arg1:long \$arg2:long \$arg12:long'
		echo 'syscall.read fd:long \$arg1:long \$regs:struct pt_regs*'
		exit 0
	EOF2
	chmod +x "$T/stap"
	shop_classes
	STAPJAVA_STAP=$T/stap run --separate-stderr "$SJ" -L ' java.gc.start , syscall.read'
	[ "$status" -eq 0 ]
	[ "$output" = 'java.gc.start java_event:long java_pid:long
syscall.read fd:long $arg1:long $regs:struct pt_regs*' ] || { echo "$output"; return 1; }
	# with a pattern point: stap is asked about the others only, and all is sorted
	STAPJAVA_STAP=$T/stap run --separate-stderr "$SJ" -L 'syscall.read,java.class("Main"),java.gc.start' --classpath "$SHOP/classes"
	[ "$status" -eq 0 ]
	[[ $(cat "$T/args") == *"|-L|syscall.read,java.gc.start|"* ]]
	[ "$output" = "java.class(\"Main\").load $SLOT_VARS class_name:string
java.gc.start java_event:long java_pid:long
syscall.read fd:long \$arg1:long \$regs:struct pt_regs*" ] || { echo "$output"; return 1; }
	# -l: stap's output as it is
	STAPJAVA_STAP=$T/stap run --separate-stderr "$SJ" -l 'java.gc.*'
	[ "$output" = 'java.gc.start java_event:long java_pid:long $arg1:long $arg2:long $arg12:long
syscall.read fd:long $arg1:long $regs:struct pt_regs*' ]
	# the real stap, on the tapset
	mkdir -p "$T/tapset"
	cp "$BUILD/tapset/stapjava.stp" "$BUILD/tapset/stapjava.stpm" "$T/tapset/"
	STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT STAPJAVA_TAPSET=$T/tapset \
		run --separate-stderr "$SJ" -r "$KREL" -L 'java.gc.*'
	[ "$status" -eq 0 ] || { echo "$stderr"; return 1; }
	[ "$output" = 'java.gc.finish java_event_name:string java_event:long java_pid:long java_tid:long java_timestamp:long java_thread_name:string java_stack:string java_stack_depth:long
java.gc.start java_event_name:string java_event:long java_pid:long java_tid:long java_timestamp:long java_thread_name:string java_stack:string java_stack_depth:long' ] || { echo "$output"; return 1; }
}

@test "-L lists for a pattern point exactly the variables stap -L finds in its slot's alias" {
	shop_classes
	mkdir -p "$T/tapset"
	cp "$BUILD/tapset/stapjava.stp" "$BUILD/tapset/stapjava.stpm" "$T/tapset/"
	export STAPJAVA_BRIDGE=$FAKE_BRIDGE STAPJAVA_AGENT=$REAL_AGENT
	local points='java.method("shop.Shop.total"), java.method("shop.Shop.total").return, java.method("shop.Shop.total").compile, java.class("Main").unload, java.exception("shop.Shop$Refused").catch'
	# the aliases stap-java generates for them, and what stap -L says of them
	run "$SJ" --dump -p2 -e "probe $points {}"
	[ "$status" -eq 0 ]
	section "tapset <tmpdir>/stapjava_slots.stp" >"$T/tapset/stapjava_slots.stp"
	section "tapset <tmpdir>/stapjava_paths.stpm" >"$T/tapset/stapjava_paths.stpm"
	run stap -r "$KREL" -I "$T/tapset" -L '__stapjava_s*'
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "${#lines[@]}" -eq 5 ]
	# each alias's variables: its own, less the count of its events and the markers' arguments
	sed -E 's/^__stapjava_s[0-9]+ //; s/ __stapjava_fired[0-9]+:stats//; s/ \$arg[0-9]+:long//g' <<<"$output" >"$T/stap-vars"
	run --separate-stderr "$SJ" -L "$points" --classpath "$SHOP/classes"
	[ "$status" -eq 0 ]
	# stap-java's lines, sorted, in the slots' order: enter, return, compile, unload, catch
	printf '%s\n' "${lines[3]}" "${lines[4]}" "${lines[2]}" "${lines[0]}" "${lines[1]}" | sed -E 's/^[^ ]+ //' >"$T/list-vars"
	diff -u "$T/stap-vars" "$T/list-vars"
	[ "$(sed -n 2p "$T/list-vars")" = "$SLOT_VARS method_name:string java_popped:long" ]
}

@test "stap -p2 elaborates SystemTap's java() points and SystemTap's own java test scripts, in both ABIs" {
	stap_p2 java_forms.stp
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# SystemTap's multiparams.stp and returnstatement.stp, as its testsuite writes them
	cat >"$T/multi.stp" <<-'EOF2'
		probe java("multiparams").class("multiparams").method("printMessage10(Object, String, short, char, boolean, byte, float, double, long, int)")
		{
		  %( systemtap_v >= "3.1" %?
		     printf("%s %s %s %s %s %s %s %s %s %s %s\n", pn(), arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9, arg10)
		  %:
		     printf("%s %s %s %d %d %d %d %d %d %d %d\n", pn(), user_string_quoted($arg1), user_string_quoted($arg2), $arg3, $arg4, $arg5, $arg6, $arg7, $arg8, $arg9, $arg10)
		  %)
		  print_java_backtrace()
		}
		probe java("returnstatement").class("returnstatement").method("printMessage(char)").return
		{
		  printf("%s %d ret\n", pn(), $arg1)
		}
	EOF2
	stap_p2 "$T/multi.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	stap_p2 --compatible=3.0 "$T/multi.stp"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

@test "java(\$N) and java(@N): a pid and a name from the script's arguments; --jvm only when every Java point names its JVM" {
	run "$SJ" --dump -p2 -e 'probe java($1).class("A").method("m") { println(pn()) } probe java(@2).class("A").method("m") { println(pp()) }' 4242 Hello
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(section bridge)" = "$STAPJAVA_BRIDGE --parent <stapio pid> '--fire' '--slot' '0:method.enter:*A.m' '--slot' '1:method.enter:*A.m' '--jvm' '4242' '--jvm' 'Hello' '--agent' '$STAPJAVA_AGENT'" ]
	[ "$(section 'tapset <tmpdir>/stapjava_slots.stp' | grep -o '__pn = "[^;]*;')" = "$(printf '%s\n' '__pn = "java(4242).class(\"A\").method(\"m\")";' '__pn = "java(\"Hello\").class(\"A\").method(\"m\")";')" ]
	# with another Java point the bridge serves every JVM; java(PID) still filters in its alias
	run "$SJ" --dump -p2 -e 'probe java($1).class("A").method("m") { } probe java.method("B.c") { }' 4242
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$(section bridge)" = "$STAPJAVA_BRIDGE --parent <stapio pid> '--fire' '--slot' '0:method.enter:*A.m' '--slot' '1:method.enter:B.c'" ]
	section 'tapset <tmpdir>/stapjava_slots.stp' | grep -qF 'if (java_pid != 4242) next;'
	# $N must be a pid
	run "$SJ" --dump -p2 -e 'probe java($1).class("A").method("m") { }' Hello
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "parse error: java(\$1): 'Hello' is not a pid (java(@1) takes a JVM's name)" ]
}
