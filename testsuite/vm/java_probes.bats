#!/usr/bin/env bats
# Java probe points end to end on SystemTap's real kernel runtime: the user's
# script goes through stap-java (translation, tapset, bridge command) and
# `stap -p4` on the host, and the module runs with staprun in the qemu guest
# (stap-vm --stap), with a JVM that loads the agent through
# JAVA_TOOL_OPTIONS. Every test compares exact output; only pids, tids,
# timestamps, object ids and fds are masked.
#
# In the guest, /tmp is the host's /tmp over 9p, where qemu refuses Unix
# sockets; the agent and the bridge put theirs in /run/sjd (a guest tmpfs).
# The build tree may be anywhere, /tmp included (uprobes fire there).
#
# STAPJAVA_SRCDIR / STAPJAVA_BUILDDIR: source and build trees (default: the
# repository top).

bats_require_minimum_version 1.5.0

load java_vm
load tour_mask
load guest_pid

setup_file() {
	java_vm_setup stapjava-e2e examples/java/classes/Tour.class examples/java/classes/test.class || return 1
	export CLASSES=$B/examples/java/classes
}

teardown_file() {
	[ -n "${D:-}" ] && rm -rf "$D"
}

# run_e2e NAME SCRIPT CMD: SCRIPT through stap-java and
# stap-vm with CMD (a shell command, run in $D) as -c: stap-java
# --target-command makes the command that starts the bridge inside the
# target's process tree (uprobes fire only there) and hands the JVMs the
# agent (JAVA_TOOL_OPTIONS); the agent logs to $D/NAME.agent.log. Sockets go
# to /run/sjd, a guest tmpfs (the guest's /tmp is 9p). stdout in $D/NAME.out,
# stderr in $D/NAME.err, status in $status.
run_e2e() {
	local name=$1 script=$2 cmd=$3 tcmd
	status=0
	export STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' STAPJAVA_WAIT_MS=600000
	export STAPJAVA_AGENT_OPTS=sockdir=/run/sjd,loglevel=info,logfile=$D/$name.agent.log
	tcmd=$("$B/translator-patches/stap-java" --target-command "cd $D && $cmd" "$script") || { status=$?; return 0; }
	timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		-c "$tcmd" "$script" >"$D/$name.out" 2>"$D/$name.err" </dev/null || status=$?
}

# java_cmd NAME JAVA-ARGS...: the JVM's command, its stdout and stderr in
# $D/NAME.java.out and .err.
java_cmd() {
	local name=$1
	shift
	printf '%s %s >%s 2>%s' "$JAVA" "$*" "$D/$name.java.out" "$D/$name.java.err"
}

# one_session_log LOG MASK: LOG is the agent's log of one stap-java session
# on Tick.tick (optional data MASK) from the bridge's Hello to its Reset:
# what came with the Hello for an Appendix-only agent ignored, the calls
# went in with the registration and out at the end, nothing else.
one_session_log() {
	run sed -e 's/pid [0-9]*/pid N/g' -e 's/^stapjava-agent\[[0-9]*\]/stapjava-agent[N]/' -e '/: listening on /d' "$1"
	[ "$output" = "$(sed 's/^\t*//' <<-EOF
		stapjava-agent[N]: info: conn#1: accepted pid N uid 0
		stapjava-agent[N]: info: conn#1: Hello from pid N, version 1, caps 0x1fffff; negotiated 0x1fffff
		stapjava-agent[N]: info: event ClassPrepare enabled
		stapjava-agent[N]: info: method calls injected in 1 class
		stapjava-agent[N]: info: conn#1: 2 Appendix B commands before the bridge's first extension command ignored (they are for an Appendix-only agent)
		stapjava-agent[N]: info: conn#1: VmEvents on
		stapjava-agent[N]: info: conn#1: RequestForOptionalData $2
		stapjava-agent[N]: info: conn#1: Register method $2 "Tick.tick"
		stapjava-agent[N]: info: conn#1: Start: registrations complete
		stapjava-agent[N]: info: injected calls removed: 1 class back to its original code
		stapjava-agent[N]: info: method injection off
		stapjava-agent[N]: info: event ClassPrepare disabled
		stapjava-agent[N]: info: conn#1: Reset
		stapjava-agent[N]: info: conn#1 (pid N uid 0) closed: peer closed the connection
		EOF
	)" ] || { cat "$1" >&2; false; }
}

# tour_masked NAME: the Tour run's output of run_e2e NAME, masked (tour_mask.bash).
tour_masked() {
	mask_tour "$D/$1.java.out" "$D/$1.out"
}

@test "stap-java --dump: a Java-only script runs asynchronously; with kernel probes, in the Java thread" {
	run --separate-stderr "$B/translator-patches/stap-java" --dump "$S/examples/tour.stp"
	[ "$status" -eq 0 ]
	run grep -- "^$STAPJAVA_BRIDGE --parent" <<<"$output"
	[ "$output" = "$STAPJAVA_BRIDGE --parent <stapio pid> '--fire' '--slot' '0:method.enter:Tour.*' '--slot' '1:method.enter:TourLazy.*' '--slot' '2:method.return:Tour.*' '--slot' '3:method.return:TourLazy.*' '--slot' '4:exception.thrown:java.lang.IllegalStateException' '--slot' '5:exception.catch:java.lang.IllegalStateException' '--slot' '6:class.load:TourLazy' '--slot' '7:class.prepare:TourLazy' '--gc' '--threads' '--monitors' '--vm' '--args' '--return' '--stack'" ]
	run --separate-stderr "$B/translator-patches/stap-java" --dump "$S/examples/bufferedwriter.stp"
	[ "$status" -eq 0 ]
	run grep -- "^$STAPJAVA_BRIDGE --parent" <<<"$output"
	[ "$output" = "$STAPJAVA_BRIDGE --parent <stapio pid> '--fire' '--slot' '0:method.enter:java.io.BufferedWriter.*' '--slot' '1:method.return:java.io.BufferedWriter.*' '--args' '--in-thread'" ]
}

@test "stap-java -x PID: -x goes to the bridge only (it serves that JVM alone), not to stap" {
	run --separate-stderr "$B/translator-patches/stap-java" --dump -x 4242 "$S/examples/gc-time.stp"
	[ "$status" -eq 0 ]
	run grep -A1 -e '^# stap-java --dump: bridge' -e '^# stap-java --dump: stap' <<<"$output"
	[ "$output" = "$(printf '%s\n' '# stap-java --dump: bridge' \
		"$STAPJAVA_BRIDGE --parent <stapio pid> '--fire' '--gc' '-x' '4242' '--agent' '$STAPJAVA_AGENT'" \
		'# stap-java --dump: stap' "stap -I '<tmpdir>/tapset' -I $STAPJAVA_TAPSET '<tmpdir>/script.stp'")" ]
	# -c and -x together are refused
	run --separate-stderr "$B/translator-patches/stap-java" --dump -x 4242 -c true "$S/examples/gc-time.stp"
	[ "$status" -ne 0 ]
}

@test "every family fires with its variables (Java-only script, asynchronous)" {
	run_e2e tour "$S/examples/tour.stp" "$(java_cmd tour -Xms256m -cp "$CLASSES" Tour)"
	[ "$status" -eq 0 ] || { show tour; false; }
	[ -z "$(clean_err "$D/tour.err")" ] || { show tour; false; }
	run tour_masked tour
	expected=$(cat <<-'EOF'
		== MAIN
		vm.init pid=PID tid=MAIN ts ok
		method.enter pid=PID tid=MAIN ts ok Tour.<clinit>()V args=
		method.return pid=PID tid=MAIN ts ok Tour.<clinit>()V popped=0 ret=void
		method.enter pid=PID tid=MAIN ts ok Tour.main([Ljava/lang/String;)V args=java.lang.String[0]#ID
		method.enter pid=PID tid=MAIN ts ok Tour.printTid(Ljava/lang/String;)V args="main"
		method.enter pid=PID tid=MAIN ts ok Tour.osTid()Ljava/lang/String; args=
		method.return pid=PID tid=MAIN ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="MAIN"
		method.return pid=PID tid=MAIN ts ok Tour.printTid(Ljava/lang/String;)V popped=0 ret=void
		method.enter pid=PID tid=MAIN ts ok Tour.methods()V args=
		method.enter pid=PID tid=MAIN ts ok Tour.add(II)I args=2,3
		method.return pid=PID tid=MAIN ts ok Tour.add(II)I popped=0 ret=5
		method.enter pid=PID tid=MAIN ts ok Tour.scale(JD)J args=1099511627776,0.5
		method.return pid=PID tid=MAIN ts ok Tour.scale(JD)J popped=0 ret=549755813888
		method.enter pid=PID tid=MAIN ts ok Tour.greet(Ljava/lang/String;C)Ljava/lang/String; args="stapjava",'!'
		method.return pid=PID tid=MAIN ts ok Tour.greet(Ljava/lang/String;C)Ljava/lang/String; popped=0 ret="hello, stapjava!"
		method.enter pid=PID tid=MAIN ts ok Tour.check(ZBSF)Z args=false,-1,300,1.5
		method.return pid=PID tid=MAIN ts ok Tour.check(ZBSF)Z popped=0 ret=true
		method.enter pid=PID tid=MAIN ts ok Tour.half(D)D args=-0.5
		method.return pid=PID tid=MAIN ts ok Tour.half(D)D popped=0 ret=-0.25
		method.enter pid=PID tid=MAIN ts ok Tour.digits(I)[I args=42
		method.return pid=PID tid=MAIN ts ok Tour.digits(I)[I popped=0 ret=int[2]#ID
		method.enter pid=PID tid=MAIN ts ok Tour.nothing(Ljava/lang/Object;)Ljava/lang/Object; args=null
		method.return pid=PID tid=MAIN ts ok Tour.nothing(Ljava/lang/Object;)Ljava/lang/Object; popped=0 ret=null
		method.enter pid=PID tid=MAIN ts ok Tour.fail(Ljava/lang/String;)V args="on purpose"
		exception.thrown pid=PID tid=MAIN ts ok java.lang.IllegalStateException in Tour.fail(Ljava/lang/String;)V
		Tour.fail(Tour.java:37)
		Tour.methods(Tour.java:48)
		Tour.main(Tour.java:94)
		method.return pid=PID tid=MAIN ts ok Tour.fail(Ljava/lang/String;)V popped=1 ret=java.lang.IllegalStateException@H#ID
		exception.catch pid=PID tid=MAIN ts ok java.lang.IllegalStateException in Tour.methods()V
		method.return pid=PID tid=MAIN ts ok Tour.methods()V popped=0 ret=void
		method.enter pid=PID tid=MAIN ts ok Tour.classes()V args=
		class.load pid=PID tid=MAIN ts ok TourLazy
		class.prepare pid=PID tid=MAIN ts ok TourLazy
		method.enter pid=PID tid=MAIN ts ok TourLazy.value()I args=
		method.return pid=PID tid=MAIN ts ok TourLazy.value()I popped=0 ret=7
		method.return pid=PID tid=MAIN ts ok Tour.classes()V popped=0 ret=void
		method.enter pid=PID tid=MAIN ts ok Tour.threads()V args=
		method.return pid=PID tid=MAIN ts ok Tour.threads()V popped=0 ret=void
		method.enter pid=PID tid=MAIN ts ok Tour.monitors()V args=
		monitor.wait pid=PID tid=MAIN ts ok obj2 timeout_ms=20
		monitor.waited pid=PID tid=MAIN ts ok obj2 timeout_ms=20 timed_out=1
		method.return pid=PID tid=MAIN ts ok Tour.monitors()V popped=0 ret=void
		method.return pid=PID tid=MAIN ts ok Tour.main([Ljava/lang/String;)V popped=0 ret=void
		vm.death pid=PID tid=MAIN ts ok
		== W1
		thread.start pid=PID tid=W1 thread=worker-1 ts ok
		method.enter pid=PID tid=W1 ts ok Tour.lambda$threads$0()V args=
		method.enter pid=PID tid=W1 ts ok Tour.printTid(Ljava/lang/String;)V args="worker-1"
		method.enter pid=PID tid=W1 ts ok Tour.osTid()Ljava/lang/String; args=
		method.return pid=PID tid=W1 ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="W1"
		method.return pid=PID tid=W1 ts ok Tour.printTid(Ljava/lang/String;)V popped=0 ret=void
		method.return pid=PID tid=W1 ts ok Tour.lambda$threads$0()V popped=0 ret=void
		thread.end pid=PID tid=W1 thread=worker-1 ts ok
		== W2
		thread.start pid=PID tid=W2 thread=worker-2 ts ok
		method.enter pid=PID tid=W2 ts ok Tour.lambda$threads$0()V args=
		method.enter pid=PID tid=W2 ts ok Tour.printTid(Ljava/lang/String;)V args="worker-2"
		method.enter pid=PID tid=W2 ts ok Tour.osTid()Ljava/lang/String; args=
		method.return pid=PID tid=W2 ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="W2"
		method.return pid=PID tid=W2 ts ok Tour.printTid(Ljava/lang/String;)V popped=0 ret=void
		method.return pid=PID tid=W2 ts ok Tour.lambda$threads$0()V popped=0 ret=void
		thread.end pid=PID tid=W2 thread=worker-2 ts ok
		== GC
		gc.start pid=PID tid>0 ts ok
		gc.finish pid=PID tid>0 ts ok
		== BLOCKER
		thread.start pid=PID tid=BLOCKER thread=blocker ts ok
		method.enter pid=PID tid=BLOCKER ts ok Tour.lambda$monitors$1()V args=
		method.enter pid=PID tid=BLOCKER ts ok Tour.printTid(Ljava/lang/String;)V args="blocker"
		method.enter pid=PID tid=BLOCKER ts ok Tour.osTid()Ljava/lang/String; args=
		method.return pid=PID tid=BLOCKER ts ok Tour.osTid()Ljava/lang/String; popped=0 ret="BLOCKER"
		method.return pid=PID tid=BLOCKER ts ok Tour.printTid(Ljava/lang/String;)V popped=0 ret=void
		monitor.contended_enter pid=PID tid=BLOCKER ts ok obj1
		monitor.contended_entered pid=PID tid=BLOCKER ts ok obj1
		method.return pid=PID tid=BLOCKER ts ok Tour.lambda$monitors$1()V popped=0 ret=void
		thread.end pid=PID tid=BLOCKER thread=blocker ts ok
	EOF
	)
	diff -u <(echo "$expected") <(echo "$output") || { show tour; false; }
	# the program itself ran normally
	run grep -v -e '^pid ' -e '^tid ' "$D/tour.java.out"
	[ "$output" = "$(printf 'caught: on purpose\nlazy: 7\ndone')" ]
}

# What stap says of a user backtrace that reaches the JVM's JIT-compiled code.
JIT_UNWIND_WARNING="WARNING: Missing unwind data for a module, rerun with 'stap -d (unknown; retry with -DDEBUG_UNWIND)'"

# Ctx.step(i) makes exactly one write(2) (an unbuffered FileOutputStream),
# COUNT times, once the file GO exists; used by the in-thread tests below.
ctx_java() {
	cat >"$D/Ctx.java" <<-'EOF'
		public class Ctx {
			static java.io.FileOutputStream out;
			static void step(int i) throws Exception { out.write(i); }
			static void note(String s, char c, String t, int i) { }
			public static void main(String[] args) throws Exception {
				out = new java.io.FileOutputStream(args[0]);
				java.io.File go = new java.io.File(args[1]);
				for (int i = 0; i < 24000 && !go.exists(); i++)	// bounded: 20 min, the run's own bound
					Thread.sleep(50);
				note("a,\"b\"", ',', "x".repeat(400), -7);
				for (int i = 0; i < 3; i++)
					step(65 + i);
				out.close();
			}
		}
	EOF
	javac -d "$D" "$D/Ctx.java"
}

# The script of the in-thread tests: the Java handlers print their context
# as numbers compared in the handler and as values, and count the write(2)s
# the Java thread makes inside each call (the agent makes none of its own).
# With "exit", the script ends itself after the third call.
ctx_script() {
	local end= stop=
	# with -x, staprun runs on after its target: the script ends itself after
	# the third call, or when the JVM ends (a call missed: a short run, not a
	# hang). The JVM's end comes in-thread too: the agent's vm_death marker.
	[ "${1:-}" = exit ] && end='if (++calls == 3) exit()' && stop='exit()'
	# with -c, stap's process probes see the target's process tree: the
	# bridge is started outside it, so they see the command's processes alone
	# (with -x, stap checks the pid when it builds the module, on the host)
	local tree='probe process.begin { if (isinstr(execname(), "bridge")) printf("%s in the target tree\n", execname()) }'
	[ "${1:-}" = exit ] && tree=
	cat >"$D/ctx.stp" <<-EOF
		global inside, writes, calls, framed
		probe java.method("Ctx.step").enter {
			inside[tid()] = 1
			# the Java thread's native stack: the agent's marker and its caller
			if (!framed++)
				printf("marker in %s, inthread_fire on the stack:%d\\n", usymname(uaddr()),
				       isinstr(sprint_ubacktrace(), "inthread_fire"))
			printf("enter %s tid==java_tid:%d pid==java_pid:%d pid==target:%d exec=%s pid=%d\\n",
			       java_args, tid() == java_tid, pid() == java_pid, pid() == target(), execname(), pid())
		}
		probe java.method("Ctx.step").return {
			delete inside[tid()]
			printf("return writes=%d\\n", writes)
			writes = 0
			$end
		}
		probe syscall.write { if (tid() in inside) writes++ }
		# a String with a comma and quotes, a comma char, a String of 400 bytes
		# (the agent's strmax=480), then an int: each argument whole, and no
		# MAXACTION however long the list (java_arg is C)
		probe java.method("Ctx.note") {
			printf("note %s %s %d %d\\n", java_arg(java_args, 1), java_arg(java_args, 2),
			       strlen(java_arg(java_args, 3)), java_arg_long(java_args, 4))
		}
		probe java.vm.death {
			printf("vm.death tid==java_tid:%d pid==java_pid:%d\\n", tid() == java_tid, pid() == java_pid)
			$stop
		}
		$tree
	EOF
}

# run_c_registered NAME SCRIPT CMD [AGENT_OPTS]: SCRIPT through stap-java
# and stap-vm with -c CMD, the agent logging to $D/NAME.agent.log (and
# AGENT_OPTS, from ","); $D/NAME.go is made once the bridge has registered,
# for the program to wait for. Output in $D/NAME.out and .err, status in
# $status.
run_c_registered() {
	local name=$1 script=$2 cmd=$3 opts=${4:-} tcmd
	rm -f "$D/$name.go"
	export STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' STAPJAVA_WAIT_MS=600000
	export STAPJAVA_AGENT_OPTS=sockdir=/run/sjd,loglevel=info,logfile=$D/$name.agent.log$opts
	tcmd=$("$B/translator-patches/stap-java" --target-command "$cmd" "$script") || { status=$?; return 0; }
	status=0
	timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		--before "(i=0; until grep -q 'Start: registrations complete' $D/$name.agent.log 2>/dev/null; do i=\$((i+1)); [ \$i -lt 3000 ] || break; sleep 0.2; done; touch $D/$name.go) &" \
		-c "$tcmd" "$script" >"$D/$name.out" 2>"$D/$name.err" </dev/null || status=$?
}

@test "in-thread, -c: the Java handler runs in the Java thread (tid, pid, execname, target) and sees exactly the call's one write(2)" {
	ctx_java
	ctx_script
	rm -f "$D/ctx.bin"
	# a simple command is exec'ed by the target shell: target() is the JVM's pid
	run_c_registered ctxc "$D/ctx.stp" "$JAVA -cp $D Ctx $D/ctx.bin $D/ctxc.go" ,strmax=480
	[ "$status" -eq 0 ] || { show ctxc; false; }
	[ "$(sed -E 's/ pid=[0-9]+$/ pid=N/' "$D/ctxc.out")" = "$(echo "note \"a,\\\"b\\\"\" ',' 402 -7"; echo 'marker in fire_slot0, inthread_fire on the stack:1'; printf 'enter %s tid==java_tid:1 pid==java_pid:1 pid==target:1 exec=java pid=N\nreturn writes=1\n' 65 66 67; echo 'vm.death tid==java_tid:1 pid==java_pid:1')" ] || { show ctxc; false; }
	# the only warning: the stack goes on into JIT-compiled code, which has no unwind data
	[ "$(clean_err "$D/ctxc.err")" = "$JIT_UNWIND_WARNING" ] || { show ctxc; false; }
	[ "$(cat "$D/ctx.bin")" = ABC ]
	run grep -c 'FireInThread: its markers fire in the Java threads, session' "$D/ctxc.agent.log"
	[ "$output" = 1 ] || { show ctxc; false; }
}

# A native method, wrapped (agent/cfwrap.h): NatWriter loads after the
# registration, so its native gets a Java method in front, whose injected
# calls fire in the Java thread; what the kernel does inside the native
# call (its one write(2); the C is testsuite/java/natives.c) is between its
# enter and its return, with the arguments and the value returned.
@test "in-thread, -c: a native method, wrapped: its arguments, its value, and the one write(2) it makes between enter and return" {
	cat >"$D/NatIO.java" <<-'EOF'
		public class NatIO {
			public static void main(String[] args) throws Exception {
				System.load(args[0]);
				java.io.File go = new java.io.File(args[2]);
				for (int i = 0; i < 24000 && !go.exists(); i++)	// bounded: 20 min, the run's own bound
					Thread.sleep(50);
				for (int i = 0; i < 3; i++)
					System.out.println("wrote " + NatWriter.writeTo(args[1], 65 + i));
			}
		}
		class NatWriter {
			static native int writeTo(String path, int b);
		}
	EOF
	javac -d "$D" "$D/NatIO.java"
	cat >"$D/nat.stp" <<-'EOF'
		global inside, writes
		probe java.method("NatWriter.writeTo").enter {
			inside[tid()] = 1
			writes[tid()] = 0
			printf("enter %s tid==java_tid:%d %s\n", java_name, tid() == java_tid, java_args)
		}
		probe syscall.write { if (tid() in inside) writes[tid()]++ }
		probe java.method("NatWriter.writeTo").return {
			delete inside[tid()]
			printf("return %s writes=%d\n", java_return, writes[tid()])
		}
	EOF
	rm -f "$D/nat.bin"
	run_c_registered nat "$D/nat.stp" "$JAVA -cp $D NatIO $B/testsuite/java/libnatives.so $D/nat.bin $D/nat.go"
	[ "$status" -eq 0 ] || { show nat; false; }
	# (the JVM's own lines, "wrote 1", share stap's stdout, in any order with it)
	[ "$(grep -c '^wrote 1$' "$D/nat.out")" = 3 ] || { show nat; false; }
	[ "$(grep -v '^wrote ' "$D/nat.out")" = "$(printf 'enter NatWriter.writeTo(Ljava/lang/String;I)I tid==java_tid:1 "%s",%d\nreturn 1 writes=1\n' \
		"$D/nat.bin" 65 "$D/nat.bin" 66 "$D/nat.bin" 67)" ] || { show nat; false; }
	[ "$(cat "$D/nat.bin")" = ABC ]
	run grep -c 'info: class NatWriter: 1 native method wrapped' "$D/nat.agent.log"
	[ "$output" = 1 ] || { show nat; false; }
	[ -z "$(clean_err "$D/nat.err" | grep -vxF "$JIT_UNWIND_WARNING")" ] || { show nat; false; }
}

# run_ctx_x_pid NAME AGENT OPTS SCRIPT: the Ctx program (ctx_java) in a JVM
# that loads AGENT with OPTS (after its log's), started with pid 5000 and,
# once its agent listens (a running JVM, as -x means), SCRIPT through
# stap-java and stap-vm with -x 5000, which goes to both, as `stap -x`
# passes it to staprun. The JVM makes its calls once the bridge has
# registered. Output in $D/NAME.*, status in $status.
run_ctx_x_pid() {
	local name=$1 agent=$2 opts=$3 script=$4 before
	rm -f "$D/ctx.go" "$D/ctx.bin"
	before=$(start_with_pid 5000 "JAVA_TOOL_OPTIONS=-agentpath:$agent=sockdir=/run/sjd,loglevel=info,logfile=$D/$name.agent.log$opts $JAVA -cp $D Ctx $D/ctx.bin $D/ctx.go >$D/$name.java.out 2>$D/$name.java.err" "$D/$name.pid")
	# (we once saw a stap started beside a JVM that was still starting leave
	# it without uprobes, not reproduced since: doc/markers.md)
	before+="; i=0; until grep -q ': listening on ' $D/$name.agent.log 2>/dev/null; do i=\$((i+1)); [ \$i -lt 3000 ] || { echo 'the JVM never listened' >&2; exit 1; }; sleep 0.2; done"
	before+="; (i=0; until grep -q 'Start: registrations complete' $D/$name.agent.log 2>/dev/null; do i=\$((i+1)); [ \$i -lt 3000 ] || break; sleep 0.2; done; touch $D/ctx.go) &"
	status=0
	STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		--stap-opt -x --stap-opt 5000 --staprun-opt -x --staprun-opt 5000 --before "$before" \
		"$script" >"$D/$name.out" 2>"$D/$name.err" </dev/null || status=$?
	[ "$status" -ne 0 ] || [ "$(cat "$D/$name.pid")" = 5000 ] || { echo "the JVM got pid $(cat "$D/$name.pid"), not 5000" >&2; status=1; }
}

@test "in-thread, -x PID: target() is the JVM, and the handlers run in its thread" {
	ctx_java
	ctx_script exit
	# staprun ends when the script does (exit at the third call's return)
	run_ctx_x_pid ctxx "$STAPJAVA_AGENT" ,strmax=480 "$D/ctx.stp"
	[ "$status" -eq 0 ] || { show ctxx; false; }
	[ "$(cat "$D/ctxx.out")" = "$(echo "note \"a,\\\"b\\\"\" ',' 402 -7"; echo 'marker in fire_slot0, inthread_fire on the stack:1'; printf 'enter %s tid==java_tid:1 pid==java_pid:1 pid==target:1 exec=java pid=5000\nreturn writes=1\n' 65 66 67)" ] || { show ctxx; false; }
	[ "$(clean_err "$D/ctxx.err")" = "$JIT_UNWIND_WARNING" ] || { show ctxx; false; }
	[ "$(cat "$D/ctx.bin")" = ABC ]
}

# stap's uprobes are on the script's copy of libstapjava.so; a JVM that runs
# another copy (a container's) has none on its markers: its events are lost,
# and the user is told, not left with silence.
@test "in-thread, -x PID: a JVM whose libstapjava.so no uprobe is on: the user is told its events were not seen" {
	ctx_java
	cp "$STAPJAVA_AGENT" "$D/libstapjava-copy.so"
	cat >"$D/copy.stp" <<-'EOF'
		probe java.method("Ctx.step").enter { printf("enter %s\n", java_args) }
		probe syscall.exit_group { if (pid() == target()) exit() }
	EOF
	run_ctx_x_pid copy "$D/libstapjava-copy.so" "" "$D/copy.stp"
	[ "$status" -eq 0 ] || { show copy; false; }
	[ ! -s "$D/copy.out" ] || { show copy; false; }
	[ "$(clean_err "$D/copy.err" | sed -E 's/^stpd-bridge\[[0-9]+\]: /stpd-bridge[N]: /')" = "$(printf '%s\n' \
		"stpd-bridge[N]: warn: pid 5000: in-thread: slot 0 (method 0x1 \"Ctx.step\") selected an event before any tracer was on the agent's slot0 marker in this JVM (its SDT semaphore was 0): that event was not seen, nor are the slot's next ones until a tracer probes the marker" \
		'WARNING: java.method("Ctx.step").enter never fired: no event of any JVM matched it')" ] || { show copy; false; }
	[ "$(cat "$D/ctx.bin")" = ABC ]
}

@test "the seed's example 6.1 (GC time): time = N per collection, total time = N" {
	run_e2e gc "$S/examples/gc-time.stp" "$(java_cmd gc -Xms256m -cp "$CLASSES" Tour)"
	[ "$status" -eq 0 ] || { show gc; false; }
	run sed -e 's/= [0-9][0-9]*$/= N/' "$D/gc.out"
	[ "$output" = "$(printf 'time = N\ntotal time = N')" ] || { show gc; false; }
	[ -z "$(clean_err "$D/gc.err")" ] || { show gc; false; }
}

@test "example 6.2: every write(2) inside a BufferedWriter call, between its enter and return" {
	run_e2e bw "$S/examples/bufferedwriter.stp" "$(java_cmd bw -cp "$CLASSES" test)"
	[ "$status" -eq 0 ] || { show bw; false; }
	# test.java: writer 1 (8192-char buffer) issues both write(2)s in close();
	# writer 2 (4096) fills the encoder's 8192-byte buffer at its 12289th
	# write(int), i.e. call 14000 + 12289 of write(I)V, then close() writes the rest.
	expected=$(cat <<-'EOF'
		--> java.io.BufferedWriter.close()V call #1 args=
		    write(2) of 8192 bytes
		    write(2) of 5808 bytes
		<-- java.io.BufferedWriter.close()V
		--> java.io.BufferedWriter.write(I)V call #26289 args=120
		    write(2) of 8192 bytes
		<-- java.io.BufferedWriter.write(I)V
		--> java.io.BufferedWriter.close()V call #2 args=
		    write(2) of 5808 bytes
		<-- java.io.BufferedWriter.close()V
	EOF
	)
	diff -u <(echo "$expected") "$D/bw.out" || { show bw; false; }
	[ -z "$(clean_err "$D/bw.err")" ] || { show bw; false; }
	[ "$(stat -c %s "$D/test.tmp")" = 14000 ]
}

@test "example 6.2 verbatim (the seed's script) runs; the user is told its method is Writer's, and at the end that its probes never fired" {
	rm -f "$D/test.tmp"
	run_e2e bwseed "$S/examples/bufferedwriter-seed.stp" "$(java_cmd bwseed -cp "$CLASSES" test)"
	[ "$status" -eq 0 ] || { show bwseed; false; }
	# BufferedWriter only inherits write(String) (from Writer): said once at
	# registration, and at the end that neither probe point ever fired
	[ "$(clean_err "$D/bwseed.err" | sed -E 's/^stpd-bridge\[[0-9]+\]: warn: pid [0-9]+: //')" = "$(printf '%s\n' \
		"java.method pattern 'java.io.BufferedWriter.write(Ljava/lang/String;)V': its class is loaded and declares no such method (an inherited one is its declaring class's); similar: java.io.BufferedWriter.write(Ljava/lang/String;II)V" \
		'WARNING: java.method("java.io.BufferedWriter.write(Ljava/lang/String;)V").enter never fired: no event of any JVM matched it' \
		'WARNING: java.method("java.io.BufferedWriter.write(Ljava/lang/String;)V").return never fired: no event of any JVM matched it')" ] ||
		{ show bwseed; false; }
	# write(String) is never called by test.java: only the kernel probe prints,
	# for the JVM's writes (among them the four of test.tmp), then the total.
	run grep -c '^ [0-9]*, "aaaa' "$D/bwseed.out"
	[ "$output" = 2 ] || { show bwseed; false; }
	run grep -c '^ [0-9]*, "xxxx' "$D/bwseed.out"
	[ "$output" = 2 ] || { show bwseed; false; }
	run sed -n '/^ [0-9]*, "[ax]\{4\}/s/.*, \([0-9]*\)$/\1/p' "$D/bwseed.out"
	[ "$output" = "$(printf '8192\n5808\n8192\n5808')" ] || { show bwseed; false; }
	run tail -n1 "$D/bwseed.out"
	[[ $output =~ ^total\ time\ =\ [0-9]+$ ]]
	! grep -q 'BufferedWriter.write' "$D/bwseed.out" || return 1
}

@test "contention.stp: an argument as a number, the whole stack beyond MAXSTRINGLEN, the lock an order waits for and who holds it" {
	# the example as it is, and a probe that lets Shop's holder go once the
	# script has seen the wait (so the owner is read while it holds the lock)
	{ cat "$S/examples/contention.stp"
	  printf 'probe java.monitor.contended_enter { if (java_monitor_class == "Shop$Stock") system("touch %s") }\n' "$D/shop.release"
	} >"$D/contention.stp"
	run_e2e shop "$D/contention.stp" "$(java_cmd shop -cp "$CLASSES" Shop "$D/shop.release")"
	[ "$status" -eq 0 ] || { show shop; false; }
	# 34 frames: take, nest(0) .. nest(30), order, main (Shop.java's lines)
	expected=$(cat <<-'EOF'
		order 1: 1250 cents
		  take: 34 frames, outermost Shop.main(Shop.java:51), innermost three Shop.take:17|Shop.nest:24|Shop.nest:26, java_stack cut with |...
		order 2: 99 cents
		  take: 34 frames, outermost Shop.main(Shop.java:57), innermost three Shop.take:17|Shop.nest:24|Shop.nest:26, java_stack cut with |...
		  blocked on a Shop$Stock held by "holder" (the holder's tid) at Shop.take(Shop.java:18)
	EOF
	)
	diff -u <(echo "$expected") "$D/shop.out" || { show shop; false; }
	[ -z "$(clean_err "$D/shop.err")" ] || { show shop; false; }
	[ "$(cat "$D/shop.java.out")" = "left 8" ] || { show shop; false; }
}

@test "the bridge killed mid-session: the JVM is unharmed and back in no-event mode" {
	# Mid.step("before") fires; then the -c command kills the bridge's
	# supervisor (by its name: in-thread, the begin probe started it, outside
	# the target's tree) and lets the JVM go on: step("after") fires no more,
	# the JVM ends normally. In-thread dispatch (a kernel probe is in the
	# script): the JVM must not hang on the dead bridge. stap's process
	# probes are the target's then, so stap cannot see the bridge's end and
	# says nothing (doc/markers.md); a Java-only script's bridge is watched.
	# (":;" first: run_e2e's "cd DIR &&" is then the shell's, not the JVM's
	# background job's, and "touch killed" lands in DIR.)
	cat >"$D/Mid.java" <<-'EOF'
		public class Mid {
			static void step(String s) { System.out.println(s); }
			public static void main(String[] args) throws Exception {
				step("before");
				java.io.File f = new java.io.File("killed");
				for (int i = 0; i < 24000 && !f.exists(); i++)	// bounded: 20 min
					Thread.sleep(50);
				step(f.exists() ? "after" : "never killed");
				System.exit(3);
			}
		}
	EOF
	javac -d "$D" "$D/Mid.java"
	cat >"$D/kill.stp" <<-'EOF'
		probe java.method("Mid.step").enter { printf("%s %s\n", java_name, java_args) }
		probe syscall.write { if (0) println(count) }
	EOF
	run_e2e kill "$D/kill.stp" ":; $(java_cmd kill -cp "$D" Mid) & j=\$!; timeout 600 sh -c \"until grep -q before $D/kill.java.out; do sleep 0.1; done\"; kill -9 \$(awk '\$2 == \"(stpd-bridge)\" { print \$1 }' /proc/[0-9]*/stat 2>/dev/null); touch killed; wait \$j; echo \$? >$D/kill.java.rc"
	[ "$status" -eq 0 ] || { show kill; false; }
	[ "$(cat "$D/kill.out")" = 'Mid.step(Ljava/lang/String;)V "before"' ] || { show kill; false; }
	[ -z "$(clean_err "$D/kill.err")" ] || { show kill; false; }
	[ "$(cat "$D/kill.java.rc")" = 3 ] || { show kill; false; }
	[ "$(cat "$D/kill.java.out")" = "$(printf 'before\nafter')" ] || { show kill; false; }
	[ -z "$(clean_err "$D/kill.java.err")" ] || { show kill; false; }
	# the agent switched its events off when the bridge went, before the JVM's
	# end: the one bridge's worker outlives its killed supervisor just long
	# enough to send Reset, then closes
	# (Mid is loaded after the registration: its call comes from the class-file hook)
	run sed -n -e 's/(pid [0-9]* /(pid N /' -e 's/conn#[0-9]*/conn#N/' -e 's/^stapjava-agent\[[0-9]*\]: info: \(event MethodE.*\|method calls .*\|injected calls .*\|method injection .*\|.*closed: .*\|conn#N: Reset\)$/\1/p' "$D/kill.agent.log"
	[ "$output" = "$(printf '%s\n' 'method calls injected in 0 classes' \
		'method calls injected in 1 class' \
		'injected calls removed: 1 class back to its original code' \
		'method injection off' \
		'conn#N: Reset' \
		'conn#N (pid N uid 0) closed: peer closed the connection')" ] || { show kill; false; }
}

@test "stap-java -x PID of a JVM started without the agent: the bridge loads it (HotSpot's attach mechanism); enter and return by injected calls" {
	# The JVM gets pid 5000 (start_with_pid), the -x given at build time; it
	# runs Tick with no agent. The bridge's worker loads the agent through
	# the attach listener (/tmp/.java_pid5000: the guest's /tmp is a tmpfs);
	# the script ends itself after three calls; the agent then takes its
	# calls out again and the JVM runs on to its normal end.
	cat >"$D/Tick.java" <<-'EOF'
		public class Tick {
			static int tick(int i) { return 2 * i; }
			public static void main(String[] args) throws Exception {
				java.io.File stop = new java.io.File(args[0]);
				for (int i = 0; i < 24000 && !stop.exists(); i++) {	// bounded: 20 min
					tick(i);
					if (i == 0)
						System.out.println("running");
					Thread.sleep(50);
				}
				System.out.println(stop.exists() ? "stopped" : "never stopped");
			}
		}
	EOF
	javac -d "$D" "$D/Tick.java"
	cat >"$D/xa.stp" <<-'EOF'
		global n
		probe java.method("Tick.tick").enter { printf("enter %s pid=%d %s\n", java_name, java_pid, java_args) }
		probe java.method("Tick.tick").return {
			printf("return %s %s\n", java_name, java_return)
			if (++n == 3) exit()
		}
	EOF
	local before after
	before=$(start_with_pid 5000 "$JAVA -cp $D Tick $D/xa.stop >$D/xa.java.out 2>$D/xa.java.err" "$D/xa.pid")
	before+="; i=0; until grep -q running $D/xa.java.out; do i=\$((i+1)); [ \$i -lt 3000 ] || exit 1; sleep 0.2; done"
	after="i=0; until grep -q 'method injection off' $D/xa.agent.log; do i=\$((i+1)); [ \$i -lt 3000 ] || break; sleep 0.2; done"
	after+="; touch $D/xa.stop; p=\$(cat $D/xa.pid); i=0; while kill -0 \$p 2>/dev/null && [ \$i -lt 3000 ]; do i=\$((i+1)); sleep 0.2; done"
	status=0
	STAPJAVA_BRIDGE_OPTS="--sockdir /run/sjd --agent-options loglevel=info,logfile=$D/xa.agent.log" \
		timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		--stap-opt -x --stap-opt 5000 --before "$before" --after "$after" \
		"$D/xa.stp" >"$D/xa.out" 2>"$D/xa.err" </dev/null || status=$?
	[ "$status" -eq 0 ] || { show xa; false; }
	[ "$(cat "$D/xa.pid")" = 5000 ] || { echo "the JVM got pid $(cat "$D/xa.pid"), not 5000" >&2; false; }
	[ -z "$(clean_err "$D/xa.err")" ] || { show xa; false; }
	# three calls, each with its argument and twice that returned (no probe
	# runs once the script has called exit())
	[ "$(sed -E 's/ [0-9]+$/ N/' "$D/xa.out")" = "$(printf 'enter Tick.tick(I)I pid=5000 N\nreturn Tick.tick(I)I N\n%.0s' 1 2 3)" ] || { show xa; false; }
	run awk '$1 == "enter" { a = $4 } $1 == "return" { if ($3 != 2 * a) bad = 1 } END { exit bad }' "$D/xa.out"
	[ "$status" -eq 0 ] || { show xa; false; }
	[ "$(cat "$D/xa.java.out")" = "$(printf 'running\nstopped')" ] || { show xa; false; }
	[ ! -s "$D/xa.java.err" ] || { show xa; false; }
	one_session_log "$D/xa.agent.log" 0x3
}

@test "stap-java -x PID: only that JVM's events; when stap exits, that JVM goes on in no-event mode" {
	# Two JVMs start before staprun (stap-vm --before); A gets pid 5000
	# (start_with_pid), the pid given to -x at build time. The script ends
	# itself after three events. Once staprun has ended (--after), the agent
	# of A must switch method.enter off (the bridge follows stapio out) while
	# A keeps running; then both JVMs are told to stop and must end normally.
	# B's agent never sees a bridge.
	cat >"$D/Tick.java" <<-'EOF'
		public class Tick {
			static void tick(String who) { }
			public static void main(String[] args) throws Exception {
				java.io.File stop = new java.io.File(args[1]);
				for (int i = 0; i < 24000 && !stop.exists(); i++) {	// bounded: 20 min
					tick(args[0]);
					if (i == 0)
						System.out.println(args[0] + " running");
					Thread.sleep(50);
				}
				System.out.println(args[0] + (stop.exists() ? " stopped" : " never stopped"));
			}
		}
	EOF
	javac -d "$D" "$D/Tick.java"
	cat >"$D/x.stp" <<-'EOF'
		global n
		probe java.method("Tick.tick").enter {
			printf("%s %s pid=%d\n", java_name, java_args, java_pid)
			if (++n == 3) exit()
		}
	EOF
	local opts=sockdir=/run/sjd,loglevel=info,logfile=$D/x
	local before after
	before=$(start_with_pid 5000 "JAVA_TOOL_OPTIONS=-agentpath:$STAPJAVA_AGENT=$opts.A.agent.log $JAVA -XX:ErrorFile=$D/x.A.hs_err.log -cp $D Tick A $D/x.stop >$D/x.A.java.out 2>$D/x.A.java.err" "$D/x.A.pid")
	before+="; JAVA_TOOL_OPTIONS=-agentpath:$STAPJAVA_AGENT=$opts.B.agent.log $JAVA -XX:ErrorFile=$D/x.B.hs_err.log -cp $D Tick B $D/x.stop >$D/x.B.java.out 2>$D/x.B.java.err & echo \$! >$D/x.B.pid"
	# staprun only once A runs Tick, so the registration finds Tick loaded (bounded: 600 s)
	before+="; i=0; until grep -q running $D/x.A.java.out; do i=\$((i+1)); [ \$i -lt 3000 ] || exit 1; sleep 0.2; done"
	# bounded waits (600 s each): A's agent switches events off; both JVMs end
	after="i=0; until grep -q 'injected calls removed: 1 class back to its original code' $D/x.A.agent.log; do i=\$((i+1)); [ \$i -lt 3000 ] || break; sleep 0.2; done"
	after+="; touch $D/x.stop; for p in \$(cat $D/x.A.pid $D/x.B.pid); do i=0; while kill -0 \$p 2>/dev/null && [ \$i -lt 3000 ]; do i=\$((i+1)); sleep 0.2; done; done"
	status=0
	STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		--stap-opt -x --stap-opt 5000 --before "$before" --after "$after" \
		"$D/x.stp" >"$D/x.out" 2>"$D/x.err" </dev/null || status=$?
	[ "$status" -eq 0 ] || { show x; false; }
	[ "$(cat "$D/x.A.pid")" = 5000 ] || { echo "JVM A got pid $(cat "$D/x.A.pid"), not 5000" >&2; false; }
	[ -z "$(clean_err "$D/x.err")" ] || { show x; false; }
	[ "$(cat "$D/x.out")" = "$(printf 'Tick.tick(Ljava/lang/String;)V "A" pid=5000\n%.0s' 1 2 3)" ] || { show x; false; }
	[ "$(cat "$D/x.A.java.out")" = "$(printf 'A running\nA stopped')" ] || { show x; false; }
	[ "$(cat "$D/x.B.java.out")" = "$(printf 'B running\nB stopped')" ] || { show x; false; }
	[ -z "$(clean_err "$D/x.A.java.err")$(clean_err "$D/x.B.java.err")" ] || { show x; false; }
	# A's agent: the bridge came, registered, and at stap's exit switched the
	# event off (Reset) before closing; nothing after that
	one_session_log "$D/x.A.agent.log" 0x1
	# B: a socket, and no bridge ever
	run sed -e 's/pid [0-9]*/pid N/g' -e 's/^stapjava-agent\[[0-9]*\]/stapjava-agent[N]/' -e 's/-[0-9]*-[0-9]*-[0-9]*\.sock$/-NS-PID-START.sock/' "$D/x.B.agent.log"
	[ "$output" = 'stapjava-agent[N]: info: listening on /run/sjd/jvm-NS-PID-START.sock' ] || { cat "$D/x.B.agent.log" >&2; false; }
}

# Issue 15: JFR events as probe points beside a kernel probe (the script is
# in-thread for its syscall probe; the bridge parses the JFR data and sends
# each event back to the agent, whose own thread fires the jfr marker in the
# JVM, the target's tree). wait_ms holds main()
# until the session's recording runs; the handler of the last event lets the
# JVM exit, so nothing it flushed is lost to the session's end.
@test "java.jfr: a collection's name, cause and pauses, a lock's class and previous owner, a file write's path and bytes, beside fsync(2)" {
	cat >"$D/jfr.stp" <<-EOF
		global gc, lock, file, fsyncs
		probe java.jfr("jdk.GarbageCollection") {
			if (@jfr_field("cause") == "System.gc()")
				gc = sprintf("gc %s %s %s", @jfr_field("name"), @jfr_field("cause"),
					@jfr_field_long("sumOfPauses") > 0 && jfr_duration_ns > 0 ? "paused" : "no pause")
		}
		probe java.jfr("jdk.JavaMonitorEnter", "threshold=1 ms") {
			# the Ledger's: on a slow machine main's join() of the auditor
			# also waited over 1 ms, for the Thread's monitor
			if (@jfr_field("monitorClass.name") == "SlowRequests\$Ledger")
				lock = sprintf("lock %s waited for a %s held by %s", java_thread_name,
					@jfr_field("monitorClass.name"), @jfr_field("previousOwner.javaName"))
		}
		probe java.jfr("jdk.FileWrite", "threshold=0 ms") {
			if (@jfr_field_long("bytesWritten") == 1048576) {
				file = sprintf("file %s %d bytes", @jfr_field("path"), @jfr_field_long("bytesWritten"))
				system("touch $D/jfr.stop")
			}
		}
		probe syscall.fsync, syscall.fdatasync { if (execname() == "java") fsyncs++ }
		probe end { println(gc); println(lock); println(file); printf("fsync %s\n", fsyncs ? "seen" : "not seen") }
	EOF
	mkdir -p "$D/jfr.dir"
	run_e2e jfr "$D/jfr.stp" "$(java_cmd jfr -XX:+UseG1GC -cp "$CLASSES" SlowRequests "$D/jfr.dir" /dev/null "$D/jfr.stop")"
	[ "$status" -eq 0 ] || { show jfr; false; }
	expected=$(cat <<-EOF
		gc G1Full System.gc() paused
		lock main waited for a SlowRequests\$Ledger held by auditor
		file $D/jfr.dir/request.log 1048576 bytes
		fsync seen
	EOF
	)
	diff -u <(echo "$expected") "$D/jfr.out" || { show jfr; false; }
	[ -z "$(clean_err "$D/jfr.err")" ] || { show jfr; false; }
}

# In-thread with -x PID, stap's uprobes are the JVM's alone: the jfr marker
# of a java.jfr point fires in the JVM (the agent's thread, for the bridge
# that parsed the event: JfrEvent), so the point fires beside the syscall
# probe. The JVM, started before staprun with the agent, collects
# (System.gc()) and fsyncs every 200 ms until staprun has ended (the handler
# of its first System.gc() collection ends the script; at most 2 minutes).
@test "java.jfr, -x PID, in-thread: the agent fires jdk.GarbageCollection in the JVM, beside a syscall probe" {
	cat >"$D/GcLoop.java" <<-'EOF'
		public class GcLoop {
			public static void main(String[] args) throws Exception {
				java.io.File stop = new java.io.File(args[0]);
				try (java.io.FileOutputStream out = new java.io.FileOutputStream(args[1])) {
					for (int i = 0; i < 6000 && !stop.exists(); i++) {	// bounded: 20 min
						out.write('x');
						out.getFD().sync();
						System.gc();
						if (i == 0)
							System.out.println("running");
						Thread.sleep(200);
					}
				}
				System.out.println(stop.exists() ? "stopped" : "never stopped");
			}
		}
	EOF
	javac -d "$D" "$D/GcLoop.java"
	cat >"$D/jx.stp" <<-EOF
		global fsyncs, seen
		probe java.jfr("jdk.GarbageCollection") {
			if (@jfr_field("cause") != "System.gc()" || seen++) next
			printf("gc %s %s %s in the JVM:%d\n", @jfr_field("name"), @jfr_field("cause"),
				@jfr_field_long("sumOfPauses") > 0 && jfr_duration_ns > 0 ? "paused" : "no pause",
				pid() == target() && java_pid == target())
			exit()
		}
		probe syscall.fsync { if (pid() == target()) fsyncs++ }
		probe end { printf("fsync %s\n", fsyncs ? "seen" : "not seen") }
	EOF
	rm -f "$D/jx.stop"
	local before after
	before=$(start_with_pid 5000 "JAVA_TOOL_OPTIONS=-agentpath:$STAPJAVA_AGENT=sockdir=/run/sjd,loglevel=info,logfile=$D/jx.agent.log $JAVA -XX:+UseG1GC -cp $D GcLoop $D/jx.stop $D/jx.data >$D/jx.java.out 2>$D/jx.java.err" "$D/jx.pid")
	before+="; i=0; until grep -q running $D/jx.java.out; do i=\$((i+1)); [ \$i -lt 3000 ] || exit 1; sleep 0.2; done"
	after="touch $D/jx.stop; p=\$(cat $D/jx.pid); i=0; while kill -0 \$p 2>/dev/null && [ \$i -lt 3000 ]; do i=\$((i+1)); sleep 0.2; done"
	status=0
	STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		--stap-opt -x --stap-opt 5000 --staprun-opt -x --staprun-opt 5000 --before "$before" --after "$after" \
		"$D/jx.stp" >"$D/jx.out" 2>"$D/jx.err" </dev/null || status=$?
	[ "$status" -eq 0 ] || { show jx; false; }
	[ "$(cat "$D/jx.pid")" = 5000 ] || { echo "the JVM got pid $(cat "$D/jx.pid"), not 5000" >&2; false; }
	diff -u - "$D/jx.out" <<-EOF || { show jx; false; }
		gc G1Full System.gc() paused in the JVM:1
		fsync seen
	EOF
	[ -z "$(clean_err "$D/jx.err")" ] || { show jx; false; }
	[ "$(cat "$D/jx.java.out")" = "$(printf 'running\nstopped')" ] || { show jx; false; }
	[ -z "$(clean_err "$D/jx.java.err")" ] || { show jx; false; }
}

# The example itself, as its header runs it: a simple command (target() is
# the JVM, whose output comes first: the script prints at its end), which
# waits for the file the script makes once it has seen the three requests'
# JFR events (-c ends the session with the command). A heap large enough
# that only System.gc() collects.
@test "examples/slow-request.stp: the request slow by GC, the one slow by a lock, the one slow by I/O and its fsync(2), in time order" {
	local tcmd script=$S/examples/slow-request.stp
	mkdir -p "$D/sr.dir"
	rm -f "$D/sr.stop"
	export STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' STAPJAVA_WAIT_MS=600000
	export STAPJAVA_AGENT_OPTS=sockdir=/run/sjd,loglevel=info,logfile=$D/sr.agent.log
	tcmd=$("$B/translator-patches/stap-java" --target-command \
		"$JAVA -XX:+UseG1GC -Xms512m -Xmx512m -cp $CLASSES SlowRequests $D/sr.dir /dev/null $D/sr.stop" "$script")
	status=0
	timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		-c "$tcmd" "$script" "$D/sr.stop" >"$D/sr.out" 2>"$D/sr.err" </dev/null || status=$?
	[ "$status" -eq 0 ] || { show sr; false; }
	# a lock wait of the JVM's own (class loading, JFR's threads) can pass
	# 1 ms on a slow guest: the example rightly prints it, the test keeps
	# the program's monitor only
	diff -u - <(sed -E 's/[0-9]+ us/N us/g' "$D/sr.out" | awk '!/^LOCK / || / for a SlowRequests\$Ledger held by /') <<-EOF || { show sr; false; }
		request gc done
		request lock done
		request io done
		DONE
		GC G1Full (System.gc()): paused N us in all
		LOCK main waited N us for a SlowRequests\$Ledger held by auditor
		FILE main wrote 1048576 bytes to $D/sr.dir/request.log in N us
		KERNEL java: N us in fsync
	EOF
	[ -z "$(clean_err "$D/sr.err")" ] || { show sr; false; }
}
