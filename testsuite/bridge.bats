#!/usr/bin/env bats
# stpd-bridge: discovery, --list, privilege separation, the listener check,
# handshake and registrations, --print, malformed peers, dying agents and
# --parent. Agents are testsuite/fakeagent (copied as "java" so discovery
# takes it for a JVM); --list also sees a real JVM. Every test uses its own
# socket directory (--sockdir), so JVMs of other users of this machine are
# never touched.

load bpftrace

setup_file() {
	export SRC=${STAPJAVA_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
	export BUILD=${STAPJAVA_BUILDDIR:-$SRC}
	export BRIDGE=$BUILD/stpd-bridge/stpd-bridge FAKE=$BUILD/testsuite/fakeagent
	export AGENT=$BUILD/agent/libstapjava.so
	[ -x "$BRIDGE" ] || { echo "no $BRIDGE: build first" >&2; return 1; }
	[ -x "$FAKE" ] || { echo "no $FAKE: make check builds it" >&2; return 1; }
	# a JVM for --list: a class nobody can read
	export JCLASSES
	JCLASSES=$(mktemp -d /tmp/stpd-bridge-java.XXXXXX)
	chmod 755 "$JCLASSES"
	cat >"$JCLASSES/Sleeper.java" <<-'EOF'
		public class Sleeper {
			public static void main(String[] a) throws Exception { Thread.sleep(60000); }
		}
	EOF
	cat >"$JCLASSES/Demo.java" <<-'EOF'
		public class Demo {
			static int add(int a, int b) { return a + b; }
			public static void main(String[] args) {
				int s = 0;
				for (int i = 0; i < 3; i++) s += add(i, 1);
				try { throw new IllegalStateException("x"); } catch (IllegalStateException e) { s++; }
				System.out.println(s);
			}
		}
	EOF
	javac -d "$JCLASSES" "$JCLASSES/Sleeper.java" "$JCLASSES/Demo.java"
	chmod -R a+rX "$JCLASSES"
}

teardown_file() {
	rm -rf "$JCLASSES"
}

setup() {
	T=$(mktemp -d /tmp/stpd-bridge-test.XXXXXX)
	chmod 755 "$T"
	mkdir "$T/bin"
	cp "$FAKE" "$T/bin/java"
	STARTED=()
	NFAKE=0
}

teardown() {
	local pid
	for pid in "${STARTED[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${STARTED[@]}"; do wait "$pid" 2>/dev/null || true; done
	rm -rf "$T"
}

# wait_for FILE REGEX [TRIES]: until a line of FILE matches (10 s at most,
# or TRIES times 50 ms).
wait_for() {
	local i
	for i in $(seq "${3:-200}"); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "timed out waiting for /$2/ in $1:" >&2
	cat "$1" >&2 2>/dev/null
	return 1
}

# wait_gone PID: until the process is gone (10 s at most).
wait_gone() {
	local i
	for i in $(seq 200); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
	done
	echo "process $1 still alive" >&2
	return 1
}

sockdir() { # sockdir UID GID: the per-user socket directory, as the agent makes it
	local d=$T/s-$1
	[ -d "$d" ] || { mkdir -m 700 "$d" && chown "$1:$2" "$d"; }
	echo "$d"
}

# start_fake UID GID [fakeagent options]: sets FA (pid) and FA_CMDS (its
# command log); returns once it listens.
start_fake() {
	local uid=$1 gid=$2 d
	shift 2
	d=$(sockdir "$uid" "$gid")
	NFAKE=$((NFAKE + 1))
	FA_CMDS=$d/cmds.$NFAKE
	setpriv --reuid="$uid" --regid="$gid" --clear-groups \
		"$T/bin/java" Fake.Main --sockdir "$d" --ready "$d/ready.$NFAKE" --commands "$FA_CMDS" "$@" \
		3>&- &
	FA=$!
	STARTED+=("$FA")
	wait_for "$d/ready.$NFAKE" sock
}

start_bridge() { # start_bridge ARGS...: sets BR
	"$BRIDGE" --sockdir "$T/s-%u" --rescan-ms 100 --log-file "$T/log" -o "$T/out" "$@" 3>&- &
	BR=$!
	STARTED+=("$BR")
}

worker_of() { # worker_of JVM_PID: the worker's pid, from the log
	sed -n "s/.*: info: pid $1: worker \([0-9]*\) started.*/\1/p" "$T/log" | head -1
}

# The log without the "[pid]" of the process that wrote each line, and
# without the lines about a JVM this test did not start: a bridge that
# serves every JVM finds any other JVM of the machine that runs our agent
# (a developer's, another test run's) and may say something of it.
log_lines() {
	sed -E 's/^stpd-bridge\[[0-9]+\]: /stpd-bridge: /' "$T/log" |
		awk -v ours=" ${STARTED[*]} " '{
			if (match($0, /: pid [0-9]+: /) && !index(ours, " " substr($0, RSTART + 6, RLENGTH - 8) " "))
				next
			print
		}'
}

ALL_OPTS=(--print -m 'Demo.*:enter,return,compile' -c '*' -e '*' --gc --threads --monitors --vm
	--args --return --stack)

@test "bad command lines exit 2 naming the argument and the fault" {
	run "$BRIDGE" -m 'foo.bar(I)'
	[ "$status" -eq 2 ]
	[[ $output =~ ^stpd-bridge\[[0-9]+\]:\ error:\ --method\ \'foo.bar\(I\)\':\ .*offset ]]
	run "$BRIDGE" -e 'java.lang.*:thrown,bogus'
	[ "$status" -eq 2 ]
	[[ $output == *"error: --exception 'java.lang.*:thrown,bogus': unknown event list 'thrown,bogus' (events: thrown,catch)" ]]
	run "$BRIDGE" --print
	[ "$status" -eq 2 ]
	[[ $output == *"error: nothing to register: give --slot, -m, -c, -e, --gc, --threads, --monitors, --vm or --jfr (try --help)" ]]
	run "$BRIDGE" -x 0 --gc
	[ "$status" -eq 2 ]
	[[ $output == *"error: --pid '0': not a process id" ]]
	run "$BRIDGE" --print --jfr 'jdk.GarbageCollection,jdk.JavaMonitorEnter#threshold'
	[ "$status" -eq 2 ]
	[[ $output == *"error: --jfr 'jdk.GarbageCollection,jdk.JavaMonitorEnter#threshold': '=' is expected after a setting's name at byte 30 of 'jdk.JavaMonitorEnter#threshold'" ]]
	run "$BRIDGE" --print --jfr 'jdk.Socket Read'
	[ "$status" -eq 2 ]
	[[ $output == *"error: --jfr 'jdk.Socket Read': an event type holds only letters, digits, '.', '_', '\$' and the wildcard '*' at byte 10 of 'jdk.Socket Read'" ]]
	run "$BRIDGE" --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Usage: stpd-bridge [OPTION]..." ]
}

@test "--list shows a JVM of another user with its main class, and which JVMs have an agent" {
	setpriv --reuid=65534 --regid=65534 --clear-groups java -Xshare:auto -cp "$JCLASSES" Sleeper 3>&- &
	local jvm=$! i
	STARTED+=("$jvm")
	for i in $(seq 200); do # until setpriv has become java
		[[ $(readlink "/proc/$jvm/exe") == */java ]] && break
		sleep 0.05
	done
	start_fake 0 0 --scenario none
	run "$BRIDGE" --list --sockdir "$T/s-%u"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "PID     USER         AGENT MAIN" ]
	printf -v want '%-7d %-12s %-5s %s' "$jvm" nobody no Sleeper
	printf '%s\n' "${lines[@]}" | grep -Fxq -- "$want"
	printf -v want '%-7d %-12s %-5s %s' "$FA" root yes Fake.Main
	printf '%s\n' "${lines[@]}" | grep -Fxq -- "$want"
}

@test "a worker runs as the JVM's owner with no capabilities and no_new_privs" {
	start_fake 65534 65534 --scenario none
	start_bridge -m 'Demo.*' --log-level info
	wait_for "$T/log" "pid $FA: connected to the agent \(worker uid 65534 gid 65534\)"
	local w
	w=$(worker_of "$FA")
	[ -n "$w" ]
	run sh -c "grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/$w/status | sed 's/[[:space:]]*$//'"
	[ "$output" = "$(printf '%s\n' 'Uid:	65534	65534	65534	65534' 'Gid:	65534	65534	65534	65534' \
		'Groups:' 'CapInh:	0000000000000000' 'CapPrm:	0000000000000000' \
		'CapEff:	0000000000000000' 'CapBnd:	0000000000000000' 'CapAmb:	0000000000000000' \
		'NoNewPrivs:	1')" ]
	# the supervisor itself stays root
	grep -q '^Uid:	0	0	0	0$' "/proc/$BR/status"
}

@test "a worker for a root JVM keeps uid 0 but no capability" {
	start_fake 0 0 --scenario none
	start_bridge -m 'Demo.*' --log-level info
	wait_for "$T/log" "pid $FA: connected to the agent \(worker uid 0 gid 0\)"
	local w
	w=$(worker_of "$FA")
	run grep -E '^(Uid|CapPrm|CapEff|CapBnd|NoNewPrivs):' "/proc/$w/status"
	[ "$output" = "$(printf '%s\n' 'Uid:	0	0	0	0' 'CapPrm:	0000000000000000' \
		'CapEff:	0000000000000000' 'CapBnd:	0000000000000000' 'NoNewPrivs:	1')" ]
}

@test "--print writes every event in the documented format; extension registrations, after the Appendix B ones our agent ignores" {
	start_fake 65534 65534 --scenario all
	start_bridge "${ALL_OPTS[@]}"
	wait_for "$T/out" '^vm.death '
	# the end of the stream acknowledged once every event was handled (CAP_END_ACK)
	wait_for "$FA_CMDS" '^Ack '
	run sed "s/ pid=$FA / pid=PID /" "$T/out"
	[ "$output" = 'vm.init pid=PID tid=4250 ts=1000000
thread.start pid=PID tid=4251 ts=3000000 thread="worker-1"
method.enter pid=PID tid=4250 ts=4000000 method=Demo.add(II)I args=2,3
method.return pid=PID tid=4250 ts=5000000 method=Demo.add(II)I popped=0 ret=5
method.compile pid=PID tid=4252 ts=6000000 method=Demo.add(II)I code_size=120 code_addr=0x7f0012345678
class.load pid=PID tid=4250 ts=7000000 class=java.lang.String
class.prepare pid=PID tid=4250 ts=8000000 class=int[]
class.unload pid=PID tid=0 ts=9000000 class=Demo$Inner
exception.thrown pid=PID tid=4250 ts=10000000 exception=java.lang.IllegalStateException method=Demo.fail()V
exception.catch pid=PID tid=4250 ts=11000000 exception=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V
monitor.contended_enter pid=PID tid=4251 ts=12000000 object=17
monitor.contended_entered pid=PID tid=4251 ts=13000000 object=17
monitor.wait pid=PID tid=4251 ts=14000000 object=17 timeout_ms=500
monitor.waited pid=PID tid=4251 ts=15000000 object=17 timeout_ms=500 timed_out=1
gc.start pid=PID tid=0 ts=16000000
gc.finish pid=PID tid=0 ts=17000000
method.enter pid=PID tid=4250 ts=18000000 method=Demo.greet(Ljava/lang/String;)V args="hi \"x\"\n" stack=Demo.greet(Ljava/lang/String;)V:12|Demo.main([Ljava/lang/String;)V:30
lost pid=PID tid=0 ts=19000000 lost=3
thread.end pid=PID tid=4251 ts=21000000 thread="worker-1"
vm.death pid=PID tid=4250 ts=22000000' ]
	# with the Hello, what an Appendix-only agent needs; an agent with
	# CAP_EARLY_APPENDIX ignores it up to the first extension command
	run cat "$FA_CMDS"
	[ "$output" = 'accepted
Hello version=1 caps=0x1fffff
RequestForOptionalData mask=0x3 (ignored)
RegisterMethod pattern=Demo.* (ignored)
RegisterClass pattern=* (ignored)
RegisterException pattern=* (ignored)
GcEvents enable=1 (ignored)
ThreadEvents enable=1 (ignored)
MonitorEvents enable=1 (ignored)
VmEvents enable=1
RequestForOptionalData mask=0x7
Register kind=1 events=0x7 pattern=Demo.*
Register kind=2 events=0x7 pattern=*
Register kind=3 events=0x3 pattern=*
GcEvents enable=1
ThreadEvents enable=1
MonitorEvents enable=1
Start
scenario all
Ack seq=22' ]
}

@test "an agent without CAP_EARLY_APPENDIX (caps 0x7f) applied the Appendix B registration: Reset, then its own" {
	start_fake 65534 65534 --caps 0x7f --scenario some
	start_bridge --print -m 'Demo.*' --threads --args
	wait_for "$T/out" 'ts=2000000 '
	run cat "$FA_CMDS"
	[ "$output" = 'accepted
Hello version=1 caps=0x1fffff
RequestForOptionalData mask=0x1
RegisterMethod pattern=Demo.*
ThreadEvents enable=1
Reset
VmEvents enable=1
RequestForOptionalData mask=0x1
Register kind=1 events=0x3 pattern=Demo.*
ThreadEvents enable=1
Start
scenario some' ]
	run sed "s/ pid=$FA / pid=PID /" "$T/out"
	[ "$output" = 'method.enter pid=PID tid=4250 ts=1000000 method=Demo.tick()V args=
method.enter pid=PID tid=4250 ts=2000000 method=Demo.tick()V args=' ]
	[ ! -s "$T/log" ]
}

@test "an agent without CAP_LINES (caps 0x7ff) is sent a line pattern, and the bridge says it selects nothing there" {
	start_fake 65534 65534 --caps 0x7ff --scenario some
	start_bridge --print -m 'Demo.tick()V:12:enter' -m 'Demo.*'
	wait_for "$T/out" 'ts=2000000 '
	grep -q '^Register kind=1 events=0x1 pattern=Demo.tick()V:12$' "$FA_CMDS"
	run sed -E 's/^stpd-bridge\[[0-9]+\]/stpd-bridge[N]/' "$T/log"
	[ "$output" = "stpd-bridge[N]: warn: pid $FA: the agent has no line probes (an older agent): java.method pattern 'Demo.tick()V:12' selects nothing in this JVM" ]
}

APPENDIX_OPTS=(--print -m 'Demo.add:enter' -m 'Demo.add:return' -e '*:catch' --threads --args --log-level info)

# appendix_session_was LINE: an Appendix-only fake agent's scenario "all"
# came out as the types APPENDIX_OPTS asked for (the bridge filters them);
# and once the bridge is gone, every command the agent ever got was what
# came with the Hello, then LINE (if any) before the scenario, then nothing.
appendix_session_was() {
	wait_for "$T/out" '^thread.end '
	run sed -E "s/ pid=$FA / pid=PID /; s/ ts=[0-9]+( |$)/ ts=TS\1/" "$T/out"
	[ "$output" = 'thread.start pid=PID tid=4251 ts=TS
method.enter pid=PID tid=4250 ts=TS method=Demo.add(II)I args=2,3
method.return pid=PID tid=4250 ts=TS method=Demo.add(II)I popped=0 ret=5
exception.catch pid=PID tid=4250 ts=TS exception=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V
thread.end pid=PID tid=4251 ts=TS' ]
	kill "$BR"
	wait_for "$FA_CMDS" '^closed$'
	run cat "$FA_CMDS"
	[ "$output" = "accepted
Hello version=1 caps=0x1fffff
RequestForOptionalData mask=0x1
RegisterMethod pattern=Demo.add
RegisterException pattern=*
ThreadEvents enable=1
${1:+$1
}scenario all
closed" ]
}

@test "an Appendix-only agent gets Appendix B registrations with the Hello, nothing after the Hello timeout; event types are filtered by the bridge" {
	start_fake 0 0 --appendix --scenario all --start-on ThreadEvents --wait-file "$T/go"
	start_bridge "${APPENDIX_OPTS[@]}" --hello-timeout-ms 200
	wait_for "$T/log" "pid $FA: no Hello from the agent within 200 ms: speaking Appendix A/B only"
	touch "$T/go"
	appendix_session_was ''
}

# A third-party agent that takes a short quiet period as the end of its
# registrations, and reads nothing after it: it had them all before.
@test "an Appendix-only agent that stops reading 300 ms after its last command still receives every registration" {
	start_fake 0 0 --appendix --scenario all --quiet-ms 300
	start_bridge "${APPENDIX_OPTS[@]}"
	appendix_session_was 'stopped reading: 300 ms without a command'
	grep -q "info: pid $FA: the agent's first message is ThreadStarted, not a Hello: speaking Appendix A/B only" "$T/log"
}

@test "a socket squatted by another user is refused before a byte is sent" {
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 3>&- &
	local jvm=$! d ns start
	STARTED+=("$jvm")
	wait_for "/proc/$jvm/status" '^Uid:	65534'
	d=$(sockdir 65534 65534)
	ns=$(stat -L -c %i "/proc/$jvm/ns/pid")
	start=$(awk '{print $22}' "/proc/$jvm/stat")
	# root listens on the path computed for nobody's JVM, open to anyone
	"$FAKE" --path "$d/jvm-$ns-$jvm-$start.sock" --mode 0777 --ready "$T/squat.ready" \
		--commands "$T/squat.cmds" 3>&- &
	local squatter=$!
	STARTED+=("$squatter")
	wait_for "$T/squat.ready" sock
	start_bridge -x "$jvm" -m 'Demo.*'
	wait_for "$T/log" "socket refused"
	run log_lines
	[ "$output" = "stpd-bridge: error: pid $jvm: the listener is pid $squatter uid 0, not the JVM (pid $jvm uid 65534): socket refused" ]
	wait_for "$T/squat.cmds" '^closed$'
	run cat "$T/squat.cmds"
	[ "$output" = $'accepted\nclosed' ]
}

@test "a peer sending malformed bytes is disconnected with the field and offset; another carries on" {
	start_fake 0 0 --scenario garbage
	local bad=$FA
	start_fake 65534 65534 --scenario some --wait-file "$T/go"
	local good=$FA good_cmds=$FA_CMDS
	start_bridge --print -m 'Demo.*'
	wait_for "$T/log" "pid $bad: disconnecting"
	touch "$T/go"
	wait_for "$good_cmds" '^scenario some$'
	wait_for "$T/out" 'ts=2000000 '
	run log_lines
	[ "$output" = "stpd-bridge: warn: pid $bad: disconnecting: MethodEnter (0x80): method name length at offset 1: 70000 exceeds the limit 65535" ]
	run sed "s/ pid=$good / pid=PID /" "$T/out"
	[ "$output" = 'method.enter pid=PID tid=4250 ts=1000000 method=Demo.tick()V args=
method.enter pid=PID tid=4250 ts=2000000 method=Demo.tick()V args=' ]
	kill -0 "$BR"
}

@test "an agent's Notice reaches the log as one line, every control byte, NUL and non-UTF-8 byte escaped once" {
	start_fake 0 0 --scenario notice
	start_bridge --print -m 'Demo.*'
	wait_for "$T/log" "pid $FA: bad"
	run log_lines
	[ "$output" = "stpd-bridge: warn: pid $FA: bad\\x1b[31m\\x0aline\\x00nul \\xff café" ]
}

@test "what the protocol forbids: a number given again or an event after VmDeath disconnects, a gap is said once" {
	start_fake 0 0 --scenario seq-repeat
	local rep=$FA
	start_fake 0 0 --scenario after-death
	local dead=$FA
	start_fake 0 0 --scenario seq-gap
	local gap=$FA
	start_bridge --print -m 'Demo.*' --vm
	wait_for "$T/log" "pid $rep: disconnecting"
	wait_for "$T/log" "pid $dead: disconnecting"
	wait_for "$T/out" "pid=$gap .*ts=5000000 "
	run bash -c "sed -E 's/^stpd-bridge\[[0-9]+\]: /stpd-bridge: /' '$T/log' | sort"
	[ "$output" = "$(sort <<WANT
stpd-bridge: warn: pid $rep: disconnecting: event number 1 after number 1 (the numbers must grow by one)
stpd-bridge: warn: pid $dead: disconnecting: MethodEnter after the VM's death event (nothing may follow it)
stpd-bridge: warn: pid $gap: events 2 to 3 never arrived (the agent numbers every event it sends; said once)
WANT
)" ]
	[ "$(grep -c "pid=$rep " "$T/out")" -eq 1 ]
	[ "$(grep -c "pid=$dead " "$T/out")" -eq 2 ]
	grep -q "^vm.death pid=$dead " "$T/out"
	[ "$(grep -c "pid=$gap " "$T/out")" -eq 3 ]
	kill -0 "$BR"
}

@test "an agent that sends part of a message and stops is disconnected after 10 s, said once" {
	start_fake 0 0 --scenario partial
	local stuck=$FA
	start_bridge --print -m 'Demo.*'
	wait_for "$FA_CMDS" '^scenario partial$'
	# wait_for gives up after 10 s: twice, for the bridge's 10 s
	wait_for "$T/log" "pid $stuck: disconnecting" 2>/dev/null || wait_for "$T/log" "pid $stuck: disconnecting"
	run log_lines
	[ "$output" = "stpd-bridge: warn: pid $stuck: disconnecting: the agent sent part of a message, then nothing for 10000 ms" ]
	kill -0 "$BR"
}

# CAP_END_ACK: an agent holds the VM's end until the bridge has handled
# every event. A bridge whose output is held up (its reader waits 1.5 s)
# acknowledges what it has handled as it goes on, so the agent sees it
# progress, and the end (VmDeath is event 20 001) once everything is out.
@test "the end of the stream: a bridge held up by its output acknowledges what it has handled, then VmDeath once all is handled" {
	start_fake 0 0 --scenario many
	{ "$BRIDGE" -x "$FA" --sockdir "$T/s-%u" --rescan-ms 100 --log-file "$T/log" --print -m 'Demo.*' --vm 3>&- |
		{ sleep 1.5; cat >"$T/out"; }; } 3>&- &
	STARTED+=("$!")
	wait_for "$FA_CMDS" '^Ack seq=20001$' 600
	[ "$(grep -c "^method.enter pid=$FA tid=4250 ts=[0-9]* method=Demo.tick()V args=$" "$T/out")" -eq 20000 ]
	[ "$(tail -n 1 "$T/out")" = "vm.death pid=$FA tid=4250 ts=20001000000" ]
	# Acks only after the events they acknowledge, growing, the last VmDeath's
	local acks
	acks=$(sed -n 's/^Ack seq=//p' "$FA_CMDS")
	[ "$(wc -l <<<"$acks")" -ge 2 ]
	[ "$(sort -n -u <<<"$acks")" = "$acks" ]
	[ "$(tail -n 1 <<<"$acks")" = 20001 ]
	[ "$(sed -n '/^scenario many$/,$p' "$FA_CMDS" | grep -vc '^Ack seq=[0-9]*$')" -eq 1 ]
}

# CAP_METHOD_IDS: plain method events by number print (and fire) as the
# MethodEnter / MethodExit they stand for; a number named anew is the new
# method; a number never named disconnects, said with the number.
@test "method events by number: each is the method its number was named, a number named anew is the new one, one never named disconnects" {
	start_bridge --print -m 'Demo.*' --fire --slot '0:method.return:Demo.tick'
	start_fake 0 0 --scenario by-id
	wait_for "$T/log" 'disconnecting'
	run sed "s/ pid=$FA / pid=PID /" "$T/out"
	[ "$output" = 'method.enter pid=PID tid=4250 ts=2000000 method=Demo.add(II)I args=
method.return pid=PID tid=4250 ts=3000000 method=Demo.add(II)I popped=0 ret=?
method.return pid=PID tid=4250 ts=5000000 method=Demo.tick()V popped=0 ret=void' ]
	grep -q "warn: pid $FA: disconnecting: MethodExitId of method number 9, which no MethodName gave$" "$T/log"
}

# CAP_METHOD_ID_VALUES: method events with values by number print with
# their values as the MethodEnter / MethodExit they stand for.
@test "method events with values by number: each is its named method with its values; one never named disconnects" {
	start_bridge --print -m 'Demo.*' --args --return --fire --slot '0:method.enter:Demo.add'
	start_fake 0 0 --scenario by-id-values
	wait_for "$T/log" 'disconnecting'
	run sed "s/ pid=$FA / pid=PID /" "$T/out"
	[ "$output" = 'method.enter pid=PID tid=4250 ts=2000000 method=Demo.add(II)I args=2,3
method.return pid=PID tid=4250 ts=3000000 method=Demo.add(II)I popped=0 ret=5
method.return pid=PID tid=4250 ts=4000000 method=Demo.add(II)I popped=1 ret=java.lang.IllegalStateException@2a#11' ]
	grep -q "warn: pid $FA: disconnecting: MethodEnterIdValues of method number 4, which no MethodName gave$" "$T/log"
}

# A JVM that was starting when it was attached to may have lost its attach
# listener's socket (HotSpot removes a .java_pid file it finds as the VM
# starts): it ignores the first SIGQUIT. The bridge sends another halfway
# through its wait, as the JDK's own tools do, and attaches. A fake JVM
# (fakeattach.h) stands in: a real one cannot be made to lose it on cue.
@test "attach: a JVM that ignored the first SIGQUIT (its listener's socket lost at start-up) is sent another, loads the agent and is served" {
	local d
	d=$(sockdir 0 0)
	"$T/bin/java" Fake.Main --attach-quits 1 --ready "$d/ready" --commands "$d/cmds" --scenario some 3>&- &
	FA=$!
	STARTED+=("$FA")
	wait_for "$d/ready" '^attach$'
	start_bridge --print -m 'Demo.*' -x "$FA" --agent "$AGENT" --log-level info
	# a hang guard, not a time: the second SIGQUIT comes 5 s in
	wait_for "$T/out" "pid=$FA " 600
	run sed -n '1,4p' "$d/cmds"
	[ "$output" = "sigquit 1: ignored
sigquit 2: listening
request: 1 load $AGENT true sockdir=$d,loglevel=error
accepted" ]
	grep -q "info: pid $FA: the JVM runs without the agent: loading $AGENT through HotSpot's attach mechanism$" "$T/log"
	! grep -E ': (warn|error): ' "$T/log" || return 1
}

@test "an agent that dies mid-stream costs one log line; the bridge carries on" {
	start_bridge --print -m 'Demo.*' --log-level warn
	start_fake 0 0 --scenario some --then exit
	local first=$FA
	wait_for "$T/log" "pid $first: "
	wait_gone "$first"
	start_fake 65534 65534 --scenario some
	wait_for "$T/out" "pid=$FA .*ts=2000000 "
	run log_lines
	[ "$output" = "stpd-bridge: warn: pid $first: the agent closed the connection before the VM's death event: events after number 2 may be lost" ]
	[ "$(grep -c "pid=$first " "$T/out")" -eq 2 ]
	kill -0 "$BR"
}

# -x: a JVM whose worker runs is not read in /proc at each scan (its worker
# ends when it does). Counted with strace on the supervisor: its scans are
# the waits of its loop that end by their timeout (--rescan-ms 10).
scan_waits() { grep -c '= 0 (Timeout)' "$T/trace" 2>/dev/null; }
@test "-x: while the JVM's worker runs, the bridge's scans read nothing of it in /proc" {
	start_fake 0 0 --scenario none
	start_bridge -x "$FA" --rescan-ms 10 --print -m 'Demo.*' --log-level info
	wait_for "$T/log" "info: pid $FA: worker [0-9]* started"
	strace -qq -p "$BR" -e trace=openat,newfstatat,statx,poll,ppoll -o "$T/trace" 3>&- &
	local st=$! i
	for i in $(seq 600); do
		[ "$(scan_waits)" -ge 30 ] && break
		sleep 0.05
	done
	kill "$st"
	wait "$st" || true
	[ "$(scan_waits)" -ge 30 ]
	run grep -c "/proc/$FA/" "$T/trace"
	[ "$output" = 0 ]
	kill -0 "$FA"
}

# traced_scans N: a bridge serving every JVM (--rescan-ms 10) under strace
# (its opens, in $T/trace) until it has made N scans (opens of /proc), then
# stopped; proc_opens: the scans in the trace.
proc_opens() { grep -c 'openat(AT_FDCWD, "/proc", ' "$T/trace" 2>/dev/null; }
traced_scans() {
	local i
	strace -qq -e trace=openat -o "$T/trace" "$BRIDGE" --sockdir "$T/s-%u" --rescan-ms 10 --log-file "$T/log" \
		-o "$T/out" -m 'Demo.*' 3>&- &
	BR=$!
	STARTED+=("$BR")
	for i in $(seq 600); do
		[ "$(proc_opens)" -ge "$1" ] && break
		sleep 0.05
	done
	kill "$(pgrep -P "$BR")"
	wait "$BR" || true
}

# Serving every JVM: a process that is not one has its start time read once
# a scan (to tell a reused pid), not twice (discovery.c).
@test "a process that is not a JVM costs one read of its stat a scan" {
	sleep 300 3>&- &
	local other=$! scans reads
	STARTED+=("$other")
	traced_scans 50
	scans=$(proc_opens)
	reads=$(grep -c "\"/proc/$other/stat\"" "$T/trace")
	[ "$scans" -ge 50 ]
	# the last scan may have been stopped before it reached the process
	[ "$reads" -ge $((scans - 1)) ]
	[ "$reads" -le "$scans" ]
}

# Serving every JVM: one without an agent socket, older than 30 s, has its
# sockets looked for every 5 s, not at every scan (supervisor.c, QUIET_*).
# Counted with strace: the scans (opens of /proc) and its net/unix reads.
@test "a JVM without the agent, past its first 30 s, is not looked for sockets at every scan" {
	mkdir "$T/bin2"
	cp /bin/sleep "$T/bin2/java"
	"$T/bin2/java" 300 3>&- &
	local jvm=$! hz up start age i scans reads
	STARTED+=("$jvm")
	hz=$(getconf CLK_TCK)
	start=$(awk '{print $22}' "/proc/$jvm/stat")
	for i in $(seq 90); do
		up=$(cut -d' ' -f1 /proc/uptime)
		age=$(awk -v u="$up" -v s="$start" -v h="$hz" 'BEGIN { printf "%d", u - s / h }')
		[ "$age" -ge 31 ] && break
		sleep 1
	done
	[ "$age" -ge 31 ]
	traced_scans 100
	scans=$(proc_opens)
	reads=$(grep -c "/proc/$jvm/net/unix" "$T/trace")
	[ "$scans" -ge 100 ]
	# the first scan, then one every 5 s: far fewer than one a scan
	[ "$reads" -ge 1 ]
	[ "$reads" -lt $((scans / 4)) ]
	! grep -q 'warn\|error' "$T/log"
}

@test "a JVM started after the bridge is found" {
	start_bridge --print -m 'Demo.*' --log-level info
	wait_for "$T/log" 'info: serving every JVM; looking for agents every 100 ms'
	start_fake 65534 65534 --scenario some
	wait_for "$T/out" "pid=$FA .*ts=2000000 "
	grep -q "info: pid $FA: worker [0-9]* started (uid 65534 gid 65534)" "$T/log"
}

@test "--parent: the bridge unregisters and exits when its parent dies" {
	sleep 120 3>&- &
	local parent=$!
	STARTED+=("$parent")
	start_fake 65534 65534 --scenario none
	start_bridge --parent "$parent" -m 'Demo.*' --log-level info
	wait_for "$FA_CMDS" '^scenario none$'
	local w
	w=$(worker_of "$FA")
	kill "$parent"
	wait_gone "$BR"
	wait_gone "$w"
	wait_for "$FA_CMDS" '^closed$'
	run tail -2 "$FA_CMDS"
	[ "$output" = $'Reset\nclosed' ]
	grep -q 'info: stopping: the --parent process exited' "$T/log"
	wait "$BR"
}

@test "--parent that does not exist: exit 1 at once" {
	run "$BRIDGE" --parent 2147483646 -m 'Demo.*'
	[ "$status" -eq 1 ]
	[[ $output == *"error: --parent 2147483646: no such process" ]]
}

@test "--sync: the bridge sets synchronous dispatch and acknowledges every event" {
	start_fake 0 0 --scenario some
	start_bridge --print -m 'Demo.*' --sync=5000
	wait_for "$FA_CMDS" '^Ack seq=2$'
	run cat "$FA_CMDS"
	[ "$output" = 'accepted
Hello version=1 caps=0x1fffff
RegisterMethod pattern=Demo.* (ignored)
VmEvents enable=1
DispatchMode mode=1 timeout_us=5000
Register kind=1 events=0x3 pattern=Demo.*
Start
scenario some
Ack seq=1
Ack seq=2' ]
}

@test "lines of many JVMs never interleave" {
	local i pids=()
	for i in 1 2 3 4; do
		start_fake 0 0 --scenario all --wait-file "$T/go"
		pids+=("$FA")
	done
	start_bridge "${ALL_OPTS[@]}"
	for i in "${!pids[@]}"; do wait_for "$T/s-0/cmds.$((i + 1))" '^Start'; done
	touch "$T/go"
	for i in "${pids[@]}"; do wait_for "$T/out" "^vm.death pid=$i "; done
	[ "$(wc -l <"$T/out")" -eq 80 ]
	# every line is one of the 20 known lines of one of the JVMs
	for i in "${pids[@]}"; do
		[ "$(grep -c " pid=$i " "$T/out")" -eq 20 ]
	done
	! grep -Ev '^[a-z._]+ pid=[0-9]+ tid=[0-9]+ ts=[0-9]+( |$)' "$T/out" || return 1
}

@test "a real JVM of nobody with the agent, started after the bridge: its events, no log noise" {
	[ -f "$AGENT" ] || { echo "no $AGENT: build the agent" >&2; return 1; }
	local d jvm
	d=$(sockdir 65534 65534)
	# nobody may not be able to reach the build tree (a clone in a 0700
	# directory): the JVM loads a copy of the agent from our own 0755 dir
	cp -L "$AGENT" "$T/libstapjava.so"
	chmod 0755 "$T/libstapjava.so"
	start_bridge --print -m 'Demo.add' -e '*IllegalStateException' --args --return --log-level warn
	# wait_ms: the JVM waits for a bridge to register before main runs
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		java "-agentpath:$T/libstapjava.so=sockdir=$d,wait_ms=10000" -cp "$JCLASSES" Demo >"$T/jvm.out" 3>&- &
	jvm=$!
	STARTED+=("$jvm")
	wait "$jvm"
	[ "$(cat "$T/jvm.out")" = 7 ]
	wait_for "$T/out" '^exception.catch '
	run sed -E "s/ pid=$jvm / pid=PID /; s/ tid=[0-9]+ / tid=TID /; s/ ts=[0-9]+ / ts=TS /" "$T/out"
	[ "$output" = 'method.enter pid=PID tid=TID ts=TS method=Demo.add(II)I args=0,1
method.return pid=PID tid=TID ts=TS method=Demo.add(II)I popped=0 ret=1
method.enter pid=PID tid=TID ts=TS method=Demo.add(II)I args=1,1
method.return pid=PID tid=TID ts=TS method=Demo.add(II)I popped=0 ret=2
method.enter pid=PID tid=TID ts=TS method=Demo.add(II)I args=2,1
method.return pid=PID tid=TID ts=TS method=Demo.add(II)I popped=0 ret=3
exception.thrown pid=PID tid=TID ts=TS exception=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V
exception.catch pid=PID tid=TID ts=TS exception=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V' ]
	# one thread: every line has the same tid, an OS thread of the JVM (not its pid)
	[ "$(sed -E 's/.* tid=([0-9]+) .*/\1/' "$T/out" | sort -u | wc -l)" -eq 1 ]
	# a JVM that ends normally (VmDeath, then close) is no warning
	kill -0 "$BR"
	[ ! -s "$T/log" ]
}

# ---------------------------------------------------------------- SDT markers (doc/markers.md)

# markers_of BINARY: "provider:name" and the argument sizes of every SDT
# note ("-8": signed 8 bytes, "8": unsigned / pointer), sorted.
markers_of() {
	readelf -n "$1" | awk '
		/^ *Provider: / { p = $2 }
		/^ *Name: / { n = $2 }
		/^ *Arguments: / { $1 = ""; a = $0; gsub(/@[^ ]*/, "", a); print p ":" n a }' | sort
}

@test "the markers: stapjava family and slot0..slot255, each with the twelve arguments of doc/markers.md" {
	local args=' -8 -8 -8 -8 8 8 8 8 -8 -8 8 8' n
	{
		for n in gc_start gc_finish vm_init vm_death thread_start thread_end \
			monitor_contended_enter monitor_contended_entered monitor_wait monitor_waited lost jfr; do
			echo "stapjava:$n$args"
		done
		for n in $(seq 0 255); do echo "stapjava:slot$n$args"; done
	} | sort >"$T/want"
	markers_of "$BRIDGE" >"$T/got"
	diff -u "$T/want" "$T/got"
}

@test "--slot: bad slot tables exit 2 naming the argument and the fault" {
	run "$BRIDGE" --fire --slot 256:method.enter:a.B.c
	[ "$status" -eq 2 ]
	[[ $output == *"error: --slot '256:method.enter:a.B.c': slot number '256' is not from 0 to 255" ]]
	run "$BRIDGE" --fire --slot x1:method.enter:a.B.c
	[ "$status" -eq 2 ]
	[[ $output == *"error: --slot 'x1:method.enter:a.B.c': slot number 'x1' is not from 0 to 255" ]]
	run "$BRIDGE" --fire --slot 0:method.enter
	[ "$status" -eq 2 ]
	[[ $output == *"error: --slot '0:method.enter': not N:KIND.EVENT:PATTERN" ]]
	run "$BRIDGE" --fire --slot 0:method.leave:a.B.c
	[ "$status" -eq 2 ]
	[[ $output == *"error: --slot '0:method.leave:a.B.c': unknown probe type 'method.leave' (method.enter, method.return, method.compile, class.load, class.prepare, class.unload, exception.thrown, exception.catch)" ]]
	run "$BRIDGE" --fire --slot 3:method.enter:a.B.c --slot 3:method.return:a.B.c
	[ "$status" -eq 2 ]
	[[ $output == *"error: --slot '3:method.return:a.B.c': slot 3 given twice" ]]
	run "$BRIDGE" --fire --slot '0:method.enter:foo.bar(I'
	[ "$status" -eq 2 ]
	[[ $output =~ error:\ --slot\ \'0:method.enter:foo.bar\(I\':\ pattern\ \'foo.bar\(I\':\ .*offset ]]
	run "$BRIDGE" --fire --slot '0:class.load:'
	[ "$status" -eq 2 ]
	[[ $output == *"error: --slot '0:class.load:': pattern '': "* ]]
	run "$BRIDGE" --fire
	[ "$status" -eq 2 ]
	[[ $output == *"error: nothing to register: give --slot, -m, -c, -e, --gc, --threads, --monitors, --vm or --jfr (try --help)" ]]
}

@test "--fire --slot: one registration per pattern with the union of its slots' events; --print alongside" {
	start_fake 65534 65534 --scenario all
	start_bridge --fire --print --slot 0:method.enter:Demo.add --slot 1:method.return:Demo.add \
		--slot 2:method.enter:'Demo.*' --slot 7:class.load:java.lang.String \
		--slot 255:exception.catch:'*' -m Demo.add:compile --gc --args --return
	wait_for "$FA_CMDS" '^scenario all$'
	wait_for "$T/out" '^lost '
	wait_for "$FA_CMDS" '^Ack '
	run cat "$FA_CMDS"
	[ "$output" = 'accepted
Hello version=1 caps=0x1fffff
RequestForOptionalData mask=0x3 (ignored)
RegisterMethod pattern=Demo.add (ignored)
RegisterMethod pattern=Demo.* (ignored)
RegisterClass pattern=java.lang.String (ignored)
RegisterException pattern=* (ignored)
GcEvents enable=1 (ignored)
VmEvents enable=1
RequestForOptionalData mask=0x3
Register kind=1 events=0x7 pattern=Demo.add
Register kind=1 events=0x1 pattern=Demo.*
Register kind=2 events=0x1 pattern=java.lang.String
Register kind=3 events=0x2 pattern=*
GcEvents enable=1
Start
scenario all
Ack seq=22' ]
	# markers with no probe on them cost nothing and change nothing
	run sed "s/ pid=$FA / pid=PID /" "$T/out"
	[ "$output" = 'method.enter pid=PID tid=4250 ts=4000000 method=Demo.add(II)I args=2,3
method.return pid=PID tid=4250 ts=5000000 method=Demo.add(II)I popped=0 ret=5
method.compile pid=PID tid=4252 ts=6000000 method=Demo.add(II)I code_size=120 code_addr=0x7f0012345678
class.load pid=PID tid=4250 ts=7000000 class=java.lang.String
exception.catch pid=PID tid=4250 ts=11000000 exception=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V
gc.start pid=PID tid=0 ts=16000000
gc.finish pid=PID tid=0 ts=17000000
method.enter pid=PID tid=4250 ts=18000000 method=Demo.greet(Ljava/lang/String;)V args="hi \"x\"\n" stack=Demo.greet(Ljava/lang/String;)V:12|Demo.main([Ljava/lang/String;)V:30
lost pid=PID tid=0 ts=19000000 lost=3' ]
	[ ! -s "$T/log" ]
}

# A marker nobody probes is skipped before its strings are formatted (its
# SDT semaphore is down); a tracer raises the semaphore when it attaches, and
# then every argument is there. bpftrace stands in for stap on the host.
@test "--fire: markers a tracer is on get every argument (SDT semaphores raised by the tracer)" {
	local bin bt
	bin=$(readlink -f "$BRIDGE")
	bt="usdt:$bin:stapjava:slot0, usdt:$bin:stapjava:slot1, usdt:$bin:stapjava:gc_start {"
	bt+=' printf("%s code=0x%x tid=%d ts=%d name=%s method=%s\n", probe, arg0 & 0xff, arg2, arg3, str(arg4), str(arg5)); }'
	bt+=' BEGIN { printf("attached\n"); }'
	bpftrace -e "$bt" >"$T/bt.out" 2>"$T/bt.err" 3>&- &
	local btpid=$!
	STARTED+=("$btpid")
	wait_for "$T/bt.out" '^attached$' 1200
	start_fake 65534 65534 --scenario all
	start_bridge --fire --print --slot 0:method.enter:Demo.add --slot 1:exception.catch:'*' --gc
	wait_for "$FA_CMDS" '^scenario all$'
	wait_for "$T/out" '^lost '
	stop_bpftrace "$btpid"
	run grep '^usdt' "$T/bt.out"
	[ "$output" = "$(printf '%s\n' \
		"usdt:$bin:stapjava:slot0 code=0x80 tid=4250 ts=4000000 name=Demo.add(II)I method=" \
		"usdt:$bin:stapjava:slot1 code=0x86 tid=4250 ts=11000000 name=java.lang.IllegalStateException method=Demo.main([Ljava/lang/String;)V" \
		"usdt:$bin:stapjava:gc_start code=0x91 tid=0 ts=16000000 name= method=")" ] ||
		{ cat "$T/bt.out" "$T/bt.err" "$T/log" >&2; false; }
}

@test "--check: each -x pid is named with what is wrong, status 1; a JVM passes; no -x is a usage error" {
	run "$BRIDGE" --check -x 999999
	[ "$status" -eq 1 ]
	[[ $output =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ 999999:\ no\ such\ process$ ]]
	# a process that is no JVM: given 5 s to exec one, then named
	sleep 60 3>&- &
	local sp=$!
	run "$BRIDGE" --check -x "$sp"
	kill "$sp"
	[ "$status" -eq 1 ]
	[[ $output =~ ^stpd-bridge\[[0-9]+\]:\ error:\ -x\ $sp:\ not\ a\ JVM\ \(no\ java\ executable,\ no\ libjvm.so\ mapped\)$ ]]
	java -cp "$BUILD/testsuite/java/classes" Families idle "$BATS_TEST_TMPDIR/never" "$BATS_TEST_TMPDIR/never2" 3>&- &
	local jp=$!
	run "$BRIDGE" --check -x "$jp"
	kill "$jp"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run "$BRIDGE" --check
	[ "$status" -eq 2 ]
	[[ $output == *"error: --check: give the JVMs to check with -x" ]]
}

@test "class names in every form the seed and JVMTI use match and print alike (Ljava/util/Map, java.util.Set)" {
	start_fake 0 0 --scenario classforms
	start_bridge --print -c 'java.util.*:load'
	wait_for "$FA_CMDS" '^scenario classforms$'
	wait_for "$T/out" 'class=java.util.Set$'
	run sed -E "s/ pid=[0-9]+ / pid=PID /; s/ ts=[0-9]+ / ts=T /" "$T/out"
	[ "$output" = "$(printf '%s\n' \
		'class.load pid=PID tid=4250 ts=T class=java.util.List' \
		'class.load pid=PID tid=4250 ts=T class=java.util.Map' \
		'class.load pid=PID tid=4250 ts=T class=java.util.Set')" ] || { echo "$output"; false; }
	# java.lang.String (sent before java.util.Set) is not java.util.*: not printed
	! grep -q 'java.lang.String' "$T/out" || return 1
}

# Issue 16 §5: a worker's memory is bounded whatever its agent sends. 5000
# thread names of 60,000 bytes (300 MB) once took as much of the worker;
# now each is kept to 1024 bytes, all of them to 4 MiB, and the worker's
# peak stays under 64 MiB. Each bound reached is said once.
@test "thread names: 300 MB of them keep a worker under 64 MiB; each bound said once" {
	start_fake 0 0 --scenario names-flood
	local fa=$FA
	start_bridge --print -m 'Demo.*' --threads --log-level info
	wait_for "$T/out" "pid=$fa .*method=Demo.tick" 600
	local w peak
	w=$(worker_of "$fa")
	peak=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$w/status")
	[ -n "$peak" ]
	[ "$peak" -lt $((64 * 1024)) ] || { echo "worker peak RSS $peak kB" >&2; false; }
	run bash -c "sed -E 's/^stpd-bridge\[[0-9]+\]: //' '$T/log' | grep -E '^(warn|error): '"
	[ "$output" = "warn: pid $fa: a thread name of 60000 bytes is kept to its first 1021, then \"…\" (the most kept of a name: 1024 bytes; said once)
warn: pid $fa: thread names reached 4194304 bytes, the most kept for one JVM: names of further threads are not kept (said once)" ]
	kill -0 "$BR"
}

# Issue 16 §2, the bridge's side: an agent whose socket never accepts (its
# backlog full) held the worker's connect() for ever; it now gives up after
# the send timeout, saying so, and the bridge serves the other JVMs.
@test "an agent that accepts no connection is given up after 2 s, said; another JVM is served" {
	start_fake 0 0 --no-accept
	local stuck=$FA
	start_fake 65534 65534 --scenario some
	local good=$FA
	start_bridge --print -m 'Demo.*'
	wait_for "$T/out" "pid=$good .*ts=2000000 "
	wait_for "$T/log" "pid $stuck: connect .*: the agent accepted no connection within 2000 ms"
	kill -0 "$BR"
}

# Issue 16 §8: the start of a stream as PROTOCOL.md has it: the agent's
# Hello comes first or not at all, and its first event is number 1.
@test "what the protocol forbids at the start: a late Hello or a first event numbered 0 disconnects; a first event past 1 is a gap, said once" {
	start_fake 0 0 --appendix --scenario late-hello --start-on RegisterMethod
	local late=$FA
	start_fake 0 0 --scenario first-gap
	local gap=$FA
	start_fake 0 0 --scenario seq-zero
	local zero=$FA
	start_bridge --print -m 'Demo.*' --hello-timeout-ms 200
	wait_for "$T/log" "pid $late: disconnecting"
	wait_for "$T/log" "pid $zero: disconnecting"
	wait_for "$T/out" "pid=$gap .*ts=7000000 "
	run bash -c "sed -E 's/^stpd-bridge\[[0-9]+\]: //' '$T/log' | sort"
	[ "$output" = "$(sort <<WANT
warn: pid $late: disconnecting: a Hello after the agent's first message (it must come first)
warn: pid $zero: disconnecting: MethodEnter numbered 0 (the first event is number 1)
warn: pid $gap: events 1 to 2 never arrived (the first event the agent sends is number 1)
WANT
)" ]
	[ "$(grep -c "pid=$late " "$T/out")" -eq 1 ]
	[ "$(grep -c "pid=$gap " "$T/out")" -eq 3 ]
	! grep -q "pid=$zero " "$T/out" || return 1
	kill -0 "$BR"
}

# count_is FILE REGEX N: FILE has N lines matching REGEX (10 s at most).
has_count() { [ "$(grep -Ec -- "$2" "$1" 2>/dev/null)" -eq "$3" ]; }
count_is() {
	local i
	for i in $(seq 200); do has_count "$@" && return 0; sleep 0.05; done
	echo "timed out waiting for $3 lines /$2/ in $1:" >&2
	cat "$1" >&2 2>/dev/null
	return 1
}

# The log's warnings and errors without pids: the bridge's, the JVM's and
# the workers'.
log_masked() {
	sed -E 's/^stpd-bridge\[[0-9]+\]: //; s/pid [0-9]+: worker [0-9]+ /pid F: worker W /' "$T/log" |
		grep -E '^(warn|error): '
}

# Issue 16 §3: kill -9 of a worker stopped that JVM's events for the rest of
# the bridge's life, with -x running on. Another worker starts, registers
# from scratch (its own session of the agent, numbered from 1), and the gap
# is said in one line.
@test "a worker killed with kill -9 is replaced after 100 ms, said once; the new one registers again and its events are all there" {
	start_fake 0 0 --scenario some --connections 2
	local fa=$FA
	start_bridge -x "$fa" --print -m 'Demo.*' --log-level info
	count_is "$T/out" "pid=$fa .*method=Demo.tick" 2
	kill -9 "$(worker_of "$fa")"
	count_is "$T/out" "pid=$fa .*method=Demo.tick" 4
	# two sessions, each of two events numbered 1 and 2
	[ "$(sed -E 's/.* (ts=[0-9]+) .*/\1/' "$T/out")" = "ts=1000000
ts=2000000
ts=1000000
ts=2000000" ]
	run log_masked
	[ "$output" = "warn: pid F: worker W died of signal 9 (Killed); another starts in 100 ms (restart 1 of 5): the JVM's events until it has registered again are lost" ]
	# each session registered in full: Hello ... Start
	[ "$(grep -c '^Start$' "$FA_CMDS")" -eq 2 ]
	kill "$BR"
	wait "$BR"
	# the new worker stopped in order: it sent Reset
	wait_for "$FA_CMDS" '^Reset$'
}

# A worker that dies every time (the agent kills its peer as soon as it
# connects): 5 restarts, 100 to 1600 ms apart, then the JVM is given up, and
# with no other -x JVM the bridge exits 1.
@test "a worker that dies every time is restarted 5 times, then the JVM is given up; the last -x JVM given up: exit 1" {
	start_fake 0 0 --connections 0 --kill-peer
	local fa=$FA
	start_bridge -x "$fa" --print -m 'Demo.*'
	wait_gone "$BR"
	run wait "$BR"
	[ "$status" -eq 1 ]
	run log_masked
	[ "$output" = "warn: pid F: worker W died of signal 9 (Killed); another starts in 100 ms (restart 1 of 5): the JVM's events until it has registered again are lost
warn: pid F: worker W died of signal 9 (Killed); another starts in 200 ms (restart 2 of 5): the JVM's events until it has registered again are lost
warn: pid F: worker W died of signal 9 (Killed); another starts in 400 ms (restart 3 of 5): the JVM's events until it has registered again are lost
warn: pid F: worker W died of signal 9 (Killed); another starts in 800 ms (restart 4 of 5): the JVM's events until it has registered again are lost
warn: pid F: worker W died of signal 9 (Killed); another starts in 1600 ms (restart 5 of 5): the JVM's events until it has registered again are lost
error: pid F: worker W died of signal 9 (Killed); 6 workers in a row died within 10000 ms of their start: giving up on this JVM, its events are not traced any more" ]
	[ "$(grep -c '^killed the peer$' "$FA_CMDS")" -eq 6 ]
	kill -0 "$fa"
}

# stopped_in_order STATUS LINE: the bridge ended with STATUS 1 and the one
# line LINE on stderr; the fake agent's last commands were Reset, then the
# end of the connection.
stopped_in_order() {
	[ "$1" -eq 1 ]
	[ "$(sed -E 's/^stpd-bridge\[[0-9]+\]: //' "$T/err")" = "$2" ]
	wait_for "$FA_CMDS" '^closed$'
	[ "$(tail -2 "$FA_CMDS")" = "Reset
closed" ]
}

# Issue 16 §4: output to a full disk or a closed pipe said "output: ...;
# stopping", then the worker "did not stop in time; killed" (no Reset
# reached the agent) and the exit status was 0. Now: one error line, the
# worker told to stop unregisters (the agent's last commands: Reset, then the
# end of the connection), exit status 1.
@test "output to a full disk or a closed pipe: one error line, the worker sends Reset, exit 1" {
	local st
	start_fake 0 0 --scenario stream
	timeout 20 "$BRIDGE" -x "$FA" --sockdir "$T/s-%u" --rescan-ms 100 --print -m 'Demo.*' \
		>/dev/full 2>"$T/err" 3>&- && st=0 || st=$?
	stopped_in_order "$st" "error: standard output: No space left on device; stopping"

	start_fake 0 0 --scenario stream
	timeout 20 "$BRIDGE" -x "$FA" --sockdir "$T/s-%u" --rescan-ms 100 --print -m 'Demo.*' \
		-o /dev/full 2>"$T/err" 3>&- && st=0 || st=$?
	stopped_in_order "$st" "error: output '/dev/full': No space left on device; stopping"

	start_fake 0 0 --scenario stream
	timeout 20 "$BRIDGE" -x "$FA" --sockdir "$T/s-%u" --rescan-ms 100 --print -m 'Demo.*' \
		2>"$T/err" 3>&- | head -1 >"$T/first"
	stopped_in_order "${PIPESTATUS[0]}" "error: standard output: Broken pipe; stopping"
	[ "$(cat "$T/first")" = "method.enter pid=$FA tid=4250 ts=1000000 method=Demo.tick()V args=" ]
}

# Issue 16 §6, the supervisor's side: out of descriptors or processes it
# said "pipe: Too many open files" (or fork's error) at every scan, for as
# long as it lasted. Now once, then its count when it is over; the JVM is
# served then. A uid of its own, whose process limit is 2 (the fake agent and
# the bridge): the worker's fork fails until the limit is raised.
@test "out of processes, starting a worker fails: said once while it lasts, then counted; the JVM is served once it is over" {
	local u=64999
	start_fake $u $u --scenario some
	local fa=$FA
	: >"$T/log"
	: >"$T/out"
	chown $u "$T/log" "$T/out"
	# the uid may not be able to reach the build tree (a clone in a 0700
	# directory): it runs a copy of the bridge from our own 0755 dir
	cp "$BRIDGE" "$T/bin/stpd-bridge"
	setpriv --reuid=$u --regid=$u --clear-groups prlimit --nproc=2:100 "$T/bin/stpd-bridge" --sockdir "$T/s-%u" \
		--rescan-ms 20 --log-level debug --log-file "$T/log" -o "$T/out" -x "$fa" --print -m 'Demo.*' 3>&- &
	BR=$!
	STARTED+=("$BR")
	wait_for "$T/log" 'said once while it lasts'
	# a scan every 20 ms tries again: counted, said at debug level only
	wait_for "$T/log" 'debug: starting a worker: fork: Resource temporarily unavailable \(again: 2 so far\)$' 2400
	setpriv --reuid=$u --regid=$u --clear-groups prlimit --pid "$BR" --nproc=100:100
	count_is "$T/out" "pid=$fa .*method=Demo.tick" 2
	# at --log-level debug: its warnings and errors, as the default level shows them
	run grep -E "^stpd-bridge: (warn|error): " <(log_lines)
	[ "${lines[0]}" = "stpd-bridge: error: starting a worker: fork: Resource temporarily unavailable (said once while it lasts)" ]
	[[ "${lines[1]}" =~ ^"stpd-bridge: error: starting a worker: fork: Resource temporarily unavailable: "([2-9]|[1-9][0-9]+)" times in "[0-9]+" ms, now over"$ ]] || { echo "$output" >&2; false; }
	[ "${#lines[@]}" -eq 2 ]
	kill -0 "$BR"
}

# Issue 15: the JVM's JFR chunks (JfrData) through the live parser. A chunk
# the parser refuses is said once, naming the JVM and the offset, and the
# next chunk is read; a stream that ends inside a chunk is said at the end.
# gc_recording: $T/jfr/gc.jfr, a JDK 17 recording of two System.gc()
# collections (jdk.GarbageCollection only), readable by the fake agent's uid.
gc_recording() {
	local jdk=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
	mkdir -m 755 "$T/jfr"
	"$jdk" -XX:+UseG1GC "-XX:StartFlightRecording=filename=$T/jfr/gc.jfr,settings=none,+jdk.GarbageCollection#enabled=true" \
		-cp "$BUILD/testsuite/java/classes" JfrGc /dev/null 2 >"$T/jfr/java.out" 2>&1
	chmod 644 "$T/jfr/gc.jfr"
}

@test "--jfr: a chunk that cannot be parsed is said with the JVM and the offset, the next is read; a stream cut mid-chunk is said" {
	gc_recording
	start_fake 0 0 --scenario jfr --jfr-file "$T/jfr/gc.jfr" --then exit
	local fa=$FA
	start_bridge --print --jfr jdk.GarbageCollection -x "$fa"
	wait_gone "$BR"
	run log_lines
	local lines=$output
	grep -qx "stpd-bridge: warn: pid $fa: the JVM's JFR data is malformed at offset 0 of its chunk: .*; that chunk's later events are skipped, the next chunk is read" <<<"$lines"
	grep -Eqx "stpd-bridge: warn: pid $fa: the JVM's JFR stream ended inside a record, at offset [0-9]+ of its chunk: .+" <<<"$lines"
	# the cut chunk's two collections waited for the end of their flush (its
	# last record, cut), which never came: counted, not shown
	grep -qx "stpd-bridge: warn: pid $fa: the JVM's JFR stream ended mid-chunk: 2 events whose constants never came are not shown" <<<"$lines"
	[ "$(grep -c 'JFR' <<<"$lines")" -eq 3 ]
	# the whole chunk's two collections
	run sed -E "s/ pid=$fa / pid=PID /; s/ start_ns=[0-9]+ duration_ns=[0-9]+ / start_ns=S duration_ns=D /; s/ (gcId|sumOfPauses|longestPause)=[0-9]+/ \\1=N/g" "$T/out"
	local gc='jfr pid=PID tid=0 start_ns=S duration_ns=D type=jdk.GarbageCollection thread="" gcId=N name="G1Full" cause="System.gc()" sumOfPauses=N longestPause=N'
	[ "$output" = "$gc
$gc" ] || { echo "$output"; false; }
	# a collection pauses: sumOfPauses > 0 on every line
	! grep -Eq ' sumOfPauses=0( |$)' "$T/out" || return 1
	grep -Eq ' sumOfPauses=[1-9][0-9]* ' "$T/out"
}

@test "--jfr: a stream of one whole chunk: its events printed, nothing said of JFR" {
	gc_recording
	start_fake 0 0 --scenario jfr-whole --jfr-file "$T/jfr/gc.jfr" --then exit
	local fa=$FA
	start_bridge --print --jfr jdk.GarbageCollection -x "$fa"
	wait_gone "$BR"
	run log_lines
	# the fake ends without VmDeath; nothing said of JFR
	[[ "$output" =~ ^"stpd-bridge: warn: pid $fa: the agent closed the connection before the VM's death event: events after number "[0-9]+" may be lost"$ ]] || { echo "$output"; false; }
	run sed -E "s/ pid=$fa / pid=PID /; s/ start_ns=[0-9]+ duration_ns=[0-9]+ / start_ns=S duration_ns=D /; s/ (gcId|sumOfPauses|longestPause)=[0-9]+/ \\1=N/g" "$T/out"
	local gc='jfr pid=PID tid=0 start_ns=S duration_ns=D type=jdk.GarbageCollection thread="" gcId=N name="G1Full" cause="System.gc()" sumOfPauses=N longestPause=N'
	[ "$output" = "$gc
$gc" ] || { echo "$output"; false; }
}
