#!/usr/bin/env bats
# The JVMTI agent (agent/libstapjava.so) in real JVMs, observed through the real
# bridge: `stpd-bridge -x PID --print`. testsuite/java/sjclient stands in for a
# peer only where a test needs what the bridge will not do (raw bytes, another
# uid, Appendix-only, never acking); it prints with the bridge's formatter.
# Every JVM-dependent test runs on JDK 17 (Debian) and JDK 25 (Temurin). No
# sleep-and-hope: each step waits (bounded) for a file, a log line or a process.

bats_require_minimum_version 1.5.0

load bpftrace

setup_file() {
	load jvms
	export CLIENT=$BUILD/testsuite/java/sjclient
}

setup() {
	[ -f "$AGENT" ] || { echo "no agent at $AGENT: run make" >&2; return 1; }
	[ -x "$BRIDGE" ] || { echo "no bridge at $BRIDGE: run make" >&2; return 1; }
	[ -x "$CLIENT" ] || { echo "no client at $CLIENT: run make check" >&2; return 1; }
	[ -f "$CLASSES/Families.class" ] || { echo "no test classes in $CLASSES: run make check" >&2; return 1; }
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/s"
	chmod 700 "$T/s"
	JPID= CPID= BPID=
	BPIDS=()
	JVM_ENV=() # extra environment of the JVMs start_jvm starts
	CLEAN=()   # paths outside $T a test made, removed by teardown
}

teardown() {
	local p
	[ -n "$CPID" ] && kill "$CPID" 2>/dev/null
	for p in "${BPIDS[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "$JPID" ] && kill "$JPID" 2>/dev/null
	[ -z "$JPID" ] || wait "$JPID" 2>/dev/null
	for p in "${CLEAN[@]}"; do rm -rf "$p"; done
	true
}

# show_logs: the last lines of the test's logs and error files on stderr, for
# a failure that the test's own assertion does not explain (a rare one may
# not come back: what it left is all there is).
show_logs() {
	local f
	for f in "$T"/*.log "$T"/*.err; do
		[ -s "$f" ] || continue
		echo "--- ${f#"$T"/} (its last 15 lines)" >&2
		tail -n 15 "$f" >&2
	done
}

# wait_until SECONDS CMD...: retry CMD every 20 ms until it succeeds or time is up.
wait_until() {
	local limit=$(($1 * 50)) i=0
	shift
	until "$@"; do
		i=$((i + 1))
		[ "$i" -lt "$limit" ] || { echo "timed out waiting for: $*" >&2; show_logs; return 1; }
		sleep 0.02
	done
}

log_has() { grep -q -- "$1" "$T/agent.log" 2>/dev/null; }
log_count() { grep -c -- "$1" "$T/agent.log" 2>/dev/null; }
log_count_is() { [ "$(log_count "$1")" -eq "$2" ]; }
sock_exists() { compgen -G "$T/s/jvm-*.sock" >/dev/null; }
gone() { ! kill -0 "$1" 2>/dev/null; }

# wait_exit PID [SECONDS]: wait for a background process (bounded) and return its status.
wait_exit() {
	wait_until "${2:-30}" gone "$1" || return 1
	wait "$1"
}

# start_jvm JAVA [AGENT_OPTIONS] -- ARGS...: a JVM with the agent in the background.
start_jvm() {
	local java=$1 extra=$2
	shift 3
	env "${JVM_ENV[@]}" "$java" "-XX:ErrorFile=$T/hs_err_%p.log" \
		"-agentpath:$AGENT=sockdir=$T/s,loglevel=info,logfile=$T/agent.log$extra" \
		-cp "$CLASSES" "$@" >"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
}

sock_of_jvm() { ls "$T"/s/jvm-*.sock; }
# sock_name PID: the agent's socket's name for that JVM (doc/agent-bridge.md)
sock_name() {
	echo "jvm-$(stat -L -c %i "/proc/$1/ns/pid")-$(awk '/^NSpid:/ {print $NF}' "/proc/$1/status")-$(awk '{print $22}' "/proc/$1/stat").sock"
}

# A JVM started just before `stpd-bridge -x PID` (as stap-java -x does it in
# a slow machine's guest) may take longer than the bridge's settling time to
# reach VMInit, where the agent starts its I/O thread and socket: the
# bridge said the socket could not be found and gave the JVM up. Here the VM
# is held before it even loads its agents (PauseAtStartup, until its file
# goes): its command line names the agent, which has no I/O thread yet.
@test "-x PID of a JVM whose agent has not started yet (the VM still starting): waited for however long, said once, then served" {
	start_jvm "$JDK17" "" -- -XX:+UnlockDiagnosticVMOptions -XX:+PauseAtStartup \
		"-XX:PauseAtStartupFile=$T/paused" Families methods "$T/go"
	wait_until 30 test -e "$T/paused"
	local jvm=$JPID
	start_bridge b -m Demo.add
	# said once the JVM is past the settling time (10 s), and the bridge waits on
	wait_until 60 grep -qs ': warn: ' "$T/b.log"
	kill -0 "$BPID"
	rm "$T/paused"
	wait_until 60 log_has 'conn#1: Start'
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	[ "$(grep -E ': (warn|error): ' "$T/b.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/ [0-9]+ ms / N ms /')" = "warn: pid $jvm: runs with the stapjava agent, whose I/O thread has not started N ms after the JVM did (the VM has not finished starting, or the agent failed: its log says); waiting for its socket" ] ||
		{ cat "$T/b.log" >&2; false; }
	[ "$(mask "$T/b.out")" = "$(printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=?')" ] || { cat "$T/b.out" >&2; false; }
}

# start_client ARGS...: sjclient in the background, events to $T/events.
start_client() {
	"$CLIENT" "$@" >"$T/events" 2>"$T/client.err" 3>&- &
	CPID=$!
}

# start_bridge NAME ARGS...: `stpd-bridge -x $JPID --print` in the background,
# lines to $T/NAME.out, log to $T/NAME.log; sets BPID.
start_bridge() {
	local name=$1
	shift
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --print -o "$T/$name.out" \
		--log-file "$T/$name.log" --log-level info "$@" 3>&- &
	BPID=$!
	BPIDS+=("$BPID")
}

# start_plain_jvm JAVA ARGS...: a JVM without the agent, in the background.
start_plain_jvm() {
	local java=$1
	shift
	"$java" "-XX:ErrorFile=$T/hs_err_%p.log" -cp "$CLASSES" "$@" >"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
}

# registered N: the Nth connection has sent its whole registration (the
# bridge always ends it with Start).
registered() { log_has "conn#$1: Start: registrations complete"; }

# worker_of NAME: the pid of the bridge's worker for $JPID, from its log.
worker_of() { sed -n "s/.*: info: pid $JPID: worker \([0-9]*\) started.*/\1/p" "$T/$1.log" | head -1; }

# bridge_quiet NAME: the bridge logged no warning and no error, but the
# lines (without "stpd-bridge[N]: " and "pid N: ") a test expects in
# $EXPECT_WARNS, exactly those.
bridge_quiet() {
	[ "$(grep -E ': (warn|error): ' "$T/$1.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/: pid [0-9]+: /: /')" = "${EXPECT_WARNS:-}" ] || {
		grep -E ': (warn|error): ' "$T/$1.log" >&2
		false
	}
}

# silent KIND PATTERN WORDS: the bridge's line at the end of a --print
# session for a pattern that no event matched (EXPECT_WARNS's form).
silent() { printf "warn: no event of the %s pattern '%s' (%s) in this session: nothing that ran matched it" "$@"; }
# silent_told KIND PATTERN EVENTS: the same, for a pattern that matches a
# method the agent said (a Notice) it cannot report
silent_told() { printf '%s but what the agent cannot report (its warnings above say what and why)' "$(silent "$@")"; }

# mask: hide what changes from run to run (pid, tid, ts, ids, hashes).
mask() {
	sed -E 's/ pid=[0-9]+/ pid=P/; s/ tid=[0-9]+/ tid=T/; s/ ts=[0-9]+/ ts=X/;
		s/@[0-9a-f]+#[0-9]+/@H#ID/g; s/#[0-9]+/#ID/g; s/code_size=[0-9]+/code_size=N/;
		s/code_addr=0x[0-9a-f]+/code_addr=A/; s/ object=[0-9]+/ object=ID/' "$@"
}

# family JAVA SCENARIO BRIDGE_ARGS...: run a scenario observed by a bridge
# registered with BRIDGE_ARGS; wait for the JVM and the bridge (which exits
# with the JVM); leave the lines in $T/events. FAMILY_JVM_OPTS: the JVM's
# own options.
family() {
	local java=$1 scenario=$2
	shift 2
	start_jvm "$java" "${AGENT_EXTRA:-}" -- ${FAMILY_JVM_OPTS:-} Families "$scenario" "$T/go" "$CLASSES"
	wait_until 20 sock_exists
	start_bridge b "$@"
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	cp "$T/b.out" "$T/events"
	bridge_quiet b
}

# client_family JAVA SCENARIO LASTLOG [--CLIENT_OPTIONS] CMDS...: the same with
# sjclient, registered for CMDS, once the agent has logged LASTLOG.
client_family() {
	local java=$1 scenario=$2 last=$3
	shift 3
	local opts=()
	while [[ ${1:-} == --* ]]; do
		opts+=("$1")
		shift
	done
	start_jvm "$java" "" -- Families "$scenario" "$T/go" "$CLASSES"
	wait_until 20 sock_exists
	start_client "${opts[@]}" "$(sock_of_jvm)" "$@"
	wait_until 20 log_has "$last"
	touch "$T/go"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$CPID"
	CPID=
	grep -q '^eof$' "$T/client.err"
}

java_tid() { sed -n "s/^tid $1=//p" "$T/java.out"; }

# Every event line carries the JVM's pid.
pids_are_jvms() {
	local pid=$1
	! grep -v " pid=$pid " "$T/events" | grep -q . || return 1
}

# check_methods JAVA [WAY]: WAY is the agent's methods= option (default inject)
check_methods() {
	local java=$1 way=${2:-inject}
	AGENT_EXTRA=",methods=$way" family "$java" methods -m 'Demo.*' --args --return
	local main
	main=$(java_tid main)
	[ -n "$main" ]
	pids_are_jvms "$JVMPID"
	# every event happened on the main thread, whose OS tid Java printed itself
	[ "$(grep -c '^method' "$T/events")" -eq "$(grep -c "^method[^ ]* pid=[0-9]* tid=$main " "$T/events")" ]
	mask "$T/events" >"$T/got"
	methods_want >"$T/want"
	if [ "$way" = inject ]; then
		diff -u "$T/want" "$T/got"
		# injected calls report everything: one class changed, and neither
		# breakpoints nor MethodExit (which interprets every method) went on
		log_has 'info: method calls injected in 1 class$'
		! log_has 'method.enter by breakpoints on [1-9]' || return 1
		! log_has 'event MethodExit' || return 1
		! log_has 'event Breakpoint' || return 1
	else
		# methods=jvmti: breakpoints and MethodExit; the agent reads no
		# locals (no can_access_local_variables), so each argument is '?',
		# and MethodExit does not give a popped frame's throwable
		diff -u <(sed -E -e '/^method.enter/s/ args=.*/ args=A/' -e 's/(popped=1 ret=).*/\1?/' "$T/want") \
			<(sed -E '/^method.enter/s/ args=.*/ args=A/' "$T/got")
		! grep '^method.enter' "$T/got" | grep -v ' args=\(?\(,?\)*\)\?$' || return 1
		log_has 'info: method.enter by breakpoints on [1-9][0-9]* methods\?$'
		log_has 'info: event MethodExit enabled$'
		! log_has 'method calls injected in [1-9]' || return 1
	fi
	! log_has 'event MethodEntry' || return 1
	! log_has 'can_access_local_variables' || return 1
}

# The methods scenario's lines, with arguments and return values.
methods_want() {
	cat <<'WANT'
method.enter pid=P tid=T ts=X method=Demo.run()V args=
method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3
method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5
method.enter pid=P tid=T ts=X method=Demo.prims(ZBCSIJFD)V args=true,-1,'x',300,-7,1234567890123,0.100000001,2.5
method.return pid=P tid=T ts=X method=Demo.prims(ZBCSIJFD)V popped=0 ret=void
method.enter pid=P tid=T ts=X method=Demo.chars(CCC)V args=U+0027,U+005C,U+00E9
method.return pid=P tid=T ts=X method=Demo.chars(CCC)V popped=0 ret=void
method.enter pid=P tid=T ts=X method=Demo.floats(FDDD)V args=NaN,Infinity,-Infinity,1e-300
method.return pid=P tid=T ts=X method=Demo.floats(FDDD)V popped=0 ret=void
method.enter pid=P tid=T ts=X method=Demo.<init>()V args=
method.return pid=P tid=T ts=X method=Demo.<init>()V popped=0 ret=void
method.enter pid=P tid=T ts=X method=Demo.inst(JDI)J args=40,1.25,2
method.return pid=P tid=T ts=X method=Demo.inst(JDI)J popped=0 ret=49
method.enter pid=P tid=T ts=X method=Demo.refs(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;[I[Ljava/lang/String;[[I)Ljava/lang/String; args="héllo €😀 \"q\"\n",java.util.ArrayList@H#ID,null,int[3]#ID,java.lang.String[2]#ID,int[][2]#ID
method.return pid=P tid=T ts=X method=Demo.refs(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;[I[Ljava/lang/String;[[I)Ljava/lang/String; popped=0 ret="héllo €😀 \"q\"\n!"
method.enter pid=P tid=T ts=X method=Demo.refs(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;[I[Ljava/lang/String;[[I)Ljava/lang/String; args="abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv"...,null,null,null,null,null
method.return pid=P tid=T ts=X method=Demo.refs(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;[I[Ljava/lang/String;[[I)Ljava/lang/String; popped=0 ret="abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv"...
method.enter pid=P tid=T ts=X method=Demo.retZ()Z args=
method.return pid=P tid=T ts=X method=Demo.retZ()Z popped=0 ret=true
method.enter pid=P tid=T ts=X method=Demo.retB()B args=
method.return pid=P tid=T ts=X method=Demo.retB()B popped=0 ret=-5
method.enter pid=P tid=T ts=X method=Demo.retC()C args=
method.return pid=P tid=T ts=X method=Demo.retC()C popped=0 ret='q'
method.enter pid=P tid=T ts=X method=Demo.retS()S args=
method.return pid=P tid=T ts=X method=Demo.retS()S popped=0 ret=-300
method.enter pid=P tid=T ts=X method=Demo.retJ()J args=
method.return pid=P tid=T ts=X method=Demo.retJ()J popped=0 ret=1099511627776
method.enter pid=P tid=T ts=X method=Demo.retF()F args=
method.return pid=P tid=T ts=X method=Demo.retF()F popped=0 ret=1.5
method.enter pid=P tid=T ts=X method=Demo.retD()D args=
method.return pid=P tid=T ts=X method=Demo.retD()D popped=0 ret=-0.25
method.enter pid=P tid=T ts=X method=Demo.retNull()Ljava/lang/Object; args=
method.return pid=P tid=T ts=X method=Demo.retNull()Ljava/lang/Object; popped=0 ret=null
method.enter pid=P tid=T ts=X method=Demo.retArr()[I args=
method.return pid=P tid=T ts=X method=Demo.retArr()[I popped=0 ret=int[3]#ID
method.enter pid=P tid=T ts=X method=Demo.retObj()Ljava/lang/Object; args=
method.return pid=P tid=T ts=X method=Demo.retObj()Ljava/lang/Object; popped=0 ret=java.util.ArrayList@H#ID
method.enter pid=P tid=T ts=X method=Demo.fail()V args=
method.return pid=P tid=T ts=X method=Demo.fail()V popped=1 ret=java.lang.IllegalStateException@H#ID
method.return pid=P tid=T ts=X method=Demo.run()V popped=0 ret=void
WANT
}

# The library's dynamic symbols are the JVM's entry points only: the rest
# are bound inside it (direct calls on the event path, nothing another
# library in the JVM can interpose; agent/exports.map).
@test "library: exports Agent_OnLoad, Agent_OnAttach and Agent_OnUnload, nothing else" {
	run nm -D --defined-only "$(readlink -f "$AGENT")"
	[ "$status" -eq 0 ]
	[ "$(awk '{ print $3 }' <<<"$output" | LC_ALL=C sort)" = "$(printf '%s\n' Agent_OnAttach Agent_OnLoad Agent_OnUnload)" ]
}

@test "methods: enter/return by injected calls, every argument and return type, the throwable of a popped frame (JDK 17)" { check_methods "$JDK17"; }
@test "methods: enter/return by injected calls, every argument and return type, the throwable of a popped frame (JDK 25)" { check_methods "$JDK25"; }
@test "methods: the same by breakpoints and MethodExit (methods=jvmti, JDK 17)" { check_methods "$JDK17" jvmti; }
@test "methods: the same by breakpoints and MethodExit (methods=jvmti, JDK 25)" { check_methods "$JDK25" jvmti; }

# A StackOverflowError through probed frames: a frame near the overflow
# may find no stack left to report its exit (the call needs HotSpot's
# shadow zone); the handler over that call counts it instead, and the count
# comes as Lost, said once with the method. Every enter reported has its
# return reported or counted, exactly; every return reported is a popped
# one with the error but the last call's; the exception events are the
# program's only. Every event gets there (a thread buffer that holds them
# all), so the only loss is the count's. -Xbatch: which frames are compiled
# when the stack ends does not depend on the machine's speed, and with it
# the deepest frame's report always overflows here (one frame of some
# 1 650; interpreted, JDK 25's does not).
check_overflow() {
	local enters returns lost
	AGENT_EXTRA=,threadbuf=16777216 FAMILY_JVM_OPTS=-Xbatch \
	EXPECT_WARNS="$(printf '%s\n' "warn: a StackOverflowError left 1 probed frame of Overflow.deep(I)I no stack to report its method.return: counted as lost" \
		"warn: the agent dropped 1 events in this session (its queue was full, unless a warning above says why: give it more room with bufsize=, or ask for fewer events)")" \
		family "$1" overflow -m 'Overflow.deep' --return -e java.lang.StackOverflowError
	[ "$(cat "$T/java.out")" = "$(printf 'overflowed\nafter 0')" ]
	# the program's one error, thrown and caught; the handlers' catches and
	# rethrows, and the error that the failed report threw, are ours
	[ "$(grep '^exception' "$T/events" | mask | sed 's/ tid=T//')" = "$(printf '%s\n' \
		'exception.thrown pid=P ts=X exception=java.lang.StackOverflowError method=Overflow.deep(I)I' \
		'exception.catch pid=P ts=X exception=java.lang.StackOverflowError method=Overflow.lambda$run$0()V')" ]
	enters=$(grep -c '^method.enter ' "$T/events")
	returns=$(grep -c '^method.return ' "$T/events")
	lost=$(sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/events" | tail -1)
	echo "enters=$enters returns=$returns lost=$lost"
	[ "$enters" -gt 500 ] && [ "$lost" -eq 1 ] && [ "$enters" -eq $((returns + lost)) ]
	[ "$(grep -c '^lost ' "$T/events")" -eq 1 ]
	[ "$(grep '^method.return ' "$T/events" | mask | sed 's/ tid=T//' | sort | uniq -c | sed 's/^ *[0-9]* //')" = \
		"$(printf '%s\n' 'method.return pid=P ts=X method=Overflow.deep(I)I popped=0 ret=0' \
			'method.return pid=P ts=X method=Overflow.deep(I)I popped=1 ret=java.lang.StackOverflowError@H#ID' | sort)" ]
	[ "$(grep -c ' popped=0 ' "$T/events")" -eq 1 ]
	[ "$(tail -n1 "$T/events" | mask | sed 's/ tid=T//')" = 'method.return pid=P ts=X method=Overflow.deep(I)I popped=0 ret=0' ]
	log_has 'conn#1: 1 method.return lost in total (no stack left to report them)'
}

@test "overflow: a StackOverflowError through probed frames: every return reported or counted as lost, said once (JDK 17)" { check_overflow "$JDK17"; }
@test "overflow: a StackOverflowError through probed frames: every return reported or counted as lost, said once (JDK 25)" { check_overflow "$JDK25"; }

# Natives wrapped (agent/cfwrap.h): Natives is loaded after the registration,
# so its natives get a Java method of their name in front, which has the
# calls; the JVM still binds each native, by its JNI name or by
# RegisterNatives (greet), and a synchronized one still runs holding its
# monitor. NativesEarly was loaded before: its native is said, not wrapped.
# NativesUnlinked is loaded, not linked, and retransformed by another agent
# (a Java agent, Retransformer.java) before the VM links it: the VM lists
# no method of such a class, and the agent must still wrap the same natives
# again (without them the VM refuses the instance native's loss, and drops
# the static one's wrapper silently). Then the session ends and the classes
# go back to their original code: with their natives wrapped again (a
# retransformation may drop no method), so the JVM's second round runs as
# the first, unprobed, and nothing is refused.
check_natives() {
	local java=$1
	start_jvm "$java" "" -- -Xverify:all --enable-native-access=ALL-UNNAMED \
		-javaagent:"$BUILD/testsuite/java/retransformer.jar" \
		Families natives "$T/go" "$BUILD/testsuite/java/libnatives.so" "$T/go2"
	wait_until 20 sock_exists
	wait_until 20 grep -qx loaded "$T/java.out"
	start_bridge b -m 'Natives.*' -m 'NativesEarly.twice' -m 'NativesUnlinked.*' --args --return
	wait_until 20 registered 1
	touch "$T/go"
	wait_until 30 grep -qx 'early 42' "$T/java.out"
	# third()'s return: the session's last event (run() returns after it ends)
	wait_until 30 grep -q '^method.return .* method=NativesUnlinked.third(I)I popped=0' "$T/b.out"
	kill -TERM "$BPID"
	wait_exit "$BPID"
	wait_until 30 log_has 'info: injected calls removed: 2 classes back to their original code$'
	touch "$T/go2"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	# (the Java methods of the class, less the natives' wrappers, aside: the
	# renamed natives never show, nor are they said not reported)
	grep '^method' "$T/b.out" | grep -Ev 'method=Natives[.](run|round|<init>)[(]' | mask | sed 's/ tid=T//' >"$T/got"
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=Natives.sum(IJD)J args=0,0,0.5
		method.return pid=P ts=X method=Natives.sum(IJD)J popped=0 ret=5
		method.enter pid=P ts=X method=Natives.greet(Ljava/lang/String;)Ljava/lang/String; args="x0"
		method.return pid=P ts=X method=Natives.greet(Ljava/lang/String;)Ljava/lang/String; popped=0 ret="hello x0"
		method.enter pid=P ts=X method=Natives.locked(I)I args=0
		method.return pid=P ts=X method=Natives.locked(I)I popped=0 ret=1
		method.enter pid=P ts=X method=Natives.sum(IJD)J args=1,10,0.5
		method.return pid=P ts=X method=Natives.sum(IJD)J popped=0 ret=16
		method.enter pid=P ts=X method=Natives.greet(Ljava/lang/String;)Ljava/lang/String; args="x1"
		method.return pid=P ts=X method=Natives.greet(Ljava/lang/String;)Ljava/lang/String; popped=0 ret="hello x1"
		method.enter pid=P ts=X method=Natives.locked(I)I args=1
		method.return pid=P ts=X method=Natives.locked(I)I popped=0 ret=3
		method.enter pid=P ts=X method=Natives.boom(I)V args=7
		method.return pid=P ts=X method=Natives.boom(I)V popped=1 ret=java.io.IOException@H#ID
		method.enter pid=P ts=X method=NativesUnlinked.<init>()V args=
		method.return pid=P ts=X method=NativesUnlinked.<init>()V popped=0 ret=void
		method.enter pid=P ts=X method=NativesUnlinked.half(I)I args=42
		method.return pid=P ts=X method=NativesUnlinked.half(I)I popped=0 ret=21
		method.enter pid=P ts=X method=NativesUnlinked.third(I)I args=9
		method.return pid=P ts=X method=NativesUnlinked.third(I)I popped=0 ret=3
	EOF
	# the same output as without the agent, but the native's own frame,
	# which has the prefix (the man page says so)
	diff -u - "$T/java.out" <<-'EOF'
		loaded
		a sum 5
		a greet hello x0
		a locked 1
		a sum 16
		a greet hello x1
		a locked 3
		a caught boom 7 in $$stapjava$$boom
		early 42
		unlinked retransformed
		unlinked 21 3
		b sum 5
		b greet hello x0
		b locked 1
		b sum 16
		b greet hello x1
		b locked 3
		b caught boom 7 in $$stapjava$$boom
		early 8
		unlinked 21 3
	EOF
	[ ! -s "$T/java.err" ]
	[ "$(grep -c '^method' "$T/b.out")" -eq $((20 + 5)) ]   # and run, <init>, round: 5
	log_has 'info: class Natives: 4 native methods wrapped (named [$][$]stapjava[$][$]... in the JVM.s stack traces)$'
	log_has 'info: class NativesUnlinked: 2 native methods wrapped (named [$][$]stapjava[$][$]... in the JVM.s stack traces)$'
	[ "$(grep -c 'native methods wrapped' "$T/agent.log")" -eq 2 ]
	# the one that came too late is said, with why; nothing else is
	[ "$(grep -E ': (warn|error): ' "$T/b.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/: pid [0-9]+: /: /')" = "$(printf '%s\n' \
		'warn: method.enter of NativesEarly.twice(I)I cannot be reported (a native method of a class loaded before the registration: a native is wrapped only as its class loads)' \
		'warn: method.return of NativesEarly.twice(I)I cannot be reported (a native method of a class loaded before the registration: a native is wrapped only as its class loads)' \
		"$(silent_told method NativesEarly.twice 'enter, return')")" ]
	! log_has 'could not be restored' || return 1
	! log_has 'cannot be wrapped' || return 1
	! log_has 'event MethodE' || return 1
	! log_has 'by breakpoints' || return 1
}

@test "natives: wrapped when their class loads after the registration, arguments, values and exceptions; bound by name and by RegisterNatives; wrapped again when restored (JDK 17)" { check_natives "$JDK17"; }
@test "natives: wrapped when their class loads after the registration, arguments, values and exceptions; bound by name and by RegisterNatives; wrapped again when restored (JDK 25)" { check_natives "$JDK25"; }

# The table of wrapped natives (natwrap.h) holds a class while its loader
# lives: NativesGone defined by a throw-away loader, wrapped, the loader
# collected; at the next wrap (the same class by a new loader) the first
# entry goes, said in the log.
check_natives_gone() {
	family "$1" natives-gone -m 'NativesGone.*'
	[ "$(cat "$T/java.out")" = "$(printf 'round 1 collected\nround 2 collected')" ]
	[ "$(mask "$T/events" | sed 's/ tid=T//')" = "$(printf '%s\n' \
		'method.enter pid=P ts=X method=NativesGone.alive()I args=' \
		'method.return pid=P ts=X method=NativesGone.alive()I popped=0 ret=?' \
		'method.enter pid=P ts=X method=NativesGone.alive()I args=' \
		'method.return pid=P ts=X method=NativesGone.alive()I popped=0 ret=?')" ]
	[ "$(grep -c 'class NativesGone: 1 native method wrapped' "$T/agent.log")" -eq 2 ]
	[ "$(grep -c "class NativesGone: its natives' wrappers forgotten (its class loader was collected)" "$T/agent.log")" -eq 1 ]
}

@test "natives: the table of wrapped natives forgets a class whose loader was collected (JDK 17)" { check_natives_gone "$JDK17"; }
@test "natives: the table of wrapped natives forgets a class whose loader was collected (JDK 25)" { check_natives_gone "$JDK25"; }

# Escape analysis stays on with the agent, its calls injected into the very
# method (Escape.work, with its arguments and return value): C2 allocates
# none of work()'s Points. The measure is shown able to fail: the same
# program without escape analysis allocates every Point.
check_escape() {
	local java=$1
	start_jvm "$java" "" -- -Xbatch Families escape "$T/go"
	wait_until 20 sock_exists
	start_bridge b -m 'Escape.work' --args --return
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID" 120
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	[ "$(cat "$T/java.out")" = "$(printf 'sum 1006000000000\npoints allocated: no')" ]
	# every call reported, its argument and value
	[ "$(grep -c '^method.enter .* method=Escape.work(I)J args=1000$' "$T/b.out")" = 6000 ]
	[ "$(grep -c '^method.return .* method=Escape.work(I)J popped=0 ret=1000000$' "$T/b.out")" = 6000 ]
	[ "$(grep -c '^method' "$T/b.out")" = 12002 ]
	log_has 'info: method calls injected in 1 class$'
	start_plain_jvm "$java" -Xbatch -XX:-DoEscapeAnalysis Families escape "$T/go"
	wait_exit "$JPID" 120
	JPID=
	[ "$(cat "$T/java.out")" = "$(printf 'sum 1006000000000\npoints allocated: yes')" ]
}

@test "escape analysis: C2 allocates no non-escaping object of a method with injected calls, as without the agent (JDK 17)" { check_escape "$JDK17"; }
@test "escape analysis: C2 allocates no non-escaping object of a method with injected calls, as without the agent (JDK 25)" { check_escape "$JDK25"; }

# Method events with values go by the method's number to a peer that
# negotiated CAP_METHOD_ID_VALUES (0x80000) and by name to one that did not:
# the same lines either way (the Java thread writes them by the site's
# number; the I/O thread gives each connection its form, agent/plainev.h).
# A void method's return, a plain event when it carries nothing but the
# void value, goes by number to both (CAP_METHOD_IDS); an enter of a method
# without parameters is an event with (no) values when arguments are asked.
# check_values_forms CAPS_OFF HELLO_CAPS by-number|by-name: how the events
# with values come (sjclient leaves out CAP_EARLY_APPENDIX, 0x80, too)
check_values_forms() {
	client_family "$JDK17" methods 'RequestForOptionalData 0x3' --forms "--caps-off=$1" 'reg:method:3:Demo.*' opt:3
	local n plain
	n=$(methods_want | wc -l)
	plain=$(methods_want | grep -c ' popped=0 ret=void$')
	[ "$(sed -n 's/^hello pid=[0-9]* //p' "$T/events")" = "caps=$2" ]
	grep '^method' "$T/events" | mask >"$T/got"
	methods_want >"$T/want"
	diff -u "$T/want" "$T/got"
	if [ "$3" = by-number ]; then
		[ "$(tail -1 "$T/events")" = "by-name=0 by-number=$n last=number" ]
	else
		# the last event, Demo.run()V's return, is void: by number
		[ "$(tail -1 "$T/events")" = "by-name=$((n - plain)) by-number=$plain last=number" ]
	fi
}

@test "methods: arguments and return values go by number to a peer with CAP_METHOD_ID_VALUES" { check_values_forms 0 0x1fff7f by-number; }
@test "methods: arguments and return values go by name to a peer without CAP_METHOD_ID_VALUES, the same lines" { check_values_forms 80000 0x17ff7f by-name; }

check_exceptions() {
	family "$1" exceptions -e java.lang.IllegalArgumentException
	local main
	main=$(java_tid main)
	sed -E "s/ tid=$main / tid=MAIN /" "$T/events" | mask >"$T/got"
	cat >"$T/want" <<'WANT'
exception.thrown pid=P tid=MAIN ts=X exception=java.lang.IllegalArgumentException method=Exceptions.thrower()V
exception.catch pid=P tid=MAIN ts=X exception=java.lang.IllegalArgumentException method=Exceptions.catcher()V
WANT
	diff -u "$T/want" "$T/got"
}

# without_vm_threads FILE: FILE's lines but the thread events of the JVM's
# own threads (which vary between JDKs).
without_vm_threads() {
	grep -v '^thread.\(start\|end\) .* thread="\(Common-Cleaner\|Notification Thread\|DestroyJavaVM\|Attach Listener\)"' "$1"
}

# Exceptions through probed frames, by injected calls: each frame the
# exception leaves reports method.return popped=1 with the throwable (the
# same object all the way up), a constructor whose this() argument throws
# too; the catching frame returns normally; a thread
# that dies of an exception reports its frames popped before it ends. The
# handler that reports an exceptional exit catches and rethrows: none of that
# shows as the program's exception events.
check_unwind() {
	family "$1" unwind -m 'Unwind.*' -e 'java.lang.*Exception' --args --return --threads
	local main dying
	main=$(java_tid main) dying=$(java_tid dying)
	[ -n "$main" ] && [ -n "$dying" ]
	without_vm_threads "$T/events" |
		sed -E -e "s/ tid=$main / tid=MAIN /" -e "s/ tid=$dying / tid=DYING /" | mask >"$T/got"
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P tid=MAIN ts=X method=Unwind.run()V args=
		method.enter pid=P tid=MAIN ts=X method=Unwind.depth1(I)I args=0
		method.enter pid=P tid=MAIN ts=X method=Unwind.depth2(I)I args=0
		method.enter pid=P tid=MAIN ts=X method=Unwind.depth3(I)I args=0
		method.return pid=P tid=MAIN ts=X method=Unwind.depth3(I)I popped=0 ret=0
		method.return pid=P tid=MAIN ts=X method=Unwind.depth2(I)I popped=0 ret=1
		method.return pid=P tid=MAIN ts=X method=Unwind.depth1(I)I popped=0 ret=2
		method.enter pid=P tid=MAIN ts=X method=Unwind.depth1(I)I args=1
		method.enter pid=P tid=MAIN ts=X method=Unwind.depth2(I)I args=1
		method.enter pid=P tid=MAIN ts=X method=Unwind.depth3(I)I args=1
		exception.thrown pid=P tid=MAIN ts=X exception=java.lang.IllegalStateException method=Unwind.depth3(I)I
		method.return pid=P tid=MAIN ts=X method=Unwind.depth3(I)I popped=1 ret=java.lang.IllegalStateException@H#ID
		exception.catch pid=P tid=MAIN ts=X exception=java.lang.IllegalStateException method=Unwind.depth2(I)I
		exception.thrown pid=P tid=MAIN ts=X exception=java.lang.IllegalStateException method=Unwind.depth2(I)I
		method.return pid=P tid=MAIN ts=X method=Unwind.depth2(I)I popped=1 ret=java.lang.IllegalStateException@H#ID
		exception.catch pid=P tid=MAIN ts=X exception=java.lang.IllegalStateException method=Unwind.depth1(I)I
		method.return pid=P tid=MAIN ts=X method=Unwind.depth1(I)I popped=0 ret=-1
		method.enter pid=P tid=MAIN ts=X method=Unwind.<init>(Ljava/lang/String;)V args="ab"
		method.enter pid=P tid=MAIN ts=X method=Unwind.check(Ljava/lang/String;)I args="ab"
		method.return pid=P tid=MAIN ts=X method=Unwind.check(Ljava/lang/String;)I popped=0 ret=2
		method.enter pid=P tid=MAIN ts=X method=Unwind.<init>(I)V args=2
		method.return pid=P tid=MAIN ts=X method=Unwind.<init>(I)V popped=0 ret=void
		method.return pid=P tid=MAIN ts=X method=Unwind.<init>(Ljava/lang/String;)V popped=0 ret=void
		method.enter pid=P tid=MAIN ts=X method=Unwind.<init>(Ljava/lang/String;)V args=null
		method.enter pid=P tid=MAIN ts=X method=Unwind.check(Ljava/lang/String;)I args=null
		exception.thrown pid=P tid=MAIN ts=X exception=java.lang.IllegalStateException method=Unwind.check(Ljava/lang/String;)I
		method.return pid=P tid=MAIN ts=X method=Unwind.check(Ljava/lang/String;)I popped=1 ret=java.lang.IllegalStateException@H#ID
		method.return pid=P tid=MAIN ts=X method=Unwind.<init>(Ljava/lang/String;)V popped=1 ret=java.lang.IllegalStateException@H#ID
		exception.catch pid=P tid=MAIN ts=X exception=java.lang.IllegalStateException method=Unwind.run()V
		thread.start pid=P tid=DYING ts=X thread="dying"
		method.enter pid=P tid=DYING ts=X method=Unwind.lambda$run$0()V args=
		method.enter pid=P tid=DYING ts=X method=Unwind.dies()V args=
		exception.thrown pid=P tid=DYING ts=X exception=java.lang.IllegalArgumentException method=Unwind.dies()V
		method.return pid=P tid=DYING ts=X method=Unwind.dies()V popped=1 ret=java.lang.IllegalArgumentException@H#ID
		method.return pid=P tid=DYING ts=X method=Unwind.lambda$run$0()V popped=1 ret=java.lang.IllegalArgumentException@H#ID
		method.enter pid=P tid=DYING ts=X method=Unwind.lambda$run$1(Ljava/lang/Thread;Ljava/lang/Throwable;)V args=java.lang.Thread@H#ID,java.lang.IllegalArgumentException@H#ID
		method.return pid=P tid=DYING ts=X method=Unwind.lambda$run$1(Ljava/lang/Thread;Ljava/lang/Throwable;)V popped=0 ret=void
		thread.end pid=P tid=DYING ts=X thread="dying"
		method.return pid=P tid=MAIN ts=X method=Unwind.run()V popped=0 ret=void
		thread.end pid=P tid=MAIN ts=X thread="main"
	EOF
	# one throwable: the same object id in each frame it left
	[ "$(sed -n 's/.*Unwind.depth[23](I)I popped=1 ret=java.lang.IllegalStateException@[0-9a-f]*#\([0-9]*\)$/\1/p' "$T/events" | sort -u | wc -l)" -eq 1 ]
	[ "$(cat "$T/java.out" | grep -v '^tid ')" = "$(printf '2 -1\n2\nctor null\nuncaught the thread dies')" ]
	! log_has 'event MethodE' || return 1
}

@test "unwind: exceptions through probed frames (popped, the throwable), a thread dying in a probed method (JDK 17)" { check_unwind "$JDK17"; }
@test "unwind: exceptions through probed frames (popped, the throwable), a thread dying in a probed method (JDK 25)" { check_unwind "$JDK25"; }

# Names outside the BMP (testsuite/java/Unicode.java, U+1D518 "𝔘"): JVMTI
# and class files give them in modified UTF-8 (a surrogate pair, six bytes
# ED A0 B5 ED B4 98); the agent sends UTF-8, so patterns written in UTF-8
# select them (in the class-file hook, by the class and exception events) and
# --print shows them as they are. A String argument holding U+0000 and one
# holding U+1F600, a thread named with U+1D518 and one with U+0000, exactly
# (the lines below are UTF-8; before, the names printed as \xed\xa0\xb5...).
# Ex𝔘.class is a file named in UTF-8: the JVM finds it in a UTF-8 locale.
check_unicode() {
	JVM_ENV=(LC_ALL=C.UTF-8)
	family "$1" unicode -m 'Unicode.h𝔘llo' -m 'Unicode.take(Ex𝔘)' -e 'Ex𝔘' -c 'Ex𝔘' --args --return --threads
	local main
	main=$(java_tid main)
	[ -n "$main" ]
	without_vm_threads "$T/events" | sed -E "s/ tid=$main / tid=MAIN /" | mask >"$T/got"
	diff -u - "$T/got" <<-'EOF'
		class.load pid=P tid=MAIN ts=X class=Ex𝔘
		method.enter pid=P tid=MAIN ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; args="a\x00b"
		method.return pid=P tid=MAIN ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; popped=0 ret="a\x00b!"
		method.enter pid=P tid=MAIN ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; args="x😀y"
		method.return pid=P tid=MAIN ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; popped=0 ret="x😀y!"
		class.prepare pid=P tid=MAIN ts=X class=Ex𝔘
		exception.thrown pid=P tid=MAIN ts=X exception=Ex𝔘 method=Unicode.thr𝔘w()V
		exception.catch pid=P tid=MAIN ts=X exception=Ex𝔘 method=Unicode.run()V
		method.enter pid=P tid=MAIN ts=X method=Unicode.take(LEx𝔘;)I args=Ex𝔘@H#ID
		method.return pid=P tid=MAIN ts=X method=Unicode.take(LEx𝔘;)I popped=0 ret=1
		thread.start pid=P tid=T ts=X thread="w𝔘rker"
		thread.end pid=P tid=T ts=X thread="w𝔘rker"
		thread.start pid=P tid=T ts=X thread="nul\x00name"
		thread.end pid=P tid=T ts=X thread="nul\x00name"
		thread.end pid=P tid=MAIN ts=X thread="main"
	EOF
	log_has 'info: method calls injected in 1 class$'
}

@test "names: a method, class and thread named outside the BMP in UTF-8, patterns in UTF-8 select them, a String with NUL (JDK 17)" { check_unicode "$JDK17"; }
@test "names: a method, class and thread named outside the BMP in UTF-8, patterns in UTF-8 select them, a String with NUL (JDK 25)" { check_unicode "$JDK25"; }

# Root method patterns (testsuite/java/Roots.java): '^RootBase.m' selects
# RootBase.m and every override of it, in classes loaded before the
# registration (RootA, RootB: the scan) and after it (RootLate; RootLate2,
# whose superclass RootMid loads with it, after RootLate2's class-file hook:
# both are retransformed as they are prepared). RootC does not override m
# (its call is RootBase's), RootOther's m is not in the family.
# '^java.lang.Object.n' selects RootBase.n (loaded before) and RootLate.n,
# which RootLate's class-file hook, changing the class for 'RootLate.m', does
# not know of (its ancestry is noted as it is prepared).
check_roots() {
	start_jvm "$1" "" -- Roots "$T/go"
	wait_until 20 sock_exists
	start_bridge b -m '^RootBase.m' -m '^java.lang.Object.n' -m 'RootLate.m' --args --return
	wait_until 20 registered 1
	# stap-java -l -x: what the JVM has loaded now (not RootLate, RootMid, RootLate2)
	local sj=$BUILD/translator-patches/stap-java
	STAPJAVA_BRIDGE=$BRIDGE STAPJAVA_AGENT=$AGENT STAPJAVA_TAPSET=$BUILD/tapset STAPJAVA_BRIDGE_OPTS="--sockdir $T/s" \
		run --separate-stderr "$sj" -l 'java("Roots").class("^RootBase").method("m(int)")' -x "$JPID"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$output" = "$(printf '%s\n' 'java("Roots").class("RootA").method("m(int)")' \
		'java("Roots").class("RootB").method("m(int)")' 'java("Roots").class("RootBase").method("m(int)")')" ] ||
		{ echo "$output"; false; }
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	bridge_quiet b
	mask "$T/b.out" | sed -E 's/ tid=T ts=X//' >"$T/got"
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P method=RootBase.m(I)I args=1
		method.return pid=P method=RootBase.m(I)I popped=0 ret=1
		method.enter pid=P method=RootA.m(I)I args=1
		method.return pid=P method=RootA.m(I)I popped=0 ret=11
		method.enter pid=P method=RootB.m(I)I args=1
		method.return pid=P method=RootB.m(I)I popped=0 ret=21
		method.enter pid=P method=RootBase.m(I)I args=1
		method.return pid=P method=RootBase.m(I)I popped=0 ret=1
		method.enter pid=P method=RootBase.n()I args=
		method.return pid=P method=RootBase.n()I popped=0 ret=7
		method.enter pid=P method=RootLate.m(I)I args=3
		method.return pid=P method=RootLate.m(I)I popped=0 ret=33
		method.enter pid=P method=RootLate.n()I args=
		method.return pid=P method=RootLate.n()I popped=0 ret=8
		method.enter pid=P method=RootLate2.m(I)I args=4
		method.enter pid=P method=RootMid.m(I)I args=4
		method.return pid=P method=RootMid.m(I)I popped=0 ret=44
		method.return pid=P method=RootLate2.m(I)I popped=0 ret=45
	EOF
	log_has 'info: method calls injected in 6 classes$'
}

@test "roots: '^RootBase.m' selects the method in the class and every subclass that overrides it, loaded before or after (JDK 17)" { check_roots "$JDK17"; }
@test "roots: '^RootBase.m' selects the method in the class and every subclass that overrides it, loaded before or after (JDK 25)" { check_roots "$JDK25"; }

# The same names in a class loaded before the registration: its calls come
# by retransformation, whose names (the class file's) must agree with
# JVMTI's; stack frames are named in UTF-8; a misspelt literal pattern gets
# the closest name, in UTF-8.
check_unicode_loaded() {
	local src=$SRC/testsuite/java l_h l_a l_x l_main stack
	l_h=$(grep -n 'static String h.uD835.uDD18llo(String s)' "$src/Unicode.java" | cut -d: -f1)
	l_a=$(grep -n '^        h.uD835.uDD18llo("a.0b");' "$src/Unicode.java" | cut -d: -f1)
	l_x=$(grep -n '^        h.uD835.uDD18llo("x' "$src/Unicode.java" | cut -d: -f1)
	l_main=$(grep -n 'case "unicode-loaded": Unicode.run();' "$src/Families.java" | cut -d: -f1)
	JVM_ENV=(LC_ALL=C.UTF-8)
	start_jvm "$1" "" -- Families unicode-loaded "$T/go"
	wait_until 20 grep -q '^loaded$' "$T/java.out"
	start_bridge b -m 'Unicode.h𝔘llo' -m 'Unicode.h𝔘lo' --args --stack
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	mask "$T/b.out" >"$T/got"
	stack="stack=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String;:$l_h|Unicode.run()V"
	diff -u - "$T/got" <<-EOF
		method.enter pid=P tid=T ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; args="a\\x00b" $stack:$l_a|Families.main([Ljava/lang/String;)V:$l_main
		method.return pid=P tid=T ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; popped=0 ret=? $stack:$l_a|Families.main([Ljava/lang/String;)V:$l_main
		method.enter pid=P tid=T ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; args="x😀y" $stack:$l_x|Families.main([Ljava/lang/String;)V:$l_main
		method.return pid=P tid=T ts=X method=Unicode.h𝔘llo(Ljava/lang/String;)Ljava/lang/String; popped=0 ret=? $stack:$l_x|Families.main([Ljava/lang/String;)V:$l_main
	EOF
	log_has 'info: method calls injected in 1 class$'
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: java.method pattern 'Unicode.h𝔘lo': its class is loaded and declares no such method (an inherited one is its declaring class's); similar: Unicode.h𝔘llo" \
		"$(silent method 'Unicode.h𝔘lo' 'enter, return')")" bridge_quiet b
}

@test "names: outside the BMP in a class loaded before the registration (retransformed), in stack frames, and the closest name of a misspelt one (JDK 17)" { check_unicode_loaded "$JDK17"; }
@test "names: outside the BMP in a class loaded before the registration (retransformed), in stack frames, and the closest name of a misspelt one (JDK 25)" { check_unicode_loaded "$JDK25"; }

# -x PID of a JVM started without the agent: the bridge's worker (as the
# JVM's owner) loads it through HotSpot's attach mechanism; method events
# come from injected calls as usual. What a late agent cannot have
# (exception events need a capability granted only at start) is said by
# name, on the bridge's stderr, and nowhere in the application's output.
check_attach() {
	local java=$1
	start_plain_jvm "$java" Families methods "$T/go"
	start_bridge b -m 'Demo.*' -m java.lang.Object.finalize -e java.lang.IllegalStateException --args --return \
		--agent "$AGENT" --agent-options "loglevel=info,logfile=$T/agent.log"
	wait_until 30 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	mask "$T/b.out" >"$T/got"
	methods_want >"$T/want"
	diff -u "$T/want" "$T/got"
	grep -q "info: pid $JVMPID: the JVM runs without the agent: loading $AGENT through HotSpot's attach mechanism$" "$T/b.log"
	[ "$(grep -c ': warn: ' "$T/b.log")" -eq 6 ]
	grep -q "warn: pid $JVMPID: $(silent_told exception java.lang.IllegalStateException 'thrown, catch' | sed 's/^warn: //')\$" "$T/b.log"
	# Object is never changed, and a late agent has no breakpoints: said
	grep -q "warn: pid $JVMPID: method.enter of java.lang.Object.finalize()V cannot be reported (no injected call: the VM's root class is left alone, and HotSpot gives breakpoints only to an agent loaded at start)\$" "$T/b.log"
	grep -q "warn: pid $JVMPID: method.return of java.lang.Object.finalize()V cannot be reported (no injected call: the VM's root class is left alone, and MethodExit would make every method of the JVM interpreted (agent option methods=jvmti has it at that cost))\$" "$T/b.log"
	grep -q "warn: pid $JVMPID: $(silent_told method java.lang.Object.finalize 'enter, return' | sed 's/^warn: //')\$" "$T/b.log"
	grep -q "warn: pid $JVMPID: exception.thrown probes cannot fire in this JVM (JVMTI Exception: error 99, the agent was attached to a running JVM, and HotSpot grants this only to an agent loaded at start with -agentpath)$" "$T/b.log"
	grep -q "warn: pid $JVMPID: exception.catch probes cannot fire in this JVM (JVMTI ExceptionCatch: error 99, the agent was attached to a running JVM, and HotSpot grants this only to an agent loaded at start with -agentpath)$" "$T/b.log"
	log_has 'info: method calls injected in 1 class$'
	! log_has 'event MethodE' || return 1
	# the application's own output is untouched; JDK 21+ warns of any agent loaded this way
	[ "$(grep -v '^tid ' "$T/java.out")" = "" ]
	if [ "$java" = "$JDK17" ]; then
		[ ! -s "$T/java.err" ]
	else
		diff -u - "$T/java.err" <<-EOF
			WARNING: A JVM TI agent has been loaded dynamically ($AGENT)
			WARNING: If a serviceability tool is in use, please run with -XX:+EnableDynamicAgentLoading to hide this warning
			WARNING: Dynamic loading of agents will be disallowed by default in a future release
		EOF
	fi
	# the attach trigger is gone (HotSpot's listener socket is the JVM's, and went with it)
	[ ! -e "/tmp/.attach_pid$JVMPID" ]
}

@test "attach: -x PID loads the agent into a JVM started without it; method events by injected calls (JDK 17)" { check_attach "$JDK17"; }
@test "attach: -x PID loads the agent into a JVM started without it; method events by injected calls (JDK 25)" { check_attach "$JDK25"; }

# --jvm NAME: the command line of a JVM it does not select is read once, not
# at every scan (the supervisor keeps the answer by pid and start time); a
# JVM that starts later likewise. Counted with strace: the bridge's scans
# (opens of /proc) and its opens of each JVM's cmdline.
proc_scans() { cat "$T/strace" 2>/dev/null | grep -c 'openat(AT_FDCWD, "/proc", [^)]*O_DIRECTORY'; }
proc_scans_over() { [ "$(proc_scans)" -gt "$1" ]; }
socks_are() { [ "$(compgen -G "$T/s/jvm-*.sock" | wc -l)" -eq "$1" ]; }
cmdline_reads() { grep -c "openat(AT_FDCWD, \"/proc/$1/cmdline\"" "$T/strace"; }
check_jvm_unselected() {
	local java=$1 first second n
	start_jvm "$java" "" -- Families hello "$T/go"
	first=$JPID
	wait_until 30 sock_exists
	strace -f -qq -e trace=openat -o "$T/strace" "$BRIDGE" --jvm NoSuchApp -m 'Demo.*' --sockdir "$T/s" \
		--rescan-ms 20 --print -o "$T/b.out" --log-file "$T/b.log" --log-level info 3>&- &
	BPIDS+=("$!")
	wait_until 30 proc_scans_over 10
	start_jvm "$java" "" -- Families hello "$T/go"
	second=$JPID
	wait_until 30 socks_are 2
	n=$(proc_scans)
	wait_until 30 proc_scans_over $((n + 10))
	kill "$(pgrep -P "${BPIDS[0]}")"
	wait_until 30 gone "${BPIDS[0]}"
	touch "$T/go"
	wait_exit "$first"
	wait_exit "$second"
	[ "$(cmdline_reads "$first")" = 1 ]
	[ "$(cmdline_reads "$second")" = 1 ]
	[ ! -s "$T/b.out" ]
	! grep -q 'worker' "$T/b.log" || return 1
	bridge_quiet b
}
@test "--jvm NAME: a JVM it does not select has its command line read once, one started later too (JDK 17)" { check_jvm_unselected "$JDK17"; }
@test "--jvm NAME: a JVM it does not select has its command line read once, one started later too (JDK 25)" { check_jvm_unselected "$JDK25"; }

# --matches: what each pattern selects among what the JVM has loaded now (the
# idle scenario has loaded Families, not Demo); stap-java -l/-L -x lists the
# same as probe points.
# loaded CLASS: the JVM $JPID has loaded CLASS, as --matches sees it.
loaded() { "$BRIDGE" --matches -x "$JPID" --sockdir "$T/s" -c "$1" 2>/dev/null | grep -qx "class $1"; }

check_matches() {
	start_jvm "$1" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	# the agent's socket comes before main runs
	wait_until 20 loaded Families
	run --separate-stderr "$BRIDGE" --matches -x "$JPID" --sockdir "$T/s" -m 'Families.print*' \
		-m 'Families.wait*(Ljava/lang/String;)V' -c 'Families' -e 'java.lang.Throwable' -e 'Families' -m 'Demo.*'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$output" = "$(printf '%s\n' 'method Families.printTid(Ljava/lang/String;)V' \
		'method Families.waitFor(Ljava/lang/String;)V' 'class Families' 'exception java.lang.Throwable')" ]
	[ -z "$stderr" ]
	log_has 'info: conn#[0-9]*: ListMatches method "Families.print\*"$'
	log_has 'info: conn#[0-9]*: ListMatches exception "java.lang.Throwable"$'
	# nothing registered: the JVM's classes are as they were
	! log_has 'injected in' || return 1
	local sj=$BUILD/translator-patches/stap-java
	export STAPJAVA_BRIDGE=$BRIDGE STAPJAVA_AGENT=$AGENT STAPJAVA_TAPSET=$BUILD/tapset STAPJAVA_BRIDGE_OPTS="--sockdir $T/s"
	run --separate-stderr "$sj" -l 'java.method("Families.print*"), java.class("Families").load' -x "$JPID"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$output" = "$(printf '%s\n' 'java.class("Families").load' 'java.method("Families.printTid(Ljava/lang/String;)V").enter')" ]
	run --separate-stderr "$sj" -L 'java.method("Families.waitFor").return' -x "$JPID"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ "$output" == 'java.method("Families.waitFor(Ljava/lang/String;)V").return java_event_name:string '*' java_popped:long' ]]
	# a class the JVM has not loaded yet is not listed: said, status 1
	run --separate-stderr "$sj" -l 'java.method("Demo.*")' -x "$JPID"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[[ "$stderr" =~ ^stap-java\[[0-9]+\]:\ error:\ no\ method\ of\ what\ JVM\ $JPID\ has\ loaded\ matches\ java.method\(\"Demo.\*\"\)$ ]] ||
		{ echo "$stderr"; false; }
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "matches: --matches and stap-java -l/-L -x list what a running JVM has loaded (JDK 17)" { check_matches "$JDK17"; }
@test "matches: --matches and stap-java -l/-L -x list what a running JVM has loaded (JDK 25)" { check_matches "$JDK25"; }

@test "matches: --matches on a JVM started without the agent loads it first; a pid that is no JVM fails" {
	start_plain_jvm "$JDK17" Families idle "$T/go" "$T/stop"
	# java.lang.Thread is there before any attach can be (the JVM may not be in main yet)
	run --separate-stderr "$BRIDGE" --matches -x "$JPID" --sockdir "$T/s" --agent "$AGENT" -m 'java.lang.Thread.run()V'
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$output" = 'method java.lang.Thread.run()V' ]
	[ -z "$stderr" ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	run --separate-stderr "$BRIDGE" --matches -x $$ --sockdir "$T/s" -m 'X.*'
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[[ "$stderr" =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ $$:\ not\ a\ JVM\ \(no\ java\ executable,\ no\ libjvm.so\ mapped\)$ ]] ||
		{ echo "$stderr"; false; }
	# usage
	run --separate-stderr "$BRIDGE" --matches -m 'X.*'
	[ "$status" -eq 2 ]
	[[ "$stderr" =~ ^stpd-bridge\[[0-9]+\]:\ error:\ --matches:\ give\ the\ JVMs\ to\ list\ with\ -x$ ]] || { echo "$stderr"; false; }
}

@test "attach: a JVM started with -Xrs (no SIGQUIT handler; its listener runs from the start) is attached too" {
	start_plain_jvm "$JDK17" -Xrs Families methods "$T/go"
	start_bridge b -m 'Demo.*' --args --return \
		--agent "$AGENT" --agent-options "loglevel=info,logfile=$T/agent.log"
	wait_until 30 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	mask "$T/b.out" >"$T/got"
	methods_want | grep -v '^exception' >"$T/want"
	diff -u "$T/want" "$T/got"
	grep -q "info: pid $JVMPID: the JVM runs without the agent: loading $AGENT through HotSpot's attach mechanism$" "$T/b.log"
	bridge_quiet b
	[ ! -s "$T/java.err" ]
}

@test "-x PID of a JVM that runs a copy of the agent under another name, socket elsewhere: no second agent loaded, said, exit 1" {
	# a second copy would re-bind stapjava.Probe's natives and silence the first
	cp "$AGENT" "$T/renamed-probe.so"
	local agent=$AGENT
	AGENT=$T/renamed-probe.so start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	mkdir -m 700 "$T/other"
	run --separate-stderr "$BRIDGE" -x "$JPID" --sockdir "$T/other" --agent "$agent" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr == "stpd-bridge["*"]: error: pid $JPID: runs with the stapjava agent, but its socket cannot be found: no listening socket named $(sock_name "$JPID") among the JVM's own (/proc/$JPID/net/unix), nor in $T/other: "* ]]
	[ "$(grep -c '' <<<"$stderr")" -eq 1 ]
	[ "$(cat /proc/"$JPID"/task/*/comm | grep -cx 'stapjava-agent')" -eq 1 ]
	! grep -q "$agent" /proc/"$JPID"/maps || return 1
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "--no-attach: a named JVM without the agent is waited for, said once it has had time to start, and left alone" {
	start_plain_jvm "$JDK17" Families idle "$T/go" "$T/stop"
	start_bridge b --no-attach -m 'X.*'
	wait_until 30 grep -q ': warn: ' "$T/b.log"
	[ "$(grep -E ': (warn|error): ' "$T/b.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //')" = "warn: pid $JPID: no agent socket yet: no listening socket named $(sock_name "$JPID") among the JVM's own (/proc/$JPID/net/unix), nor in $T/s; waiting for it (--no-attach: the agent is not loaded into a running JVM)" ]
	kill -0 "$BPID"
	[ "$(cat /proc/"$JPID"/task/*/comm | grep -cx 'stapjava-agent')" -eq 0 ]
	kill -TERM "$BPID"
	wait_exit "$BPID"
	[ "$(grep -cE ': (warn|error): ' "$T/b.log")" -eq 1 ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "-x PID of a JVM that runs with the agent but has no socket in the bridge's --sockdir: said once it has had time to make one, exit 1" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	mkdir -m 700 "$T/other"
	run --separate-stderr "$BRIDGE" -x "$JPID" --sockdir "$T/other" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr == "stpd-bridge["*"]: error: pid $JPID: runs with the stapjava agent, but its socket cannot be found: no listening socket named $(sock_name "$JPID") among the JVM's own (/proc/$JPID/net/unix), nor in $T/other: the agent did not start (the JVM's stderr or the agent's log says why), or was given another sockdir= (give the bridge the same with --sockdir)" ]]
	[[ $stderr != *$'\n'* ]]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "attach: a bridge stopped while the JVM has not started its listener removes its trigger file and says so" {
	# a "java" that handles SIGQUIT and never starts an attach listener
	cp "$(command -v perl)" "$T/java"
	"$T/java" -e '$SIG{QUIT} = sub {}; $SIG{TERM} = sub { exit 0 }; sleep 1 while 1' 3>&- &
	JPID=$!
	wait_until 20 grep -q '^SigCgt:.*[1-9a-f]' "/proc/$JPID/status"
	start_bridge b -m 'X.*'
	wait_until 30 test -e "/tmp/.attach_pid$JPID"
	kill -TERM "$BPID"
	wait_exit "$BPID" || true
	[ ! -e "/tmp/.attach_pid$JPID" ]
	grep -q "error: pid $JPID: cannot load the agent: the bridge was stopped while the JVM started its attach listener$" "$T/b.log"
	kill "$JPID"
	wait "$JPID" || true
	JPID=
}

# The reader of a JVM's performance data (stpd-bridge/hsperf.c, through
# testsuite/hsperf-print) against the JDK's own: every constant it reads,
# as `jcmd PID PerfCounter.print` prints it (a line jcmd does not print the
# same is a difference).
check_hsperf_vs_jcmd() {
	local jcmd
	jcmd=$(dirname "$1")/jcmd
	start_plain_jvm "$1" Families idle "$T/go" "$T/stop"
	# accessible once the VM has started
	wait_until 20 "$BUILD/testsuite/hsperf-print" "/tmp/hsperfdata_$(id -un)/$JPID"
	"$BUILD/testsuite/hsperf-print" "/tmp/hsperfdata_$(id -un)/$JPID" >"$T/ours"
	"$jcmd" "$JPID" PerfCounter.print >"$T/jcmd"
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	# the attach capability, and more than a few constants of each kind
	grep -qx 'sun.rt.jvmCapabilities="1[01]*"' "$T/ours"
	[ "$(grep -c '="' "$T/ours")" -gt 20 ] && [ "$(grep -vc '="' "$T/ours")" -gt 3 ]
	# (jcmd prints them in its own order)
	diff -u <(sort "$T/ours") <(grep -Fx -f "$T/ours" "$T/jcmd" | sort)
}

@test "hsperf: a JVM's performance-data constants read as jcmd PerfCounter.print reads them (JDK 17)" { check_hsperf_vs_jcmd "$JDK17"; }
@test "hsperf: a JVM's performance-data constants read as jcmd PerfCounter.print reads them (JDK 25)" { check_hsperf_vs_jcmd "$JDK25"; }

@test "attach: no such process, not a JVM, a thread of a JVM, another user's JVM, attach disabled (on its command line, in an @argfile), dynamic agents disabled, an agent the JVM refuses: one line each, exit 1" {
	local gone
	true &
	gone=$!
	wait "$gone"
	run --separate-stderr "$BRIDGE" -x "$gone" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ $gone:\ no\ such\ process$ ]]
	run --separate-stderr "$BRIDGE" -x "$$" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ $$:\ not\ a\ JVM\ \(no\ java\ executable,\ no\ libjvm.so\ mapped\)$ ]]
	# a JVM that refuses attaching is not signalled (SIGQUIT would print a thread dump)
	start_plain_jvm "$JDK17" -XX:+DisableAttachMechanism Families idle "$T/go" "$T/stop"
	wait_until 20 grep -q . "/proc/$JPID/cmdline"
	run --separate-stderr "$BRIDGE" -x "$JPID" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ pid\ $JPID:\ started\ with\ -XX:\+DisableAttachMechanism:\ the\ agent\ cannot\ be\ loaded\ into\ it\ \(start\ it\ with\ -agentpath,\ see\ stap-java\(1\)\)$ ]]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ ! -s "$T/java.out" ]
	rm "$T/go" "$T/stop"
	# ... nor one that has it from an @argfile, which its command line does not
	# show: the JVM's performance data says so (stpd-bridge/hsperf.h)
	echo "-XX:+DisableAttachMechanism" >"$T/opts"
	start_plain_jvm "$JDK17" "@$T/opts" Families idle "$T/go" "$T/stop"
	wait_until 20 test -s "/tmp/hsperfdata_$(id -un)/$JPID"
	run --separate-stderr "$BRIDGE" -x "$JPID" -m 'X.*' --agent "$AGENT"
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ pid\ $JPID:\ cannot\ load\ the\ agent:\ the\ JVM\ runs\ with\ its\ attach\ mechanism\ disabled\ \(-XX:\+DisableAttachMechanism\ where\ its\ command\ line\ does\ not\ show\ it,\ such\ as\ an\ @argfile\;\ its\ /tmp/hsperfdata_$(id -un)/$JPID\ says\ so\):\ start\ it\ with\ -agentpath,\ see\ stap-java\(1\)$ ]]
	[ ! -e "/tmp/.attach_pid$JPID" ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ ! -s "$T/java.out" ]
	rm "$T/go" "$T/stop"
	# a JVM of another user, with a bridge that is not root
	start_plain_jvm "$JDK17" Families idle "$T/go" "$T/stop"
	# first, a thread of it named for the JVM: its process is not signalled
	local tid
	# HotSpot's signal handlers (a mask, not the line, which is there at
	# once): installed in the thread the launcher starts the VM in
	wait_until 20 grep -q '^SigCgt:.*[1-9a-f]' "/proc/$JPID/status"
	tid=$(ls "/proc/$JPID/task" | grep -vx "$JPID" | head -1)
	[ -n "$tid" ]
	run --separate-stderr "$BRIDGE" -x "$tid" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ $tid:\ a\ thread\ of\ process\ $JPID,\ not\ a\ process\ \(-x\ $JPID\ names\ the\ process\)$ ]]
	run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups "$BRIDGE" -x "$JPID" -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ $JPID:\ owned\ by\ uid\ 0\;\ only\ root\ may\ serve\ other\ users\'\ JVMs$ ]]
	# a JVM that will not start an agent loaded late (JDK 21+): its own words
	local edl
	"$JDK25" -XX:-EnableDynamicAgentLoading "-XX:ErrorFile=$T/hs_err_%p.log" -cp "$CLASSES" Families idle \
		"$T/edl.go" "$T/edl.stop" >"$T/edl.out" 2>"$T/edl.err" 3>&- &
	edl=$!
	wait_until 20 grep -q '^SigCgt:.*[1-9a-f]' "/proc/$edl/status"
	run --separate-stderr "$BRIDGE" -x "$edl" -m 'X.*' --agent "$AGENT"
	touch "$T/edl.go" "$T/edl.stop"
	wait_exit "$edl"
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ pid\ $edl:\ cannot\ load\ the\ agent:\ the\ JVM\ did\ not\ start\ the\ agent:\ Dynamic\ agent\ loading\ is\ not\ enabled\.\ Use\ -XX:\+EnableDynamicAgentLoading\ to\ launch\ target\ VM\.$ ]]
	[ ! -s "$T/edl.out" ] && [ ! -s "$T/edl.err" ]
	# an agent the JVM cannot load: its own words; the JVM runs on
	wait_until 20 grep -q '^SigCgt:.*[1-9a-f]' "/proc/$JPID/status"
	run --separate-stderr "$BRIDGE" -x "$JPID" -m 'X.*' --agent /bin/true
	[ "$status" -eq 1 ]
	[[ $stderr =~ ^stpd-bridge\[[0-9]+\]:\ error:\ pid\ $JPID:\ cannot\ load\ the\ agent:\ the\ JVM\ refused\ to\ load\ the\ agent:\ /bin/true\ was\ not\ loaded\.\ /bin/true:\ cannot\ dynamically\ load\ position-independent\ executable\ *$ ]]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ ! -s "$T/java.out" ]
}

# The rewriter on every class of the JDK: enter, return and exceptional-exit
# calls in every method of every class loaded (retransformed at VMInit, or
# at load), each class verified (-Xverify:all), every class of every module
# loaded and linked, code run through them (testsuite/rewrite-stress).
@test "rewrite stress: every method of every JDK 17 and JDK 25 class rewritten, the natives of the classes outside the boot loader wrapped, verified with -Xverify:all, linked and run" {
	run "$SRC/testsuite/rewrite-stress" --build "$BUILD" "$JDK17" "$JDK25"
	[ "$status" -eq 0 ] || { printf '%s\n' "$output" >&2; false; }
	# each JDK: thousands of classes linked, none failed, none refused
	[ "$(grep -c '^failed 0$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^refused 0$' <<<"$output")" -eq 2 ]
	[ "$(awk '$1 == "linked" && $2 > 20000' <<<"$output" | wc -l)" -eq 2 ]
	[ "$(awk '$1 == "methods" && $2 > 150000' <<<"$output" | wc -l)" -eq 2 ]
	[ "$(awk '$1 == "thrown" && $2 > 0' <<<"$output" | wc -l)" -eq 2 ]
	[ "$(grep -c '^balance 0$' <<<"$output")" -eq 2 ]
	# (123 natives in each of our runs)
	[ "$(awk '$1 == "wrapped" && $2 > 100' <<<"$output" | wc -l)" -eq 2 ]
}

# Calls put into a class and taken out again 100 times while four threads
# run its methods, exceptions flowing through the probed frames
# (testsuite/inject-cycles): no crash, the threads' own sums right.
@test "inject cycles: 100 times calls in and out of a class under four threads and exceptions (JDK 17 and 25)" {
	run "$SRC/testsuite/inject-cycles" --build "$BUILD" --cycles 100 "$JDK17" "$JDK25"
	[ "$status" -eq 0 ] || { printf '%s\n' "$output" >&2; false; }
	[ "$(grep -c '^calls in 100$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^calls out 100$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^throwing-[0-3] ok$' <<<"$output")" -eq 8 ]
}

@test "exceptions: thrown and caught, with class and method (JDK 17)" { check_exceptions "$JDK17"; }
@test "exceptions: thrown and caught, with class and method (JDK 25)" { check_exceptions "$JDK25"; }

check_threads() {
	family "$1" threads --threads
	local w1 w2
	w1=$(java_tid worker-1) w2=$(java_tid worker-2)
	grep -E 'thread="worker-' "$T/events" | sed -E "s/ tid=$w1 / tid=W1 /; s/ tid=$w2 / tid=W2 /" | mask >"$T/got"
	cat >"$T/want" <<'WANT'
thread.start pid=P tid=W1 ts=X thread="worker-1"
thread.end pid=P tid=W1 ts=X thread="worker-1"
thread.start pid=P tid=W2 ts=X thread="worker-2"
thread.end pid=P tid=W2 ts=X thread="worker-2"
WANT
	diff -u "$T/want" "$T/got"
}

@test "threads: start and end with names and OS tids (JDK 17)" { check_threads "$JDK17"; }
@test "threads: start and end with names and OS tids (JDK 25)" { check_threads "$JDK25"; }

check_monitors() {
	family "$1" monitors --monitors
	local main blocker waiter
	main=$(java_tid main) blocker=$(java_tid blocker) waiter=$(java_tid waiter)
	# Thread.join() waits on the Thread object (which an exiting thread may then
	# contend for), and a notified waiter may contend on its way out of wait():
	# keep only the events this test forces. The blocker's first contention is `lock`.
	local lockid
	lockid=$(grep -m1 "^monitor.contended_enter .* tid=$blocker " "$T/events" | sed -E 's/.* object=([0-9]+).*/\1/')
	[ -n "$lockid" ]
	sed -E "s/ tid=$main / tid=MAIN /; s/ tid=$blocker / tid=BLOCKER /; s/ tid=$waiter / tid=WAITER /" "$T/events" |
		grep -E "^monitor.contended_enter(ed)? .*tid=BLOCKER .*object=$lockid\$|^monitor.wait(ed)? .*(tid=WAITER|timeout_ms=50)" |
		mask >"$T/got"
	cat >"$T/want" <<'WANT'
monitor.contended_enter pid=P tid=BLOCKER ts=X object=ID
monitor.contended_entered pid=P tid=BLOCKER ts=X object=ID
monitor.wait pid=P tid=MAIN ts=X object=ID timeout_ms=50
monitor.waited pid=P tid=MAIN ts=X object=ID timeout_ms=50 timed_out=1
monitor.wait pid=P tid=WAITER ts=X object=ID timeout_ms=0
monitor.waited pid=P tid=WAITER ts=X object=ID timeout_ms=0 timed_out=0
WANT
	diff -u "$T/want" "$T/got"
	# the object ids are stable: one for the lock, one for the wait object
	local lock1 lock2 w1 w2 w3 w4
	lock1=$(grep -m1 'contended_enter ' "$T/events" | sed -E 's/.* object=([0-9]+).*/\1/')
	lock2=$(grep -m1 'contended_entered ' "$T/events" | sed -E 's/.* object=([0-9]+).*/\1/')
	[ "$lock1" = "$lock2" ]
	[ "$(grep -E "tid=($main|$waiter) .*timeout_ms=(50|0) " "$T/events" | grep -E "monitor.wait(ed)? " |
		grep -E "tid=$waiter|timeout_ms=50" | sed -E 's/.* object=([0-9]+).*/\1/' | sort -u | wc -l)" -eq 1 ]
}

@test "monitors: contended enter/entered, wait/waited with and without timeout (JDK 17)" { check_monitors "$JDK17"; }
@test "monitors: contended enter/entered, wait/waited with and without timeout (JDK 25)" { check_monitors "$JDK25"; }

# --monitor-detail: a contended enter names the monitor's class and the
# thread that holds it (its host tid and name); the holder lets the lock go
# only once the bridge has printed that line (Owner in Families.java).
check_monitor_detail() {
	start_jvm "$1" "" -- Families owner "$T/go" "$T/release"
	wait_until 20 sock_exists
	start_bridge b --monitors --monitor-detail
	wait_until 20 registered 1
	touch "$T/go"
	wait_until 30 grep -q '^monitor.contended_enter .* class=Owner\$Shelf ' "$T/b.out"
	touch "$T/release"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	bridge_quiet b
	local main holder
	main=$(java_tid main) holder=$(java_tid holder)
	sed -E "s/ tid=$main / tid=MAIN /; s/ owner=$holder / owner=HOLDER /" "$T/b.out" |
		grep -F 'class=Owner$Shelf' | mask >"$T/got"
	cat >"$T/want" <<'WANT'
monitor.contended_enter pid=P tid=MAIN ts=X object=ID class=Owner$Shelf owner=HOLDER owner_thread="holder"
monitor.contended_entered pid=P tid=MAIN ts=X object=ID class=Owner$Shelf
WANT
	diff -u "$T/want" "$T/got"
}

@test "monitors: --monitor-detail names the monitor's class and who holds it (JDK 17)" { check_monitor_detail "$JDK17"; }
@test "monitors: --monitor-detail names the monitor's class and who holds it (JDK 25)" { check_monitor_detail "$JDK25"; }

check_gc() {
	family "$1" gc --gc
	mask "$T/events" >"$T/got"
	printf 'gc.start pid=P tid=T ts=X\ngc.finish pid=P tid=T ts=X\n' >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "gc: start and finish around System.gc() (JDK 17)" { check_gc "$JDK17"; }
@test "gc: start and finish around System.gc() (JDK 25)" { check_gc "$JDK25"; }

check_classes() {
	family "$1" classes -c Loaded -c Unloadable:unload
	local main
	main=$(java_tid main)
	sed -E "s/ tid=$main / tid=MAIN /" "$T/events" | mask >"$T/got"
	cat >"$T/want" <<'WANT'
class.load pid=P tid=MAIN ts=X class=Loaded
class.prepare pid=P tid=MAIN ts=X class=Loaded
class.unload pid=P tid=T ts=X class=Unloadable
WANT
	diff -u "$T/want" "$T/got"
}

@test "classes: load, prepare and unload (JDK 17)" { check_classes "$JDK17"; }
@test "classes: load, prepare and unload (JDK 25)" { check_classes "$JDK25"; }

check_compile() {
	start_jvm "$1" "" -- -Xbatch Families jit "$T/go"
	wait_until 20 sock_exists
	start_bridge b -m Hot.work:compile
	wait_until 20 registered 1
	log_has 'conn#1: Register method 0x4 "Hot.work"'
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	cp "$T/b.out" "$T/events"
	bridge_quiet b
	local main
	main=$(java_tid main)
	grep -q '^method.compile .* method=Hot.work(I)I code_size=[1-9][0-9]* code_addr=0x[0-9a-f]*[1-9a-f][0-9a-f]*$' "$T/events"
	# compiled by a compiler thread, not by main; and nothing else was reported
	! grep '^method.compile' "$T/events" | grep -q " tid=$main " || return 1
	[ "$(grep -vc '^method.compile .* method=Hot.work(I)I ' "$T/events")" -eq 0 ]
	# only compile was registered: no method event went on, the loop ran compiled
	! log_has 'event MethodE' || return 1
	! log_has 'event Breakpoint' || return 1
	! log_has 'method calls injected' || return 1
}

# entry_run JAVA BRIDGE_ARGS...: the entry scenario; its method.enter lines
# (masked, without thread ids) in $T/got.
entry_run() {
	local java=$1
	shift
	# each run from scratch: the JVM waits for go, the bridge appends to b.out
	rm -f "$T/go" "$T/b.out" "$T/b.log"
	: >"$T/agent.log"
	family "$java" entry "$@"
	grep '^method.enter ' "$T/events" | mask | sed 's/ tid=T//' >"$T/got"
}

check_entry() {
	# methods=jvmti: breakpoints, one event per call; a class loaded later
	# gets its breakpoints at ClassPrepare; no locals are read ('?').
	AGENT_EXTRA=,methods=jvmti entry_run "$1" -m 'Entry.plain:enter' -m 'EntryLazy.*:enter' --args
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=Entry.plain(I)I args=?
		method.enter pid=P ts=X method=EntryLazy.later(I)I args=?
		method.enter pid=P ts=X method=Entry.plain(I)I args=?
		method.enter pid=P ts=X method=EntryLazy.later(I)I args=?
		method.enter pid=P ts=X method=Entry.plain(I)I args=?
		method.enter pid=P ts=X method=EntryLazy.later(I)I args=?
	EOF
	# neither class is loaded at registration; each gets its breakpoints when
	# prepared (Entry.plain, then EntryLazy.later and EntryLazy.<init>)
	[ "$(sed -n 's/.*info: method.enter \(b.*\)/\1/p' "$T/agent.log")" = "$(printf '%s\n' \
		'by breakpoints on 0 methods' 'by breakpoints on 1 method' 'by breakpoints on 3 methods' 'breakpoints off')" ] || { cat "$T/agent.log" >&2; false; }
	[ "$(tail -n1 "$T/java.out")" = "acc 12" ]
	# A method whose first instruction is a loop's target would hit its
	# breakpoint on every turn: said once, and nothing else changes (no
	# MethodEntry for every method of the JVM)
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: method.enter of Entry.spin(I)V cannot be reported (its first instruction is a branch target: a breakpoint there would fire on every loop turn)" \
		"$(silent_told method Entry.spin enter)")" \
		AGENT_EXTRA=,methods=jvmti entry_run "$1" -m 'Entry.spin:enter' -m 'Entry.plain:enter'
	[ "$(cut -d' ' -f4 "$T/got" | sort | uniq -c | sed 's/^ *//')" = "3 method=Entry.plain(I)I" ]
	[ "$(grep -c 'cannot be reported' "$T/agent.log")" -eq 1 ]
	log_has 'warn: method.enter of Entry.spin(I)V cannot be reported (its first instruction is a branch target: a breakpoint there would fire on every loop turn)$'
	# A native method has no bytecode: said once by name.
	EXPECT_WARNS="$(printf '%s\n' \
		'warn: method.enter of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)' \
		'warn: method.return of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)' \
		"$(silent_told method java.lang.Runtime.availableProcessors 'enter, return')")" \
		AGENT_EXTRA=,methods=jvmti entry_run "$1" -m 'java.lang.Runtime.availableProcessors:enter,return'
	[ ! -s "$T/got" ]
	log_has 'warn: method.enter of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)$'
	log_has 'warn: method.return of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)$'
	! log_has 'event MethodEntry' || return 1
}

# told_lines NAME: the bridge's warnings in its log NAME, sorted, without
# "stpd-bridge[N]: " and "pid N: ".
told_lines() { sed -n 's/^stpd-bridge\[[0-9]*\]: warn: pid [0-9]*: /warn: /p' "$T/$1.log" | sort; }

# A matched method the agent cannot report is said to every session that
# matches it, a later one on the same JVM too (stap-java -x PID run again),
# with the reason the rewriter refused it; the session's end line says that
# what ran was such a method, not that nothing ran.
@test "cannot be reported: said to each session on a JVM, a later one too, with the rewriter's reason (a method near 64 KiB)" {
	local jdk i b n
	jdk=$(dirname "$JDK17")
	mkdir -p "$T/big"
	# 65 523 bytes of code: with the injected calls it would pass 64 KiB
	{
		echo 'public class Big { static int big(int x) {'
		for ((i = 0; i < 7295; i++)); do echo "x = x * 31 + $i;"; done
		echo 'return x; }'
		echo 'public static void main(String[] a) throws Exception { long n = 0;'
		echo 'while (!new java.io.File(a[0]).exists()) { n += big(1) + Runtime.getRuntime().availableProcessors(); Thread.sleep(5); }'
		echo 'System.out.println(n != 0 ? "ran" : "did not run"); } }'
	} >"$T/big/Big.java"
	"$jdk/javac" -d "$T/big" "$T/big/Big.java"
	start_jvm "$JDK17" "" -- -cp "$T/big" Big "$T/stop"
	local want
	want=$(printf '%s\n' \
		"warn: method.enter of Big.big(I)I cannot be reported (no injected call: the method's code would reach 64 KiB; agent option methods=fallback has it by a breakpoint, which costs every compiled method of the JVM)" \
		"warn: method.return of Big.big(I)I cannot be reported (no injected call: the method's code would reach 64 KiB, and MethodExit would make every method of the JVM interpreted (agent option methods=jvmti has it at that cost))" \
		'warn: method.enter of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)' \
		'warn: method.return of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)' \
		"$(silent_told method Big.big 'enter, return')" \
		"$(silent_told method java.lang.Runtime.availableProcessors 'enter, return')" | sort)
	for b in b1 b2; do
		start_bridge "$b" -m Big.big -m java.lang.Runtime.availableProcessors
		wait_until 60 eval '[ "$(grep -c "cannot be reported" "$T/$b.log")" -eq 4 ]'
		kill -INT "$BPID"
		wait_exit "$BPID"
		[ "$(told_lines "$b")" = "$want" ] || { diff -u <(echo "$want") <(told_lines "$b"); false; }
		[ ! -s "$T/$b.out" ]
	done
	# the agent's log says it at each refusal: each session's registration
	# retransforms the class anew (the first's went with its end)
	n=$(grep -c "warn: method Big.big(I)I cannot have injected calls (the method's code would reach 64 KiB)$" "$T/agent.log")
	[ "$n" -eq 2 ] || { grep 'Big' "$T/agent.log" >&2; false; }
	touch "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ "$(cat "$T/java.out")" = ran ]
}

@test "methods=jvmti: breakpoints on the matched methods only; loops at bci 0 and natives said once by name (JDK 17)" { check_entry "$JDK17"; }
@test "methods=jvmti: breakpoints on the matched methods only; loops at bci 0 and natives said once by name (JDK 25)" { check_entry "$JDK25"; }

# The injection lines of the agent log, without the prefix.
inject_log() { sed -n 's/^stapjava-agent\[[0-9]*\]: info: \(method calls .*\|method injection .*\|injected calls .*\|method.enter .*\|method.return .*\|event MethodE.*\)/\1/p' "$T/agent.log"; }

check_inject() {
	# Injected calls (the default): a call is one event; a class loaded later
	# gets its calls from the class-file hook; a loop back to the first
	# instruction is no obstacle (the call sits before it).
	entry_run "$1" -m 'Entry.plain:enter' -m 'EntryLazy.*:enter' -m 'Entry.spin:enter' --args
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=Entry.plain(I)I args=0
		method.enter pid=P ts=X method=Entry.spin(I)V args=5
		method.enter pid=P ts=X method=EntryLazy.later(I)I args=0
		method.enter pid=P ts=X method=Entry.plain(I)I args=1
		method.enter pid=P ts=X method=Entry.spin(I)V args=5
		method.enter pid=P ts=X method=EntryLazy.later(I)I args=1
		method.enter pid=P ts=X method=Entry.plain(I)I args=2
		method.enter pid=P ts=X method=Entry.spin(I)V args=5
		method.enter pid=P ts=X method=EntryLazy.later(I)I args=2
	EOF
	[ "$(inject_log)" = "$(printf '%s\n' 'method calls injected in 0 classes' \
		'method calls injected in 1 class' 'method calls injected in 2 classes' \
		'method injection off')" ] || { cat "$T/agent.log" >&2; false; }
	[ "$(tail -n2 "$T/java.out")" = "$(printf 'adler 458756\nacc 12')" ]
	# java.base, a named module: Character is loaded and gets its call by
	# retransformation, Adler32 is loaded later and gets it from the hook;
	# both must be made to read stapjava.Probe's module, or the JVM would throw
	entry_run "$1" -m 'java.lang.Character.isMirrored(I)Z:enter,return' -m 'java.util.zip.Adler32.update(I)V:enter' --args --return
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=java.util.zip.Adler32.update(I)V args=0
		method.enter pid=P ts=X method=java.lang.Character.isMirrored(I)Z args=40
		method.enter pid=P ts=X method=java.util.zip.Adler32.update(I)V args=1
		method.enter pid=P ts=X method=java.lang.Character.isMirrored(I)Z args=40
		method.enter pid=P ts=X method=java.util.zip.Adler32.update(I)V args=2
		method.enter pid=P ts=X method=java.lang.Character.isMirrored(I)Z args=40
	EOF
	[ "$(grep -c '^method.return .* method=java.lang.Character.isMirrored(I)Z popped=0 ret=true$' "$T/events")" -eq 3 ]
	[ "$(inject_log)" = "$(printf '%s\n' 'method calls injected in 1 class' \
		'method calls injected in 2 classes' 'method injection off')" ] || { cat "$T/agent.log" >&2; false; }
	[ "$(tail -n2 "$T/java.out")" = "$(printf 'adler 458756\nacc 12')" ]
	[ ! -s "$T/java.err" ]
	# A type annotation in code moves with the code: calls like any other class
	entry_run "$1" -m 'EntryTyped.typed:enter' --args
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=EntryTyped.typed(I)I args=0
		method.enter pid=P ts=X method=EntryTyped.typed(I)I args=1
		method.enter pid=P ts=X method=EntryTyped.typed(I)I args=2
	EOF
	! log_has 'cannot have injected calls' || return 1
	# A call in an empty finalize() would make the class's objects
	# finalizable, and the VM never calls it: said, never probed
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: method.enter of EntryFinal.finalize()V cannot be reported (an empty finalize(), which the VM never calls: a call in it would make the class's objects finalizable)" \
		"warn: method.return of EntryFinal.finalize()V cannot be reported (an empty finalize(), which the VM never calls: a call in it would make the class's objects finalizable)" \
		"$(silent_told method EntryFinal.finalize 'enter, return')")" \
		entry_run "$1" -m 'EntryFinal.finalize'
	[ ! -s "$T/got" ]
	log_has 'warn: method.enter of EntryFinal.finalize()V cannot be reported (an empty finalize(), which the VM never calls: a call in it would make the class.s objects finalizable)$'
	log_has 'warn: method.return of EntryFinal.finalize()V cannot be reported (an empty finalize(), which the VM never calls: a call in it would make the class.s objects finalizable)$'
	! log_has 'by breakpoints on [1-9]' || return 1
	# a finalize() with a body is probed like any method
	entry_run "$1" -m 'EntryFinalBody.finalize'
	[ "$(grep -E '^method\.(enter|return) ' "$T/events" | mask | sed 's/ tid=T//')" = "$(printf '%s\n' \
		'method.enter pid=P ts=X method=EntryFinalBody.finalize()V args=' \
		'method.return pid=P ts=X method=EntryFinalBody.finalize()V popped=0 ret=?')" ]
	log_has 'info: method calls injected in 1 class$'
	# java.lang.Object is never changed: by default its methods are said not
	# to be reported (no breakpoint capability: it would cost every compiled
	# method), and so are their returns (MethodExit would interpret the JVM)
	local object_return="warn: method.return of java.lang.Object.finalize()V cannot be reported (no injected call: the VM's root class is left alone, and MethodExit would make every method of the JVM interpreted (agent option methods=jvmti has it at that cost))"
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: method.enter of java.lang.Object.finalize()V cannot be reported (no injected call: the VM's root class is left alone; agent option methods=fallback has it by a breakpoint, which costs every compiled method of the JVM)" \
		"$object_return" "$(silent_told method java.lang.Object.finalize 'enter, return')")" \
		entry_run "$1" -m 'java.lang.Object.finalize'
	log_has "warn: class Ljava/lang/Object; cannot have injected calls (the VM's root class is left alone)$"
	! log_has 'by breakpoints on [1-9]' || return 1
	log_has "${object_return//(/.}$"
	! log_has 'event MethodExit' || return 1
	# with methods=fallback they get breakpoints
	EXPECT_WARNS="$(printf '%s\n' "$object_return" \
		"warn: method.enter of java.lang.Object by breakpoints (no injected calls): its matched methods run interpreted" \
		"$(silent_told method java.lang.Object.finalize 'enter, return')")" \
		AGENT_EXTRA=,methods=fallback entry_run "$1" -m 'java.lang.Object.finalize'
	log_has 'info: method.enter by breakpoints on 1 method$'
	log_has "${object_return//(/.}$"
	! log_has 'event MethodExit' || return 1
	[ "$(tail -n2 "$T/java.out")" = "$(printf 'adler 458756\nacc 12')" ]
	# A native method has no code: said once by name, nothing else changes
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: method.enter of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)" \
		"$(silent_told method java.lang.Runtime.availableProcessors enter)")" \
		entry_run "$1" -m 'java.lang.Runtime.availableProcessors:enter' -m 'Entry.plain:enter'
	[ "$(cut -d' ' -f4 "$T/got" | sort | uniq -c | sed 's/^ *//')" = "3 method=Entry.plain(I)I" ]
	log_has 'warn: method.enter of java.lang.Runtime.availableProcessors()I cannot be reported (a native method)$'
	! log_has 'event MethodEntry' || return 1
	! log_has 'event Breakpoint' || return 1
}

# lambdas_run JAVA PATTERN [BRIDGE-OPTION...]: the lambdas scenario, its
# early lambda made before the bridge registers PATTERN's enter (and the
# options); the method.enter lines (masked, no <init>) in $T/got.
lambdas_run() {
	local java=$1 pattern=$2
	shift 2
	rm -f "$T/go" "$T/b.out" "$T/b.log"
	: >"$T/agent.log"
	start_jvm "$java" "${AGENT_EXTRA:-}" -- Families lambdas "$T/go"
	wait_until 20 grep -q '^prepared$' "$T/java.out"
	start_bridge b -m "$pattern:enter" "$@"
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	cp "$T/b.out" "$T/events"
	# bridge_quiet, with the hidden classes' names masked
	[ "$(grep -E ': (warn|error): ' "$T/b.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/: pid [0-9]+: /: /;
		s/\$\$Lambda[$0-9]*\.0x[0-9a-f]*/$$Lambda/')" = "${EXPECT_WARNS:-}" ] || { cat "$T/b.log" >&2; false; }
	sed -n '/^method\.enter /p' "$T/events" | mask | sed -e 's/ tid=T//' \
		-e 's/\$\$Lambda[$0-9]*\.0x[0-9a-f]*\./$$Lambda./' -e '/<init>/d' >"$T/got"
	[ "$(tail -n1 "$T/java.out")" = "late 6" ]
	! log_has 'falls back' || return 1
	! log_has 'event MethodEntry' || return 1
}

# The bridge's line for the Notice of a hidden class's breakpoints.
lambda_fallback() {
	printf '%s' "warn: method.enter of Lambdas\$\$Lambda by breakpoints (a class the VM will not change): its matched methods run interpreted"
}

# The bridge's line for the Notice of a hidden class's method that no
# breakpoint reports (the default, methods=inject).
lambda_unreported() {
	printf '%s' "warn: method.enter of Lambdas\$\$Lambda.$1 cannot be reported (a class the VM will not change; agent option methods=fallback has it by a breakpoint, which costs every compiled method of the JVM)"
}

# Lambdas' classes are hidden classes, which the VM lets nobody change. By
# default (methods=inject) their methods are said, once each, and not
# reported: the agent holds no breakpoint capability, which would cost every
# compiled method of the JVM; the rest are reported by their calls.
check_lambdas_inject() {
	EXPECT_WARNS="$(printf '%s\n' "$(lambda_unreported '<init>()V')" "$(lambda_unreported 'run()V')" \
		"$(lambda_unreported '<init>()V')" "$(lambda_unreported 'applyAsInt(I)I')")" lambdas_run "$1" 'Lambdas*'
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=Lambdas.run()V args=
		method.enter pid=P ts=X method=Lambdas.lambda$prepare$0()V args=
		method.enter pid=P ts=X method=Lambdas.f(I)I args=
		method.enter pid=P ts=X method=Lambdas.lambda$run$1(I)I args=
		method.enter pid=P ts=X method=Lambdas.f(I)I args=
	EOF
	log_has 'info: method calls injected in 1 class$'
	! log_has 'by breakpoints on [1-9]' || return 1
	! log_has 'event Breakpoint' || return 1
}

@test "lambdas (hidden classes), methods=inject: each of their methods said not reported, the rest reported (JDK 17)" { check_lambdas_inject "$JDK17"; }
@test "lambdas (hidden classes), methods=inject: each of their methods said not reported, the rest reported (JDK 25)" { check_lambdas_inject "$JDK25"; }

# A hidden class's method.return cannot be reported (MethodExit would make
# every method of the JVM interpreted): the Notice names the class as its
# subject (CAP_NOTICE_SUBJECT), so the pattern's end-of-session line says the
# agent could not, not only that nothing matched. A pattern of enter alone on
# the same methods is not concerned.
check_lambda_return_told() {
	AGENT_EXTRA=,methods=fallback EXPECT_WARNS="$(printf '%s\n' \
		'warn: method.return of 1 method of Lambdas$$Lambda cannot be reported (a class the VM will not change, and MethodExit would make every method of the JVM interpreted; agent option methods=jvmti has it at that cost)' \
		"$(silent method 'Lambdas$$Lambda*.nothing' enter)" \
		"$(silent_told method 'Lambdas$$Lambda*.applyAsInt' return)")" \
		lambdas_run "$1" 'Lambdas$$Lambda*.nothing' -m 'Lambdas$$Lambda*.applyAsInt:return'
	[ ! -s "$T/got" ]
}

@test "lambdas (hidden classes): a return the agent cannot report is told at the session's end, by the class the Notice names (JDK 17)" { check_lambda_return_told "$JDK17"; }
@test "lambdas (hidden classes): a return the agent cannot report is told at the session's end, by the class the Notice names (JDK 25)" { check_lambda_return_told "$JDK25"; }

# An agent that holds can_generate_breakpoint_events makes HotSpot compile
# every method keeping all its locals alive, for the JVM's whole life (1.5-2 %
# on the bench's loop, bench/README.md), and turn RewriteFrequentPairs off,
# which jcmd shows: by default the agent asks for no breakpoint capability.
check_breakpoint_capability() {
	local java=$1 way got=
	for way in inject fallback jvmti; do
		rm -f "$T/go" "$T/stop"
		start_jvm "$java" ",methods=$way" -- Families idle "$T/go" "$T/stop"
		wait_until 20 sock_exists
		run "$(jcmd_of "$java")" "$JPID" VM.flags -all
		got+="$way $(awk '$2 == "RewriteFrequentPairs" { print $4 }' <<<"$output") "
		touch "$T/go" "$T/stop"
		wait_exit "$JPID"
		JPID=
	done
	[ "$got" = "inject true fallback false jvmti false " ]
}

@test "capabilities: no breakpoint capability unless methods=fallback or jvmti asks for it (JDK 17)" { check_breakpoint_capability "$JDK17"; }
@test "capabilities: no breakpoint capability unless methods=fallback or jvmti asks for it (JDK 25)" { check_breakpoint_capability "$JDK25"; }

# With methods=fallback their methods get breakpoints beside the calls in the rest.
check_lambdas() {
	export AGENT_EXTRA=,methods=fallback
	# the early lambda's class exists when the bridge registers
	EXPECT_WARNS="$(lambda_fallback; echo; lambda_fallback)" lambdas_run "$1" 'Lambdas*'
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P ts=X method=Lambdas.run()V args=
		method.enter pid=P ts=X method=Lambdas$$Lambda.run()V args=
		method.enter pid=P ts=X method=Lambdas.lambda$prepare$0()V args=
		method.enter pid=P ts=X method=Lambdas.f(I)I args=
		method.enter pid=P ts=X method=Lambdas$$Lambda.applyAsInt(I)I args=
		method.enter pid=P ts=X method=Lambdas.lambda$run$1(I)I args=
		method.enter pid=P ts=X method=Lambdas.f(I)I args=
	EOF
	log_has 'info: method calls injected in 1 class$'
	log_has 'warn: method.enter of Lambdas$$Lambda.* by breakpoints (a class the VM will not change): its matched methods run interpreted$'
	log_has 'info: method.enter by breakpoints on [1-9][0-9]* methods\?$'
	# only the late lambda's class is wanted: breakpoints go on when it is prepared
	EXPECT_WARNS="$(lambda_fallback)" lambdas_run "$1" 'Lambdas$$Lambda*.applyAsInt'
	diff -u - "$T/got" <<<'method.enter pid=P ts=X method=Lambdas$$Lambda.applyAsInt(I)I args='
	[ "$(inject_log | sed 's/\$\$Lambda[$0-9]*\.0x[0-9a-f]*/$$Lambda/')" = "$(printf '%s\n' \
		'method calls injected in 0 classes' \
		'method.enter by breakpoints on 1 method' 'method.enter breakpoints off' \
		'method injection off')" ] || { cat "$T/agent.log" >&2; false; }
	! log_has 'event MethodExit' || return 1
}

@test "lambdas (hidden classes), methods=fallback: breakpoints beside the injected calls, MethodExit not needed for enter (JDK 17)" { check_lambdas "$JDK17"; }
@test "lambdas (hidden classes), methods=fallback: breakpoints beside the injected calls, MethodExit not needed for enter (JDK 25)" { check_lambdas "$JDK25"; }

# Virtual threads: the injected call runs on them like on any thread; the
# event's thread is the carrier's OS thread.
@test "method.enter by injected calls on a virtual thread (JDK 25)" {
	family "$JDK25" vthreads -m 'VThreads.f:enter' --args
	local main virt
	main=$(java_tid main) virt=$(java_tid virtual)
	[ -n "$main" ] && [ -n "$virt" ] && [ "$main" != "$virt" ]
	grep '^method.enter ' "$T/events" | sed -E -e "s/ tid=$main / tid=MAIN /" -e "s/ tid=$virt / tid=CARRIER /" |
		mask >"$T/got"
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=0
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=1
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=2
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=3
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=4
		method.enter pid=P tid=MAIN ts=X method=VThreads.f(I)I args=0
		method.enter pid=P tid=MAIN ts=X method=VThreads.f(I)I args=1
	EOF
	log_has 'info: method calls injected in 1 class$'
}

# Plain events (no arguments, return value or stack asked for) leave a
# thread as its site and thread only, made into messages by the I/O thread
# from one copy per site (agent/plainev.h, evtemplate.h): the copy made
# from the carrier's events must carry the main thread's tid for its calls.
@test "method.enter and return, plain, of one method on two threads: each event with its own thread (JDK 25)" {
	family "$JDK25" vthreads -m 'VThreads.f'
	local main virt
	main=$(java_tid main) virt=$(java_tid virtual)
	[ -n "$main" ] && [ -n "$virt" ] && [ "$main" != "$virt" ]
	grep '^method\.' "$T/events" | sed -E -e "s/ tid=$main / tid=MAIN /" -e "s/ tid=$virt / tid=CARRIER /" |
		mask >"$T/got"
	diff -u - "$T/got" <<-'EOF'
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=CARRIER ts=X method=VThreads.f(I)I popped=0 ret=?
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=CARRIER ts=X method=VThreads.f(I)I popped=0 ret=?
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=CARRIER ts=X method=VThreads.f(I)I popped=0 ret=?
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=CARRIER ts=X method=VThreads.f(I)I popped=0 ret=?
		method.enter pid=P tid=CARRIER ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=CARRIER ts=X method=VThreads.f(I)I popped=0 ret=?
		method.enter pid=P tid=MAIN ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=MAIN ts=X method=VThreads.f(I)I popped=0 ret=?
		method.enter pid=P tid=MAIN ts=X method=VThreads.f(I)I args=
		method.return pid=P tid=MAIN ts=X method=VThreads.f(I)I popped=0 ret=?
	EOF
	log_has 'info: method calls injected in 1 class$'
}

@test "injected calls: later classes, loops at bci 0, java.base, type annotations; finalize, Object and natives said by name (JDK 17)" { check_inject "$JDK17"; }
@test "injected calls: later classes, loops at bci 0, java.base, type annotations; finalize, Object and natives said by name (JDK 25)" { check_inject "$JDK25"; }

# method.enter and method.compile of one hot method: with injected calls the
# method is compiled while every call is reported.
check_enter_compile() {
	# 200000 events: room for all of them, the calls are faster than the bridge
	start_jvm "$1" ",bufsize=33554432" -- -Xbatch Families jit "$T/go"
	wait_until 20 sock_exists
	start_bridge b -m Hot.work:enter,compile
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	cp "$T/b.out" "$T/events"
	bridge_quiet b
	grep -q '^method.compile .* method=Hot.work(I)I code_size=[1-9][0-9]* ' "$T/events"
	[ "$(grep -c '^method.enter .* method=Hot.work(I)I args=$' "$T/events")" -eq 200000 ]
	[ "$(grep -vc '^method.\(enter\|compile\) .* method=Hot.work(I)I' "$T/events")" -eq 0 ]
	log_has 'info: method calls injected in 1 class$'
	! log_has 'event MethodE' || return 1
	! log_has 'event Breakpoint' || return 1
}

# A call that started in a version of its class that a later registration
# replaced returns through a site of the old version, first called then: the
# site knows its method from the rewrite (sites.h), and the session that
# wanted the return gets it once.
waitfor_enters_are() { [ "$(grep -c '^method.enter .*Families.waitFor' "$T/a.out")" -eq "$1" ]; }
check_obsolete_frame() {
	# wait_ms: a's registration stands before main's class loads, so both
	# waitFor calls have a's calls (from the class-file hook)
	start_jvm "$1" ",loglevel=debug,wait_ms=10000" -- Families idle "$T/go" "$T/stop"
	start_bridge a -m 'Families.waitFor'
	wait_until 30 registered 1
	touch "$T/go"
	# main is in waitFor(stop)
	wait_until 30 waitfor_enters_are 2
	local before
	before=$(log_count 'debug: 1 of 1 class retransformed for calls$' || true)
	start_bridge b -m 'Families.osTid:enter'
	wait_until 30 registered 2
	# Families again, with a call in osTid() too: main's waitFor frame is now obsolete
	wait_until 30 log_count_is 'debug: 1 of 1 class retransformed for calls$' $((before + 1))
	touch "$T/stop"
	wait_exit "$JPID"
	JPID=
	mask "$T/a.out" | grep -v '^vm.death' >"$T/got" || true
	cat >"$T/want" <<'WANT'
method.enter pid=P tid=T ts=X method=Families.waitFor(Ljava/lang/String;)V args=
method.return pid=P tid=T ts=X method=Families.waitFor(Ljava/lang/String;)V popped=0 ret=?
method.enter pid=P tid=T ts=X method=Families.waitFor(Ljava/lang/String;)V args=
method.return pid=P tid=T ts=X method=Families.waitFor(Ljava/lang/String;)V popped=0 ret=?
WANT
	diff -u "$T/want" "$T/got"
	[ ! -s "$T/java.err" ]
}

@test "a call running while its class is changed again reports its return once, from the old version's site (JDK 17)" { check_obsolete_frame "$JDK17"; }
@test "a call running while its class is changed again reports its return once, from the old version's site (JDK 25)" { check_obsolete_frame "$JDK25"; }

@test "compile and enter together: the method is compiled, every call reported (JDK 17)" { check_enter_compile "$JDK17"; }
@test "compile and enter together: the method is compiled, every call reported (JDK 25)" { check_enter_compile "$JDK25"; }

@test "compile: a hot method's compilation with code size and address (JDK 17)" { check_compile "$JDK17"; }
@test "compile: a hot method's compilation with code size and address (JDK 25)" { check_compile "$JDK25"; }

check_vm() {
	start_jvm "$1" ",wait_ms=20000" -- Families hello "$T/go"
	touch "$T/go"
	wait_until 20 sock_exists
	start_bridge b --vm
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	bridge_quiet b
	mask "$T/b.out" >"$T/got"
	printf 'vm.init pid=P tid=T ts=X\nvm.death pid=P tid=T ts=X\n' >"$T/want"
	diff -u "$T/want" "$T/got"
	[ "$(cat "$T/java.out")" = "hello from Families" ]
}

@test "vm: init (with wait_ms for a first bridge) and death (JDK 17)" { check_vm "$JDK17"; }
@test "vm: init (with wait_ms for a first bridge) and death (JDK 25)" { check_vm "$JDK25"; }

# ms_since T0: milliseconds since T0 (date +%s%N).
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

# wait_ms ends on the bridge's Start: main runs at once (long before
# wait_ms), and only after the registrations (main's own entry is seen).
check_start() {
	touch "$T/go"
	start_jvm "$1" ",wait_ms=5000" -- Families hello "$T/go"
	wait_until 20 sock_exists
	start_bridge b -m 'Families.main' --vm
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	bridge_quiet b
	log_has 'conn#1: Start: registrations complete'
	# the wait ended on Start, not at wait_ms (said by the log, not a clock)
	log_has 'wait_ms: a bridge sent Start after [0-9]* ms; main goes on'
	! log_has 'wait_ms: .* passed without' || return 1
	mask "$T/b.out" | head -3 >"$T/got"
	printf '%s\n' 'vm.init pid=P tid=T ts=X' \
		'method.enter pid=P tid=T ts=X method=Families.main([Ljava/lang/String;)V args=' \
		'method.return pid=P tid=T ts=X method=Families.main([Ljava/lang/String;)V popped=0 ret=?' >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "wait_ms: main runs right after the bridge's Start, with its registrations (JDK 17)" { check_start "$JDK17"; }
@test "wait_ms: main runs right after the bridge's Start, with its registrations (JDK 25)" { check_start "$JDK25"; }

# A peer that said Hello ends the wait only with Start: silence does not
# (registered but no Start: the whole wait_ms); an Appendix-only peer, which
# cannot say Start, ends it by 50 ms of silence after its registrations.
check_start_fallback() {
	local t0 mode=$2 opts=()
	[ "$mode" = appendix ] && opts=(--no-hello)
	touch "$T/go"
	# the wait runs from the VM's start: time it from before the JVM starts
	# (a lower bound only: a slower machine makes it longer, never shorter)
	t0=$(date +%s%N)
	start_jvm "$1" ",wait_ms=$3" -- Families hello "$T/go"
	wait_until 20 sock_exists
	start_client "${opts[@]}" "$(sock_of_jvm)" method:Families.main
	wait_exit "$JPID"
	# how the wait ended is in the log: no bound on the machine's speed
	if [ "$mode" = appendix ]; then
		log_has 'wait_ms: an Appendix-only bridge sent nothing for 50 ms, after [0-9]* ms; main goes on'
		! log_has 'wait_ms: .* passed without' || return 1
	else
		log_has "warn: wait_ms: 1500 ms passed without a bridge's Start; main goes on, unseen until a bridge registers$"
		[ "$(ms_since "$t0")" -ge 1500 ]
	fi
	JPID=
	wait_exit "$CPID"
	CPID=
	grep -q '^method.enter .* method=Families.main(\[Ljava/lang/String;)V ' "$T/events"
	! log_has 'Start: registrations complete' || return 1
}

@test "wait_ms: a Hello peer that never sends Start holds main for the whole wait (JDK 17)" { check_start_fallback "$JDK17" hello 1500; }
@test "wait_ms: an Appendix-only peer ends the wait by silence after registering (JDK 17)" { check_start_fallback "$JDK17" appendix 5000; }

# ---------------------------------------------------------------- loading

check_load() {
	local java=$1
	cd "$T"
	touch "$T/go"
	"$java" -cp "$CLASSES" Families hello "$T/go" >plain.out 2>plain.err
	echo $? >plain.rc
	"$java" "-agentpath:$AGENT=sockdir=$T/s,logfile=$T/agent.log" -cp "$CLASSES" Families hello "$T/go" >ap.out 2>ap.err
	echo $? >ap.rc
	JAVA_TOOL_OPTIONS="-agentpath:$AGENT=sockdir=$T/s,logfile=$T/agent2.log" \
		"$java" -cp "$CLASSES" Families hello "$T/go" >jto.out 2>jto.err
	echo $? >jto.rc
	[ "$(cat plain.rc)" = 0 ] && [ "$(cat ap.rc)" = 0 ] && [ "$(cat jto.rc)" = 0 ]
	cmp plain.out ap.out
	cmp plain.out jto.out
	cmp plain.err ap.err
	grep -v '^Picked up JAVA_TOOL_OPTIONS: ' jto.err | cmp plain.err -
	grep -q "^Picked up JAVA_TOOL_OPTIONS: -agentpath:$AGENT=" jto.err
	! compgen -G "$T/hs_err*" >/dev/null || return 1
	# the socket is gone once the JVM has exited
	! sock_exists || return 1
}

@test "load: -agentpath and JAVA_TOOL_OPTIONS leave output and exit code unchanged (JDK 17)" { check_load "$JDK17"; }
@test "load: -agentpath and JAVA_TOOL_OPTIONS leave output and exit code unchanged (JDK 25)" { check_load "$JDK25"; }

@test "load: an unknown or bad option stops the JVM with one line naming it" {
	run "$JDK17" "-agentpath:$AGENT=sockdir=$T/s,bogus=1" -cp "$CLASSES" Families hello "$T/go"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} =~ ^stapjava-agent\[[0-9]+\]:\ error:\ unknown\ option\ \'bogus\'\ \(known:\ sockdir,\ loglevel,\ logfile,\ bufsize,\ timeout_us,\ strmax,\ stackmax,\ wait_ms,\ threadbuf,\ methods,\ clock\)\;\ the\ agent\ is\ not\ loaded$ ]]
	run "$JDK25" "-agentpath:$AGENT=bufsize=12" -cp "$CLASSES" Families hello "$T/go"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} =~ "error: option bufsize='12': not a number of bytes from 4096 to 268435456; the agent is not loaded" ]]
}

# ---------------------------------------------------------------- the socket

# default_socket [ENV...]: a JVM with the agent and no sockdir=; sets JPID
# and SOCK, the path its log says it listens on.
default_socket() {
	env "$@" "$JDK17" "-agentpath:$AGENT=loglevel=info,logfile=$T/agent.log" -cp "$CLASSES" Families idle \
		"$T/go" "$T/stop" >"$T/java.out" 2>&1 &
	JPID=$!
	wait_until 20 log_has 'listening on '
	SOCK=$(sed -n 's/^stapjava-agent\[[0-9]*\]: info: listening on //p' "$T/agent.log")
}

@test "socket: by default in a new 0700 directory of an unguessable name, 0600, among the JVM's own sockets; both removed at exit" {
	default_socket
	local dir=${SOCK%/*} inode
	[[ $dir =~ ^/tmp/stapjava-$(id -u)-[A-Za-z0-9]{6}$ ]]
	[ "${SOCK##*/}" = "$(sock_name "$JPID")" ]
	[ -S "$SOCK" ]
	[ "$(stat -c %a "$SOCK")" = 600 ]
	[ "$(stat -c %a "$dir")" = 700 ]
	[ ! -L "$dir" ]
	# what the bridge reads: the JVM's listening socket bound to that path, held by the JVM
	inode=$(awk -v p="$SOCK" '$8 == p && $4 == "00010000" && $5 == "0001" { print $7 }' "/proc/$JPID/net/unix")
	[ -n "$inode" ]
	[ "$(find "/proc/$JPID/fd" -lname "socket:\[$inode\]" | wc -l)" -eq 1 ]
	run "$BRIDGE" --list
	printf -v want '%-7d %-12s %-5s %s' "$JPID" root yes Families
	printf '%s\n' "${lines[@]}" | grep -Fxq -- "$want"
	# a /tmp cleaner removes the directory: a new one, found the same way
	rm -r "$dir"
	wait_until 10 log_has "socket $SOCK was removed or replaced; re-created it as "
	local again
	again=$(sed -n "s|^stapjava-agent\[[0-9]*\]: info: socket $SOCK was removed or replaced; re-created it as ||p" "$T/agent.log")
	[[ ${again%/*} =~ ^/tmp/stapjava-$(id -u)-[A-Za-z0-9]{6}$ ]]
	[ "${again%/*}" != "$dir" ]
	[ -S "$again" ]
	run "$BRIDGE" --list
	printf '%s\n' "${lines[@]}" | grep -Fxq -- "$want"
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ ! -e "$again" ]
	[ ! -e "${again%/*}" ]
	# $TMPDIR, when the JVM has one, takes the place of /tmp
	rm -f "$T/go" "$T/stop" "$T/agent.log"
	mkdir "$T/tmpdir"
	default_socket TMPDIR="$T/tmpdir"
	[[ ${SOCK%/*} =~ ^$T/tmpdir/stapjava-$(id -u)-[A-Za-z0-9]{6}$ ]]
	[ -S "$SOCK" ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ -z "$(ls -A "$T/tmpdir")" ]
}

# The JVM's uid and another local user's, neither with an account: nothing
# else on this machine uses their /tmp/stapjava-<uid>.
JVM_UID=4243 SQUATTER_UID=4242

# squat: as another uid, make the older agents' /tmp/stapjava-<JVM_UID>
# first, open to all; and UID_DIR, a directory the JVM's uid can read, with
# the agent, the classes and a log directory.
squat() {
	SQUAT=/tmp/stapjava-$JVM_UID
	rm -rf "$SQUAT"
	CLEAN+=("$SQUAT")
	setpriv --reuid=$SQUATTER_UID --regid=$SQUATTER_UID --clear-groups mkdir -m 777 "$SQUAT"
	UID_DIR=$(mktemp -d /tmp/stapjava-disc-test.XXXXXX)
	CLEAN+=("$UID_DIR")
	cp -L "$AGENT" "$UID_DIR/libstapjava.so"
	cp -r "$CLASSES" "$UID_DIR/classes"
	mkdir "$UID_DIR/log"
	chmod -R a+rX "$UID_DIR"
	chmod 777 "$UID_DIR/log"
}

# as_jvm_uid JAVA-ARGS...: a JVM of JVM_UID in the background; JPID
as_jvm_uid() {
	setpriv --reuid=$JVM_UID --regid=$JVM_UID --clear-groups "$JDK17" -Xshare:auto "$@" \
		>"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
}

# named_gets PID TID: the --print lines of Families filters for -m
# 'sj.filt.Named.get*' --args --return, ts=X.
named_gets() {
	cat <<WANT
method.enter pid=$1 tid=$2 ts=X method=sj.filt.Named.getA()I args=
method.return pid=$1 tid=$2 ts=X method=sj.filt.Named.getA()I popped=0 ret=1
method.enter pid=$1 tid=$2 ts=X method=sj.filt.Named.getB()I args=
method.return pid=$1 tid=$2 ts=X method=sj.filt.Named.getB()I popped=0 ret=2
WANT
}

# serve_uid_jvm BRIDGE-ARGS...: a bridge for JPID (as_jvm_uid ... Families
# filters $UID_DIR/go) on sj.filt.Named.get*, until both end; lines in
# $T/b.out, its log in $T/b.log.
serve_uid_jvm() {
	"$BRIDGE" -x "$JPID" --rescan-ms 20 --print -o "$T/b.out" --log-file "$T/b.log" --log-level info \
		-m 'sj.filt.Named.get*' "$@" 3>&- &
	BPID=$!
	BPIDS+=("$BPID")
	wait_until 20 grep -q 'conn#1: Start: registrations complete' "$UID_DIR/log/agent.log"
	touch "$UID_DIR/go"
	wait_exit "$JPID" 30
	JPID=
	wait_exit "$BPID"
}

@test "discovery: another uid made /tmp/stapjava-<uid> first: the JVM is still found and probed, every event" {
	squat
	# wait_ms: main waits until a bridge has registered
	as_jvm_uid "-agentpath:$UID_DIR/libstapjava.so=loglevel=info,logfile=$UID_DIR/log/agent.log,wait_ms=20000" \
		-cp "$UID_DIR/classes" Families filters "$UID_DIR/go"
	local jvm=$JPID
	serve_uid_jvm --args --return
	[ ! -s "$T/java.err" ]
	# its socket was in a directory of its own, gone with it
	local sock main
	sock=$(sed -n 's/^stapjava-agent\[[0-9]*\]: info: listening on //p' "$UID_DIR/log/agent.log")
	[[ $sock =~ ^/tmp/stapjava-$JVM_UID-[A-Za-z0-9]{6}/jvm-[0-9]+-$jvm-[0-9]+\.sock$ ]]
	[ ! -e "${sock%/*}" ]
	grep -q "info: pid $jvm: connected to the agent (worker uid $JVM_UID gid $JVM_UID)" "$T/b.log"
	main=$(sed -n 's/^tid main=//p' "$T/java.out")
	sed -E "s/ ts=[0-9]+( |$)/ ts=X\1/" "$T/b.out" >"$T/got"
	named_gets "$jvm" "$main" >"$T/want"
	diff -u "$T/want" "$T/got"
	# nothing was made in, or taken from, the squatted directory
	[ -z "$(ls -A "$SQUAT")" ]
	[ "$(stat -c %u "$SQUAT")" = $SQUATTER_UID ]
	! grep -E ': (warn|error): ' "$T/b.log" || return 1
}

@test "discovery: a forged line in /proc/PID/net/unix (a path with a newline) naming the JVM's socket inode elsewhere is not followed" {
	squat
	as_jvm_uid "-agentpath:$UID_DIR/libstapjava.so=loglevel=info,logfile=$UID_DIR/log/agent.log,wait_ms=20000" \
		-cp "$UID_DIR/classes" Families filters "$UID_DIR/go"
	local jvm=$JPID sock inode q
	wait_until 20 grep -q 'listening on ' "$UID_DIR/log/agent.log"
	sock=$(sed -n 's/^stapjava-agent\[[0-9]*\]: info: listening on //p' "$UID_DIR/log/agent.log")
	inode=$(awk -v p="$sock" '$8 == p { print $7 }' "/proc/$jvm/net/unix")
	[ -n "$inode" ]
	# the squatter listens at its own path with the JVM's socket's name, and binds a
	# second socket whose path, holding a newline, adds a line that gives that
	# path the JVM's socket's inode
	# (bound relative to the squatter's directory: sun_path holds 108 bytes)
	q=$(mktemp -d /tmp/sq.XXXXXX)
	CLEAN+=("$q")
	chown $SQUATTER_UID "$q"
	setpriv --reuid=$SQUATTER_UID --regid=$SQUATTER_UID --clear-groups /usr/bin/python3 -c '
import os, socket, sys, time
q, name, inode = sys.argv[1:4]
os.chdir(q)
real = socket.socket(socket.AF_UNIX); real.bind(q + "/" + name); real.listen(4)
path = "f\n0: 2 0 10000 1 1 " + inode + " " + q + "/" + name
os.makedirs(os.path.dirname(path))
forged = socket.socket(socket.AF_UNIX); forged.bind(path); forged.listen(4)
open(q + "/ready", "w").close()
time.sleep(60)' "$q" "${sock##*/}" "$inode" 3>&- &
	CPID=$!
	wait_until 10 test -e "$q/ready"
	# the forged line is there, as the bridge reads it
	grep -qx "0: 2 0 10000 1 1 $inode $q/${sock##*/}" "/proc/$jvm/net/unix"
	serve_uid_jvm --return
	[ "$(grep -c '^method.return ' "$T/b.out")" -eq 2 ]
	grep -q "info: pid $jvm: connected to the agent (worker uid $JVM_UID gid $JVM_UID)" "$T/b.log"
	! grep -E ': (warn|error): ' "$T/b.log" || return 1
	# nobody connected to the squatter
	[ "$(grep -c 'accepted' "$UID_DIR/log/agent.log")" -eq 1 ]
}

@test "discovery: a squatted socket directory is named with its owner, by the agent and by the bridge" {
	squat
	# sockdir= the older agents' place: the agent refuses it, as they did
	as_jvm_uid "-agentpath:$UID_DIR/libstapjava.so=sockdir=$SQUAT,logfile=$UID_DIR/log/agent.log" \
		-cp "$UID_DIR/classes" Families idle "$UID_DIR/go" "$UID_DIR/go"
	wait_until 20 test -s "$UID_DIR/log/agent.log"
	[ "$(sed -E 's/^stapjava-agent\[[0-9]+\]: //' "$UID_DIR/log/agent.log")" = "error: socket directory $SQUAT is owned by uid $SQUATTER_UID, not $JVM_UID: refused, no socket, the JVM runs on without probes" ]
	# the bridge (no --sockdir) says why it has no socket, once the JVM had time to make one
	run --separate-stderr "$BRIDGE" -x "$JPID" --rescan-ms 50 -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $stderr == "stpd-bridge["*"]: error: pid $JPID: runs with the stapjava agent, but its socket cannot be found: no listening socket named $(sock_name "$JPID") among the JVM's own (/proc/$JPID/net/unix), and the socket directory $SQUAT is owned by uid $SQUATTER_UID, not $JVM_UID (the JVM's): the agent did not start (the JVM's stderr or the agent's log says why), or was given another sockdir= (give the bridge the same with --sockdir)" ]]
	[[ $stderr != *$'\n'* ]]
	touch "$UID_DIR/go"
	wait_exit "$JPID"
	JPID=
}

@test "discovery: a symlink or a file where the socket should be is said once and not used" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	local name
	name=$(sock_name "$JPID")
	mkdir -m 700 "$T/t"
	ln -s "$T/s/$name" "$T/t/$name"
	run --separate-stderr "$BRIDGE" -x "$JPID" --sockdir "$T/t" --rescan-ms 20 -m 'X.*'
	[ "$status" -eq 1 ]
	local pre="stpd-bridge[[0-9]*]: "
	[[ $(sed -n 1p <<<"$stderr") == $pre"warn: pid $JPID: $T/t/$name is a symlink, not a socket: not used (said once)" ]]
	[[ $(sed -n 2p <<<"$stderr") == $pre"error: pid $JPID: runs with the stapjava agent, but its socket cannot be found: $T/t/$name is a symlink, not a socket: the agent did not start"* ]]
	[ "$(grep -c '' <<<"$stderr")" -eq 2 ]
	rm "$T/t/$name"
	touch "$T/t/$name"
	run --separate-stderr "$BRIDGE" -x "$JPID" --sockdir "$T/t" --rescan-ms 20 -m 'X.*'
	[ "$status" -eq 1 ]
	[[ $(sed -n 1p <<<"$stderr") == $pre"warn: pid $JPID: $T/t/$name is not a socket: not used (said once)" ]]
	[ "$(grep -c '' <<<"$stderr")" -eq 2 ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "socket: re-created after a /tmp cleaner removed it; a stale one is replaced" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	local path
	path=$(sock_of_jvm)
	rm -f "$path"
	wait_until 10 test -S "$path"
	log_has "socket $path was removed or replaced; re-created it"
	# a dead socket of the same name (bound by a process that is gone), put
	# in place by rename: bound at the path itself after an rm, it lost the
	# race with the agent's re-creation on a loaded machine (EADDRINUSE)
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$path.stale"
	mv -f "$path.stale" "$path"
	wait_until 10 recreated_twice
	[ "$(stat -c %a "$path")" = 600 ]
	# and a bridge gets through it
	start_bridge b --vm
	wait_until 20 registered 1
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	[ "$(cat "$T/b.out")" = "$(sed -n "s/^\(vm.death pid=$JVMPID tid=[0-9]* ts=[0-9]*\)$/\1/p" "$T/b.out")" ]
	grep -q '^vm.death ' "$T/b.out"
}

recreated_twice() { [ "$(grep -c 're-created it' "$T/agent.log")" -eq 2 ]; }

# unsafe_dir SOCKDIR MESSAGE: the JVM runs on, one log line says why.
unsafe_dir() {
	local sockdir=$1 want=$2
	cd "$T"
	touch "$T/go"
	run "$JDK17" "-agentpath:$AGENT=sockdir=$sockdir,loglevel=info,logfile=$T/agent.log" -cp "$CLASSES" Families hello "$T/go"
	[ "$status" -eq 0 ]
	[ "$output" = "hello from Families" ]
	[ "$(wc -l <"$T/agent.log")" -eq 1 ]
	grep -q -- "$want" "$T/agent.log"
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "socket: an unusable directory costs one log line, the JVM runs on" {
	touch "$T/file"
	unsafe_dir "$T/file/s" "error: socket directory $T/file/s: cannot create it: Not a directory; no socket, the JVM runs on without probes"
	mkdir -m 700 "$T/real" && ln -s "$T/real" "$T/link"
	rm -f "$T/agent.log"
	unsafe_dir "$T/link" "error: socket directory $T/link is a symlink or not a directory: refused"
	mkdir -m 777 "$T/ww" && chmod 777 "$T/ww"
	rm -f "$T/agent.log"
	unsafe_dir "$T/ww" "error: socket directory $T/ww is writable by group or others: refused"
	mkdir -m 700 "$T/other" && chown 65534 "$T/other"
	rm -f "$T/agent.log"
	unsafe_dir "$T/other" "error: socket directory $T/other is owned by uid 65534, not 0: refused, no socket, the JVM runs on without probes"
	rmdir "$T/other"
	[ ! -e "$T/real/"* ] 2>/dev/null || ! compgen -G "$T/real/jvm-*" >/dev/null
}

# ---------------------------------------------------------------- peers

@test "peers: another uid is refused before a byte is read, with a log line" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	run "$CLIENT" --uid 65534 --timeout 20 "$(sock_of_jvm)" threads:1
	[ "$status" -eq 0 ]
	[[ $output == *eof* ]]
	[[ $output != *hello* ]]
	grep -Eq "warn: refused a connection from pid [0-9]+ uid 65534: only uid 0 \(the JVM's user\) or root may connect$" "$T/agent.log"
	# the owner's bridge still gets in
	start_bridge b --vm
	wait_until 20 registered 1
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	grep -q '^vm.death ' "$T/b.out"
	bridge_quiet b
}

@test "peers: garbage is disconnected with one line naming the fault, the JVM carries on" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	run "$CLIENT" --no-hello --raw ff00 --timeout 20 "$(sock_of_jvm)"
	[ "$status" -eq 0 ]
	grep -Eq 'warn: conn#1 \(pid [0-9]+ uid 0\): unknown command code 0xff at offset 0; disconnecting$' "$T/agent.log"
	# a pattern length beyond the limit, after a proper Hello
	run "$CLIENT" --raw 4100000100 --timeout 20 "$(sock_of_jvm)"
	[ "$status" -eq 0 ]
	grep -Eq 'warn: conn#2 \(pid [0-9]+ uid 0\): RegisterClass \(0x41\): pattern length at offset 1: 65536 exceeds the limit 65535; disconnecting$' "$T/agent.log"
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "peers: one that says nothing, or stops inside a message, is disconnected after 10 s with a line naming it" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	# no Hello, nothing at all; and a Hello, then 3 of a RegisterMethod's bytes
	"$CLIENT" --no-hello --timeout 30 "$(sock_of_jvm)" >/dev/null 2>"$T/silent.err" 3>&- &
	local silent=$!
	wait_until 20 log_count_is 'accepted pid' 1
	"$CLIENT" --raw 400000 --timeout 30 "$(sock_of_jvm)" >/dev/null 2>"$T/partial.err" 3>&- &
	local partial=$!
	wait "$silent"
	wait "$partial"
	[ "$(cat "$T/silent.err")" = eof ]
	[ "$(cat "$T/partial.err")" = eof ]
	grep -Eq 'warn: conn#1 \(pid [0-9]+ uid 0\): sent nothing within 10000 ms of connecting; disconnecting$' "$T/agent.log"
	grep -Eq 'warn: conn#2 \(pid [0-9]+ uid 0\): sent part of a message, then nothing for 10000 ms; disconnecting$' "$T/agent.log"
	[ "$(grep -c ': warn: ' "$T/agent.log")" -eq 2 ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "peers: method.enter goes off again when the last bridge is killed" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	start_bridge b1 -m 'Demo.*'
	local first=$BPID
	wait_until 20 registered 1
	start_bridge b2 -m 'Exceptions.*'
	wait_until 20 registered 2
	# by injected calls, in no class yet: the idle scenario has not loaded
	# Demo or Exceptions
	[ "$(grep -c 'method calls injected in 0 classes$' "$T/agent.log")" -eq 1 ]
	local w1 w2
	w1=$(worker_of b1) w2=$(worker_of b2)
	# kill -9 the whole bridge: supervisor and worker
	kill -9 "$first" "$w1"
	wait_until 20 log_has 'conn#1 .* closed: peer closed the connection'
	! log_has 'method injection off' || return 1
	kill -9 "$BPID" "$w2"
	wait_until 20 log_has 'method injection off'
	! log_has 'event MethodE' || return 1
	wait_until 20 log_has 'event ClassPrepare disabled'
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

check_two_sessions() {
	start_jvm "$1" "" -- Families methods "$T/go"
	wait_until 20 sock_exists
	start_bridge a -m 'Demo.add(II)I' --args --return
	local a=$BPID
	wait_until 20 registered 1
	start_bridge b -e java.lang.IllegalStateException --sync
	local b=$BPID
	wait_until 20 registered 2
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$a"
	wait_exit "$b"
	bridge_quiet a
	bridge_quiet b
	mask "$T/a.out" >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
	mask "$T/b.out" >"$T/got"
	printf '%s\n' 'exception.thrown pid=P tid=T ts=X exception=java.lang.IllegalStateException method=Demo.fail()V' \
		'exception.catch pid=P tid=T ts=X exception=java.lang.IllegalStateException method=Demo.run()V' >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "peers: two sessions on one JVM each get only what they registered (JDK 17)" { check_two_sessions "$JDK17"; }
@test "peers: two sessions on one JVM each get only what they registered (JDK 25)" { check_two_sessions "$JDK25"; }

@test "peers: an Appendix-only client gets plain Appendix A (no Hello, no trailer, no extensions)" {
	client_family "$JDK17" methods 'RequestForOptionalData 0x3' --no-hello 'method:Demo.add' opt:3 gc:1
	local main
	main=$(java_tid main)
	! grep -q '^hello' "$T/events" || return 1
	# without a trailer the tid comes from the body's thread field: still the OS tid
	grep -v " tid=$main " "$T/events" | (! grep -q .)
	mask "$T/events" >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
}

# conn_lines N: the agent's log lines of connection N, from its Hello to
# its Start (or to the end), without "stapjava-agent[PID]: " and pids.
conn_lines() {
	sed -n "/conn#$1: Hello/,/conn#$1: Start/p" "$T/agent.log" | grep "conn#$1: " |
		sed -E 's/^stapjava-agent\[[0-9]+\]: //; s/pid [0-9]+/pid N/'
}

# The bridge sends an Appendix-only agent's registration with its Hello;
# ours ignores it (CAP_EARLY_APPENDIX) and applies the bridge's own once:
# a RegisterMethod taken too would add method.return and method.compile.
@test "peers: the Appendix B registration a bridge sends with its Hello is ignored; its own is applied once, without Reset" {
	family "$JDK17" methods -m 'Demo.add:enter' --args
	mask "$T/events" >"$T/got"
	echo 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' >"$T/want"
	diff -u "$T/want" "$T/got"
	conn_lines 1 >"$T/got"
	cat >"$T/want" <<'WANT'
info: conn#1: Hello from pid N, version 1, caps 0x1fffff; negotiated 0x1fffff
info: conn#1: 2 Appendix B commands before the bridge's first extension command ignored (they are for an Appendix-only agent)
info: conn#1: VmEvents on
info: conn#1: RequestForOptionalData 0x1
info: conn#1: Register method 0x1 "Demo.add"
info: conn#1: Start: registrations complete
WANT
	diff -u "$T/want" "$T/got"
	! log_has 'RegisterMethod' || return 1
	! log_has 'Reset' || return 1
}

# The rule itself, with a client that offers CAP_EARLY_APPENDIX: Appendix B
# commands are ignored up to the first extension command, applied after it.
@test "peers: with CAP_EARLY_APPENDIX, Appendix B commands before the first extension command are ignored, later ones applied" {
	client_family "$JDK17" methods 'RegisterMethod "Demo.inst"' --early-appendix \
		'method:Demo.add' opt:3 'reg:method:2:Demo.add' 'method:Demo.inst'
	mask "$T/events" >"$T/got"
	printf '%s\n' 'hello pid=P caps=0x1fffff' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=?' \
		'method.enter pid=P tid=T ts=X method=Demo.inst(JDI)J args=' \
		'method.return pid=P tid=T ts=X method=Demo.inst(JDI)J popped=0 ret=?' >"$T/want"
	diff -u "$T/want" "$T/got"
	conn_lines 1 >"$T/got"
	cat >"$T/want" <<'WANT'
info: conn#1: Hello from pid N, version 1, caps 0x1fffff; negotiated 0x1fffff
info: conn#1: 2 Appendix B commands before the bridge's first extension command ignored (they are for an Appendix-only agent)
info: conn#1: Register method 0x2 "Demo.add"
info: conn#1: RegisterMethod "Demo.inst"
WANT
	diff -u "$T/want" "$T/got"
}

check_stack() {
	family "$1" methods -m Demo.add:enter --stack
	local src=$SRC/testsuite/java/Families.java l_add l_run l_main
	l_add=$(grep -n 'static int add(int a, int b)' "$src" | cut -d: -f1)
	l_run=$(grep -n '^        add(2, 3);' "$src" | cut -d: -f1)
	l_main=$(grep -n 'case "methods": Demo.run();' "$src" | cut -d: -f1)
	mask "$T/events" >"$T/got"
	echo "method.enter pid=P tid=T ts=X method=Demo.add(II)I args= stack=Demo.add(II)I:$l_add|Demo.run()V:$l_run|Families.main([Ljava/lang/String;)V:$l_main" >"$T/want"
	diff -u "$T/want" "$T/got"
}

# A --print session says, at its end, which of its patterns no event matched:
# one line per pattern, with the events it asked for (Demo.run runs once:
# never compiled); the others say nothing.
@test "--print: a pattern that nothing matched is said at the end of the session, once" {
	EXPECT_WARNS="warn: no event of the method pattern 'Demo.nosuch(I)V' (enter, return) in this session: nothing that ran matched it
warn: no event of the method pattern 'Demo.run' (compile) in this session: nothing that ran matched it
warn: no event of the exception pattern 'java.io.*' (thrown) in this session: nothing that ran matched it" \
		family "$JDK17" methods -m Demo.add -m 'Demo.nosuch(I)V' -m 'Demo.run:compile' -e 'java.io.*:thrown'
	mask "$T/events" >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=?' >"$T/want"
	diff -u "$T/want" "$T/got"
}

# Parameters as Java source writes them (no return type): the overload's
# events, and the others' not.
@test "patterns: a method's parameters in Java source form select that overload" {
	EXPECT_WARNS="$(silent method 'Demo.inst(JDL*String;)*' 'enter, return')" \
		family "$JDK17" methods -m 'Demo.add(int, int)' -m 'Demo.inst(long,double,String)' --args --return
	mask "$T/events" >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
	grep -q "info: conn#1: Register method 0x3 \"Demo.add(II)\*\"$" "$T/agent.log"
}

# A line (:LINE) is probed at its first instruction, once each time it runs:
# a call's line, a for loop's header (its first instruction runs once), its
# body (300 turns), and the line after the loop, whose first instruction is
# the loop's exit, a branch target. No return events: a line has none. A
# line without code (run's declaration), in a class loaded after the
# registration, is said as the class loads, with the nearest line that has.
check_lines() {
	local src=$SRC/testsuite/java/Families.java l_add l_for l_decl
	l_add=$(grep -n '^        add(2, 3);' "$src" | cut -d: -f1)
	l_for=$(grep -n '^        for (int i = 0; i < 300; i++)' "$src" | cut -d: -f1)
	l_decl=$((l_add - 2))
	sed -n "${l_decl}p" "$src" | grep -q '^    static void run() {$'
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: java.method pattern 'Demo.run()V:$l_decl': line $l_decl of Demo.run()V has no code; the nearest lines with code: $((l_decl + 1))" \
		"$(silent method "Demo.run()V:$l_decl" 'enter')")" \
	family "$1" methods -m "Demo.run()V:$l_add:enter" -m "Demo.run:$((l_for + 1))" \
		-m "Demo.run():$l_for" -m "Demo.run()V:$((l_for + 2)):enter" -m 'Demo.add(II)I:enter' \
		-m "Demo.run()V:$l_decl:enter" --args
	mask "$T/events" | uniq -c | sed -E 's/^ +//' >"$T/got"
	printf '%s\n' "1 method.enter pid=P tid=T ts=X method=Demo.run()V:$l_add args=" \
		'1 method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		"1 method.enter pid=P tid=T ts=X method=Demo.run()V:$l_for args=" \
		"300 method.enter pid=P tid=T ts=X method=Demo.run()V:$((l_for + 1)) args=" \
		"1 method.enter pid=P tid=T ts=X method=Demo.run()V:$((l_for + 2)) args=" >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "lines: C.m(...):LINE probes the first instruction of a line, each time it runs (JDK 17)" { check_lines "$JDK17"; }
@test "lines: C.m(...):LINE probes the first instruction of a line, each time it runs (JDK 25)" { check_lines "$JDK25"; }

# A line of a class loaded before the registration: the class is
# retransformed for it. A line without code (a `try {`) is said, with the
# nearest lines that have code.
check_lines_loaded() {
	local src=$SRC/testsuite/java/Unicode.java l_a l_try
	l_a=$(grep -n '^        h.uD835.uDD18llo("a.0b");' "$src" | cut -d: -f1)
	l_try=$(grep -n '^        try {' "$src" | cut -d: -f1)
	JVM_ENV=(LC_ALL=C.UTF-8)
	start_jvm "$1" "" -- Families unicode-loaded "$T/go"
	wait_until 20 grep -q '^loaded$' "$T/java.out"
	start_bridge b -m "Unicode.run()V:$l_a:enter" -m "Unicode.run()V:$l_try:enter"
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	mask "$T/b.out" >"$T/got"
	echo "method.enter pid=P tid=T ts=X method=Unicode.run()V:$l_a args=" | diff -u - "$T/got"
	log_has 'info: method calls injected in 1 class$'
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: java.method pattern 'Unicode.run()V:$l_try': line $l_try of Unicode.run()V has no code; the nearest lines with code: $((l_try - 1)), $((l_try + 1))" \
		"$(silent method "Unicode.run()V:$l_try" 'enter')")" bridge_quiet b
}

@test "lines: a line of a loaded class (retransformed); a line without code is said with the nearest lines that have code (JDK 17)" { check_lines_loaded "$JDK17"; }
@test "lines: a line of a loaded class (retransformed); a line without code is said with the nearest lines that have code (JDK 25)" { check_lines_loaded "$JDK25"; }

# Object.notify()V and notifyAll()V (native) are reported from their
# callers: a bridge attached to a running Clog (testsuite/java/Clog.java;
# record.bats runs it with -Xverify:all) registers them; the loaded classes
# that call them (Clog) are found by their constant pools and retransformed, the one loaded later
# (Clog$Box) gets its calls as it loads. The bridge leaves before the
# workload runs: every changed class goes back to its original code. A
# second bridge registers again: main's known calls come, each once, with
# the object notified (--monitor-detail) and the stack from the caller.
check_notify() {
	local l_main
	l_main=$(grep -n '^        notifies();' "$SRC/testsuite/java/Clog.java" | cut -d: -f1)
	"$1" "-XX:ErrorFile=$T/hs_err_%p.log" -cp "$CLASSES" Clog "$T/go" "$T/go" \
		>"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
	start_bridge b1 -m 'java.lang.Object.notify()V:enter' --agent "$AGENT" \
		--agent-options "sockdir=$T/s,loglevel=debug,logfile=$T/agent.log"
	# a hang guard, not a time: attaching and retransforming took over 30 s
	# once on a loaded two-CPU machine (the vm tier running beside it)
	wait_until 120 registered 1
	local n
	n=$(sed -n 's/.*info: method calls injected in \([0-9]*\) class.*/\1/p' "$T/agent.log" | tail -1)
	[ "$n" -ge 1 ]
	kill "$BPID"
	wait_exit "$BPID" || true
	wait_until 20 log_has "info: injected calls removed: $n class"
	start_bridge b2 -m 'java.lang.Object.notify()V:enter' -m 'java.lang.Object.notifyAll()V:enter' \
		--monitor-detail --stack
	wait_until 30 registered 2
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	local main
	main=$(sed -n 's/^tid main=//p' "$T/java.out")
	grep " tid=$main " "$T/b2.out" | grep ' stack=Clog' | mask | sed -E 's/@H#ID/@H#O/' >"$T/got"
	local p='method.enter pid=P tid=T ts=X method=java.lang.Object'
	diff -u - "$T/got" <<-EOF
		$p.notify()V args=Clog\$Mon@H#O stack=Clog.waitNotify()V:150|Clog.main([Ljava/lang/String;)V:173
		$p.notify()V args=Clog\$Box@H#O stack=Clog\$Box.ping()V:188|Clog.notifies()V:198|Clog.main([Ljava/lang/String;)V:$l_main
		$p.notify()V args=Clog\$Box@H#O stack=Clog\$Box.ping()V:188|Clog.notifies()V:198|Clog.main([Ljava/lang/String;)V:$l_main
		$p.notifyAll()V args=Clog\$Box@H#O stack=Clog\$Box.pingAll()V:191|Clog.notifies()V:199|Clog.main([Ljava/lang/String;)V:$l_main
		$p.notifyAll()V args=Clog\$Mon@H#O stack=Clog.notifies()V:201|Clog.main([Ljava/lang/String;)V:$l_main
		$p.notify()V args=Clog\$Box@H#O stack=Clog.notifies()V:205|Clog.main([Ljava/lang/String;)V:$l_main
	EOF
	# the object notified is the same object each time it is
	[ "$(grep -o 'args=[^ ]*' "$T/b2.out" | grep -c "$(grep -m1 -o 'args=Clog\$Box@[^ ]*' "$T/b2.out")")" -eq 4 ]
	# no Notice: both are reported, native or not, and Object is never changed
	bridge_quiet b2
	! grep -q 'cannot be reported' "$T/b1.log" || return 1
	! grep -E ': (warn|error): ' "$T/agent.log" || return 1
}

@test "notify: Object.notify/notifyAll from their callers in a JVM attached to, restored when the registration goes (JDK 17)" { check_notify "$JDK17"; }
@test "notify: Object.notify/notifyAll from their callers in a JVM attached to, restored when the registration goes (JDK 25)" { check_notify "$JDK25"; }

# A hidden class's call of notify: the VM will not let the agent change the
# class, so the call is not reported, and the bridge is told so (a Notice),
# once; the ordinary class's call is reported.
check_notify_hidden() {
	start_jvm "$1" "" -- HiddenNotify "$T/go"
	wait_until 30 sock_exists
	start_bridge b -m 'java.lang.Object.notify()V:enter'
	wait_until 30 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	[ "$(cat "$T/java.out")" = done ]
	mask "$T/b.out" >"$T/got"
	diff -u - "$T/got" <<-EOF
		method.enter pid=P tid=T ts=X method=java.lang.Object.notify()V args=
	EOF
	EXPECT_WARNS="warn: method.enter of java.lang.Object.notify()V called from HiddenPinger.0xH cannot be reported: a class the VM will not change (a hidden class)"
	sed -i -E 's/HiddenPinger\.0x[0-9a-f]+ /HiddenPinger.0xH /' "$T/b.log"
	bridge_quiet b
}
@test "notify: a call in a hidden class is said to be unreported, once; the ordinary class's is reported (JDK 17)" { check_notify_hidden "$JDK17"; }
@test "notify: a call in a hidden class is said to be unreported, once; the ordinary class's is reported (JDK 25)" { check_notify_hidden "$JDK25"; }

@test "optional data: a Java stack trace in the trailer (JDK 17)" { check_stack "$JDK17"; }
@test "optional data: a Java stack trace in the trailer (JDK 25)" { check_stack "$JDK25"; }

# ---------------------------------------------------------------- dispatch

check_sync() {
	family "$1" methods -m Demo.add --args --return --sync=50000
	mask "$T/events" >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
	log_has 'conn#1: DispatchMode sync 50000 us'
	! log_has 'no Ack' || return 1
}

@test "dispatch: synchronous events are acknowledged (JDK 17)" { check_sync "$JDK17"; }
@test "dispatch: synchronous events are acknowledged (JDK 25)" { check_sync "$JDK25"; }

@test "dispatch: a bridge that never acks delays a thread by the timeout at most, once logged" {
	client_family "$JDK17" methods 'DispatchMode sync' --ack-never 'method:Demo.*' sync:99999999
	# the bridge's request is clamped to the agent's own timeout_us (default 100000)
	log_has 'conn#1: DispatchMode sync 100000 us'
	[ "$(grep -c 'no Ack for event' "$T/agent.log")" -eq 1 ]
	# after the first timeout the events stop waiting: one timeout in all
	# (not one per event: 20 calls, 40 events)
	log_has "conn#1: 1 synchronous events were not acknowledged in time"
	[ "$(grep -c '^method.enter' "$T/events")" -eq 20 ]
	[ "$(grep -c '^method.return' "$T/events")" -eq 20 ]
}

@test "dispatch: a stalled bridge costs each thread one timeout, and sync resumes when it catches up" {
	start_jvm "$JDK17" "" -- Families churn "$T/go" 2 "$T/stop"
	touch "$T/go"
	wait_until 20 sock_exists
	start_bridge b1 -m 'Churn.busy' --args --sync
	wait_until 20 registered 1
	wait_until 20 grep -q '^method.enter ' "$T/b1.out"
	local w
	w=$(worker_of b1)
	kill -STOP "$w"
	wait_until 20 log_has 'no Ack for event'
	kill -CONT "$w"
	wait_until 20 log_has 'conn#1: the bridge acknowledged every synchronous event; events wait for it again'
	kill -TERM "$BPID"
	wait_exit "$BPID" 10
	wait_until 10 conn_closed 1
	# at most one timed-out wait per Java thread that was waiting when the
	# bridge stopped (2 churn threads), however long it stayed stopped
	local n
	n=$(sed -n 's/.*conn#1: \([0-9]*\) synchronous events were not acknowledged in time/\1/p' "$T/agent.log")
	[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 2 ]
	touch "$T/stop"
	local status=0
	wait_exit "$JPID" 30 || status=$?
	JPID=
	[ "$status" -eq 3 ]
	[ "$(cat "$T/java.out")" = "$(printf 'churn-%d ok\n' 0 1)" ]
}

# flood_accounted WANT: the delivered method lines plus the last running
# total of lost events make WANT.
flood_accounted() {
	local d l
	d=$(grep -Ec "^method\.(enter|return) pid=$JPID tid=[0-9]+ ts=[0-9]+ method=Flood\.tick\(I\)V " "$T/b.out")
	l=$(sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/b.out" | tail -1)
	[ "$((d + ${l:-0}))" -eq "$1" ]
}

# flood_unread JAVA AGENT_OPTIONS FLOOD_ARGS...: Families flood observed by
# bridge b whose worker is stopped (a bridge that cannot keep up) until the
# JVM has made every call; the worker's pid is left in $W, still stopped.
flood_unread() {
	local java=$1 opts=$2
	shift 2
	start_jvm "$java" "$opts" -- Families flood "$T/go" "$@"
	wait_until 20 sock_exists
	start_bridge b -m 'Flood.tick(I)V'
	wait_until 20 registered 1
	W=$(worker_of b)
	kill -STOP "$W"
	touch "$T/go"
	wait_until 120 test -e "$T/done"
}

check_flood() {
	flood_unread "$1" ",bufsize=65536" 200000 "$T/done" "$T/release"
	kill -CONT "$W"
	local generated
	generated=$(sed -n 's/^generated //p' "$T/java.out")
	[ "$generated" = 200000 ]
	# enter + return per call: every one is either delivered or counted as lost
	wait_until 60 flood_accounted $((2 * generated))
	touch "$T/release"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	JPID=$JVMPID flood_accounted $((2 * generated))
	local lost
	lost=$(sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/b.out" | tail -1)
	echo "generated=$generated lost=$lost"
	[ "$lost" -gt 0 ]
	# nothing else was printed, the running totals only grow, the agent agrees
	! grep -Ev "^(method\.(enter|return) pid=$JVMPID tid=[0-9]+ ts=[0-9]+ method=Flood\.tick\(I\)V (args=|popped=0 ret=\?)|lost pid=$JVMPID tid=0 ts=[0-9]+ lost=[0-9]+)$" "$T/b.out" || return 1
	sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/b.out" | sort -c -n
	log_has "conn#1: $lost events dropped in total (buffer full)"
	# and the bridge says so at the end, whatever the script asked for
	EXPECT_WARNS="warn: the agent dropped $lost events in this session (its queue was full, unless a warning above says why: give it more room with bufsize=, or ask for fewer events)" \
		bridge_quiet b
}

@test "dispatch: a full buffer drops and counts: generated = delivered + lost (JDK 17)" { check_flood "$JDK17"; }
@test "dispatch: a full buffer drops and counts: generated = delivered + lost (JDK 25)" { check_flood "$JDK25"; }

# Timestamps are CLOCK_MONOTONIC ns (System.nanoTime() on Linux), read from
# the TSC where the kernel's clock runs on it and converted by the agent, or
# from clock_gettime with clock=monotonic: every event falls between the two
# nanoTime readings the JVM printed around its calls (20 ms from either).
check_stamps() {
	local clock=$1 source=$2 b e
	AGENT_EXTRA=",clock=$clock,loglevel=debug" family "$JDK17" stamps -m 'Stamps.tick(I)V:enter'
	read -r b e < <(sed -n 's/^nanotime //p' "$T/java.out")
	[ -n "$e" ]
	[ "$(grep -c '^method.enter .* method=Stamps.tick(I)V args=$' "$T/events")" -eq 100 ]
	sed -n 's/^method.enter .* ts=\([0-9]*\) method=Stamps.*/\1/p' "$T/events" |
		awk -v b="$b" -v e="$e" '$1 <= b || $1 >= e || $1 < last { print "ts " $1 " not in (" b ", " e ") or before " last; bad = 1 } { last = $1 } END { exit bad }'
	log_has "debug: event timestamps from the $source clock\$"
}

@test "timestamps: CLOCK_MONOTONIC from the TSC where the kernel's clock is on it (clock=auto)" {
	local auto=monotonic
	[ "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" != tsc ] || [ "$(uname -m)" != x86_64 ] || auto=tsc
	check_stamps auto "$auto"
}

@test "timestamps: CLOCK_MONOTONIC from clock_gettime (clock=monotonic)" {
	check_stamps monotonic monotonic
}

# Each thread's own buffer (threadbuf=4096: about 50 events) fills at once;
# the thread then moves it into the connection's queue itself (64 KiB), which
# a stopped bridge worker leaves full. Every event is delivered or counted,
# and each Lost says exactly the events missing before the next one that got
# through: Flood.tick(i) carries i, so between two delivered calls the calls
# missing equal the growth of the running total between them.
check_thread_buffer_loss() {
	start_jvm "$1" ",bufsize=65536,threadbuf=4096" -- Families flood "$T/go" 200000 "$T/done" "$T/release"
	wait_until 20 sock_exists
	start_bridge b -m 'Flood.tick(I)V:enter' --args
	wait_until 20 registered 1
	W=$(worker_of b)
	kill -STOP "$W"
	touch "$T/go"
	wait_until 120 test -e "$T/done"
	kill -CONT "$W"
	wait_until 60 flood_accounted 200000
	touch "$T/release"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	! grep -Ev "^(method\.enter pid=$JVMPID tid=[0-9]+ ts=[0-9]+ method=Flood\.tick\(I\)V args=[0-9]+|lost pid=$JVMPID tid=0 ts=[0-9]+ lost=[0-9]+)$" "$T/b.out" || return 1
	awk '
		$1 == "lost" { split($5, l, "="); total = l[2]; next }
		{ split($6, a, "="); i = a[2]
		  if (i - last - 1 != total - told) { print "gap before " i ": " i - last - 1 " missing, Lost grew by " total - told; bad = 1 }
		  last = i; told = total }
		END { if (199999 - last != total - told) { print "at the end: " 199999 - last " missing, Lost grew by " total - told; bad = 1 }
		      exit bad }' last=-1 "$T/b.out"
	local lost
	lost=$(sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/b.out" | tail -1)
	[ "${lost:-0}" -gt 0 ]
	log_has "conn#1: $lost events dropped in total (buffer full)"
	EXPECT_WARNS="warn: the agent dropped $lost events in this session (its queue was full, unless a warning above says why: give it more room with bufsize=, or ask for fewer events)" \
		bridge_quiet b
}

@test "dispatch: small thread buffers, a full queue: each Lost says exactly the events missing before it (JDK 17)" { check_thread_buffer_loss "$JDK17"; }
@test "dispatch: small thread buffers, a full queue: each Lost says exactly the events missing before it (JDK 25)" { check_thread_buffer_loss "$JDK25"; }

# A plain event goes by its method's number once the method is named to the
# connection (CAP_METHOD_IDS). With buffers of 4096 bytes a burst's first
# events are taken by the Java thread itself, which allocates nothing and so
# cannot grow the connection's table of named methods: those go by name.
# Before: the first one taken made the method's template by name for the
# connection's life (400 000 events by name, none by number).
check_forms_after_own_take() {
	start_jvm "$1" ",bufsize=67108864,threadbuf=4096" -- Families flood "$T/go" 200000 "$T/done"
	wait_until 20 sock_exists
	start_client --count --forms "$(sock_of_jvm)" method:Flood.tick
	wait_until 20 log_has 'conn#1: RegisterMethod'
	touch "$T/go"
	wait_exit "$JPID" 120
	JPID=
	wait_exit "$CPID" 60
	cat "$T/events"
	local named numbered
	named=$(sed -n 's/^by-name=\([0-9]*\) .*/\1/p' "$T/events")
	numbered=$(sed -n 's/^by-name=[0-9]* by-number=\([0-9]*\) .*/\1/p' "$T/events")
	[ $((named + numbered)) -eq 400000 ]
	[ "$numbered" -gt "$named" ]
	grep -qx 'by-name=[0-9]* by-number=[0-9]* last=number' "$T/events"
	grep -qx 'events=[0-9]* lost=0' "$T/events"
}

@test "dispatch: small thread buffers: a method whose first events the Java thread took itself goes by number once the I/O thread takes one (JDK 17)" { check_forms_after_own_take "$JDK17"; }
@test "dispatch: small thread buffers: a method whose first events the Java thread took itself goes by number once the I/O thread takes one (JDK 25)" { check_forms_after_own_take "$JDK25"; }

# A session that ends while the JVM still sends: the bridge shuts its side
# after Reset and reads what is in flight until the agent closes too. Before,
# it closed with unread bytes, the kernel reset the connection, and the agent
# logged a read error for an ordinary end (a vm test saw it once).
@test "a session that ends while events flow closes cleanly: the agent sees the bridge's end, not a reset" {
	start_jvm "$JDK17" "" -- Families flood "$T/go" 2000000000 "$T/done"
	wait_until 20 sock_exists
	start_bridge b -m 'Flood.tick(I)V:enter'
	wait_until 20 registered 1
	touch "$T/go"
	wait_until 20 grep -q '^method.enter ' "$T/b.out"
	kill -TERM "$BPID"
	wait_exit "$BPID" 10
	wait_until 10 conn_closed 1
	log_has 'conn#1: Reset'
	log_has 'conn#1 (pid [0-9]* uid [0-9]*) closed: peer closed the connection$'
	! log_has 'read error' || return 1
}

@test "at VM exit: a bridge that reads slowly still gets every event queued" {
	# 40 000 events (about 1.5 MB) queued at once; the client reads about
	# a socket buffer (about 200 KB) every 400 ms, so the last ones leave
	# seconds after the VM's death
	# (before: 1 s, then the rest was dropped without a word)
	start_jvm "$JDK17" ",bufsize=8388608" -- Families flood "$T/go" 20000 "$T/done"
	wait_until 20 sock_exists
	start_client --read-delay-ms 400 --timeout 120 "$(sock_of_jvm)" method:Flood.tick
	wait_until 20 log_has 'conn#1: RegisterMethod'
	touch "$T/go"
	wait_exit "$JPID" 60
	JPID=
	wait_exit "$CPID" 60
	[ "$(grep -c '^method\.enter .* method=Flood\.tick(I)V args=$' "$T/events")" -eq 20000 ]
	[ "$(grep -c '^method\.return .* method=Flood\.tick(I)V popped=0 ret=?$' "$T/events")" -eq 20000 ]
	# besides: the Hello and the JIT's compilations of tick (how many is the JIT's business)
	! grep -Ev '^(hello pid=|method\.(enter|return|compile) pid=)' "$T/events" || return 1
	[ "$(cat "$T/client.err")" = "eof" ]
	! log_has 'has not read' || return 1
	log_has 'conn#1 .* closed: the VM is exiting'
}

# flood_to_client N CLIENT-OPTIONS...: a JVM (JDK 17) that calls Flood.tick N
# times, then ends, to a client with those options that registers the
# method and the VM events; returns once the calls have begun.
flood_to_client() {
	local n=$1
	shift
	start_jvm "$JDK17" "" -- Families flood "$T/go" "$n" "$T/done"
	wait_until 20 sock_exists
	start_client "$@" "$(sock_of_jvm)" vm:1 method:Flood.tick
	wait_until 20 log_has 'conn#1: RegisterMethod'
	touch "$T/go"
}

@test "at VM exit: the JVM ends only once the bridge has acknowledged the VM's end (every event before it handled)" {
	# a stap session that ends with its -c command ends with the JVM: the
	# events before the end must have reached the script's handlers by then
	# (before: the JVM ended as soon as the bytes were in the socket, and
	# the last events of a slow bridge reached no handler, unsaid)
	flood_to_client 100 --end-ack-after "$T/ack"
	wait_until 60 grep -q '^vm\.death ' "$T/events"
	# it waits while the bridge makes progress, 5 s at most without: 1 s on, still there
	sleep 1
	! gone "$JPID" || return 1
	! log_has 'closed: the VM is exiting' || return 1
	touch "$T/ack"
	wait_exit "$JPID" 30
	JPID=
	wait_exit "$CPID" 30
	[ "$(grep -c '^method\.enter .* method=Flood\.tick(I)V args=$' "$T/events")" -eq 100 ]
	[ "$(tail -n 1 "$T/events" | cut -d' ' -f1)" = vm.death ]
	[ "$(cat "$T/client.err")" = "$(printf 'end-ack\neof')" ]
	! log_has 'has not acknowledged' || return 1
	log_has 'conn#1 .* closed: the VM is exiting'
}

@test "at VM exit: bench-decode-match --record acknowledges the VM's end as the bridge does, and its recording replays" {
	# before: it read the stream without decoding it, never acknowledged
	# VmDeath, and every recording held the JVM 5 s, with the agent's warning
	start_jvm "$JDK17" "" -- Families flood "$T/go" 1000 "$T/done"
	wait_until 20 sock_exists
	"$BUILD/bench/bench-decode-match" --record "$(sock_of_jvm)" --output "$T/stream.bin" --seconds 120 \
		-- --fire --slot 0:method.enter:Flood.tick >"$T/rec.out" 2>"$T/rec.err" 3>&- &
	CPID=$!
	wait_until 20 log_has 'conn#1: Start'
	touch "$T/go"
	wait_exit "$JPID" 30
	JPID=
	wait_exit "$CPID" 30
	! log_has 'has not acknowledged' || return 1
	log_has 'conn#1 .* closed: the VM is exiting'
	grep -q '^# recorded [0-9]* bytes from ' "$T/rec.err"
	run "$BUILD/bench/bench-decode-match" --stream "$T/stream.bin" --loops 1 -- --fire --slot 0:method.enter:Flood.tick
	[ "$status" -eq 0 ]
	[[ "$output" == *"RESULT decode_match_fires 1000 fires"* ]]
}

@test "bench's null agent: inject-return=PATTERN gives exactly the methods with code that the pattern selects; a bad or empty pattern fails the JVM" {
	# the baseline of rows 9e and 11p: the same calls as the agent's, to
	# empty natives; every method of Workload with code, as javap counts
	# them (its Code attributes), <init> and <clinit> included
	# (bench/run compiles the Workload; the build does not)
	local want jdk
	jdk=$(dirname "$JDK17")
	"$jdk/javac" -d "$T/classes" "$SRC/bench/java/Workload.java"
	want=$("$jdk/javap" -p -c -cp "$T/classes" Workload | grep -c '^ *Code:$')
	[ "$want" -gt 3 ]
	run "$JDK17" "-agentpath:$BUILD/bench/libnullagent.so=inject-return=Workload.*" -cp "$T/classes" Workload 1000 10
	[ "$status" -eq 0 ]
	[ "$(grep '^libnullagent' <<<"$output")" = "libnullagent: inject: $want method(s) of 1 class(es) got calls" ]
	grep -q '^WORKLOAD iterations=1000 ' <<<"$output"
	run "$JDK17" "-agentpath:$BUILD/bench/libnullagent.so=inject=Workload.hot" -cp "$T/classes" Workload 1000 10
	[ "$status" -eq 0 ]
	[ "$(grep '^libnullagent' <<<"$output")" = "libnullagent: inject: 1 method(s) of 1 class(es) got calls" ]
	run "$JDK17" "-agentpath:$BUILD/bench/libnullagent.so=inject=Workload.nosuch" -cp "$T/classes" Workload 1000 10
	[ "$status" -eq 1 ]
	[ "$(grep '^libnullagent' <<<"$output")" = "libnullagent: inject: no method that Workload.nosuch selects got a call (no class of it loaded after VMInit): nothing measured" ]
	run "$JDK17" "-agentpath:$BUILD/bench/libnullagent.so=inject=Workload.(" -cp "$T/classes" Workload 1000 10
	[ "$status" -eq 1 ]
	[ "$(grep '^libnullagent' <<<"$output")" = "libnullagent: inject=Workload.(: not a method pattern: '(' at offset 9 has no matching ')'" ]
}

@test "bench/event-instructions: every event of its runs delivered, the instructions of both threads an event; a bad argument is said" {
	# rows 9i and 9io (callgrind); bench/run compiles the Workload, the
	# build does not: a build directory of our own with it
	local jdk b=$T/build
	jdk=$(dirname "$JDK17")
	mkdir -p "$b/bench/java" "$b/agent" "$b/stpd-bridge"
	"$jdk/javac" -d "$b/bench/java" "$SRC/bench/java/Workload.java"
	ln -s "$BUILD/agent/libstapjava.so" "$b/agent/libstapjava.so"
	ln -s "$BUILD/stpd-bridge/stpd-bridge" "$b/stpd-bridge/stpd-bridge"
	run "$SRC/bench/event-instructions" --build "$b" --iterations 2000 --java "$JDK17"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^RESULT ' <<<"$output")" -eq 3 ]
	grep -qx 'RESULT events 4000 events' <<<"$output"
	grep -Eqx 'RESULT java_thread_instructions_per_event [1-9][0-9]*\.[0-9] instructions' <<<"$output"
	grep -Eqx 'RESULT io_thread_instructions_per_event [1-9][0-9]*\.[0-9] instructions' <<<"$output"
	grep -Eqx '# 4000 plain events \(enter and return of Workload.hot\): the Java thread [0-9]+ instructions .*' <<<"$output"
	# a bridge that fails is said, and the JVM under valgrind is not waited
	# for (its 120 s wait for registrations)
	local f=$T/failing-build
	mkdir -p "$f/stpd-bridge"
	ln -s "$b/agent" "$f/agent"
	ln -s "$b/bench" "$f/bench"
	printf '#!/bin/sh\necho "fake bridge: refused" >&2\nexit 3\n' >"$f/stpd-bridge/stpd-bridge"
	chmod +x "$f/stpd-bridge/stpd-bridge"
	run timeout 100 "$SRC/bench/event-instructions" --build "$f" --iterations 2000 --java "$JDK17"
	[ "$status" -eq 1 ]
	[ "$output" = "bench/event-instructions: java: the bridge ended before the JVM (exit 3): fake bridge: refused" ]
	run "$SRC/bench/event-instructions" --build "$b" --iterations 2k
	[ "$status" -eq 2 ]
	[ "$output" = "bench/event-instructions: --iterations takes a number, not '2k'" ]
	run "$SRC/bench/event-instructions" --build "$b" --iterations 1500
	[ "$status" -eq 2 ]
	[ "$output" = "bench/event-instructions: --iterations takes a multiple of 1000, not 1500" ]
	run "$SRC/bench/event-instructions" --build "$T/nosuch-build"
	[ "$status" -eq 1 ]
	[ "$output" = "bench/event-instructions: no build directory $T/nosuch-build" ]
}

@test "bench-uprobe-floor (row 12f): no tracer, no trap; bpftrace on its marker counts every hit; a bad argument is said" {
	local fl=$BUILD/bench/bench-uprobe-floor
	run "$fl" 3000
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^FLOOR\ iterations=3000\ elapsed_ns=[0-9]+\ ns_per_hit=[0-9]+\.[0-9]\ semaphore=0$ ]]
	# with a tracer: its semaphore is up during the loop, and every hit traps
	"$fl" 2000 "$T/gate" >"$T/floor.out" 2>&1 3>&- &
	local fpid=$!
	BPIDS+=("$fpid")
	bpftrace -p "$fpid" -e "BEGIN { printf(\"attached\\n\"); } usdt:$(readlink -f "$fl"):stapjava_bench:floor { @calls = count(); }" \
		>"$T/bt.out" 2>"$T/bt.err" 3>&- &
	local btpid=$!
	BPIDS+=("$btpid")
	wait_until 120 grep -q attached "$T/bt.out"
	# BEGIN runs before the probe is in: past the gate, the program waits
	# for the semaphore the probe raises
	touch "$T/gate"
	wait "$fpid"
	stop_bpftrace "$btpid"
	grep -Eqx 'FLOOR iterations=2000 elapsed_ns=[0-9]+ ns_per_hit=[0-9]+\.[0-9] semaphore=1' "$T/floor.out"
	grep -qx '@calls: 2000' "$T/bt.out"
	# a gate and no tracer: said, once the semaphore has not come (the
	# bound shortened for the test)
	touch "$T/gate2"
	STAPJAVA_FLOOR_WAIT_MS=200 run "$fl" 10 "$T/gate2"
	[ "$status" -eq 1 ]
	[ "$output" = "bench-uprobe-floor: no tracer raised the marker's semaphore within 0.2 s of the gate" ]
	run "$fl" 2k
	[ "$status" -eq 2 ]
	[ "$output" = "usage: bench-uprobe-floor ITERATIONS [GATE] (ITERATIONS: a positive number, not 2k)" ]
	run "$fl" 0
	[ "$status" -eq 2 ]
	[ "$output" = "usage: bench-uprobe-floor ITERATIONS [GATE] (ITERATIONS: a positive number, not 0)" ]
	run "$fl"
	[ "$status" -eq 2 ]
	[ "$output" = "usage: bench-uprobe-floor ITERATIONS [GATE] (ITERATIONS: a positive number)" ]
}

@test "at VM exit: a bridge that never acknowledges the VM's end holds the JVM 5 s, and the agent says so" {
	flood_to_client 100 --end-ack-never
	wait_exit "$JPID" 60
	JPID=
	wait_exit "$CPID" 30
	# every event but the Hello is numbered (the lines, and Flood.tick's
	# MethodName, which has none), and none was acknowledged
	local n
	n=$(wc -l <"$T/events")
	[ "$(tail -n 1 "$T/events" | cut -d' ' -f1)" = vm.death ]
	log_has "conn#1: the VM exits and the bridge has not acknowledged its last $n events (it neither read nor acknowledged for 5000 ms): a script may not have handled them"
	! log_has 'has not read' || return 1
}

@test "at VM exit: a bridge that reads nothing holds the JVM 1 s, and both sides say what was lost" {
	flood_unread "$JDK17" ",bufsize=8388608" 20000 "$T/done"
	# bounded: the stall limit, not the time the bridge stays stopped
	wait_exit "$JPID" 30
	JVMPID=$JPID JPID=
	kill -CONT "$W"
	wait_exit "$BPID" 30
	local bytes
	bytes=$(sed -n 's/.*conn#1: the VM exits and the bridge has not read the last \([0-9]*\) bytes of events, nor heard of 0 dropped before (it read nothing for 1000 ms): they are lost$/\1/p' "$T/agent.log")
	[ "$bytes" -gt 0 ]
	# the bridge printed every event it got and names the last one
	local got
	got=$(grep -Ec "^method\.(enter|return) pid=$JVMPID tid=[0-9]+ ts=[0-9]+ method=Flood\.tick\(I\)V " "$T/b.out")
	[ "$got" -lt 40000 ]
	! grep -v '^method\.' "$T/b.out" || return 1
	# the lines are numbered, and so is Flood.tick's MethodName (CAP_METHOD_IDS,
	# no line) when the agent's I/O thread took one of its events: a Java
	# thread taking its own full buffer sends names (nothing it may allocate)
	got=$(wc -l <"$T/b.out")
	local last
	last=$(sed -n "s/^stpd-bridge\[[0-9]*\]: warn: pid $JVMPID: the agent closed the connection before the VM's death event: events after number \([0-9]*\) may be lost$/\1/p" "$T/b.log")
	[ "$last" = "$got" ] || [ "$last" = $((got + 1)) ]
	EXPECT_WARNS="warn: the agent closed the connection before the VM's death event: events after number $last may be lost" \
		bridge_quiet b
}

# ---------------------------------------------------------------- filtering

check_filters() {
	start_jvm "$1" "" -- Families filters "$T/go"
	wait_until 20 sock_exists
	# six bridges at once, each with its own registrations
	start_bridge over -m sj.filt.Named.over --args --return
	start_bridge get -m 'sj.filt.Named.get*'
	start_bridge internal -m 'sj/filt/Named.over(I)I' --args
	start_bridge dotdesc -m 'sj.filt.Named.over(Ljava.lang.String;)I' --return
	start_bridge inner -m 'sj.filt.Named$Inner.*' --args --return
	start_bridge none -m 'sj.filt.Nope.*' -m 'sj.filt.Named.over(J)I' -m '*.overtime'
	wait_until 20 log_count_is ': Start: registrations complete' 6
	touch "$T/go"
	wait_exit "$JPID"
	JVMPID=$JPID JPID=
	local b main
	for b in "${BPIDS[@]}"; do wait_exit "$b"; done
	main=$(java_tid main)
	for b in over get internal dotdesc inner none; do
		# the patterns nothing matches are said at the session's end
		EXPECT_WARNS=
		[ "$b" != none ] || EXPECT_WARNS="$(printf '%s\n' "$(silent method 'sj.filt.Nope.*' 'enter, return')" \
			"$(silent method 'sj.filt.Named.over(J)I' 'enter, return')" "$(silent method '*.overtime' 'enter, return')")"
		bridge_quiet "$b"
		# on the main thread, with the JVM's pid
		! grep -v " pid=$JVMPID tid=$main " "$T/$b.out" || return 1
	done
	# no `(`: every overload, but not a longer name nor a nested class
	mask "$T/over.out" >"$T/got"
	cat >"$T/want" <<'WANT'
method.enter pid=P tid=T ts=X method=sj.filt.Named.over()I args=
method.return pid=P tid=T ts=X method=sj.filt.Named.over()I popped=0 ret=0
method.enter pid=P tid=T ts=X method=sj.filt.Named.over(I)I args=7
method.return pid=P tid=T ts=X method=sj.filt.Named.over(I)I popped=0 ret=7
method.enter pid=P tid=T ts=X method=sj.filt.Named.over(Ljava/lang/String;)I args="abc"
method.return pid=P tid=T ts=X method=sj.filt.Named.over(Ljava/lang/String;)I popped=0 ret=3
WANT
	diff -u "$T/want" "$T/got"
	# a wildcard
	mask "$T/get.out" >"$T/got"
	cat >"$T/want" <<'WANT'
method.enter pid=P tid=T ts=X method=sj.filt.Named.getA()I args=
method.return pid=P tid=T ts=X method=sj.filt.Named.getA()I popped=0 ret=?
method.enter pid=P tid=T ts=X method=sj.filt.Named.getB()I args=
method.return pid=P tid=T ts=X method=sj.filt.Named.getB()I popped=0 ret=?
WANT
	diff -u "$T/want" "$T/got"
	# internal class name, one overload by its descriptor
	mask "$T/internal.out" >"$T/got"
	cat >"$T/want" <<'WANT'
method.enter pid=P tid=T ts=X method=sj.filt.Named.over(I)I args=7
method.return pid=P tid=T ts=X method=sj.filt.Named.over(I)I popped=0 ret=?
WANT
	diff -u "$T/want" "$T/got"
	# dots inside the descriptor
	mask "$T/dotdesc.out" >"$T/got"
	cat >"$T/want" <<'WANT'
method.enter pid=P tid=T ts=X method=sj.filt.Named.over(Ljava/lang/String;)I args=
method.return pid=P tid=T ts=X method=sj.filt.Named.over(Ljava/lang/String;)I popped=0 ret=3
WANT
	diff -u "$T/want" "$T/got"
	mask "$T/inner.out" >"$T/got"
	cat >"$T/want" <<'WANT'
method.enter pid=P tid=T ts=X method=sj.filt.Named$Inner.over(J)I args=5
method.return pid=P tid=T ts=X method=sj.filt.Named$Inner.over(J)I popped=0 ret=5
WANT
	diff -u "$T/want" "$T/got"
	# registered, but nothing matches: nothing at all
	[ ! -s "$T/none.out" ]
	log_has 'Register method 0x3 "sj.filt.Nope.\*"'
}

@test "filtering: overloads, wildcards, internal and dotted names, unmatched patterns; six bridges at once (JDK 17)" { check_filters "$JDK17"; }
@test "filtering: overloads, wildcards, internal and dotted names, unmatched patterns; six bridges at once (JDK 25)" { check_filters "$JDK25"; }

# ---------------------------------------------------------------- robustness

check_exit_race() {
	local java=$1
	shift
	cd "$T"
	start_jvm "$java" "" -- Families exitrace "$T/go"
	wait_until 20 sock_exists
	start_bridge b -m 'ExitRace.busy' --args --return -e java.lang.RuntimeException --threads --monitors --gc "$@"
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID" 60
	JVMPID=$JPID JPID=
	wait_exit "$BPID"
	grep -q '^exiting$' "$T/java.out"
	[ ! -s "$T/java.err" ]
	! compgen -G "$T/hs_err*" >/dev/null || return 1
	grep -Eq "^method.enter pid=$JVMPID tid=[0-9]+ ts=[0-9]+ method=ExitRace.busy\(I\)V args=[0-9]+$" "$T/b.out"
	log_has 'closed: the VM is exiting'
}

@test "robustness: System.exit racing busy threads, async (JDK 17)" { check_exit_race "$JDK17"; }
@test "robustness: System.exit racing busy threads, sync (JDK 17)" { check_exit_race "$JDK17" --sync=100000; }
@test "robustness: System.exit racing busy threads, async (JDK 25)" { check_exit_race "$JDK25"; }
@test "robustness: System.exit racing busy threads, sync (JDK 25)" { check_exit_race "$JDK25" --sync=100000; }

check_many_threads() {
	start_jvm "$1" ",bufsize=33554432" -- Families manythreads "$T/go" 3000
	wait_until 20 sock_exists
	start_bridge b --threads
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID" 120
	JPID=
	wait_exit "$BPID"
	cp "$T/b.out" "$T/events"
	grep -q '^threads 3000$' "$T/java.out"
	! grep -q '^lost' "$T/events" || return 1
	[ "$(grep -c '^thread.start .* thread="t-[0-9]*"$' "$T/events")" -eq 3000 ]
	[ "$(grep -c '^thread.end .* thread="t-[0-9]*"$' "$T/events")" -eq 3000 ]
	[ "$(grep -o 'thread="t-[0-9]*"' "$T/events" | sort -u | wc -l)" -eq 3000 ]
}

@test "robustness: thousands of threads (JDK 17)" { check_many_threads "$JDK17"; }
@test "robustness: thousands of threads (JDK 25)" { check_many_threads "$JDK25"; }

# ---------------------------------------------------------------- bridges dying

# churn_lines_ok FILE: every complete line is a Churn event of the JVM (or a
# count of events a full buffer dropped), every return is twice its call's
# argument on the same thread.
churn_lines_ok() {
	# a last line without its newline (the bridge killed mid-write) is not checked
	head -n "$(wc -l <"$1")" "$1" | awk -v pid="$JPID" '
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				$0 = line[i]
				if ($0 ~ "^method\\.enter pid=" pid " tid=[0-9]+ ts=[0-9]+ method=Churn\\.busy\\(I\\)I args=[0-9]+$") {
					split($3, t, "="); split($6, a, "="); arg[t[2]] = a[2]; seen[t[2]] = 1
				} else if ($0 ~ "^method\\.return pid=" pid " tid=[0-9]+ ts=[0-9]+ method=Churn\\.busy\\(I\\)I popped=0 ret=[0-9]+$") {
					split($3, t, "="); split($7, r, "=")
					if ((t[2] in seen) && r[2] != 2 * arg[t[2]]) { print "wrong: " $0; bad = 1 }
				} else if ($0 ~ "^lost pid=" pid " tid=0 ts=[0-9]+ lost=[1-9][0-9]*$") {
					# a full buffer (asynchronous rounds): the calls of later returns may be gone
					delete seen
				} else if ($0 !~ "^exception\\.(thrown|catch) pid=" pid " tid=[0-9]+ ts=[0-9]+ exception=java\\.lang\\.IllegalStateException method=Churn\\.lambda\\$run\\$[0-9]+\\([^ ]*\\)V$") {
					print "unexpected: " $0; bad = 1
				}
			}
			exit bad
		}'
}

has_churn_return() { grep -q '^method\.return .* method=Churn\.busy(I)I popped=0 ret=' "$T/$1.out" 2>/dev/null; }

# The agent's log says conn#N closed.
conn_closed() { log_has "conn#$1 (pid [0-9]* uid [0-9]*) closed: "; }

check_kill_rounds() {
	local java=$1 round mode w
	start_jvm "$java" "" -- Families churn "$T/go" 4 "$T/stop"
	touch "$T/go"
	wait_until 20 sock_exists
	for round in 1 2 3 4 5 6 7 8 9 10; do
		mode=()
		[ $((round % 2)) -eq 1 ] && mode=(--sync=100000)
		start_bridge "r$round" -m 'Churn.busy' --args --return -e java.lang.IllegalStateException "${mode[@]}"
		wait_until 20 registered "$round"
		wait_until 20 has_churn_return "r$round"
		w=$(worker_of "r$round")
		[ -n "$w" ]
		kill -9 "$BPID" "$w"
		wait_until 20 conn_closed "$round"
		wait_until 20 log_count_is 'method injection off' "$round"
		churn_lines_ok "$T/r$round.out"
	done
	# each round put enter, return and exceptional-exit calls into Churn while
	# four threads ran it, and took them out again when its bridge was killed
	# (agent/inject.h): ten inject/restore cycles under load, no MethodExit
	log_count_is 'method calls injected in 1 class' 10 &&
		log_count_is 'injected calls removed: 1 class back to its original code' 10 ||
		{ grep -E 'inject|Start|closed|Hello|ignored' "$T/agent.log" >&2; false; }
	! log_has 'event MethodExit' || return 1
	! log_has 'event Breakpoint' || return 1
	log_count_is 'event ExceptionCatch disabled' 10
	# every odd round was synchronous: a Java thread waiting for an Ack of a dead bridge went on
	log_count_is 'DispatchMode sync 100000 us' 5
	touch "$T/stop"
	local status=0
	wait_exit "$JPID" 60 || status=$?
	JPID=
	[ "$status" -eq 3 ]
	[ "$(cat "$T/java.out")" = "$(printf 'churn-%d ok\n' 0 1 2 3)" ]
	[ ! -s "$T/java.err" ]
	! compgen -G "$T/hs_err*" >/dev/null || return 1
	# the last word on injection is "off"
	[ "$(grep -e 'method injection off' -e 'method calls injected' "$T/agent.log" | tail -1 | sed 's/.*: //')" = "method injection off" ]
}

@test "faults: a bridge killed -9 mid-stream ten times, sync and async; the JVM finishes right (JDK 17)" { check_kill_rounds "$JDK17"; }
@test "faults: a bridge killed -9 mid-stream ten times, sync and async; the JVM finishes right (JDK 25)" { check_kill_rounds "$JDK25"; }

# alternating FILE: per thread, after its first method.return, enter and
# return of Churn.busy alternate (the last line of a thread may be an enter:
# the JVM exits mid-call); none of them twice. A Lost event (a full buffer)
# starts the check afresh.
alternating() {
	awk '$1 == "lost" { delete started; delete last; next }
	$1 == "method.enter" || $1 == "method.return" {
		t = $3
		if (!($1 == "method.return") && !(t in started)) { next }
		if ($1 == "method.return" && !(t in started)) { started[t] = 1; last[t] = "r"; next }
		k = $1 == "method.enter" ? "e" : "r"
		if (k == last[t]) { print "twice in a row: " $0; bad = 1 }
		last[t] = k
	} END { exit bad }' "$1"
}

@test "injected calls: enter, then enter+return from a second session: the class gets its return calls, no breakpoint, no MethodExit" {
	start_jvm "$JDK17" "" -- Families churn "$T/go" 2 "$T/stop"
	touch "$T/go"
	wait_until 20 sock_exists
	start_bridge b1 -m 'Churn.busy:enter'
	wait_until 20 registered 1
	wait_until 20 grep -q '^method.enter ' "$T/b1.out"
	log_has 'info: method calls injected in 1 class$'
	local first=$BPID
	start_bridge b2 -m 'Churn.busy' --return
	wait_until 20 registered 2
	wait_until 20 grep -q '^method.return ' "$T/b2.out"
	# Churn was retransformed again, now with return calls: still one class
	[ "$(grep -c 'info: method calls injected in 1 class$' "$T/agent.log")" -eq 1 ]
	! log_has 'event MethodExit' || return 1
	! log_has 'event Breakpoint' || return 1
	touch "$T/stop"
	local status=0
	wait_exit "$JPID" 60 || status=$?
	JPID=
	[ "$status" -eq 3 ]
	[ "$(cat "$T/java.out")" = "$(printf 'churn-%d ok\n' 0 1)" ]
	wait_exit "$BPID"
	wait_exit "$first"
	# b1 registered enter only: no return reached it
	! grep -q '^method.return' "$T/b1.out" || return 1
	# b2 got both kinds from the injected calls, never one twice
	grep -q '^method.return .* method=Churn.busy(I)I popped=0 ret=' "$T/b2.out"
	alternating "$T/b2.out"
}

# contiguous FILE: Paced.busy(n) on one thread is called with n = 0, 1, 2,
# ...: every call must be there, once, its enter then its return of 2n, no
# Lost (the buffer holds the whole run). Prints the number of calls.
contiguous() {
	awk '$1 == "lost" { print "lost: " $0; bad = 1; next }
	$1 == "method.enter" { split($6, a, "="); if (a[2] != next_n || open) { print "enter out of order: " $0; bad = 1 } open = 1; arg = a[2]; next }
	$1 == "method.return" { split($7, r, "="); if (!open || r[2] != 2 * arg) { print "return out of order: " $0; bad = 1 } open = 0; next_n = arg + 1; calls++; next }
	{ print "unexpected: " $0; bad = 1 }
	END { if (open) { print "a call without its return"; bad = 1 } print calls; exit bad }' "$1"
}

# paced_exactly_once NAME: stop the Paced JVM; its one session NAME (a
# bridge, $BPID) saw every call of Paced.busy exactly once, nothing lost;
# leaves the number of calls in $output.
paced_exactly_once() {
	touch "$T/stop"
	wait_exit "$JPID" 120
	JPID=
	[ "$(cat "$T/java.out")" = "paced ok" ]
	wait_exit "$BPID"
	bridge_quiet "$1"
	run contiguous "$T/$1.out"
	[ "$status" -eq 0 ] || { printf '%s\n' "$output" | head -20 >&2; false; }
}

# One session holds enter+return on a method called in a loop while a
# second session registers, unregisters and resets patterns 1000 times
# (a native method, java.util.*, every method): classes are retransformed
# under the running loop, injected calls come and stay; the first session
# sees every call exactly once.
check_churn() {
	local cmds=() k
	start_jvm "$1" "" -- Families paced "$T/go" "$T/stop"
	wait_until 20 sock_exists
	start_bridge s1 -m 'Paced.busy' --args --return
	wait_until 20 registered 1
	touch "$T/go"
	for k in $(seq 200); do
		cmds+=(reg:method:3:java.lang.System.nanoTime reg:method:3:java.util.* reg:method:3:* \
			unreg:method:java.util.* reset)
	done
	"$CLIENT" --gap-ms 5 --quit --timeout 600 "$(sock_of_jvm)" "${cmds[@]}" >"$T/s2.out" 2>"$T/s2.err"
	[ "$(cat "$T/s2.err")" = quit ]
	wait_until 60 conn_closed 2
	# every one of the 1000 commands was applied, Reset the last
	[ "$(grep -c 'conn#2: Reset$' "$T/agent.log")" -eq 200 ]
	[ "$(grep -c 'conn#2: Register method 0x3 "\*"$' "$T/agent.log")" -eq 200 ]
	paced_exactly_once s1
	[ "$output" -gt 1000 ]
	# every method was wanted at times: MethodExit never went on for it
	! log_has 'event MethodE' || return 1
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "churn: a second session registers, unregisters and resets 1000 times; the first sees every call exactly once (JDK 17)" { check_churn "$JDK17"; }
@test "churn: a second session registers, unregisters and resets 1000 times; the first sees every call exactly once (JDK 25)" { check_churn "$JDK25"; }

@test "faults: a supervisor killed -9 takes its worker with it; SIGTERM unregisters; events go off" {
	start_jvm "$JDK17" "" -- Families churn "$T/go" 2 "$T/stop"
	touch "$T/go"
	wait_until 20 sock_exists
	start_bridge b1 -m 'Churn.busy' --args --sync
	wait_until 20 registered 1
	wait_until 20 grep -q '^method.enter ' "$T/b1.out"
	local w
	w=$(worker_of b1)
	kill -9 "$BPID"
	# the worker notices (parent-death signal), unregisters and ends
	wait_until 10 gone "$w"
	wait_until 10 conn_closed 1
	log_has 'conn#1: Reset'
	wait_until 10 log_count_is 'method injection off' 1
	# SIGTERM: the same, and the bridge exits 0
	start_bridge b2 -m 'Churn.busy' --threads
	wait_until 20 registered 2
	wait_until 20 grep -q '^method.enter ' "$T/b2.out"
	w=$(worker_of b2)
	kill -TERM "$BPID"
	wait_exit "$BPID" 10
	wait_until 10 gone "$w"
	wait_until 10 conn_closed 2
	log_has 'conn#2: Reset'
	wait_until 10 log_count_is 'method injection off' 2
	log_has 'event ThreadStart disabled'
	# two busy threads outrun an asynchronous bridge: what the agent dropped
	# (the last running total b2 printed) is said once at the end
	local lost
	lost=$(sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/b2.out" | tail -1)
	EXPECT_WARNS=${lost:+"warn: the agent dropped $lost events in this session (its queue was full, unless a warning above says why: give it more room with bufsize=, or ask for fewer events)"} \
		bridge_quiet b2
	touch "$T/stop"
	local status=0
	wait_exit "$JPID" 30 || status=$?
	JPID=
	[ "$status" -eq 3 ]
	[ "$(cat "$T/java.out")" = "$(printf 'churn-%d ok\n' 0 1)" ]
}

# ---------------------------------------------------------------- containers

# child_of PID: the one child of PID.
child_of() { cat "/proc/$1/task/$1/children" 2>/dev/null | tr -d ' '; }
# has_child_exe PID GLOB: PID has a child, running a program that matches GLOB.
has_child_exe() {
	local c
	c=$(child_of "$1")
	[ -n "$c" ] && [[ $(readlink "/proc/$c/exe") == $2 ]]
}

# start_container JAVA ARGS...: JAVA ARGS in its own pid and mount namespace,
# with a private /tmp and $T/ct at /tmp/ct (its output and exit status go
# there); sets CT_UNSHARE (the unshare process) and CT_JVM (the JVM's host pid).
start_container() {
	local java=$1 shell
	shift
	unshare --pid --mount --fork --mount-proc --propagation private sh -c '
		exec 3<"$1"
		mount -t tmpfs tmpfs /tmp && mkdir /tmp/ct && mount --bind /proc/self/fd/3 /tmp/ct || exit 97
		exec 3<&-
		java=$2
		shift 2
		"$java" -XX:ErrorFile=/tmp/ct/hs_err_%p.log "$@" >/tmp/ct/java.out 2>/tmp/ct/java.err
		echo "exit $?" >/tmp/ct/java.rc' sh "$T/ct" "$java" "$@" 3>&- &
	CT_UNSHARE=$!
	wait_until 20 has_child_exe "$CT_UNSHARE" '*/*sh'
	shell=$(child_of "$CT_UNSHARE")
	wait_until 20 has_child_exe "$shell" '*/java'
	CT_JVM=$(child_of "$shell")
}

@test "containers: a JVM in its own pid and mount namespace, private /tmp, is found and served by its host pid" {
	# what the container sees under /tmp/ct: the agent, the classes, the log
	mkdir "$T/ct"
	cp "$(readlink -f "$AGENT")" "$T/ct/libstapjava.so"
	cp -r "$CLASSES" "$T/ct/classes"
	# pid 1 is the shell, the JVM a later pid of the namespace; /tmp is a fresh
	# tmpfs, so the agent's socket (default /tmp/stapjava-0-XXXXXX) exists only inside
	start_container "$JDK17" -agentpath:/tmp/ct/libstapjava.so=loglevel=info,logfile=/tmp/ct/agent.log \
		-cp /tmp/ct/classes Families filters /tmp/ct/go
	local unshare=$CT_UNSHARE jvm=$CT_JVM
	wait_until 20 grep -q 'listening on ' "$T/ct/agent.log"
	# the JVM's threads (main waits for go): host tid and namespace tid
	local task
	for task in /proc/"$jvm"/task/*; do
		echo "${task##*/} $(awk '/^NSpid:/ {print $NF}' "$task/status")"
	done >"$T/tasks"
	# inside: its own pid, socket under the private /tmp; outside, /tmp has no such socket
	local nspid ns start path
	nspid=$(awk '/^NSpid:/ {print $3}' "/proc/$jvm/status")
	[ -n "$nspid" ] && [ "$nspid" != "$jvm" ]
	ns=$(stat -L -c %i "/proc/$jvm/ns/pid")
	[ "$ns" != "$(stat -L -c %i /proc/self/ns/pid)" ]
	start=$(awk '{print $22}' "/proc/$jvm/stat")
	path=$(sed -n "s/^stapjava-agent\[$nspid\]: info: listening on //p" "$T/ct/agent.log")
	[[ $path =~ ^/tmp/stapjava-0-[A-Za-z0-9]{6}/jvm-$ns-$nspid-$start\.sock$ ]]
	[ ! -e "$path" ]
	[ -S "/proc/$jvm/root$path" ]
	# an older agent's directory squatted in the JVM's /tmp by another uid blocks nothing
	nsenter -t "$jvm" -m setpriv --reuid=4242 --regid=4242 --clear-groups mkdir -m 777 /tmp/stapjava-0
	# --list finds it by its host pid
	run "$BRIDGE" --list
	[ "$status" -eq 0 ]
	printf -v want '%-7d %-12s %-5s %s' "$jvm" root yes Families
	printf '%s\n' "${lines[@]}" | grep -Fxq -- "$want"
	# and -x HOSTPID serves it (default --sockdir, resolved in the JVM's root)
	"$BRIDGE" -x "$jvm" --rescan-ms 20 --print -o "$T/b.out" --log-file "$T/b.log" --log-level info \
		-m 'sj.filt.Named.get*' --args --return --vm 3>&- &
	BPID=$!
	BPIDS+=("$BPID")
	wait_until 20 grep -q 'conn#1: Start: registrations complete' "$T/ct/agent.log"
	touch "$T/ct/go"
	wait_exit "$unshare" 30
	wait_exit "$BPID"
	[ "$(cat "$T/ct/java.rc")" = "exit 0" ]
	[ ! -s "$T/ct/java.err" ]
	local nsmain main
	nsmain=$(sed -n 's/^tid main=//p' "$T/ct/java.out")
	main=$(awk -v ns="$nsmain" '$2 == ns { print $1 }' "$T/tasks")
	[ -n "$main" ] && [ "$main" != "$nsmain" ]
	# the events carry the host pid and the host tid (what a kernel probe's
	# tid() gives), not the agent's gettid() in the JVM's pid namespace
	sed -E "s/ ts=[0-9]+( |$)/ ts=X\1/" "$T/b.out" >"$T/got"
	named_gets "$jvm" "$main" >"$T/want"
	grep -v '^vm.death ' "$T/got" | diff -u "$T/want" -
	grep -Eq "^vm.death pid=$jvm tid=[0-9]+ ts=X$" "$T/got"
	grep -q "info: pid $jvm: connected to the agent (worker uid 0 gid 0)" "$T/b.log"
	bridge_quiet b
}

@test "containers: attach into a JVM in its own pid and mount namespace: the agent is copied into its /tmp, served by its host pid" {
	mkdir "$T/ct" "$T/host"
	cp -r "$CLASSES" "$T/ct/classes"
	# the bridge's agent lies under the host's /tmp, which the JVM does not see
	local agent=$T/host/libstapjava.so
	cp "$(readlink -f "$AGENT")" "$agent"
	start_container "$JDK17" -cp /tmp/ct/classes Families filters /tmp/ct/go
	local unshare=$CT_UNSHARE jvm=$CT_JVM
	"$BRIDGE" -x "$jvm" --rescan-ms 20 --print -o "$T/b.out" --log-file "$T/b.log" --log-level info \
		--agent "$agent" --agent-options "loglevel=info,logfile=/tmp/ct/agent.log" \
		-m 'sj.filt.Named.get*' --return 3>&- &
	BPID=$!
	BPIDS+=("$BPID")
	wait_until 30 grep -q 'conn#1: Start: registrations complete' "$T/ct/agent.log"
	# the copy was removed once loaded; the JVM keeps its mapping
	[ -z "$(ls -A "/proc/$jvm/root/tmp" | grep '^stapjava-agent-')" ]
	grep -q '/tmp/stapjava-agent-[0-9]*-[0-9]*\.so (deleted)$' "/proc/$jvm/maps"
	touch "$T/ct/go"
	wait_exit "$unshare" 30
	wait_exit "$BPID"
	[ "$(cat "$T/ct/java.rc")" = "exit 0" ]
	sed -E "s/ ts=[0-9]+( |$)/ ts=X\1/; s/ tid=[0-9]+ / tid=T /" "$T/b.out" >"$T/got"
	cat >"$T/want" <<WANT
method.enter pid=$jvm tid=T ts=X method=sj.filt.Named.getA()I args=
method.return pid=$jvm tid=T ts=X method=sj.filt.Named.getA()I popped=0 ret=1
method.enter pid=$jvm tid=T ts=X method=sj.filt.Named.getB()I args=
method.return pid=$jvm tid=T ts=X method=sj.filt.Named.getB()I popped=0 ret=2
WANT
	diff -u "$T/want" "$T/got"
	grep -q "info: pid $jvm: the JVM runs without the agent: loading $agent through HotSpot's attach mechanism$" "$T/b.log"
	bridge_quiet b
}

gone_task() { [ ! -e "/proc/$1/task/$2" ]; }

# start_bpftrace PROGRAM: bpftrace (on the host, standing in for stap) runs
# PROGRAM, its output in $T/bt.out; returns once its probes are attached.
# Sets BTPID.
start_bpftrace() {
	bpftrace -e "$1 BEGIN { printf(\"attached\\n\"); }" >"$T/bt.out" 2>"$T/bt.err" 3>&- &
	BTPID=$!
	BPIDS+=("$BTPID")
	wait_until 120 grep -q attached "$T/bt.out"
}
# stop_bpftrace: bpftrace.bash
mark_count_is() { [ "$(grep -c '^mark$' "$T/bt.out")" = "$1" ]; }

# A JVM in a container reports its namespace's tids; the bridge learns
# their host tids from /proc while the threads live. An event handled after
# its thread is gone (a ThreadEnd, asynchronously) finds the mapping an
# earlier event of the thread left, fired or not: events whose markers no
# tracer is on are not formatted, but their threads are still looked up.
@test "containers: thread_end of a thread gone before the bridge handled it carries its host tid, learnt from its unfired events" {
	mkdir "$T/ct"
	cp "$(readlink -f "$AGENT")" "$T/ct/libstapjava.so"
	cp -r "$CLASSES" "$T/ct/classes"
	local bin bt
	bin=$(readlink -f "$BRIDGE")
	# a tracer on mark()'s slot and on thread_end only: tick() and the
	# thread's start fire no marker anyone is on
	bt="usdt:$bin:stapjava:slot1 { printf(\"mark\\n\"); }"
	bt+=" usdt:$bin:stapjava:thread_end { printf(\"end tid=%d\\n\", arg2); }"
	start_bpftrace "$bt"
	local btpid=$BTPID
	start_container "$JDK17" -agentpath:/tmp/ct/libstapjava.so=loglevel=info,logfile=/tmp/ct/agent.log \
		-cp /tmp/ct/classes Families lingering /tmp/ct/start /tmp/ct/end
	local unshare=$CT_UNSHARE jvm=$CT_JVM
	"$BRIDGE" -x "$jvm" --rescan-ms 20 --fire --threads --log-file "$T/b.log" --log-level info \
		--slot 0:method.enter:Lingering.tick --slot 1:method.enter:Lingering.mark 3>&- &
	BPID=$!
	BPIDS+=("$BPID")
	wait_until 30 grep -q 'conn#1: Start: registrations complete' "$T/ct/agent.log"
	touch "$T/ct/start"
	# mark() fired twice: the bridge has handled tick(), which came before
	# the second. The first had the bridge learn the JVM's threads then
	# (main's tid, looked up for its marker, was new: every thread's is
	# read), before the lingerer was; the second, main's again, reads none.
	wait_until 30 mark_count_is 2
	local nslinger linger task
	nslinger=$(sed -n 's/^tid lingerer=//p' "$T/ct/java.out")
	[ -n "$nslinger" ]
	for task in /proc/"$jvm"/task/*; do
		[ "$(awk '/^NSpid:/ {print $NF}' "$task/status")" = "$nslinger" ] && linger=${task##*/}
	done
	[ -n "$linger" ] && [ "$linger" != "$nslinger" ]
	# the bridge's worker held while the lingerer ends: it handles the
	# ThreadEnd once the thread is gone from /proc
	local worker
	worker=$(sed -n "s/.*: info: pid $jvm: worker \([0-9]*\) started.*/\1/p" "$T/b.log" | head -1)
	[ -n "$worker" ]
	kill -STOP "$worker"
	touch "$T/ct/end"
	wait_until 30 gone_task "$jvm" "$linger"
	kill -CONT "$worker"
	wait_exit "$unshare" 30
	wait_exit "$BPID"
	stop_bpftrace "$btpid"
	[ "$(cat "$T/ct/java.rc")" = "exit 0" ]
	# the lingerer's end by its host tid, and no end without one (tid 0:
	# none found); main's end, if the JVM reports it, is main's
	run grep -c "^end tid=$linger\$" "$T/bt.out"
	[ "$output" = 1 ] || { cat "$T/bt.out" "$T/bt.err" "$T/b.log" >&2; false; }
	! grep -q '^end tid=0$' "$T/bt.out" || { cat "$T/bt.out" >&2; false; }
	bridge_quiet b
}

# ---------------------------------------------------------------- sanitizers

check_asan() {
	local java=$1 asan=${STAPJAVA_ASAN_BUILDDIR:-}
	if [ -z "$asan" ]; then
		echo "STAPJAVA_ASAN_BUILDDIR not set: run via ./quickstart test" >&2
		return 1
	fi
	[ -f "$asan/agent/libstapjava.so" ] || { echo "no $asan/agent/libstapjava.so: build $asan" >&2; return 1; }
	[ -x "$asan/stpd-bridge/stpd-bridge" ] || { echo "no $asan/stpd-bridge/stpd-bridge: build $asan" >&2; return 1; }
	# HotSpot uses SIGSEGV itself (implicit null checks, safepoint polls): ASan
	# must leave it to the JVM. Reports go to files, so none can hide in a log.
	# Without the preload the JVM could not load the instrumented agent at all
	# ("ASan runtime does not come first"), so events prove it took effect.
	local AGENT=$asan/agent/libstapjava.so BRIDGE=$asan/stpd-bridge/stpd-bridge
	JVM_ENV=("LD_PRELOAD=$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)")
	export ASAN_OPTIONS=detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:log_path=$T/asan
	export UBSAN_OPTIONS=print_stacktrace=1:log_path=$T/ubsan
	# and a line in a loop (300 turns): line probes' rewriting under the sanitizers too;
	# a root pattern ('^Demo.run()V', within Demo.*: the same lines), so every
	# class's ancestry is noted and matched under them
	local l_body
	l_body=$(grep -n "^            big.append((char) ('a' + i % 26));" "$SRC/testsuite/java/Families.java" | cut -d: -f1)
	family "$java" methods -m 'Demo.*' -m '^Demo.run()V' -m "Demo.run()V:$l_body:enter" --args --return --stack --threads --gc --monitors --vm
	! compgen -G "$T/asan*" && ! compgen -G "$T/ubsan*" || return 1
	# the events are right: the same lines as without sanitizers (stack aside)
	sed -E 's/ stack=[^ ]*$//' "$T/events" | grep '^method\.' | grep -v "method=Demo.run()V:$l_body " | mask >"$T/got"
	methods_want >"$T/want"
	diff -u "$T/want" "$T/got"
	[ "$(grep -c "^method.enter .* method=Demo.run()V:$l_body args= stack=Demo.run()V:$l_body|" "$T/events")" -eq 300 ]
	grep -Eq "^vm.death pid=$JVMPID " "$T/events"
	grep -Eq '^method.enter .* method=Demo.add\(II\)I args=2,3 stack=Demo.add\(II\)I:[0-9]+\|Demo.run\(\)V:[0-9]+\|Families.main\(\[Ljava/lang/String;\)V:[0-9]+$' "$T/events"
}

@test "sanitizers: the agent and the bridge under ASan + UBSan, every family, no report (JDK 17)" { check_asan "$JDK17"; }
@test "sanitizers: the agent and the bridge under ASan + UBSan, every family, no report (JDK 25)" { check_asan "$JDK25"; }

@test "load: every kind of bad option (the agent's option table) is named with what it must be" {
	local opt want
	while IFS='|' read -r opt want; do
		run "$JDK17" "-agentpath:$AGENT=$opt" -cp "$CLASSES" Families hello
		[ "$status" -eq 1 ] || { echo "$opt: status $status: $output"; false; }
		[[ ${lines[0]} =~ ^stapjava-agent\[[0-9]+\]:\ error:\  ]] || { echo "$opt: ${lines[0]}"; false; }
		[ "${lines[0]#*: error: }" = "$want; the agent is not loaded" ] || { echo "$opt: ${lines[0]}"; false; }
	done <<-'EOF'
		colour=red|unknown option 'colour' (known: sockdir, loglevel, logfile, bufsize, timeout_us, strmax, stackmax, wait_ms, threadbuf, methods, clock)
		threadbuf=100|option threadbuf='100': not a number of bytes from 4096 to 268435456
		clock=fast|option clock='fast': not one of auto, tsc, monotonic
		stackmax=0|option stackmax='0': not a number of frames from 1 to 256
		timeout_us=x|option timeout_us='x': not a number of microseconds from 0 to 10000000
		methods=bytecode|option methods='bytecode': not one of inject, jvmti, fallback
		loglevel=loud|option loglevel='loud': not one of error, warn, info, debug
		logfile=rel/x|option logfile='rel/x': needs an absolute path
	EOF
}

# A class whose bytes went past the class-file hook before the registration
# (loaded, not linked) and that is prepared after it must get its calls: the
# ClassPrepare asks for an update that retransforms it (it had breakpoints
# for enter and no return: seen as a lost return in a guest test).
check_latelink() {
	start_jvm "$1" "" -- Families latelink "$T/go"
	wait_until 20 grep -q '^loaded$' "$T/java.out"
	start_bridge b -m 'LateLink.step'
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	[ "$(grep -E '^method\.(enter|return) ' "$T/b.out" | mask | sed 's/ tid=T//')" = "$(printf '%s\n' \
		'method.enter pid=P ts=X method=LateLink.step(I)I args=' \
		'method.return pid=P ts=X method=LateLink.step(I)I popped=0 ret=?')" ] || { cat "$T/b.out" "$T/agent.log" >&2; false; }
	[ "$(cat "$T/java.out")" = "$(printf 'loaded\nstep 21')" ]
	! log_has 'by breakpoints' || { cat "$T/agent.log" >&2; false; }
	! log_has 'cannot be reported' || { cat "$T/agent.log" >&2; false; }
	log_has 'method calls injected in 1 class'
	bridge_quiet b
}
@test "inject: a class loaded before the registration and prepared after it gets its calls (JDK 17)" { check_latelink "$JDK17"; }
@test "inject: a class loaded before the registration and prepared after it gets its calls (JDK 25)" { check_latelink "$JDK25"; }

@test "nomatch: a method its loaded class lacks is said once at registration, with the closest one; an unloaded class is not" {
	start_jvm "$JDK17" "" -- Families latelink "$T/go"
	wait_until 20 grep -q '^loaded$' "$T/java.out"
	start_bridge b -m 'Families.printTid(Ljava/lang/String;)I' -m 'Families.osTid' -m 'Families.osTd' \
		-m 'Families.*x' -m 'Nowhere.near' -c 'java.util.HashMapp' -m 'Families.zzzzzzzzzzzz' \
		--slot '0:method.enter:Families.osTd' --slot '1:method.return:Families.osTd'
	wait_until 20 registered 1
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	# Families.osTid matches; a wildcard and a class not loaded (it may load
	# later) are not looked for; the rest are said once each, at registration;
	# at the end, each pattern no event matched (the scenario calls none)
	EXPECT_WARNS="$(printf '%s\n' \
		"warn: java.method pattern 'Families.printTid(Ljava/lang/String;)I': its class is loaded and declares no such method (an inherited one is its declaring class's); similar: Families.printTid(Ljava/lang/String;)V" \
		"warn: java.method pattern 'Families.osTd': its class is loaded and declares no such method (an inherited one is its declaring class's); similar: Families.osTid" \
		"warn: java.method pattern 'Families.zzzzzzzzzzzz': its class is loaded and declares no such method (an inherited one is its declaring class's)" \
		"$(silent method 'Families.printTid(Ljava/lang/String;)I' 'enter, return')" \
		"$(silent method Families.osTid 'enter, return')" "$(silent method Families.osTd 'enter, return')" \
		"$(silent method 'Families.*x' 'enter, return')" "$(silent method Nowhere.near 'enter, return')" \
		"$(silent class java.util.HashMapp 'load, prepare, unload')" \
		"$(silent method Families.zzzzzzzzzzzz 'enter, return')" \
		"$(silent method Families.osTd enter)" "$(silent method Families.osTd return)")" bridge_quiet b
}

@test "in-thread: the agent fires each session's own slots in the Java thread (two bridges, both with a slot 0)" {
	# bpftrace stands in for stap on the host: it probes the agent's markers
	# (uprobes work here), printing what the guest tests check through stap
	local lib bt
	lib=$(readlink -f "$AGENT")
	bt="usdt:$lib:stapjava:slot0, usdt:$lib:stapjava:slot1 {"
	bt+=' printf("%s session=%d code=0x%x java_tid==tid:%d java_pid==pid:%d %s\n", probe, arg0 >> 16, arg0 & 0xff, arg2 == tid, arg1 == pid, str(arg4)); }'
	start_bpftrace "$bt"
	local btpid=$BTPID
	start_jvm "$JDK17" "" -- Families methods "$T/go"
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --fire --in-thread --session 11 \
		--slot 0:method.enter:Demo.add --slot 1:method.return:Demo.retJ \
		--log-file "$T/a.log" --log-level info 3>&- &
	BPIDS+=($!)
	wait_until 30 log_has 'conn#1: Start'
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --fire --in-thread --session 22 \
		--slot 0:method.enter:Demo.retZ --log-file "$T/b.log" --log-level info 3>&- &
	BPIDS+=($!)
	wait_until 30 log_has 'conn#2: Start'
	touch "$T/go"
	wait_exit "$JPID"
	stop_bpftrace "$btpid"
	run grep '^usdt' "$T/bt.out"
	local p="usdt:$lib:stapjava"
	[ "$output" = "$(printf '%s\n' \
		"$p:slot0 session=11 code=0x80 java_tid==tid:1 java_pid==pid:1 Demo.add(II)I" \
		"$p:slot0 session=22 code=0x80 java_tid==tid:1 java_pid==pid:1 Demo.retZ()Z" \
		"$p:slot1 session=11 code=0x81 java_tid==tid:1 java_pid==pid:1 Demo.retJ()J")" ] || { cat "$T/bt.out" "$T/bt.err" >&2; false; }
	# nothing went through the bridges, and neither warned
	! grep -E ': (warn|error): ' "$T/a.log" "$T/b.log" || return 1
	log_has 'conn#1: FireInThread: its markers fire in the Java threads, session 11'
	log_has 'conn#2: RegisterSlot 0 method 0x1 "Demo.retZ"'
}

# A slot whose marker no tracer probes (stap had not put its uprobes in
# this JVM's copy of the library: a stap -x started while the JVM was
# loading the agent, a container's copy of it) loses what it selects: the
# session is told, once per registration, and the others are not. Here no
# tracer is on anything: slot 0 selects one call (Demo.add), slot 1 two
# (Demo.refs), slot 2 none (no such method).
@test "in-thread: an event a slot selects while no tracer is on its marker is said lost, once per registration" {
	start_jvm "$JDK17" "" -- Families methods "$T/go"
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --fire --in-thread --session 11 \
		--slot 0:method.enter:Demo.add --slot 1:method.return:Demo.refs --slot 2:method.enter:Demo.nothing \
		--log-file "$T/a.log" 3>&- &
	BPIDS+=($!)
	wait_until 30 log_has 'conn#1: Start'
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "${BPIDS[-1]}"
	local lost='selected an event before any tracer was on the agent'"'"'s slot%s marker in this JVM (its SDT semaphore was 0): that event was not seen, nor are the slot'"'"'s next ones until a tracer probes the marker'
	[ "$(grep -E ': (warn|error): ' "$T/a.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/: pid [0-9]+: /: /' | sort)" = "$(printf '%s\n' \
		"warn: in-thread: slot 0 (method 0x1 \"Demo.add\") $(printf "$lost" 0)" \
		"warn: in-thread: slot 1 (method 0x2 \"Demo.refs\") $(printf "$lost" 1)")" ] ||
		{ cat "$T/a.log" >&2; false; }
	# the JVM's log says it too (the agent's warnings go there as well)
	[ "$(log_count 'in-thread: slot [01] (method 0x[12] "Demo.[a-zA-Z]*") selected an event before any tracer')" = 2 ]
}

# rounds_under_bpftrace: bpftrace counting slot0 (BTPID), a JVM running
# Families' rounds in $T/r once $T/go exists, and an in-thread bridge with
# slot 0 on Rounds.tick (its log $T/a.log).
rounds_under_bpftrace() {
	local lib
	lib=$(readlink -f "$AGENT")
	start_bpftrace "usdt:$lib:stapjava:slot0 { @calls = count(); }"
	mkdir "$T/r"
	start_jvm "$JDK17" "" -- Families rounds "$T/go" "$T/r"
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --fire --in-thread --session 11 \
		--slot 0:method.enter:Rounds.tick --log-file "$T/a.log" 3>&- &
	BPIDS+=($!)
}

# rounds_end N: the rounds stopped after round N; the JVM and the bridge
# ended; nothing said lost, by the bridge or in the JVM's log.
rounds_end() {
	touch "$T/r/stop"
	wait_exit "$JPID"
	JPID=
	wait_exit "${BPIDS[-1]}"
	[ "$(cat "$T/java.out")" = "rounds $1" ]
	! grep -E ': (warn|error): ' "$T/a.log" || return 1
	! log_has 'selected an event before any tracer' || return 1
}

# The other side: a tracer that was on the marker and left (its script
# ended before the bridge did, as every stap session ends) loses nothing
# anybody wanted: nothing is said. Round 1 runs under bpftrace, round 2
# after it has gone, with the registration standing.
@test "in-thread: events after the slot's tracer has left are not said lost" {
	rounds_under_bpftrace
	wait_until 30 log_has 'conn#1: Start'
	touch "$T/go" "$T/r/go.1"
	wait_until 30 test -e "$T/r/done.1"
	stop_bpftrace "$BTPID"
	[ "$(grep '^@calls' "$T/bt.out")" = '@calls: 10' ] || { cat "$T/bt.out" "$T/bt.err" >&2; false; }
	touch "$T/r/go.2"
	wait_until 30 test -e "$T/r/done.2"
	rounds_end 2
}

# And a tracer that came and left while the slot selected nothing (a script
# whose method was not called while it ran) was there all the same: the
# agent's I/O thread saw its semaphore (and logs it), so the calls after it
# are not said lost either.
@test "in-thread: a tracer that left before the slot's first event was there: not said lost" {
	rounds_under_bpftrace
	wait_until 30 log_has 'in-thread: slot 0 (method 0x1 "Rounds.tick"): a tracer is on its marker'
	stop_bpftrace "$BTPID"
	# no call while it was there
	[ -z "$(grep '^@calls' "$T/bt.out" | grep -vx '@calls: 0')" ] || { cat "$T/bt.out" >&2; false; }
	touch "$T/go" "$T/r/go.1"
	wait_until 30 test -e "$T/r/done.1"
	rounds_end 1
	[ "$(log_count 'a tracer is on its marker')" = 1 ]
}

# The agent keeps 256 slot registrations over all its connections: the
# session that asks for more is told which one was refused and why (a
# Notice, before the connection closes), not only the JVM's log.
@test "in-thread: a registration the agent refuses reaches the bridge that asked for it" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	local a=() b=()
	for i in $(seq 0 199); do a+=(--slot "$i:method.enter:A.m$i"); done
	for i in $(seq 0 99); do b+=(--slot "$i:method.enter:B.m$i"); done
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --fire --in-thread --session 11 "${a[@]}" \
		--log-file "$T/a.log" 3>&- &
	BPIDS+=($!)
	wait_until 30 log_has 'conn#1: Start'
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --fire --in-thread --session 22 "${b[@]}" \
		--log-file "$T/b.log" 3>&- &
	BPIDS+=($!)
	wait_until 30 grep -q 'the agent closed the connection' "$T/b.log"
	[ "$(grep -E ': (warn|error): ' "$T/b.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/: pid [0-9]+: /: /')" = "$(printf '%s\n' \
		'warn: RegisterSlot pattern "B.m56" refused: more than 256 slot registrations of in-thread sessions in this JVM; disconnecting' \
		'warn: the agent closed the connection before the VM'"'"'s death event: events after number 1 may be lost')" ] ||
		{ cat "$T/b.log" >&2; false; }
	! grep -E ': (warn|error): ' "$T/a.log" || return 1
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

@test "in-thread: a bridge refuses a malformed --in-thread command line" {
	run "$BRIDGE" --in-thread --slot 0:method.enter:A.b
	[ "$status" -eq 2 ]
	[[ "$output" == *"--in-thread: needs --fire" ]]
	run "$BRIDGE" --fire --in-thread --print --slot 0:method.enter:A.b
	[ "$status" -eq 2 ]
	[[ "$output" == *"--in-thread: the agents fire the markers, nothing reaches the bridge to print: no --print" ]]
	run "$BRIDGE" --fire --in-thread -m A.b --slot 0:method.enter:A.b
	[ "$status" -eq 2 ]
	[[ "$output" == *"--in-thread: only --slot patterns fire in the Java thread: no -m, -c or -e" ]]
}

# Issue 16 §1: a session that sends 100,000 registrations in one write is
# refused at the agent's bound per connection (told which and why, then
# closed), and another session, on a method called in a loop meanwhile,
# gets every call exactly once, nothing lost, and goes on getting them.
check_registration_flood() {
	start_jvm "$1" "" -- Families paced "$T/go" "$T/stop"
	wait_until 20 sock_exists
	start_bridge s1 -m 'Paced.busy' --args --return
	wait_until 20 registered 1
	touch "$T/go"
	wait_until 20 grep -q '^method.return ' "$T/s1.out"
	"$CLIENT" --flood 100000 --timeout 120 "$(sock_of_jvm)" >"$T/s2.out" 2>"$T/s2.err"
	[ "$(cat "$T/s2.err")" = eof ]
	local refused='Register pattern "flood.C1024.m0" refused: this connection has 16384 registrations, the most the agent takes from one connection; disconnecting'
	[ "$(grep -v '^hello ' "$T/s2.out")" = "notice: $refused" ]
	[ "$(grep -c ': warn: ' "$T/agent.log")" -eq 1 ]
	log_has ": warn: $refused\$"
	wait_until 20 conn_closed 2
	# the first session's events go on after the flood
	local before
	before=$(grep -c '^method.return ' "$T/s1.out")
	wait_until 20 eval '[ "$(grep -c "^method.return " "$T/s1.out")" -gt "$before" ]'
	paced_exactly_once s1
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "flood: 100,000 registrations in one write are refused at 16384, said to that session; another session gets every call exactly once (JDK 17)" { check_registration_flood "$JDK17"; }
@test "flood: 100,000 registrations in one write are refused at 16384, said to that session; another session gets every call exactly once (JDK 25)" { check_registration_flood "$JDK25"; }

# Issue 16 §2: 16 peers of the JVM's user that connect and say nothing hold
# every connection the agent takes; a bridge that connects then is let in at
# once, in place of the oldest of them (said in the log), not after their
# 10 s without a command are up.
@test "peers: sixteen idle connections do not keep a bridge out; the oldest idle one makes room, said once" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	local idle=() k
	for k in $(seq 16); do
		"$CLIENT" --no-hello --timeout 60 "$(sock_of_jvm)" >/dev/null 2>"$T/idle.$k.err" 3>&- &
		idle+=($!)
		wait_until 20 log_count_is 'accepted pid' "$k"
	done
	start_bridge b --vm
	wait_until 20 registered 17
	# in before any idle peer's 10 s were up, and only the first of them went
	! log_has 'sent nothing within' || return 1
	[ "$(grep -c ': warn: ' "$T/agent.log")" -eq 1 ]
	grep -Eq ': warn: conn#1 \(pid [0-9]+ uid 0\): closed to make room for a new connection: it has sent nothing in [0-9]+ ms, and all 16 connections are taken$' "$T/agent.log"
	wait_exit "${idle[0]}"
	[ "$(cat "$T/idle.1.err")" = eof ]
	kill "${idle[@]:1}" 2>/dev/null || true
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	grep -q '^vm.death ' "$T/b.out"
}

# lowest_free_fd PID: the lowest descriptor number PID has free.
lowest_free_fd() {
	local n=0
	while [ -e "/proc/$1/fd/$n" ]; do n=$((n + 1)); done
	echo "$n"
}

# Issue 16 §6: out of descriptors, accept() fails as long as it lasts; the
# agent says so once, leaves the socket alone a while between tries (it
# looped at full CPU, silent), and says how often when it works again.
@test "peers: accept out of descriptors is said once while it lasts, then with its count; the peers get in after" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	local soft hard k clients=()
	read -r soft hard < <(prlimit --pid "$JPID" --nofile --noheadings --output SOFT,HARD)
	prlimit --pid "$JPID" --nofile="$(lowest_free_fd "$JPID"):$hard"
	for k in 1 2 3; do
		"$CLIENT" --quit --timeout 60 "$(sock_of_jvm)" gc:0 >/dev/null 2>"$T/c.$k.err" 3>&- &
		clients+=($!)
	done
	wait_until 20 log_has ': warn: accepting a connection: Too many open files (said once while it lasts)$'
	prlimit --pid "$JPID" --nofile="$soft:$hard"
	for k in 1 2 3; do
		wait_exit "${clients[$((k - 1))]}"
		[ "$(cat "$T/c.$k.err")" = quit ]
	done
	[ "$(log_count ': warn: accepting a connection: ')" -eq 2 ]
	grep -Eq ': warn: accepting a connection: Too many open files: [0-9]+ times? in [0-9]+ ms, now over$' "$T/agent.log"
	[ "$(log_count 'accepted pid')" -eq 3 ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

# Issue 16 §6: a pattern's bytes reach the agent's log escaped by the one
# logging helper (runtime/log.h): a newline cannot forge a line, 0xff
# cannot make the log binary.
@test "peers: a refused pattern with a newline and 0xff is logged escaped, on one line" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	# RegisterMethod "a.B.m\nforged\xff"
	run "$CLIENT" --raw 400d000000612e422e6d0a666f72676564ff --timeout 20 "$(sock_of_jvm)"
	[ "$status" -eq 0 ]
	grep -q '^notice: RegisterMethod pattern "a.B.m$' <<<"$output"
	log_has ': warn: RegisterMethod pattern "a.B.m\\x0aforged\\xff" refused: control character 0x0a at offset 5 cannot occur in a Java name; disconnecting$'
	! grep -q '^forged' "$T/agent.log" || return 1
	LC_ALL=C grep -c $'\xff' "$T/agent.log" | grep -qx 0
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

# two_runs FILE: like contiguous, but the calls of Paced.busy come in two
# runs, each contiguous, the second beginning after the first ends (events
# lost between two sessions); the first may end with an enter whose return
# was lost. Prints the number of calls of each run.
two_runs() {
	awk '$1 == "lost" { print "lost: " $0; bad = 1; next }
	$1 == "method.enter" { split($6, a, "=")
		if (a[2] != next_n || open) {
			if (run == 2 || a[2] <= next_n) { print "enter out of order: " $0; bad = 1 }
			run = 2; open = 0
		}
		open = 1; arg = a[2]; next }
	$1 == "method.return" { split($7, r, "="); if (!open || r[2] != 2 * arg) { print "return out of order: " $0; bad = 1 } open = 0; next_n = arg + 1; calls[run]++; next }
	{ print "unexpected: " $0; bad = 1 }
	BEGIN { run = 1 }
	END { if (open) { print "a call without its return"; bad = 1 } if (run != 2) { print "one run"; bad = 1 } print calls[1], calls[2]; exit bad }' "$1"
}

# Issue 16 §3 with the real agent: kill -9 of the bridge's worker while a
# method's events stream. The agent ends the dead connection (and its
# registrations) as its socket closes; the supervisor starts another worker,
# which registers from scratch; from its first event to the JVM's end every
# call is there exactly once.
check_worker_killed() {
	start_jvm "$1" "" -- Families paced "$T/go" "$T/stop"
	wait_until 20 sock_exists
	start_bridge s1 -m 'Paced.busy' --args --return
	wait_until 20 registered 1
	touch "$T/go"
	wait_until 20 grep -q '^method.return' "$T/s1.out"
	local w
	w=$(worker_of s1)
	kill -9 "$w"
	# "peer closed the connection", or a read error when events were unread
	wait_until 20 conn_closed 1
	wait_until 20 registered 2
	# the new session's events flow
	local before
	before=$(grep -c '^method.return' "$T/s1.out")
	wait_until 20 eval '[ "$(grep -c "^method.return" "$T/s1.out")" -gt $((before + 100)) ]'
	touch "$T/stop"
	wait_exit "$JPID" 120
	JPID=
	[ "$(cat "$T/java.out")" = "paced ok" ]
	wait_exit "$BPID"
	EXPECT_WARNS="warn: worker $w died of signal 9 (Killed); another starts in 100 ms (restart 1 of 5): the JVM's events until it has registered again are lost" bridge_quiet s1
	[ "$(grep -c ': info: pid [0-9]*: worker [0-9]* started' "$T/s1.log")" -eq 2 ]
	run two_runs "$T/s1.out"
	[ "$status" -eq 0 ] || { printf '%s\n' "$output" | head -20 >&2; false; }
	# two sessions: the first closed by the kill, the second at the JVM's end
	[ "$(grep -c 'conn#[0-9]* (pid [0-9]* uid [0-9]*) closed' "$T/agent.log")" -eq 2 ]
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "kill -9 of the bridge's worker mid-stream: another registers from scratch, every later call once (JDK 17)" { check_worker_killed "$JDK17"; }
@test "kill -9 of the bridge's worker mid-stream: another registers from scratch, every later call once (JDK 25)" { check_worker_killed "$JDK25"; }

# Issue 16 §4 with the real agent: the bridge's output fails (a full disk)
# while a method's events stream: one error, the worker stops within the
# grace and unregisters, which the agent's log says (a Reset, then the
# peer's close), exit status 1; the JVM runs on.
@test "output to a full disk: the bridge exits 1 with one line, the agent sees a Reset before the close" {
	start_jvm "$JDK17" "" -- Families paced "$T/go" "$T/stop"
	wait_until 20 sock_exists
	touch "$T/go"
	local st
	timeout 30 "$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --print -m 'Paced.busy' \
		-o /dev/full 2>"$T/b.err" 3>&- && st=0 || st=$?
	[ "$st" -eq 1 ]
	[ "$(sed -E 's/^stpd-bridge\[[0-9]+\]: //' "$T/b.err")" = "error: output '/dev/full': No space left on device; stopping" ]
	wait_until 20 log_has 'conn#1 (pid [0-9]* uid [0-9]*) closed: '
	# the Reset, then the close ("peer closed the connection", or a read
	# error when the worker left events unread)
	[ "$(sed -n 's/^stapjava-agent\[[0-9]*\]: info: \(conn#1: Reset\|conn#1 (pid [0-9]* uid [0-9]*) closed: .*\)$/\1/p' "$T/agent.log" |
		sed -E 's/\(pid [0-9]+ uid [0-9]+\) closed: (peer closed the connection|read error: Connection reset by peer)$/closed/')" = "conn#1: Reset
conn#1 closed" ]
	touch "$T/stop"
	wait_exit "$JPID" 60
	JPID=
	[ "$(cat "$T/java.out")" = "paced ok" ]
}

# --- Issue 16 §9: a hostile bridge, and kill -9 loops -----------------------

start_count() { log_count 'Start: registrations complete' || true; }

# good_round N NAME: a real bridge session NAME on the Rounds JVM registers
# Rounds.tick, round N makes its 10 calls, and the session has exactly
# those, enter and return; then it is stopped.
good_round() {
	local n=$1 name=$2 starts
	starts=$(start_count)
	start_bridge "$name" -m 'Rounds.tick' --args --return
	wait_until 20 log_count_is 'Start: registrations complete' $((starts + 1))
	touch "$T/r/go.$n"
	wait_until 20 test -e "$T/r/done.$n"
	wait_until 20 eval '[ "$(grep -c "^method.return" "$T/$name.out")" -ge 10 ]'
	kill "$BPID"
	wait_exit "$BPID"
	[ "$(mask <"$T/$name.out" | sort | uniq -c | sed 's/^ *//')" = "10 method.enter pid=P tid=T ts=X method=Rounds.tick(I)I args=$n
10 method.return pid=P tid=T ts=X method=Rounds.tick(I)I popped=0 ret=$n" ]
	bridge_quiet "$name"
}

# rogue_log: the agent's log since line $FROM, warnings and the close lines,
# pids, uids and connection numbers hidden.
rogue_log() {
	tail -n +"$FROM" "$T/agent.log" | sed -E 's/^stapjava-agent\[[0-9]+\]: //; s/conn#[0-9]+/conn#N/; s/pid [0-9]+/pid P/; s/uid [0-9]+/uid U/' |
		grep -E '^warn: |closed: '
}

check_rogue() {
	start_jvm "$1" "" -- Families rounds "$T/go" "$T/r"
	mkdir -p "$T/r"
	touch "$T/go"
	wait_until 20 sock_exists
	local rogue=$BUILD/testsuite/roguebridge sock c round=0 refused=()
	sock=$(sock_of_jvm)
	local p200
	p200=$(printf 'p%.0s' $(seq 200))
	declare -A want=(
		[unknown-code]="warn: conn#N (pid P uid U): unknown command code 0x7e at offset 0; disconnecting"
		[bad-length]="warn: conn#N (pid P uid U): RegisterMethod (0x40): pattern length at offset 1: -1 is negative; disconnecting"
		[long-pattern]="warn: Register pattern \"$p200\" refused: pattern is 5000 bytes long, more than the limit of 4096; disconnecting"
		[truncated]=""
		[no-hello-extension]="warn: conn#N (pid P uid U): Register (0x50): command code at offset 0: extension not negotiated; disconnecting"
		[second-hello]="warn: conn#N (pid P): Hello after the first command (a second or late Hello is a protocol error); disconnecting"
		[hello-version-0]="warn: conn#N (pid P uid U): Hello (0x40): version at offset 11: 0 is not a protocol version; disconnecting"
		[hello-bad-order]="warn: conn#N (pid P uid U): Hello (0x40): byte order at offset 10: 0x07 is neither 'l' nor 'B'; disconnecting"
		[bad-kind]="warn: conn#N (pid P uid U): Register (0x50): kind at offset 1: 9 is not 1 (method), 2 (class) or 3 (exception); disconnecting"
		[bad-dispatch]="warn: conn#N (pid P uid U): DispatchMode (0x54): mode at offset 1: 7 is not 0 (async) or 1 (sync); disconnecting"
		[bad-slot]="warn: conn#N (pid P uid U): RegisterSlot (0x58): slot at offset 3: 65535 is not below 256; disconnecting"
		[bad-jfr-event]="warn: conn#N (pid P uid U): JfrEvent (0x5b): fields at offset 43: 2 bytes hold 0 NUL-ended parts, not the 2 announced; disconnecting"
		[flood]="warn: Register pattern \"rogue.C1024.m0\" refused: this connection has 16384 registrations, the most the agent takes from one connection; disconnecting"
		[reset-churn]=""
		[ack-flood]=""
		[garbage-after-reset]="warn: conn#N (pid P uid U): unknown command code 0xff at offset 0; disconnecting"
		[dribble]=""
	)
	declare -A seen=(
		[long-pattern]="long-pattern: hello, notice \"Register pattern \"$p200\" refused: pattern is 5000 bytes long, more than the limit of 4096; disconnecting\", closed by the agent"
		[flood]="flood: hello, notice \"Register pattern \"rogue.C1024.m0\" refused: this connection has 16384 registrations, the most the agent takes from one connection; disconnecting\", closed by the agent"
		[truncated]="truncated: hello, closed after our end"
		[no-hello-extension]="no-hello-extension: closed by the agent"
		[hello-version-0]="hello-version-0: closed by the agent"
		[hello-bad-order]="hello-bad-order: closed by the agent"
		[reset-churn]="reset-churn: hello, closed after our end"
		[ack-flood]="ack-flood: hello, closed after our end"
		[garbage-after-reset]="garbage-after-reset: hello, closed by the agent
garbage-after-reset: a write after the close: Broken pipe"
		[dribble]="dribble: hello, closed after our end"
	)
	run "$rogue" --list
	[ "${#lines[@]}" -eq "${#want[@]}" ]
	for c in "${lines[@]}"; do
		FROM=$(($(wc -l <"$T/agent.log") + 1))
		run "$rogue" "$sock" "$c"
		[ "$status" -eq 0 ] || { echo "$c: $output" >&2; false; }
		[ "$output" = "${seen[$c]:-$c: hello, closed by the agent}" ] || { echo "$c: $output" >&2; false; }
		wait_until 20 eval '[ "$(rogue_log | grep -c "closed: ")" -eq 1 ]'
		local closed="info: conn#N (pid P uid U) closed: protocol error"
		[ -n "${want[$c]}" ] || closed="info: conn#N (pid P uid U) closed: peer closed the connection"
		run rogue_log
		[ "$output" = "$(printf '%s\n%s' "${want[$c]}" "$closed" | sed '/^$/d')" ] || { echo "$c: $output" >&2; false; }
		# what the taken cases sent was applied: 1000 Resets; a registration sent a byte at a time
		case $c in
		reset-churn) [ "$(tail -n +"$FROM" "$T/agent.log" | grep -c ': info: conn#[0-9]*: Reset$')" -eq 1000 ] ;;
		dribble) [ "$(tail -n +"$FROM" "$T/agent.log" | grep -Ec ': info: conn#[0-9]+: (Register method 0x1 "Rounds.tick"|Start: registrations complete)$')" -eq 2 ] ;;
		esac
		round=$((round + 1))
		good_round "$round" "good$round"
	done
	touch "$T/r/stop"
	wait_exit "$JPID" 60
	JPID=
	[ "$(cat "$T/java.out")" = "rounds $round" ]
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "a rogue bridge's catalogue (bad lengths, codes, Hellos, floods, resets, garbage): each refused or taken as it must be, said; a good bridge served after each (JDK 17)" { check_rogue "$JDK17"; }
@test "a rogue bridge's catalogue (bad lengths, codes, Hellos, floods, resets, garbage): each refused or taken as it must be, said; a good bridge served after each (JDK 25)" { check_rogue "$JDK25"; }

# rounds_exact NAME N: NAME's lines are rounds 1 to N of Rounds.tick, 10
# calls each, enter and return, nothing else.
rounds_exact() {
	local n want
	want=$(for n in $(seq "$2"); do
		echo "10 method.enter pid=P tid=T ts=X method=Rounds.tick(I)I args=$n"
		echo "10 method.return pid=P tid=T ts=X method=Rounds.tick(I)I popped=0 ret=$n"
	done | sort)
	[ "$(mask <"$T/$1.out" | sort | uniq -c | sed 's/^ *//')" = "$want" ]
}

# kill -9 of the bridge's worker, four times over one session: after each,
# another worker registers from scratch, and each round's 10 calls are
# there exactly once (the loop with the bridge itself killed: check_kill_rounds).
check_worker_kill_loop() {
	start_jvm "$1" "" -- Families rounds "$T/go" "$T/r"
	mkdir -p "$T/r"
	touch "$T/go"
	wait_until 20 sock_exists
	start_bridge w -m 'Rounds.tick' --args --return
	local round w
	for round in 1 2 3 4 5; do
		wait_until 20 log_count_is 'Start: registrations complete' "$round"
		touch "$T/r/go.$round"
		wait_until 20 test -e "$T/r/done.$round"
		wait_until 20 eval '[ "$(grep -c "^method.return" "$T/w.out")" -ge $((round * 10)) ]'
		rounds_exact w "$round"
		[ "$round" -lt 5 ] || break
		w=$(sed -n "s/.*: info: pid $JPID: worker \([0-9]*\) started.*/\1/p" "$T/w.log" | tail -1)
		kill -9 "$w"
		wait_until 20 conn_closed "$round"
	done
	touch "$T/r/stop"
	wait_exit "$JPID" 60
	JPID=
	[ "$(cat "$T/java.out")" = "rounds 5" ]
	wait_exit "$BPID"
	rounds_exact w 5
	# four gaps said, one line each (the restart's delay doubles while the
	# workers die within 10 s of their start: masked, a slow round may reset it)
	[ "$(grep -E ': (warn|error): ' "$T/w.log" | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/pid [0-9]+: worker [0-9]+ /pid P: worker W /; s/in [0-9]+ ms \(restart [0-9] of 5\)/in D ms (restart K of 5)/' | uniq -c | sed 's/^ *//')" = "4 warn: pid P: worker W died of signal 9 (Killed); another starts in D ms (restart K of 5): the JVM's events until it has registered again are lost" ]
	[ "$(grep -c ': info: pid [0-9]*: worker [0-9]* started' "$T/w.log")" -eq 5 ]
	! compgen -G "$T/hs_err*" >/dev/null || return 1
}

@test "faults: the bridge's worker killed -9 four times in one session; each round's calls exactly once (JDK 17)" { check_worker_kill_loop "$JDK17"; }
@test "faults: the bridge's worker killed -9 four times in one session; each round's calls exactly once (JDK 25)" { check_worker_kill_loop "$JDK25"; }

# kill -9 of the JVM while sessions register: a bridge with 2000 patterns
# and a client sending 400 registrations 5 ms apart. The client sees the end
# of the stream, the bridge (-x) ends with status 0 and at most the one line
# of an agent gone mid-session; three times, then a JVM in the same socket
# directory (three stale sockets in it) serves a bridge exactly.
check_jvm_kill_loop() {
	local i pats=() regs=() k st
	for k in $(seq 2000); do pats+=(-m "rogue.C$k.m"); done
	for k in $(seq 400); do regs+=("reg:method:1:rogue.D$k.m"); done
	mkdir -p "$T/r"
	touch "$T/go"
	for i in 1 2 3; do
		: >"$T/agent.log"
		start_jvm "$1" "" -- Families rounds "$T/go" "$T/r"
		wait_until 20 compgen -G "$T/s/jvm-*-$JPID-*.sock"
		start_bridge "k$i" "${pats[@]}"
		"$CLIENT" --gap-ms 5 --timeout 60 "$(ls "$T"/s/jvm-*-"$JPID"-*.sock)" "${regs[@]}" >/dev/null 2>"$T/client$i.err" 3>&- &
		CPID=$!
		# the bridge's worker has connected (a bridge that finds its -x JVM gone
		# before it served it ends with status 1, rightly), the client registers
		wait_until 20 grep -q 'connected to the agent' "$T/k$i.log"
		wait_until 20 eval '[ "$(grep -c "Register method 0x1 \"rogue.D" "$T/agent.log")" -ge 20 ]'
		kill -9 "$JPID"
		wait_exit "$JPID" 20 || true
		JPID=
		st=0
		wait_exit "$CPID" || st=$?
		CPID=
		[ "$st" -eq 0 ]
		[ "$(cat "$T/client$i.err")" = eof ]
		st=0
		wait_exit "$BPID" || st=$?
		[ "$st" -eq 0 ]
		[ ! -s "$T/k$i.out" ]
		# (the lines at a session's end naming the patterns nothing matched aside)
		run bash -c "grep -E ': (warn|error): ' '$T/k$i.log' | grep -v ': no event of the method pattern ' | sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/pid [0-9]+: //; s/number [0-9]+/number N/'"
		[ "${#lines[@]}" -le 1 ] || { echo "$output" >&2; false; }
		[[ -z "$output" || "$output" =~ ^"warn: the agent closed the connection before the VM's death event: events after number N may be lost"$ ||
			"$output" =~ ^"warn: connection lost: Connection reset by peer"$ ||
			"$output" =~ ^"warn: sending "(Hello|the registrations)" failed: "(Broken pipe|Connection reset by peer)$ ]] || { echo "$output" >&2; false; }
	done
	[ "$(compgen -G "$T/s/jvm-*.sock" | wc -l)" -eq 3 ]
	: >"$T/agent.log"
	start_jvm "$1" "" -- Families rounds "$T/go" "$T/r"
	wait_until 20 compgen -G "$T/s/jvm-*-$JPID-*.sock"
	good_round 1 good
	touch "$T/r/stop"
	wait_exit "$JPID" 60
	JPID=
	[ "$(cat "$T/java.out")" = "rounds 1" ]
}

@test "faults: the JVM killed -9 three times while a bridge and a client register; each side ends cleanly, a new JVM serves exactly (JDK 17)" { check_jvm_kill_loop "$JDK17"; }
@test "faults: the JVM killed -9 three times while a bridge and a client register; each side ends cleanly, a new JVM serves exactly (JDK 25)" { check_jvm_kill_loop "$JDK25"; }

# Issue 15: JFR events (java.jfr, stpd-bridge --jfr). The agent keeps one JFR
# recording per session that wants JFR, holding only its event types, and
# reads its chunks from JFR's repository; a session that leaves takes its
# recording with it, and the repository our recording made (agent/jfr.h).
jcmd_of() { echo "${1%/java}/jcmd"; }

check_jfr_stop_leaves_nothing() {
	local java=$1 repo
	start_jvm "$java" "" -- JfrGc "$T/go" 0 "$T/stop"
	wait_until 20 sock_exists
	start_bridge b --jfr 'jdk.GarbageCollection,jdk.GCPhasePause#threshold=1 ms'
	wait_until 30 log_has 'conn#1: JFR recording started: 2 event types, from chunk /'
	repo=$(sed -n 's|.*conn#1: JFR recording started: 2 event types, from chunk \(/.*\)/[^/]*\.jfr$|\1|p' "$T/agent.log")
	[ -d "$repo" ]
	run "$(jcmd_of "$java")" "$JPID" JFR.check
	[[ $output == *"name=stapjava conn#1 "*"(running)"* ]]
	kill "$BPID"
	wait_exit "$BPID"
	wait_until 20 log_has "JFR repository $repo removed"
	[ ! -e "$repo" ]
	run "$(jcmd_of "$java")" "$JPID" JFR.check
	[[ $output == *"No available recordings."* ]]
	[[ $output != *stapjava* ]]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}
@test "jfr: a session's recording runs while it is there; when it leaves, no recording and no repository of ours are left (JDK 17)" { check_jfr_stop_leaves_nothing "$JDK17"; }
@test "jfr: a session's recording runs while it is there; when it leaves, no recording and no repository of ours are left (JDK 25)" { check_jfr_stop_leaves_nothing "$JDK25"; }

# A recording the user started is left alone: it runs before, during and after ours.
@test "jfr: a recording the user started is not disturbed by a session's" {
	start_jvm "$JDK17" "" -- -XX:StartFlightRecording=name=mine,filename=$T/mine.jfr JfrGc "$T/go" 0 "$T/stop"
	wait_until 20 sock_exists
	start_bridge b --jfr jdk.GarbageCollection
	wait_until 30 log_has 'conn#1: JFR recording started: 1 event types, from chunk /'
	run "$(jcmd_of "$JDK17")" "$JPID" JFR.check
	[[ $output == *"name=mine "*"(running)"* ]]
	[[ $output == *"name=stapjava conn#1 "*"(running)"* ]]
	kill "$BPID"
	wait_exit "$BPID"
	wait_until 20 log_has 'conn#1: JFR recording closed'
	run "$(jcmd_of "$JDK17")" "$JPID" JFR.check
	[[ $output == *"name=mine "*"(running)"* ]]
	[[ $output != *stapjava* ]]
	! log_has 'JFR repository .* removed' || return 1
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

check_jfr_disabled() {
	local java=$1
	start_jvm "$java" "" -- -XX:-FlightRecorder JfrGc "$T/go" 0 "$T/stop"
	wait_until 20 sock_exists
	start_bridge b --jfr jdk.GarbageCollection
	wait_until 30 grep -q 'JFR events cannot be had' "$T/b.log"
	EXPECT_WARNS="warn: JFR events cannot be had: JFR is disabled in this JVM (FlightRecorder.isAvailable() is false: -XX:-FlightRecorder, or the platform lacks it)" \
		bridge_quiet b
	! log_has 'JFR recording started' || return 1
	run "$(jcmd_of "$java")" "$JPID" JFR.check
	[[ $output != *stapjava* ]]
	# a listing of its types ends at once (JfrData NONE), the JVM runs on
	run "$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --jfr-types --jfr jdk.GarbageCollection
	[ "$status" -eq 1 ] && [[ $output == *"warn: pid $JPID: JFR events cannot be had: JFR is disabled in this JVM"* ]]
	[[ $output == *"warn: pid $JPID: no JFR event types listed (none selected, JFR unavailable, or the JVM ended: see above)" ]]
	kill -0 "$JPID"
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}
@test "jfr: a JVM with -XX:-FlightRecorder: a Notice says JFR is disabled, no recording (JDK 17)" { check_jfr_disabled "$JDK17"; }
@test "jfr: a JVM with -XX:-FlightRecorder: a Notice says JFR is disabled, no recording (JDK 25)" { check_jfr_disabled "$JDK25"; }

@test "jfr: an event type the JVM lacks is said with the names most like it; a wildcard that selects none is said" {
	start_jvm "$JDK17" "" -- JfrGc "$T/go" 0 "$T/stop"
	wait_until 20 sock_exists
	start_bridge b --jfr 'jdk.GarbageColection,nope.*'
	wait_until 30 grep -q "no JFR event type of this JVM matches 'nope.\*'" "$T/b.log"
	EXPECT_WARNS="warn: this JVM has no JFR event type 'jdk.GarbageColection'; similar: jdk.GarbageCollection, jdk.G1GarbageCollection, jdk.OldGarbageCollection
warn: no JFR event type of this JVM matches 'nope.*'" bridge_quiet b
	! log_has 'JFR recording started' || return 1
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

# count_at_least FILE PATTERN N: FILE has N lines matching PATTERN, or more.
count_at_least() { [ "$(grep -c -- "$2" "$1" 2>/dev/null)" -ge "$3" ]; }

# jfr_mask FILE: the --print --jfr lines with what changes from run to run
# (pid, times, the collection's number and pauses) masked.
jfr_mask() {
	sed -E 's/ pid=[0-9]+ / pid=P /; s/ start_ns=[0-9]+ duration_ns=[0-9]+ / start_ns=S duration_ns=D /;
		s/ (gcId|sumOfPauses|longestPause)=[0-9]+/ \1=N/g; s/ tid=[1-9][0-9]* / tid=T /;
		s/ eventThread.osThreadId=[0-9]+ / eventThread.osThreadId=T /' "$1"
}

# The JDK's own collector events for System.gc(), as --print --jfr shows
# them: JDK 25 names the VM thread that ran the collection, JDK 17 none.
check_jfr_gc_lines() {
	local java=$1 line l
	start_jvm "$java" "" -- -XX:+UseG1GC JfrGc "$T/go" 3
	wait_until 20 sock_exists
	start_bridge b --jfr jdk.GarbageCollection
	wait_until 30 log_has 'conn#1: JFR recording started: 1 event types'
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$BPID"
	if [ "$java" = "$JDK17" ]; then
		line='jfr pid=P tid=0 start_ns=S duration_ns=D type=jdk.GarbageCollection thread="" gcId=N name="G1Full" cause="System.gc()" sumOfPauses=N longestPause=N'
	else
		line='jfr pid=P tid=T start_ns=S duration_ns=D type=jdk.GarbageCollection thread="VM Thread" eventThread.osName="VM Thread" eventThread.osThreadId=T eventThread.javaName=null eventThread.javaThreadId=0 eventThread.group=null eventThread.virtual=0 gcId=N name="G1Full" cause="System.gc()" sumOfPauses=N longestPause=N'
	fi
	[ "$(jfr_mask "$T/b.out")" = "$line
$line
$line" ] || { cat "$T/b.out"; false; }
	# properties of what was masked: pauses and durations above 0, times in
	# order, the thread's tid the one the JVM gave (the same namespace)
	while read -r l; do
		[[ $l =~ \ sumOfPauses=([0-9]+)\  ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]
		[[ $l =~ \ duration_ns=([0-9]+)\  ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]
		if [ "$java" = "$JDK25" ]; then
			[[ $l =~ \ tid=([0-9]+)\ .*\ eventThread.osThreadId=([0-9]+)\  ]] &&
				[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
		fi
	done <"$T/b.out"
	sed -E 's/.* start_ns=([0-9]+) .*/\1/' "$T/b.out" | sort -c -n
	bridge_quiet b
}
@test "jfr: --print --jfr jdk.GarbageCollection: a line per System.gc() with its collector, cause and pauses (JDK 17)" { check_jfr_gc_lines "$JDK17"; }
@test "jfr: --print --jfr jdk.GarbageCollection: a line per System.gc() with its collector, cause and pauses (JDK 25)" { check_jfr_gc_lines "$JDK25"; }

# Two sessions with different thresholds on one type: JFR runs the union
# (the lowest), each session sees what it asked for.
check_jfr_two_sessions() {
	local java=$1
	start_jvm "$java" "" -- -XX:+UseG1GC JfrGc "$T/go" 2 "$T/stop"
	wait_until 20 sock_exists
	start_bridge a --jfr 'jdk.GarbageCollection,jdk.GCPhasePause#threshold=0 ms'
	wait_until 30 log_has 'conn#1: JFR recording started: 2 event types'
	start_bridge b --jfr 'jdk.GarbageCollection,jdk.GCPhasePause#threshold=1 h'
	wait_until 30 log_has 'conn#2: JFR recording started: 2 event types'
	run "$(jcmd_of "$java")" "$JPID" JFR.check
	[[ $output == *"name=stapjava conn#1 "*"(running)"* ]]
	[[ $output == *"name=stapjava conn#2 "*"(running)"* ]]
	touch "$T/go"
	wait_until 30 grep -q '^gc 2$' "$T/java.out"
	wait_until 30 count_at_least "$T/a.out" 'type=jdk.GarbageCollection ' 2
	wait_until 30 count_at_least "$T/b.out" 'type=jdk.GarbageCollection ' 2
	wait_until 30 count_at_least "$T/a.out" 'type=jdk.GCPhasePause ' 2
	[ "$(grep -c 'type=jdk.GarbageCollection ' "$T/a.out")" -eq 2 ]
	[ "$(grep -c 'type=jdk.GarbageCollection ' "$T/b.out")" -eq 2 ]
	# every pause of a collection is in the one session's, none in the other's
	[ "$(grep -c 'type=jdk.GCPhasePause ' "$T/b.out")" -eq 0 ]
	grep 'type=jdk.GCPhasePause ' "$T/a.out" | grep -q ' name="GC Pause"'
	touch "$T/stop"
	wait_exit "$JPID"
	JPID=
	bridge_quiet a
	bridge_quiet b
}
@test "jfr: two sessions with different thresholds: each sees what it asked for (JDK 17)" { check_jfr_two_sessions "$JDK17"; }
@test "jfr: two sessions with different thresholds: each sees what it asked for (JDK 25)" { check_jfr_two_sessions "$JDK25"; }

# The JVM killed mid-stream: the bridge says the agent went before the VM's
# end, keeps what it printed, and ends.
@test "jfr: a JVM killed mid-chunk: what was flushed is printed, the end is said" {
	start_jvm "$JDK17" "" -- -XX:+UseG1GC JfrGc "$T/go" 2 "$T/stop"
	wait_until 20 sock_exists
	start_bridge b --jfr jdk.GarbageCollection
	wait_until 30 log_has 'conn#1: JFR recording started: 1 event types'
	touch "$T/go"
	wait_until 30 count_at_least "$T/b.out" 'type=jdk.GarbageCollection ' 2
	kill -9 "$JPID"
	wait_exit "$JPID" || true
	JPID=
	wait_exit "$BPID"
	grep -q "warn: pid [0-9]*: the agent closed the connection before the VM's death event" "$T/b.log"
	[ "$(grep -c 'type=jdk.GarbageCollection .* cause="System.gc()"' "$T/b.out")" -eq 2 ]
	# a JVM killed -9 leaves JFR's repository behind (JFR removes it at exit): not in /tmp for good
	rm -rf "$(sed -n 's|.*conn#1: JFR recording started: .* from chunk \(/.*\)/[^/]*\.jfr$|\1|p' "$T/agent.log")"
}

# --jfr-types: the JVM's event types the patterns select, with their
# fields' paths, from the metadata of a recording that records none; then
# the bridge exits, and the recording is gone.
check_jfr_types() {
	local java=$1
	start_jvm "$java" "" -- JfrGc "$T/go" 0 "$T/stop"
	wait_until 20 sock_exists
	run "$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --jfr-types --jfr 'jdk.GarbageCollection,jdk.Socket*,jdk.Nope'
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	grep -q 'warn: pid [0-9]*: this JVM has no JFR event type .jdk.Nope.$' <<<"$output"
	grep -Eq '^jfr jdk.GarbageCollection (.* )?gcId name cause sumOfPauses longestPause$' <<<"$output"
	grep -Eq '^jfr jdk.SocketRead .* host address port timeout bytesRead endOfStream$' <<<"$output"
	grep -Eq '^jfr jdk.SocketWrite .* host address port bytesWritten$' <<<"$output"
	[ "$(grep -c '^jfr ' <<<"$output")" -eq 3 ]
	log_has 'conn#1: JfrSettings "jdk.GarbageCollection#enabled=false\\x0ajdk.Socket\*#enabled=false\\x0ajdk.Nope#enabled=false"'
	wait_until 20 log_has 'conn#1: JFR recording closed'
	# stap-java -l/-L java.jfr("...") -x PID: the same, as probe points
	local sj=$BUILD/translator-patches/stap-java
	export STAPJAVA_BRIDGE=$BRIDGE STAPJAVA_AGENT=$AGENT STAPJAVA_TAPSET=$BUILD/tapset STAPJAVA_BRIDGE_OPTS="--sockdir $T/s"
	run --separate-stderr "$sj" -l 'java.jfr("jdk.Socket*"), java.jfr("jdk.GarbageCollection")' -x "$JPID"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$output" = "$(printf '%s\n' 'java.jfr("jdk.GarbageCollection")' 'java.jfr("jdk.SocketRead")' 'java.jfr("jdk.SocketWrite")')" ]
	run --separate-stderr "$sj" -L 'java.jfr("jdk.GarbageCollection")' -x "$JPID"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[[ $output == 'java.jfr("jdk.GarbageCollection") java_event_name:string '*' jfr_type:string jfr_start_ns:long jfr_duration_ns:long '*'@jfr_field("gcId") @jfr_field("name") @jfr_field("cause") @jfr_field("sumOfPauses") @jfr_field("longestPause")' ]]
	run --separate-stderr "$sj" -l 'java.jfr("jdk.GarbageColection")' -x "$JPID"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[[ $stderr == *"this JVM has no JFR event type 'jdk.GarbageColection'; similar: jdk.GarbageCollection, "* ]]
	[[ $stderr == *"warn: pid $JPID: no JFR event types listed (none selected, JFR unavailable, or the JVM ended: see above)" ]]
	# the agent said no recording serves it (JfrData NONE): the listing
	# ended then, not when the JVM did (it waits for go and stop, 60 s each)
	kill -0 "$JPID"
	log_has 'conn#[0-9]*: JfrSettings "jdk.GarbageColection#enabled=false"'
	run "$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --jfr-types --jfr 'nope.*'
	[ "$status" -eq 1 ] && [[ $output == *"warn: pid $JPID: no JFR event type of this JVM matches 'nope.*'"* ]]
	[[ $output == *"warn: pid $JPID: no JFR event types listed (none selected, JFR unavailable, or the JVM ended: see above)" ]]
	[ "$(grep -c '^jfr ' <<<"$output")" -eq 0 ]
	kill -0 "$JPID"
	run "$(jcmd_of "$java")" "$JPID" JFR.check
	[[ $output != *stapjava* ]]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}
@test "jfr: --jfr-types lists the JVM's event types a pattern selects, with their fields, and leaves no recording (JDK 17)" { check_jfr_types "$JDK17"; }
@test "jfr: --jfr-types lists the JVM's event types a pattern selects, with their fields, and leaves no recording (JDK 25)" { check_jfr_types "$JDK25"; }
