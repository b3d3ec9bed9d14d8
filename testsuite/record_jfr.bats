#!/usr/bin/env bats
# The JFR recording format (formats/rec_jfr*.c) read by the JDK's own
# `jfr` tool, JDK 17 (Debian) and JDK 25 (Temurin): `jfr summary` and
# `jfr print --json` of a recording of the fixed synthetic stream
# (testsuite/unit/jfr_stream.c, written by testsuite/unit/rec_jfr_sample) give
# back every event with its thread, method, duration, arguments and return
# value; a recording the bridge stopped writing (killed) is read up to its
# last chunk; one cut in a chunk is refused by the JDK's tool, read by ours up
# to that chunk, and read by both once cut back to it; and our reader reads
# the JDK's own recordings of the event types we map (doc/recording-jfr.md).

bats_require_minimum_version 1.5.0

setup_file() {
	export SRC=${STAPJAVA_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
	export BUILD=${STAPJAVA_BUILDDIR:-$SRC}
	export SAMPLE=$BUILD/testsuite/unit/rec_jfr_sample
	export JDK17=/usr/lib/jvm/java-17-openjdk-amd64/bin
	export JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin
	export TZ=UTC
	[ -x "$SAMPLE" ] || { echo "no $SAMPLE: run make check" >&2; return 1; }
	export D=$BATS_FILE_TMPDIR
	"$SAMPLE" write "$D/all.jfr"
	# steps up to the second tick, then as if the bridge were killed
	"$SAMPLE" write "$D/killed.jfr" --until 30
	local whole=$(stat -c %s "$D/killed.jfr") all=$(stat -c %s "$D/all.jfr")
	# cut in the middle of the last chunk
	head -c $(((whole + all) / 2)) "$D/all.jfr" >"$D/cut.jfr"
	export WHOLE=$whole
}

# render JFR_BIN FILE: one line per event of `jfr print --json FILE`, in time
# order: its type, its start in ns after the recording's (22:13:20 UTC), then
# each field as name=value: a thread as javaName/osThreadId/group, a class by
# its name, a method as class.name+descriptor, a stack as its frames
# method:line[(type)] joined by "|" ("..." after a truncated one), durations
# in ns.
render() {
	"$1/jfr" print --json "$2" >"$D/out.json" || return 1
	jq -r '
	def ns: capture("T(?<h>[0-9]+):(?<m>[0-9]+):(?<s>[0-9]+)([.](?<f>[0-9]+))?Z")
		| ((.h|tonumber) * 3600 + (.m|tonumber) * 60 + (.s|tonumber) - 80000) * 1000000000
		  + (((.f // "") + "000000000")[0:9] | tonumber);
	def span: capture("^PT(?<s>[0-9.]+)S$") | (.s|tonumber) * 1000000000 + 0.5 | floor;
	def method: "\(.type.name).\(.name)\(.descriptor)";
	def show:
		if . == null then "-"
		elif type == "object" and has("osThreadId") then "\(.javaName)/\(.osThreadId)/\(.group.name // "-")"
		elif type == "object" and has("frames") then
			([.frames[] | "\(.method | method):\(.lineNumber)\(if .type then "(" + .type + ")" else "" end)"]
			 | join("|")) + (if .truncated then "..." else "" end)
		elif type == "object" and has("descriptor") then method
		elif type == "object" and has("package") then .name
		else tostring end;
	[.recording.events[]
	 | [.type, (.values.startTime | ns)]
	   + [.values | to_entries[] | select(.key != "startTime")
	      | "\(.key)=\(if .key == "duration" or .key == "sumOfPauses" or .key == "longestPause"
	                   then (.value | span) else (.value | show) end)"]]
	| sort_by(.[1], .[0]) | .[] | map(tostring) | join(" ")' "$D/out.json"
}

# The whole recording, as both JDKs show it.
expected_all() {
	cat <<-'EOF'
	stapjava.VmInit 500 eventThread=main/4243/pid 4242
	jdk.ThreadStart 1000 eventThread=worker-1/4244/pid 4242 stackTrace=java/lang/Thread.run()V:829 thread=worker-1/4244/pid 4242 parentThread=-
	stapjava.MethodCall 2000 duration=4000 eventThread=main/4243/pid 4242 stackTrace=Shop.handle(ILjava/lang/String;)J:10|Shop.main([Ljava/lang/String;)V:5 method=Shop.handle(ILjava/lang/String;)J arguments=42, "hi" argumentTypes=IT returnValue=84 returnType=J entered=true returned=true exception=false returnStackTrace=Shop.handle(ILjava/lang/String;)J:12|Shop.main([Ljava/lang/String;)V:5
	stapjava.MethodCall 3000 duration=1000 eventThread=main/4243/pid 4242 stackTrace=- method=Shop.price(D)D arguments=2.5 argumentTypes=D returnValue=? returnType=? entered=true returned=true exception=true returnStackTrace=-
	jdk.JavaExceptionThrow 3500 eventThread=main/4243/pid 4242 stackTrace=Shop.price(D)D:20|Shop.handle(ILjava/lang/String;)J:11|Shop.main([Ljava/lang/String;)V:5 message=- thrownClass=java/lang/IllegalStateException
	stapjava.ExceptionCatch 4500 eventThread=main/4243/pid 4242 stackTrace=- thrownClass=java/lang/IllegalStateException method=Shop.handle(ILjava/lang/String;)J
	jdk.JavaExceptionThrow 4600 eventThread=main/4243/pid 4242 stackTrace=Shop.check()V:-1... message=- thrownClass=java/lang/Error
	jdk.GarbageCollection 7000 duration=2000 eventThread=null/4250/pid 4242 gcId=0 name=- cause=- sumOfPauses=2000 longestPause=2000
	jdk.ClassLoad 10000 duration=0 eventThread=worker-1/4244/pid 4242 stackTrace=Shop$Worker.run()V:31 loadedClass=Shop$Item definingClassLoader=- initiatingClassLoader=-
	stapjava.ClassPrepare 10100 eventThread=worker-1/4244/pid 4242 stackTrace=- preparedClass=Shop$Item
	jdk.ClassUnload 10200 eventThread=null/4250/pid 4242 unloadedClass=Old definingClassLoader=-
	jdk.JavaMonitorEnter 11000 duration=4000 eventThread=worker-1/4244/pid 4242 stackTrace=Shop$Worker.run()V:30 monitorClass=java/lang/Object previousOwner=main/4243/pid 4242 address=77
	jdk.JavaMonitorWait 16000 duration=10000 eventThread=main/4243/pid 4242 stackTrace=java/lang/Object.wait(J)V:-1(Native)|Shop.main([Ljava/lang/String;)V:7 monitorClass=Shop notifier=- timeout=PT0.01S timedOut=true address=78
	jdk.ThreadStart 20000 eventThread=pool-1/4245/pid 4242 stackTrace=- thread=pool-1/4245/pid 4242 parentThread=-
	jdk.ThreadEnd 21000 eventThread=pool-1-renamed/4245/pid 4242 thread=pool-1-renamed/4245/pid 4242
	stapjava.MethodCall 27000 duration=1000 eventThread=worker-1/4244/pid 4242 stackTrace=Shop$Worker.work(ZBCSFJ[ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)V:40|Shop$Worker.run()V:32 method=Shop$Worker.work(ZBCSFJ[ILjava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/String;)V arguments=true, -5, 'x', -300, 1.5, -9000000000, int[3]#5, java.lang.Object@beef#6, null, ?, "héllo"... argumentTypes=ZBCSFJ[LN?T returnValue=void returnType=V entered=true returned=true exception=false returnStackTrace=-
	stapjava.Lost 29000 eventThread=main/4243/pid 4242 lost=3 droppedByBridge=false
	stapjava.Lost 29500 eventThread=- lost=5 droppedByBridge=true
	stapjava.MethodCall 30000 duration=0 eventThread=main/4243/pid 4242 stackTrace=- method=Shop.loop()V arguments= argumentTypes= returnValue=- returnType=- entered=true returned=false exception=false returnStackTrace=-
	stapjava.MethodCall 31000 duration=0 eventThread=worker-1/4244/pid 4242 stackTrace=- method=Shop$Worker.stray()I arguments= argumentTypes= returnValue=-1 returnType=I entered=false returned=true exception=false returnStackTrace=-
	stapjava.MethodCompile 32000 eventThread=null/4251/pid 4242 method=Shop.handle(ILjava/lang/String;)J codeSize=120 values=139637976731648 valueTypes=J
	stapjava.MethodCall 33000 duration=1000 eventThread=null/5001/pid 5000 stackTrace=- method=Other.run()V arguments= argumentTypes= returnValue=void returnType=V entered=true returned=true exception=false returnStackTrace=-
	jdk.ThreadEnd 35000 eventThread=worker-1/4244/pid 4242 thread=worker-1/4244/pid 4242
	stapjava.MethodCall 36000 duration=500 eventThread=main/4243/pid 4242 stackTrace=- method=Shop$$Lambda$14/0x0000000800c01000.run()V arguments= argumentTypes= returnValue=void returnType=V entered=true returned=true exception=false returnStackTrace=-
	stapjava.VmDeath 40000 eventThread=null/0/pid 4242
	stapjava.GcStart 41000 eventThread=null/4250/pid 4242
	stapjava.MonitorWait 42000 eventThread=main/4243/pid 4242 stackTrace=- monitorClass=java/lang/Object timeout=PT0S address=79
	stapjava.MonitorContendedEntered 43000 eventThread=main/4243/pid 4242 stackTrace=- monitorClass=java/lang/Object address=80
	stapjava.MethodCall 44000 duration=500 eventThread=main/4243/pid 4242 stackTrace=- method=.odd/name(L() arguments="a, \"b\"\n\\", p.Odd,\x20name@1#9 argumentTypes=TL returnValue=0.100000001 returnType=F entered=true returned=true exception=false returnStackTrace=-
	EOF
}

# What the first two chunks hold: the events written before the second tick
# (a call still open then is written at the end, in the third).
expected_two_chunks() {
	expected_all | awk '$2 < 32500 && !/ returned=false /'
}

check_summary() {
	run "$1/jfr" summary "$D/all.jfr"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = " Version: 2.1" ]
	[ "${lines[1]}" = " Chunks: 3" ]
	[ "${lines[2]}" = " Start: 2023-11-14 22:13:20 (UTC)" ]
	# the event types and their counts (jdk.Metadata and the constant pools' are the JDK's)
	diff -u - <(printf '%s\n' "${lines[@]}" | awk '/^ (jdk|stapjava)\./ && $1 != "jdk.Metadata" &&
		tolower($1) != "jdk.checkpoint" { print $1, $2 }' | sort) <<-'EOF'
	jdk.ClassLoad 1
	jdk.ClassUnload 1
	jdk.GarbageCollection 1
	jdk.JavaExceptionThrow 2
	jdk.JavaMonitorEnter 1
	jdk.JavaMonitorWait 1
	jdk.ThreadEnd 2
	jdk.ThreadStart 2
	stapjava.ClassPrepare 1
	stapjava.ExceptionCatch 1
	stapjava.GcFinish 0
	stapjava.GcStart 1
	stapjava.Lost 2
	stapjava.MethodCall 8
	stapjava.MethodCompile 1
	stapjava.MonitorContendedEnter 0
	stapjava.MonitorContendedEntered 1
	stapjava.MonitorWait 1
	stapjava.MonitorWaited 0
	stapjava.VmDeath 1
	stapjava.VmInit 1
	EOF
}

@test "jfr summary (JDK 17) reads the recording: 3 chunks, every event type and count" { check_summary "$JDK17"; }
@test "jfr summary (JDK 25) reads the recording: 3 chunks, every event type and count" { check_summary "$JDK25"; }

check_print() {
	render "$1" "$D/all.jfr" >"$D/got"
	diff -u <(expected_all) "$D/got"
	# the default format too: every event, no error
	run "$1/jfr" print "$D/all.jfr"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^[a-z].* {$' <<<"$output")" -eq 29 ]
}

@test "jfr print --json (JDK 17): every event with its thread, method, duration, arguments, return value" { check_print "$JDK17"; }
@test "jfr print --json (JDK 25): every event with its thread, method, duration, arguments, return value" { check_print "$JDK25"; }

check_killed() {
	run "$1/jfr" summary "$D/killed.jfr"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = " Chunks: 2" ]
	render "$1" "$D/killed.jfr" >"$D/got"
	diff -u <(expected_two_chunks) "$D/got"
	[ "$(wc -l <"$D/got")" -eq 20 ]
}

@test "a recording whose bridge was killed (JDK 17): the events of its whole chunks" { check_killed "$JDK17"; }
@test "a recording whose bridge was killed (JDK 25): the events of its whole chunks" { check_killed "$JDK25"; }

check_cut() {
	# the JDK's tool reads no file whose last chunk is cut ...
	run "$1/jfr" print --json "$D/cut.jfr"
	[ "$status" -eq 1 ]
	[[ "$output" == *"could not read recording at $D/cut.jfr. Trying to read at "*", but file is only $(stat -c %s "$D/cut.jfr") bytes."* ]]
	# ... ours reads the whole chunks and says where the cut one starts ...
	run --separate-stderr "$SAMPLE" read "$D/cut.jfr"
	[ "$status" -eq 1 ]
	diff -u <("$SAMPLE" read "$D/killed.jfr") <(printf '%s\n' "${lines[@]}")
	[ "$stderr" = "offset $WHOLE: the chunk here is $(($(stat -c %s "$D/all.jfr") - WHOLE)) bytes, $(($(stat -c %s "$D/cut.jfr") - WHOLE)) remain: the file was cut short (the $WHOLE bytes before it are whole chunks)" ]
	# ... and cut back there, the JDK's reads it all
	head -c "$WHOLE" "$D/cut.jfr" >"$D/fixed.jfr"
	render "$1" "$D/fixed.jfr" >"$D/got"
	diff -u <(expected_two_chunks) "$D/got"
}

@test "a recording cut in its last chunk (JDK 17): refused by jfr, read by ours up to the cut, and by jfr cut back" { check_cut "$JDK17"; }
@test "a recording cut in its last chunk (JDK 25): refused by jfr, read by ours up to the cut, and by jfr cut back" { check_cut "$JDK25"; }

# Our reader on the JDK's own recording of a program with a thread, a
# contended monitor, a timed-out wait, an exception and a GC.
# (Rec: the holder takes the lock, then holds it until worker-1 is blocked
# on it, whatever the machine's speed; the lines of the lambda and of main's
# wait are in the expected stacks below: 4 and 11.)
check_jdk_recording() {
	local bin=$1
	mkdir -p "$D/java"
	cat >"$D/java/Rec.java" <<-'EOF'
		public class Rec {
			static final Object lock = new Object(); static final java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
			public static void main(String[] a) throws Exception {
				Thread t = new Thread(() -> { synchronized (lock) { try { lock.wait(300); } catch (InterruptedException e) { } } }, "worker-1");
				Thread holder = new Thread(() -> { synchronized (lock) { held.countDown(); try { while (t.getState() != Thread.State.BLOCKED) Thread.sleep(1); } catch (InterruptedException e) { } } }, "holder");
				holder.start();
				held.await();
				t.start();
				t.join();
				holder.join();
				synchronized (lock) { lock.wait(10); }
				try { throw new IllegalStateException("x"); } catch (IllegalStateException e) { }
				System.gc();
			}
		}
	EOF
	"$bin/javac" -d "$D/java" "$D/java/Rec.java"
	"$bin/java" -XX:StartFlightRecording=filename="$D/jdk.jfr",settings=none,+jdk.ThreadStart#enabled=true,+jdk.ThreadEnd#enabled=true,+jdk.JavaMonitorEnter#enabled=true,+jdk.JavaMonitorEnter#threshold=0ms,+jdk.JavaMonitorWait#enabled=true,+jdk.JavaMonitorWait#threshold=0ms,+jdk.JavaExceptionThrow#enabled=true,+jdk.JavaExceptionThrow#stackTrace=true,+jdk.GarbageCollection#enabled=true \
		-cp "$D/java" Rec >"$D/java/out" 2>&1
	run --separate-stderr "$SAMPLE" read "$D/jdk.jfr"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	local worker=$(grep -o '^thread.start pid=0 tid=[0-9]* ts=[0-9]* thread="worker-1"' <<<"$output" | sed 's/.* tid=\([0-9]*\) .*/\1/')
	local main=$(grep -o '^monitor.waited pid=0 tid=[0-9]* .* timeout_ms=10 timed_out=1 class=java.lang.Object' <<<"$output" | sed 's/.* tid=\([0-9]*\) .*/\1/')
	[ -n "$worker" ]
	[ -n "$main" ]
	grep -q "^thread.end pid=0 tid=$worker ts=[0-9]* thread=\"worker-1\"$" <<<"$output"
	# worker-1 blocks on the lock holder has, then waits 300 ms and times out
	grep -q "^monitor.contended_enter pid=0 tid=$worker ts=[0-9]* object=[0-9]* class=java.lang.Object owner=[0-9]* owner_thread=\"holder\" stack=.*Rec.lambda\$main\$0()V:4" <<<"$output"
	grep -q "^monitor.contended_entered pid=0 tid=$worker ts=[0-9]* object=[0-9]* class=java.lang.Object$" <<<"$output"
	# (JDK 25's Object.wait calls the native wait0)
	grep -q "^monitor.wait pid=0 tid=$worker ts=[0-9]* object=[0-9]* timeout_ms=300 class=java.lang.Object stack=java.lang.Object.wait0*(J)V:-2|.*Rec.lambda\$main\$0()V:4" <<<"$output"
	grep -q "^monitor.waited pid=0 tid=$worker ts=[0-9]* object=[0-9]* timeout_ms=300 timed_out=1 class=java.lang.Object$" <<<"$output"
	grep -q "^monitor.wait pid=0 tid=$main ts=[0-9]* object=[0-9]* timeout_ms=10 class=java.lang.Object stack=java.lang.Object.wait0*(J)V:-2|.*Rec.main(\[Ljava/lang/String;)V:11$" <<<"$output"
	# the JDK's event comes from the constructor: its top frame is the thrower
	grep -q "^exception.thrown pid=0 tid=$main ts=[0-9]* exception=java.lang.IllegalStateException method=java.lang.Throwable.<init>(Ljava/lang/String;)V stack=java.lang.Throwable.<init>(Ljava/lang/String;)V:[0-9]*|.*|Rec.main(\[Ljava/lang/String;)V:12$" <<<"$output"
	grep -q "^gc.start pid=0 tid=[0-9]* ts=[0-9]*$" <<<"$output"
	grep -q "^gc.finish pid=0 tid=[0-9]* ts=[0-9]*$" <<<"$output"
	# in time order
	diff -u <(sed 's/.* ts=\([0-9]*\).*/\1/' <<<"$output") <(sed 's/.* ts=\([0-9]*\).*/\1/' <<<"$output" | sort -n)
}

@test "our reader reads the JDK's own recording of the types we map (JDK 17)" { check_jdk_recording "$JDK17"; }
@test "our reader reads the JDK's own recording of the types we map (JDK 25)" { check_jdk_recording "$JDK25"; }
