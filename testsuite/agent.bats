#!/usr/bin/env bats
# The JVMTI agent (agent/libstapjava.so), tested on its own with
# testsuite/java/sjclient standing in for stpd-bridge. Every JVM-dependent test
# runs on JDK 17 (Debian) and JDK 25 (Temurin). No sleep-and-hope: each step
# waits (bounded) for a file, a log line or a process.

setup_file() {
	export SRC=${STAPJAVA_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
	export BUILD=${STAPJAVA_BUILDDIR:-$SRC}
	export AGENT=$BUILD/agent/libstapjava.so
	export CLIENT=$BUILD/testsuite/java/sjclient
	export CLASSES=$BUILD/testsuite/java/classes
	export JDK17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
	export JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
}

setup() {
	[ -f "$AGENT" ] || { echo "no agent at $AGENT: run make" >&2; return 1; }
	[ -x "$CLIENT" ] || { echo "no client at $CLIENT: run make check" >&2; return 1; }
	[ -f "$CLASSES/Families.class" ] || { echo "no test classes in $CLASSES: run make check" >&2; return 1; }
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/s"
	chmod 700 "$T/s"
	JPID= CPID=
}

teardown() {
	[ -n "$CPID" ] && kill "$CPID" 2>/dev/null
	[ -n "$JPID" ] && kill "$JPID" 2>/dev/null
	true
}

# wait_until SECONDS CMD...: retry CMD every 20 ms until it succeeds or time is up.
wait_until() {
	local limit=$(($1 * 50)) i=0
	shift
	until "$@"; do
		i=$((i + 1))
		[ "$i" -lt "$limit" ] || { echo "timed out waiting for: $*" >&2; return 1; }
		sleep 0.02
	done
}

log_has() { grep -q -- "$1" "$T/agent.log" 2>/dev/null; }
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
	"$java" "-agentpath:$AGENT=sockdir=$T/s,loglevel=info,logfile=$T/agent.log$extra" \
		-cp "$CLASSES" "$@" >"$T/java.out" 2>"$T/java.err" &
	JPID=$!
}

sock_of_jvm() { ls "$T"/s/jvm-*.sock; }

# start_client ARGS...: sjclient in the background, events to $T/events.
start_client() {
	"$CLIENT" "$@" >"$T/events" 2>"$T/client.err" &
	CPID=$!
}

# mask: hide what changes from run to run (pid, tid, ts, ids, hashes).
mask() {
	sed -E 's/ pid=[0-9]+/ pid=P/; s/ tid=[0-9]+/ tid=T/; s/ ts=[0-9]+/ ts=X/;
		s/@[0-9a-f]+#[0-9]+/@H#ID/g; s/#[0-9]+/#ID/g; s/code_size=[0-9]+/code_size=N/;
		s/code_addr=0x[0-9a-f]+/code_addr=A/; s/ object=[0-9]+/ object=ID/' "$@"
}

# family JAVA SCENARIO LASTLOG CMDS...: run a scenario with a client registered
# for CMDS, wait for the JVM and the client, leave events in $T/events.
family() {
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
	! grep -v '^hello ' "$T/events" | grep -v " pid=$pid " | grep -q .
}

check_methods() {
	local java=$1
	family "$java" methods 'RequestForOptionalData 0x3' 'method:Demo.*' opt:3
	local main
	main=$(java_tid main)
	[ -n "$main" ]
	pids_are_jvms "$JVMPID"
	# every event happened on the main thread, whose OS tid Java printed itself
	[ "$(grep -c '^method' "$T/events")" -eq "$(grep -c "^method[^ ]* pid=[0-9]* tid=$main " "$T/events")" ]
	grep -v '^hello' "$T/events" | mask >"$T/got"
	cat >"$T/want" <<'WANT'
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
method.enter pid=P tid=T ts=X method=Demo.refs(Ljava/lang/String;Ljava/lang/Object;Ljava/lang/Object;[I[Ljava/lang/String;[[I)Ljava/lang/String; args="héllo €😀 \"q\"\n",java.util.ArrayList@H#ID,null,int[3]#ID,java.lang.String[2]#ID,int[2][]#ID
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
method.return pid=P tid=T ts=X method=Demo.fail()V popped=1 ret=?
method.return pid=P tid=T ts=X method=Demo.run()V popped=0 ret=void
WANT
	diff -u "$T/want" "$T/got"
	# MethodEntry was switched off again when the client left (the VM exiting counts)
	log_has 'info: event MethodEntry enabled'
	log_has 'info: event MethodEntry disabled'
}

@test "methods: enter/return with every argument and return type (JDK 17)" { check_methods "$JDK17"; }
@test "methods: enter/return with every argument and return type (JDK 25)" { check_methods "$JDK25"; }

check_exceptions() {
	family "$1" exceptions 'RegisterException' 'exception:java.lang.IllegalArgumentException'
	local main
	main=$(java_tid main)
	grep -v '^hello' "$T/events" | sed -E "s/ tid=$main / tid=MAIN /" | mask >"$T/got"
	cat >"$T/want" <<'WANT'
exception.thrown pid=P tid=MAIN ts=X exception=java.lang.IllegalArgumentException method=Exceptions.thrower()V
exception.catch pid=P tid=MAIN ts=X exception=java.lang.IllegalArgumentException method=Exceptions.catcher()V
WANT
	diff -u "$T/want" "$T/got"
}

@test "exceptions: thrown and caught, with class and method (JDK 17)" { check_exceptions "$JDK17"; }
@test "exceptions: thrown and caught, with class and method (JDK 25)" { check_exceptions "$JDK25"; }

check_threads() {
	family "$1" threads 'ThreadEvents on' threads:1
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
	family "$1" monitors 'MonitorEvents on' monitors:1
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

check_gc() {
	family "$1" gc 'GcEvents on' gc:1
	grep -v '^hello' "$T/events" | mask >"$T/got"
	printf 'gc.start pid=P tid=T ts=X\ngc.finish pid=P tid=T ts=X\n' >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "gc: start and finish around System.gc() (JDK 17)" { check_gc "$JDK17"; }
@test "gc: start and finish around System.gc() (JDK 25)" { check_gc "$JDK25"; }

check_classes() {
	family "$1" classes 'Register class 0x4' class:Loaded reg:class:4:Unloadable
	local main
	main=$(java_tid main)
	grep -v '^hello' "$T/events" | sed -E "s/ tid=$main / tid=MAIN /" | mask >"$T/got"
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
	start_client "$(sock_of_jvm)" reg:method:4:Hot.work
	wait_until 20 log_has 'Register method 0x4'
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$CPID"
	CPID=
	local main
	main=$(java_tid main)
	grep -q '^method.compile .* method=Hot.work(I)I code_size=[1-9][0-9]* code_addr=0x[0-9a-f]*[1-9a-f][0-9a-f]*$' "$T/events"
	# compiled by a compiler thread, not by main; and nothing else was reported
	! grep '^method.compile' "$T/events" | grep -q " tid=$main "
	[ "$(grep -v '^hello' "$T/events" | grep -vc '^method.compile .* method=Hot.work(I)I ')" -eq 0 ]
	# only compile was registered: MethodEntry never went on, so the loop ran compiled
	! log_has 'event MethodEntry enabled'
}

@test "compile: a hot method's compilation with code size and address (JDK 17)" { check_compile "$JDK17"; }
@test "compile: a hot method's compilation with code size and address (JDK 25)" { check_compile "$JDK25"; }

check_vm() {
	start_jvm "$1" ",wait_ms=20000" -- Families hello "$T/go"
	touch "$T/go"
	wait_until 20 sock_exists
	start_client "$(sock_of_jvm)" vm:1
	wait_exit "$JPID"
	JPID=
	wait_exit "$CPID"
	CPID=
	grep -v '^hello' "$T/events" | mask >"$T/got"
	printf 'vm.init pid=P tid=T ts=X\nvm.death pid=P tid=T ts=X\n' >"$T/want"
	diff -u "$T/want" "$T/got"
	[ "$(cat "$T/java.out")" = "hello from Families" ]
}

@test "vm: init (with wait_ms for a first bridge) and death (JDK 17)" { check_vm "$JDK17"; }
@test "vm: init (with wait_ms for a first bridge) and death (JDK 25)" { check_vm "$JDK25"; }

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
	! compgen -G "$T/hs_err*" >/dev/null
	# the socket is gone once the JVM has exited
	! sock_exists
}

@test "load: -agentpath and JAVA_TOOL_OPTIONS leave output and exit code unchanged (JDK 17)" { check_load "$JDK17"; }
@test "load: -agentpath and JAVA_TOOL_OPTIONS leave output and exit code unchanged (JDK 25)" { check_load "$JDK25"; }

@test "load: an unknown or bad option stops the JVM with one line naming it" {
	run "$JDK17" "-agentpath:$AGENT=sockdir=$T/s,bogus=1" -cp "$CLASSES" Families hello "$T/go"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} =~ ^stapjava-agent\[[0-9]+\]:\ error:\ unknown\ option\ \'bogus\'\ \(known:\ sockdir,\ loglevel,\ logfile,\ bufsize,\ timeout_us,\ strmax,\ stackmax,\ wait_ms\)\;\ the\ agent\ is\ not\ loaded$ ]]
	run "$JDK25" "-agentpath:$AGENT=bufsize=12" -cp "$CLASSES" Families hello "$T/go"
	[ "$status" -eq 1 ]
	[[ ${lines[0]} =~ "error: option bufsize='12': not a number of bytes from 4096 to 268435456; the agent is not loaded" ]]
}

# ---------------------------------------------------------------- the socket

@test "socket: documented default path, 0600 in a 0700 dir, removed at exit" {
	local dir=/tmp/stapjava-$(id -u)
	"$JDK17" "-agentpath:$AGENT=loglevel=info,logfile=$T/agent.log" -cp "$CLASSES" Families idle "$T/go" "$T/stop" \
		>"$T/java.out" 2>&1 &
	JPID=$!
	local pidns nspid start path
	wait_until 20 log_has 'listening on '
	pidns=$(stat -L -c %i /proc/$JPID/ns/pid)
	nspid=$(awk '/^NSpid:/ {print $NF}' /proc/$JPID/status)
	start=$(awk '{print $22}' /proc/$JPID/stat)
	path=$dir/jvm-$pidns-$nspid-$start.sock
	log_has "listening on $path\$"
	[ -S "$path" ]
	[ "$(stat -c %a "$path")" = 600 ]
	[ "$(stat -c %a "$dir")" = 700 ]
	[ ! -L "$dir" ]
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	[ ! -e "$path" ]
}

@test "socket: re-created after a /tmp cleaner removed it; a stale one is replaced" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	local path
	path=$(sock_of_jvm)
	rm -f "$path"
	wait_until 10 test -S "$path"
	log_has "socket $path was removed or replaced; re-created it"
	# a dead socket of the same name (bound by a process that is gone)
	rm -f "$path"
	python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$path"
	wait_until 10 recreated_twice
	[ "$(stat -c %a "$path")" = 600 ]
	start_client "$path" threads:1
	wait_until 20 log_has 'ThreadEvents on'
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	wait_exit "$CPID"
	CPID=
	grep -q '^hello pid=' "$T/events"
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
	! compgen -G "$T/hs_err*" >/dev/null
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
	unsafe_dir "$T/other" "error: socket directory $T/other is not owned by the JVM's user: refused"
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
	# the owner still gets in
	start_client "$(sock_of_jvm)" threads:1
	wait_until 20 log_has 'ThreadEvents on'
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
	wait_exit "$CPID"
	CPID=
	grep -q '^hello pid=' "$T/events"
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
	! compgen -G "$T/hs_err*" >/dev/null
}

@test "peers: MethodEntry is disabled again when the last bridge is killed" {
	start_jvm "$JDK17" "" -- Families idle "$T/go" "$T/stop"
	wait_until 20 sock_exists
	start_client "$(sock_of_jvm)" 'method:Demo.*'
	local first=$CPID
	wait_until 20 log_has 'conn#1: RegisterMethod'
	start_client "$(sock_of_jvm)" 'method:Exceptions.*'
	wait_until 20 log_has 'conn#2: RegisterMethod'
	[ "$(grep -c 'event MethodEntry enabled' "$T/agent.log")" -eq 1 ]
	kill -9 "$first"
	wait_until 20 log_has 'conn#1 .* closed: peer closed the connection'
	! log_has 'event MethodEntry disabled'
	kill -9 "$CPID"
	CPID=
	wait_until 20 log_has 'event MethodEntry disabled'
	wait_until 20 log_has 'event MethodExit disabled'
	touch "$T/go" "$T/stop"
	wait_exit "$JPID"
	JPID=
}

check_two_sessions() {
	start_jvm "$1" "" -- Families methods "$T/go"
	wait_until 20 sock_exists
	"$CLIENT" "$(sock_of_jvm)" 'method:Demo.add(II)I' opt:3 >"$T/a" 2>"$T/a.err" &
	local a=$!
	wait_until 20 log_has 'conn#1: RequestForOptionalData'
	"$CLIENT" "$(sock_of_jvm)" exception:java.lang.IllegalStateException >"$T/b" 2>"$T/b.err" &
	local b=$!
	wait_until 20 log_has 'conn#2: RegisterException'
	touch "$T/go"
	wait_exit "$JPID"
	JPID=
	wait_exit "$a"
	wait_exit "$b"
	grep -v '^hello' "$T/a" | mask >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
	grep -v '^hello' "$T/b" | mask >"$T/got"
	printf '%s\n' 'exception.thrown pid=P tid=T ts=X exception=java.lang.IllegalStateException method=Demo.fail()V' \
		'exception.catch pid=P tid=T ts=X exception=java.lang.IllegalStateException method=Demo.run()V' >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "peers: two sessions on one JVM each get only what they registered (JDK 17)" { check_two_sessions "$JDK17"; }
@test "peers: two sessions on one JVM each get only what they registered (JDK 25)" { check_two_sessions "$JDK25"; }

@test "peers: an Appendix-only client gets plain Appendix A (no Hello, no trailer, no extensions)" {
	family "$JDK17" methods 'RequestForOptionalData 0x3' --no-hello 'method:Demo.add' opt:3 gc:1
	local main
	main=$(java_tid main)
	! grep -q '^hello' "$T/events"
	# without a trailer the tid comes from the body's thread field: still the OS tid
	grep -v " tid=$main " "$T/events" | (! grep -q .)
	mask "$T/events" >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
}

check_stack() {
	family "$1" methods 'RequestForOptionalData 0x4' 'reg:method:1:Demo.add' opt:4
	local src=$SRC/testsuite/java/Families.java l_add l_run l_main
	l_add=$(grep -n 'static int add(int a, int b)' "$src" | cut -d: -f1)
	l_run=$(grep -n '^        add(2, 3);' "$src" | cut -d: -f1)
	l_main=$(grep -n 'case "methods": Demo.run();' "$src" | cut -d: -f1)
	grep -v '^hello' "$T/events" | mask >"$T/got"
	echo "method.enter pid=P tid=T ts=X method=Demo.add(II)I args= stack=Demo.add(II)I:$l_add|Demo.run()V:$l_run|Families.main([Ljava/lang/String;)V:$l_main" >"$T/want"
	diff -u "$T/want" "$T/got"
}

@test "optional data: a Java stack trace in the trailer (JDK 17)" { check_stack "$JDK17"; }
@test "optional data: a Java stack trace in the trailer (JDK 25)" { check_stack "$JDK25"; }

# ---------------------------------------------------------------- dispatch

check_sync() {
	family "$1" methods 'DispatchMode sync' 'method:Demo.add' opt:3 sync:50000
	grep -v '^hello' "$T/events" | mask >"$T/got"
	printf '%s\n' 'method.enter pid=P tid=T ts=X method=Demo.add(II)I args=2,3' \
		'method.return pid=P tid=T ts=X method=Demo.add(II)I popped=0 ret=5' >"$T/want"
	diff -u "$T/want" "$T/got"
	log_has 'conn#1: DispatchMode sync 50000 us'
	! log_has 'no Ack'
}

@test "dispatch: synchronous events are acknowledged (JDK 17)" { check_sync "$JDK17"; }
@test "dispatch: synchronous events are acknowledged (JDK 25)" { check_sync "$JDK25"; }

@test "dispatch: a bridge that never acks delays a thread by the timeout at most, once logged" {
	family "$JDK17" methods 'DispatchMode sync' --ack-never 'method:Demo.*' sync:99999999
	# the bridge's request is clamped to the agent's own timeout_us (default 100000)
	log_has 'conn#1: DispatchMode sync 100000 us'
	[ "$(grep -c 'no Ack for event' "$T/agent.log")" -eq 1 ]
	log_has "synchronous events were not acknowledged in time"
	[ "$(grep -c '^method.enter' "$T/events")" -eq 20 ]
}

check_flood() {
	start_jvm "$1" ",bufsize=65536" -- Families flood "$T/go" 200000 "$T/done"
	wait_until 20 sock_exists
	start_client --count --pause-until "$T/done" "$(sock_of_jvm)" 'method:Flood.tick(I)V'
	wait_until 20 log_has 'RegisterMethod'
	touch "$T/go"
	wait_exit "$JPID" 120
	JPID=
	wait_exit "$CPID"
	CPID=
	local generated events lost
	generated=$(sed -n 's/^generated //p' "$T/java.out")
	events=$(sed -n 's/^events=\([0-9]*\) lost=.*/\1/p' "$T/events")
	lost=$(sed -n 's/^events=[0-9]* lost=\([0-9]*\)$/\1/p' "$T/events")
	echo "generated=$generated events=$events lost=$lost"
	# enter + return per call
	[ "$((events + lost))" -eq "$((2 * generated))" ]
	[ "$lost" -gt 0 ]
}

@test "dispatch: a full buffer drops and counts: generated = delivered + lost (JDK 17)" { check_flood "$JDK17"; }
@test "dispatch: a full buffer drops and counts: generated = delivered + lost (JDK 25)" { check_flood "$JDK25"; }

# ---------------------------------------------------------------- robustness

check_exit_race() {
	local java=$1 mode=$2
	cd "$T"
	start_jvm "$java" "" -- Families exitrace "$T/go"
	wait_until 20 sock_exists
	start_client "$(sock_of_jvm)" 'method:ExitRace.busy' opt:3 exception:java.lang.RuntimeException threads:1 monitors:1 gc:1 $mode
	wait_until 20 log_has 'GcEvents on'
	[ -z "$mode" ] || wait_until 20 log_has 'DispatchMode'
	touch "$T/go"
	wait_exit "$JPID" 60
	JPID=
	wait_exit "$CPID"
	CPID=
	grep -q '^exiting$' "$T/java.out"
	[ ! -s "$T/java.err" ]
	! compgen -G "$T/hs_err*" >/dev/null
	grep -q '^method.enter .* method=ExitRace.busy(I)V args=' "$T/events"
	log_has 'closed: the VM is exiting'
}

@test "robustness: System.exit racing busy threads, async (JDK 17)" { check_exit_race "$JDK17" ""; }
@test "robustness: System.exit racing busy threads, sync (JDK 17)" { check_exit_race "$JDK17" sync:100000; }
@test "robustness: System.exit racing busy threads, async (JDK 25)" { check_exit_race "$JDK25" ""; }
@test "robustness: System.exit racing busy threads, sync (JDK 25)" { check_exit_race "$JDK25" sync:100000; }

check_many_threads() {
	start_jvm "$1" ",bufsize=33554432" -- Families manythreads "$T/go" 3000
	wait_until 20 sock_exists
	start_client "$(sock_of_jvm)" threads:1
	wait_until 20 log_has 'ThreadEvents on'
	touch "$T/go"
	wait_exit "$JPID" 120
	JPID=
	wait_exit "$CPID"
	CPID=
	grep -q '^threads 3000$' "$T/java.out"
	! grep -q '^lost' "$T/events"
	[ "$(grep -c '^thread.start .* thread="t-[0-9]*"$' "$T/events")" -eq 3000 ]
	[ "$(grep -c '^thread.end .* thread="t-[0-9]*"$' "$T/events")" -eq 3000 ]
	[ "$(grep -o 'thread="t-[0-9]*"' "$T/events" | sort -u | wc -l)" -eq 3000 ]
}

@test "robustness: thousands of threads (JDK 17)" { check_many_threads "$JDK17"; }
@test "robustness: thousands of threads (JDK 25)" { check_many_threads "$JDK25"; }
