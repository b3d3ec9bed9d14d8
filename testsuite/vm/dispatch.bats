#!/usr/bin/env bats
# The SDT markers of stpd-bridge fire for real: a plain stap script (no
# stap-java) probes process(BRIDGE).mark("slotN") and family markers on the
# real kernel runtime (in the qemu guest, see README.md) while
# `stpd-bridge --fire --slot ... --sync` serves a small Java program with the
# agent. Every argument of doc/markers.md is printed by the handlers and
# compared exactly; a syscall.write probe on the Java thread shows the
# synchronous ordering.
#
# The bridge is started by the -c command (a shell that starts it, then
# execs the JVM), not by the script's `probe begin` with system(): with -c
# or -x, SystemTap's task finder follows only the target's process tree, so
# uprobes in a bridge that stapio's system() started would never fire. This
# is also how stap-java starts the bridge under -c (doc/markers.md).
#
# One guest run serves every test (setup_file); each test checks its part
# of the output. STAPJAVA_SRCDIR / STAPJAVA_BUILDDIR: source and build trees.

bats_require_minimum_version 1.5.0

setup_file() {
	local top
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export STAPJAVA_SRCDIR=${STAPJAVA_SRCDIR:-$top}
	export STAPJAVA_BUILDDIR=${STAPJAVA_BUILDDIR:-$top}
	local vm=$STAPJAVA_SRCDIR/testsuite/vm/stap-vm
	local bridge=$STAPJAVA_BUILDDIR/stpd-bridge/stpd-bridge
	local agent=$STAPJAVA_BUILDDIR/agent/libstapjava.so
	local java=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
	[ -x "$bridge" ] && [ -f "$agent" ] || { echo "build first: no $bridge or $agent" >&2; return 1; }
	# the host's /tmp is writable in the guest, at the same path
	export D
	D=$(mktemp -d /tmp/stapjava-dispatch.XXXXXX)
	chmod 755 "$D"
	cat >"$D/Dispatch.java" <<-'EOF'
		import java.io.FileOutputStream;

		public class Dispatch {
			static int add(int a, int b) { return a + b; }
			static String greet(String s, long l, double d, boolean z, char c, int[] a, Object o) {
				return "hi ".concat(s);
			}
			static void fail() { throw new IllegalStateException("boom"); }
			public static void main(String[] args) throws Exception {
				try (FileOutputStream out = new FileOutputStream("/dev/null")) {
					int sum = add(2, 3);
					out.write(new byte[13]); // write(2), right after the probed call returned
					greet("h\u00e9llo", 42L, 1.5, true, 'x', new int[3], null);
					try { fail(); } catch (IllegalStateException e) { sum++; }
					Thread t = new Thread("worker-1");
					t.start();
					t.join();
					System.gc();
					out.write(new byte[13 + sum - 6]);
				}
			}
		}
	EOF
	javac -d "$D" "$D/Dispatch.java"
	# the bridge's arguments after --parent and -x, one a line; the JVM's command
	printf '%s\n' --sockdir /run/sjd --rescan-ms 20 --log-file "$D/bridge.log" --log-level info \
		--fire --sync=5000000 --args --return --threads --gc --vm \
		--slot 0:method.enter:Dispatch.add --slot 1:method.return:Dispatch.add \
		--slot 2:method.enter:Dispatch.greet --slot 3:method.return:Dispatch.greet \
		--slot 4:exception.thrown:java.lang.IllegalStateException \
		--slot 5:exception.catch:java.lang.IllegalStateException \
		--slot '6:method.enter:Dispatch.*' >"$D/bridge.args"
	echo "$java -agentpath:$agent=sockdir=/run/sjd,wait_ms=600000,timeout_us=5000000,loglevel=info,logfile=$D/agent.log -Xshare:auto -cp $D Dispatch" >"$D/java.cmd"
	# The handlers print every argument. Values that change from run to run
	# are printed as what they must be: the JVM's pid (target()) as "java",
	# the main thread's tid (learnt from Dispatch.main's entry) as MAIN, a
	# timestamp as "+" when it does not go backwards, the handler's
	# own process as "bridge" when it is the bridge's worker for that JVM.
	cat >"$D/dispatch.stp" <<-'EOF'
		global main_tid, last_ts
		function line(name:string, ev:long, pid:long, tid:long, ts:long, a5:string, a6:string, a7:string, a8:string, n1:long, n2:long, a11:string, a12:string) {
			if (a5 == "Dispatch.main([Ljava/lang/String;)V")
				main_tid = tid
			printf("%s ev=0x%x pid=%s tid=%s ts=%s name=%s method=%s args=%s ret=%s n1=%d n2=%d thread=%s stack=%s ctx=%s\n",
			       name, ev, pid == target() ? "java" : sprint(pid),
			       main_tid && tid == main_tid ? "MAIN" : tid > 0 ? "OTHER" : sprint(tid),
			       ts >= last_ts && ts > 0 ? "+" : sprint(ts), a5, a6, a7, a8, n1, n2, a11, a12,
			       execname() == sprintf("sjbridge-%d", pid) ? "bridge" : execname())
			last_ts = ts
		}
		probe process(@1).mark("slot?"), process(@1).mark("gc_start"), process(@1).mark("gc_finish") {
			line($$name, $arg1, $arg2, $arg3, $arg4, user_string($arg5), user_string($arg6), user_string($arg7),
			     user_string($arg8), $arg9, $arg10, user_string($arg11), user_string($arg12))
		}
		probe process(@1).mark("thread_start"), process(@1).mark("thread_end") {
			if (user_string($arg11) == "worker-1")
				line($$name, $arg1, $arg2, $arg3, $arg4, user_string($arg5), user_string($arg6), user_string($arg7),
				     user_string($arg8), $arg9, $arg10, user_string($arg11), user_string($arg12))
		}
		probe process(@1).mark("vm_death") {
			printf("vm_death ev=0x%x pid=%s\n", $arg1, $arg2 == target() ? "java" : sprint($arg2))
		}
		probe syscall.write {
			if (main_tid && tid() == main_tid && count >= 13 && count <= 14)
				printf("write count=%d tid=MAIN pid=%s\n", count, pid() == target() ? "java" : sprint(pid()))
		}
	EOF
	local start=$SECONDS st=0
	# sh: the bridge in the background (its parent: stapio), then the JVM in
	# sh's place, so target() is the JVM
	"$vm" --timeout 1200 \
		-c "sh -c 'set -f; $bridge --parent \$PPID -x \$\$ \$(cat $D/bridge.args) </dev/null >/dev/null 2>&1 & exec \$(cat $D/java.cmd) >$D/java.out'" \
		-e "$(cat "$D/dispatch.stp")" "$bridge" >"$D/out" 2>"$D/err" </dev/null || st=$?
	echo "$st" >"$D/status"
	echo $((SECONDS - start)) >"$D/seconds"
}

teardown_file() {
	[ -n "${D:-}" ] && rm -rf "$D"
}

# show: what the run left, for a failing test.
show() {
	printf 'status %s after %s s\n--- out\n' "$(cat "$D/status")" "$(cat "$D/seconds")" >&2
	cat "$D/out" >&2
	printf -- '--- err (tail)\n' >&2
	tail -20 "$D/err" >&2
	printf -- '--- bridge.log\n' >&2
	cat "$D/bridge.log" >&2 2>/dev/null || true
	printf -- '--- agent.log (tail)\n' >&2
	tail -20 "$D/agent.log" >&2 2>/dev/null || true
}

# lines_like REGEX: the output's lines that match, object ids masked.
lines_like() {
	grep -E -- "$1" "$D/out" | sed -E 's/#[0-9]+/#ID/g'
}

@test "the guest run ends normally, the bridge registered before main and warned of nothing" {
	[ "$(cat "$D/status")" = 0 ] || { show; return 1; }
	grep -q 'conn#1: Start: registrations complete' "$D/agent.log" || { show; return 1; }
	[ "$(tail -1 "$D/out")" = "vm_death ev=0x194 pid=java" ] || { show; return 1; }
	[ ! -s "$D/java.out" ] || { show; return 1; }
	! grep -E ': (warn|error): ' "$D/bridge.log" || { show; return 1; }
}

@test "method enter/return slots: every argument, slot order, the Java thread's host tid" {
	lines_like '^slot[0-6] .*(Dispatch.(main|add|greet|fail)|IllegalState)' >"$D/got"
	cat >"$D/want" <<-'WANT'
		slot6 ev=0x180 pid=java tid=MAIN ts=+ name=Dispatch.main([Ljava/lang/String;)V method= args=java.lang.String[0]#ID ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot0 ev=0x180 pid=java tid=MAIN ts=+ name=Dispatch.add(II)I method= args=2,3 ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot6 ev=0x180 pid=java tid=MAIN ts=+ name=Dispatch.add(II)I method= args=2,3 ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot1 ev=0x181 pid=java tid=MAIN ts=+ name=Dispatch.add(II)I method= args= ret=5 n1=0 n2=0 thread= stack= ctx=bridge
		slot2 ev=0x180 pid=java tid=MAIN ts=+ name=Dispatch.greet(Ljava/lang/String;JDZC[ILjava/lang/Object;)Ljava/lang/String; method= args="héllo",42,1.5,true,'x',int[3]#ID,null ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot6 ev=0x180 pid=java tid=MAIN ts=+ name=Dispatch.greet(Ljava/lang/String;JDZC[ILjava/lang/Object;)Ljava/lang/String; method= args="héllo",42,1.5,true,'x',int[3]#ID,null ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot3 ev=0x181 pid=java tid=MAIN ts=+ name=Dispatch.greet(Ljava/lang/String;JDZC[ILjava/lang/Object;)Ljava/lang/String; method= args= ret="hi héllo" n1=0 n2=0 thread= stack= ctx=bridge
		slot6 ev=0x180 pid=java tid=MAIN ts=+ name=Dispatch.fail()V method= args= ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot4 ev=0x185 pid=java tid=MAIN ts=+ name=java.lang.IllegalStateException method=Dispatch.fail()V args= ret= n1=0 n2=0 thread= stack= ctx=bridge
		slot5 ev=0x186 pid=java tid=MAIN ts=+ name=java.lang.IllegalStateException method=Dispatch.main([Ljava/lang/String;)V args= ret= n1=0 n2=0 thread= stack= ctx=bridge
	WANT
	diff -u "$D/want" "$D/got" || { show; return 1; }
	# nothing else fired a slot (Thread.<init> & co. match no pattern)
	[ "$(grep -c '^slot' "$D/out")" -eq 10 ] || { show; return 1; }
}

@test "family markers: thread start/end with the thread's name, gc start/finish" {
	lines_like '^(thread|gc)_' >"$D/got"
	cat >"$D/want" <<-'WANT'
		thread_start ev=0x187 pid=java tid=OTHER ts=+ name= method= args= ret= n1=0 n2=0 thread=worker-1 stack= ctx=bridge
		thread_end ev=0x188 pid=java tid=OTHER ts=+ name= method= args= ret= n1=0 n2=0 thread=worker-1 stack= ctx=bridge
		gc_start ev=0x91 pid=java tid=OTHER ts=+ name= method= args= ret= n1=0 n2=0 thread= stack= ctx=bridge
		gc_finish ev=0x92 pid=java tid=OTHER ts=+ name= method= args= ret= n1=0 n2=0 thread= stack= ctx=bridge
	WANT
	diff -u "$D/want" "$D/got" || { show; return 1; }
}

@test "--sync: the Java thread's write(2) after a probed call comes after the call's handlers" {
	grep -E '^(slot[01] .*Dispatch.add|write )' "$D/out" | cut -d' ' -f1-2 >"$D/got"
	printf '%s\n' 'slot0 ev=0x180' 'slot1 ev=0x181' 'write count=13' 'write count=13' >"$D/want"
	diff -u "$D/want" "$D/got" || { show; return 1; }
	# and the first write is the line right after add's return handler
	grep -A1 '^slot1 .*Dispatch.add' "$D/out" | tail -1 | grep -qx 'write count=13 tid=MAIN pid=java' || { show; return 1; }
}
