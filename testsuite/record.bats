#!/usr/bin/env bats
# stpd-bridge --record and --read (stpd-bridge/recorder.h, record.h): a known
# workload (testsuite/java/Clog.java) recorded as a concurrency log (.clog)
# by a bridge that prints at the same time, on JDK 17 and JDK 25, the JVM
# verifying every class (-Xverify:all, the classes with notify calls too): the file's
# events per thread, its meta part, and --read's lines; then each fault with
# its message. No sleep-and-hope: each step waits (bounded) for a file, a
# line or a process.

bats_require_minimum_version 1.5.0

setup_file() {
	load jvms
}

setup() {
	[ -f "$AGENT" ] && [ -x "$BRIDGE" ] || { echo "no agent or bridge in $BUILD: run make" >&2; return 1; }
	[ -f "$CLASSES/Clog.class" ] || { echo "no Clog.class in $CLASSES: run make build-tests" >&2; return 1; }
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/s"
	chmod 700 "$T/s"
	JPID= BPID=
}

teardown() {
	[ -n "$BPID" ] && kill "$BPID" 2>/dev/null
	[ -n "$JPID" ] && kill "$JPID" 2>/dev/null
	true
}

# until SECONDS CMD...: CMD, every 20 ms, until it succeeds (false when time is up).
until_ok() {
	local tries=$(($1 * 50))
	shift
	while ! "$@"; do
		tries=$((tries - 1))
		[ "$tries" -gt 0 ] || { echo "timed out: $*" >&2; return 1; }
		sleep 0.02
	done
}

ended() { ! kill -0 "$1" 2>/dev/null; }
# status_of PID: wait (bounded) for a background process, return its status
status_of() { until_ok 60 ended "$1" && wait "$1"; }
has_socket() { compgen -G "$T/s/jvm-*.sock" >/dev/null; }
registered() { grep -q 'conn#1: Start: registrations complete' "$T/agent.log" 2>/dev/null; }
logged() { grep -q -- "$2" "$T/$1.log" 2>/dev/null; }

# clog_jvm JAVA: the Clog workload with the agent, waiting for $T/go.
clog_jvm() {
	"$1" "-XX:ErrorFile=$T/hs_err_%p.log" -Xverify:all \
		"-agentpath:$AGENT=sockdir=$T/s,loglevel=info,logfile=$T/agent.log" \
		-cp "$CLASSES" Clog "$T/go" "$T/release" >"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
	until_ok 20 has_socket
}

# bridge NAME ARGS...: the bridge for $JPID, log in $T/NAME.log.
bridge() {
	local name=$1
	shift
	"$BRIDGE" -x "$JPID" --sockdir "$T/s" --rescan-ms 20 --log-file "$T/$name.log" --log-level info "$@" 3>&- &
	BPID=$!
}

# clog_to_end: let the workload go, and let holder release the lock once
# the bridge has printed (to $T/b.out) blocker's contended enter; wait for
# the JVM to end.
clog_to_end() {
	touch "$T/go"
	until_ok 30 grep -q '^monitor.contended_enter .* class=Clog\$Lock ' "$T/b.out"
	touch "$T/release"
	status_of "$JPID"
	JPID=
}

# run_clog JAVA: the workload recorded to $T/r.clog and printed to $T/b.out.
run_clog() {
	clog_jvm "$1"
	bridge b --print -o "$T/b.out" --record "$T/r.clog"
	until_ok 20 registered
	local rec
	rec=$(sed -n 's/.*: recorder \([0-9]*\) started.*/\1/p' "$T/b.log")
	grep -qx 'Uid:	65534	65534	65534	65534' "/proc/$rec/status"
	clog_to_end
	status_of "$BPID"
	BPID=
	# the workload's threads, by name
	sed -n 's/^tid \([a-z]*\)=\([0-9]*\)$/\2 \1/p' "$T/java.out" >"$T/tids"
	[ "$(wc -l <"$T/tids")" -eq 5 ]
}

# by_thread AWK_PROGRAM FILE: the lines of the workload's threads, grouped
# per thread (main, holder, blocker, waiter, sleeper), each thread's in its
# order; the program prints a line's masked form, or nothing.
by_thread() {
	awk -v order="main holder blocker waiter sleeper" "
		FNR == NR { name[\$1] = \$2; next }
		$1
		END { n = split(order, o, \" \"); for (i = 1; i <= n; i++) printf \"%s\", out[o[i]] }
	" "$T/tids" "$2"
}

# The --read lines: the JVM's pid and the times masked, threads and owners
# named, objects numbered in order of appearance, the JDK's own frames
# (java.*, jdk.*) left out of stacks.
read_lines() {
	by_thread '
		function named(v) { return v in name ? name[v] : v }
		function obj(v) { if (!(v in objs)) objs[v] = "O" (++nobj); return objs[v] }
		{
			match($0, / tid=[0-9]+ /); t = substr($0, RSTART + 5, RLENGTH - 6)
			if (!(t in name)) next
			line = ""
			for (i = 1; i <= NF; i++) {
				f = $i
				if (f ~ /^pid=/) f = "pid=P"
				else if (f ~ /^tid=/) f = "tid=" name[t]
				else if (f ~ /^ts=/) f = "ts=X"
				else if (f ~ /^owner=/) f = "owner=" named(substr(f, 7))
				else if (f ~ /^object=/) f = "object=" obj(substr(f, 8))
				else if (f ~ /^stack=/) {
					k = split(substr(f, 7), fr, "|"); f = "stack="; sep = ""
					for (j = 1; j <= k; j++) if (fr[j] !~ /^(java|jdk)\./) { f = f sep fr[j]; sep = "|" }
				}
				line = line (i > 1 ? " " : "") f
			}
			out[name[t]] = out[name[t]] line "\n"
		}' "$1"
}

# The file itself: each event line with its methods named from the file's
# own #method lines and each location read as the line it is, threads
# named, objects numbered, the JDK's frames (java.*, jdk.*) left out.
clog_lines() {
	by_thread '
		function obj(v) { if (!(v in objs)) objs[v] = "O" (++nobj); return objs[v] }
		function hex(s,  v, i) { for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789ABCDEF", substr(s, i, 1)) - 1; return v + 0 }
		function tid(v) { v = hex(v) ""; return v in name ? name[v] : v }
		/^#method,/ {
			split($0, d, ","); c = d[5]; sub(/^L/, "", c); sub(/;$/, "", c); gsub("/", ".", c)
			method[d[2]] = (c == "" ? "" : c ".") d[3] d[4]; next
		}
		/^#/ { next }
		{
			n = split($0, f, ","); t = hex(f[3]) ""
			if (!(t in name)) next
			line = f[2] "," name[t]; i = 4
			if (f[2] == "ThreadStarted") line = line "," f[4]
			else if (f[2] != "ThreadEnded") {
				if (f[2] !~ /^ThreadSle/) line = line "," (f[2] ~ /^Object|^Monitor/ ? obj(f[i++]) : f[i++])
				if (f[2] == "MonitorContendedEnter") line = line "," tid(f[i++])
				depth = f[i++]; stack = ""; sep = ""
				for (j = 0; j < depth; j++) {
					m = method[f[i]]; l = hex(f[i + 1]); i += 2
					if (m !~ /^(java|jdk)\./) { stack = stack sep m ":" l; sep = "|" }
				}
				line = line "," stack
			}
			out[name[t]] = out[name[t]] line "\n"
		}' "$1"
}

check_clog() {
	local jdk=$1 sleep_j=
	run_clog "$2"
	# the recorder ran as nobody (the bridge is root): it read the workers' records so
	grep -q "^stpd-bridge\[[0-9]*\]: info: --record '$T/r.clog': recorder [0-9]* started (format clog)$" "$T/b.log"
	grep -q "^stpd-bridge\[[0-9]*\]: info: --record '$T/r.clog': [0-9]* events recorded in [0-9]* bytes (clog)$" "$T/b.log"
	# nothing to say but, on JDK 17, that Thread.sleep(J)V is native
	[ -z "$(grep -E ': (warn|error): ' "$T/b.log" | grep -v ': warn: pid [0-9]*: method\.[a-z]* of java\.lang\.Thread\.sleep(J)V cannot be reported (a native method)$')" ]
	# Thread.sleep(long) is a native method before JDK 21: the agent cannot report it
	[ "$jdk" = 17 ] || sleep_j=yes

	clog_lines "$T/r.clog" >"$T/got"
	{
		cat <<-'WANT'
			ThreadStart,main,00000000,Clog.contention()V:136|Clog.main([Ljava/lang/String;)V:172
			ThreadStart,main,00000000,Clog.contention()V:139|Clog.main([Ljava/lang/String;)V:172
			ThreadJoin,main,00000000,Clog.contention()V:141|Clog.main([Ljava/lang/String;)V:172
			ThreadJoined,main,00000000,Clog.contention()V:141|Clog.main([Ljava/lang/String;)V:172
			ThreadJoin,main,00000000,Clog.contention()V:142|Clog.main([Ljava/lang/String;)V:172
			ThreadJoined,main,00000000,Clog.contention()V:142|Clog.main([Ljava/lang/String;)V:172
			ThreadStart,main,00000000,Clog.waitNotify()V:147|Clog.main([Ljava/lang/String;)V:173
			ObjectNotify,main,O3,Clog.waitNotify()V:150|Clog.main([Ljava/lang/String;)V:173
			ThreadJoin,main,00000000,Clog.waitNotify()V:153|Clog.main([Ljava/lang/String;)V:173
			ThreadJoined,main,00000000,Clog.waitNotify()V:153|Clog.main([Ljava/lang/String;)V:173
			ThreadStart,main,00000000,Clog.joinSleeper()V:158|Clog.main([Ljava/lang/String;)V:174
			ThreadJoin,main,00000000,Clog.joinSleeper()V:159|Clog.main([Ljava/lang/String;)V:174
			ThreadJoined,main,00000000,Clog.joinSleeper()V:159|Clog.main([Ljava/lang/String;)V:174
			ObjectNotify,main,O4,Clog$Box.ping()V:188|Clog.notifies()V:198|Clog.main([Ljava/lang/String;)V:175
			ObjectNotify,main,O4,Clog$Box.ping()V:188|Clog.notifies()V:198|Clog.main([Ljava/lang/String;)V:175
			ObjectNotifyAll,main,O4,Clog$Box.pingAll()V:191|Clog.notifies()V:199|Clog.main([Ljava/lang/String;)V:175
			ObjectNotifyAll,main,O3,Clog.notifies()V:201|Clog.main([Ljava/lang/String;)V:175
			ObjectNotify,main,O4,Clog.notifies()V:205|Clog.main([Ljava/lang/String;)V:175
			ThreadEnded,main
			ThreadStarted,main,DestroyJavaVM
			ObjectNotifyAll,main,O5,
			ThreadEnded,main
			ThreadStarted,holder,holder
			ThreadEnded,holder
			ThreadStarted,blocker,blocker
			MonitorContendedEnter,blocker,O1,holder,Clog$Blocker.take()V:97|Clog$Blocker.run()V:92
			MonitorContendedEntered,blocker,O1,Clog$Blocker.take()V:97|Clog$Blocker.run()V:92
			ThreadEnded,blocker
			ThreadStarted,waiter,waiter
			ObjectWait,waiter,O2,Clog$Waiter.run()V:108
			ObjectWaited,waiter,O2,Clog$Waiter.run()V:108
			ObjectWait,waiter,O3,Clog$Waiter.run()V:111
			ObjectWaited,waiter,O3,Clog$Waiter.run()V:111
			ThreadEnded,waiter
			ThreadStarted,sleeper,sleeper
		WANT
		[ -z "$sleep_j" ] || printf '%s\n' 'ThreadSleep,sleeper,Clog$Sleeper.run()V:125' 'ThreadSlept,sleeper,Clog$Sleeper.run()V:125'
		printf '%s\n' 'ThreadSleep,sleeper,Clog$Sleeper.run()V:126' 'ThreadSlept,sleeper,Clog$Sleeper.run()V:126' \
			'ThreadEnded,sleeper'
	} >"$T/want.all"
	# the JDK's own notifyAll as main ends: JDK 17's ThreadGroup, once empty, then VM.shutdown's
	if [ "$jdk" = 17 ]; then
		sed -e '0,/^ThreadEnded,main$/s//ObjectNotifyAll,main,O5,\n&/' \
			-e '/^ThreadStarted,main,DestroyJavaVM$/{n;s/O5/O6/}' "$T/want.all" >"$T/want"
	else
		cp "$T/want.all" "$T/want"
	fi
	diff -u "$T/want" "$T/got"

	# the meta part: classes with their source file, methods with the lines seen
	sed -n '/^#classes$/,/^#methods$/p' "$T/r.clog" | grep -x -e 'LClog;,Clog.java' -e 'LClog$Blocker;,Clog.java' \
		-e 'LClog$Waiter;,Clog.java' -e 'LClog$Sleeper;,Clog.java' -e 'Ljava/lang/Thread;,Thread.java' | sort >"$T/got"
	printf '%s\n' 'LClog$Blocker;,Clog.java' 'LClog$Sleeper;,Clog.java' 'LClog$Waiter;,Clog.java' 'LClog;,Clog.java' \
		'Ljava/lang/Thread;,Thread.java' >"$T/want"
	diff -u "$T/want" "$T/got"
	grep -Ex '[0-9A-F]{8},take,\(\)V,LClog\$Blocker;,1,00000061,97' "$T/r.clog"
	grep -Ex '[0-9A-F]{8},contention,\(\)V,LClog;,4,00000088,136,0000008B,139,0000008D,141,0000008E,142' "$T/r.clog"
	grep -Ex '[0-9A-F]{8},run,\(\)V,LClog\$Waiter;,2,0000006C,108,0000006F,111' "$T/r.clog"
	[ "$(tail -n 1 "$T/r.clog")" = '#end' ]

	# --read: the --print lines of what the file keeps
	run -0 "$BRIDGE" --read "$T/r.clog" -o "$T/read.out"
	[ -z "$output" ]
	read_lines "$T/read.out" >"$T/got"
	{
		cat <<-'WANT'
			method.enter pid=P tid=main ts=X method=java.lang.Thread.start()V args= stack=Clog.contention()V:136|Clog.main([Ljava/lang/String;)V:172
			method.enter pid=P tid=main ts=X method=java.lang.Thread.start()V args= stack=Clog.contention()V:139|Clog.main([Ljava/lang/String;)V:172
			method.enter pid=P tid=main ts=X method=java.lang.Thread.join()V args= stack=Clog.contention()V:141|Clog.main([Ljava/lang/String;)V:172
			method.return pid=P tid=main ts=X method=java.lang.Thread.join()V popped=0 ret=? stack=Clog.contention()V:141|Clog.main([Ljava/lang/String;)V:172
			method.enter pid=P tid=main ts=X method=java.lang.Thread.join()V args= stack=Clog.contention()V:142|Clog.main([Ljava/lang/String;)V:172
			method.return pid=P tid=main ts=X method=java.lang.Thread.join()V popped=0 ret=? stack=Clog.contention()V:142|Clog.main([Ljava/lang/String;)V:172
			method.enter pid=P tid=main ts=X method=java.lang.Thread.start()V args= stack=Clog.waitNotify()V:147|Clog.main([Ljava/lang/String;)V:173
			method.enter pid=P tid=main ts=X method=java.lang.Object.notify()V args= stack=Clog.waitNotify()V:150|Clog.main([Ljava/lang/String;)V:173
			method.enter pid=P tid=main ts=X method=java.lang.Thread.join()V args= stack=Clog.waitNotify()V:153|Clog.main([Ljava/lang/String;)V:173
			method.return pid=P tid=main ts=X method=java.lang.Thread.join()V popped=0 ret=? stack=Clog.waitNotify()V:153|Clog.main([Ljava/lang/String;)V:173
			method.enter pid=P tid=main ts=X method=java.lang.Thread.start()V args= stack=Clog.joinSleeper()V:158|Clog.main([Ljava/lang/String;)V:174
			method.enter pid=P tid=main ts=X method=java.lang.Thread.join()V args= stack=Clog.joinSleeper()V:159|Clog.main([Ljava/lang/String;)V:174
			method.return pid=P tid=main ts=X method=java.lang.Thread.join()V popped=0 ret=? stack=Clog.joinSleeper()V:159|Clog.main([Ljava/lang/String;)V:174
			method.enter pid=P tid=main ts=X method=java.lang.Object.notify()V args= stack=Clog$Box.ping()V:188|Clog.notifies()V:198|Clog.main([Ljava/lang/String;)V:175
			method.enter pid=P tid=main ts=X method=java.lang.Object.notify()V args= stack=Clog$Box.ping()V:188|Clog.notifies()V:198|Clog.main([Ljava/lang/String;)V:175
			method.enter pid=P tid=main ts=X method=java.lang.Object.notifyAll()V args= stack=Clog$Box.pingAll()V:191|Clog.notifies()V:199|Clog.main([Ljava/lang/String;)V:175
			method.enter pid=P tid=main ts=X method=java.lang.Object.notifyAll()V args= stack=Clog.notifies()V:201|Clog.main([Ljava/lang/String;)V:175
			method.enter pid=P tid=main ts=X method=java.lang.Object.notify()V args= stack=Clog.notifies()V:205|Clog.main([Ljava/lang/String;)V:175
			thread.end pid=P tid=main ts=X
			thread.start pid=P tid=main ts=X thread="DestroyJavaVM"
			method.enter pid=P tid=main ts=X method=java.lang.Object.notifyAll()V args= stack=
			thread.end pid=P tid=main ts=X
			thread.start pid=P tid=holder ts=X thread="holder"
			thread.end pid=P tid=holder ts=X
			thread.start pid=P tid=blocker ts=X thread="blocker"
			monitor.contended_enter pid=P tid=blocker ts=X object=O1 class= owner=holder owner_thread="" stack=Clog$Blocker.take()V:97|Clog$Blocker.run()V:92
			monitor.contended_entered pid=P tid=blocker ts=X object=O1 stack=Clog$Blocker.take()V:97|Clog$Blocker.run()V:92
			thread.end pid=P tid=blocker ts=X
			thread.start pid=P tid=waiter ts=X thread="waiter"
			monitor.wait pid=P tid=waiter ts=X object=O2 timeout_ms=0 stack=Clog$Waiter.run()V:108
			monitor.waited pid=P tid=waiter ts=X object=O2 timeout_ms=0 timed_out=0 stack=Clog$Waiter.run()V:108
			monitor.wait pid=P tid=waiter ts=X object=O3 timeout_ms=0 stack=Clog$Waiter.run()V:111
			monitor.waited pid=P tid=waiter ts=X object=O3 timeout_ms=0 timed_out=0 stack=Clog$Waiter.run()V:111
			thread.end pid=P tid=waiter ts=X
			thread.start pid=P tid=sleeper ts=X thread="sleeper"
		WANT
		[ -z "$sleep_j" ] || printf '%s\n' \
			'method.enter pid=P tid=sleeper ts=X method=java.lang.Thread.sleep(J)V args= stack=Clog$Sleeper.run()V:125' \
			'method.return pid=P tid=sleeper ts=X method=java.lang.Thread.sleep(J)V popped=0 ret=? stack=Clog$Sleeper.run()V:125'
		printf '%s\n' \
			'method.enter pid=P tid=sleeper ts=X method=java.lang.Thread.sleep(JI)V args= stack=Clog$Sleeper.run()V:126' \
			'method.return pid=P tid=sleeper ts=X method=java.lang.Thread.sleep(JI)V popped=0 ret=? stack=Clog$Sleeper.run()V:126' \
			'thread.end pid=P tid=sleeper ts=X'
	} >"$T/want.all"
	if [ "$jdk" = 17 ]; then
		sed '0,/^thread.end pid=P tid=main ts=X$/s//method.enter pid=P tid=main ts=X method=java.lang.Object.notifyAll()V args= stack=\n&/' \
			"$T/want.all" >"$T/want"
	else
		cp "$T/want.all" "$T/want"
	fi
	diff -u "$T/want" "$T/got"
}

@test "clog: contention, waits, notifies, sleeps and joins per thread, the meta part, and --read (JDK 17)" { check_clog 17 "$JDK17"; }
@test "clog: contention, waits, notifies, sleeps and joins per thread, the meta part, and --read (JDK 25)" { check_clog 25 "$JDK25"; }

# ---------------------------------------------------------------- faults

# said: the lines of OUTPUT without "stpd-bridge[PID]: "
said() { sed -E 's/^stpd-bridge\[[0-9]+\]: //' <<<"$output"; }
# formats: the list of formats as LIST, when it names clog
formats() { sed -E 's/formats: ([a-z]+, )*clog(, [a-z]+)*/formats: LIST/'; }

@test "record: a FILE that exists is refused, and overwritten with --force" {
	echo keep >"$T/r.clog"
	run -1 "$BRIDGE" -x 1 --record "$T/r.clog"
	[ "$(said)" = "error: --record '$T/r.clog': the file exists (give --force to overwrite it)" ]
	[ "$(cat "$T/r.clog")" = keep ]
	# a pid that is gone: the session ends at once, and the file is an empty recording
	true &
	local gone=$!
	wait "$gone"
	run -1 "$BRIDGE" -x "$gone" --record "$T/r.clog" --force
	[ "$(said)" = "error: -x $gone: no such process" ]
	[ "$(head -n 1 "$T/r.clog")" = '#clog,1' ]
	[ "$(sed -n '3,$p' "$T/r.clog")" = "$(printf '#classes\n#methods\n#end')" ]
	run -0 "$BRIDGE" --read "$T/r.clog"
	[ -z "$output" ]
}

@test "record: a FILE that cannot be written is said, with why" {
	run -1 "$BRIDGE" -x 1 --record "$T/no/such/dir/r.clog"
	[ "$(said)" = "error: --record '$T/no/such/dir/r.clog': No such file or directory" ]
	run -1 "$BRIDGE" -x 1 --record "$T" --format clog --force
	[ "$(said)" = "error: --record '$T': Is a directory" ]
}

@test "record: an unknown format or extension names the formats; options that need --record" {
	run -2 "$BRIDGE" -x 1 --record "$T/r.txt"
	[ "$(said | formats)" = "error: --record '$T/r.txt': the file's extension names no format (formats: LIST; or give --format)" ]
	run -2 "$BRIDGE" -x 1 --record "$T/r.clog" --format nope
	[ "$(said | formats)" = "error: --format 'nope': no such format (formats: LIST)" ]
	run -2 "$BRIDGE" -x 1 --threads --force
	[ "$(said)" = "error: --force: give --record FILE" ]
	run -2 "$BRIDGE" -x 1 --threads --record-max 10
	[ "$(said)" = "error: --record-max: give --record FILE" ]
	run -2 "$BRIDGE" -x 1 --threads --record "$T/r.clog" --record-max 1X
	[ "$(said)" = "error: --record-max '1X': not a size in bytes (a whole number from 1, or with K, M or G)" ]
	run -2 "$BRIDGE" --read "$T/r.clog" -x 1
	[ "$(said)" = "error: --read: it only prints FILE's events: no -x, --record, --print, --fire, --list, --check, --matches or registrations" ]
	run -2 "$BRIDGE" --record "$T/r.clog" --fire --in-thread --slot 0:method.enter:A.b
	[ "$(said)" = "error: --record: the agents fire the markers, nothing reaches the bridge to record: no --in-thread" ]
	[ ! -e "$T/r.clog" ]
}

@test "read: a bad file names the offset, an unreadable one why" {
	printf '#clog,1\n#pid,7\n0.000000001,ThreadEnded,0000002A\nbad\n' >"$T/bad.clog"
	run -1 "$BRIDGE" --read "$T/bad.clog"
	# the events before the fault are printed
	[ "$(said)" = "thread.end pid=7 tid=42 ts=1
error: --read '$T/bad.clog': offset 48: the timestamp 'bad' is not seconds with nine decimals" ]
	run -1 "$BRIDGE" --read "$T/none.clog"
	[ "$(said)" = "error: --read '$T/none.clog': No such file or directory" ]
	run -1 "$BRIDGE" --read "$T" --format clog
	[ "$(said)" = "error: --read '$T': Is a directory" ]
	run -1 "$BRIDGE" --read /dev/null --format clog
	[ "$(said)" = "error: --read '/dev/null': not a regular file (a recording is read from a file)" ]
}

# --record-max: the recording stops with one message and the file ends on
# a whole line; the session goes on while it prints, else ends (status 0).
@test "record: --record-max stops the recording, the session goes on while it prints" {
	clog_jvm "$JDK17"
	bridge b --print -o "$T/b.out" --record "$T/r.clog" --record-max 400
	until_ok 20 registered
	clog_to_end
	status_of "$BPID"
	BPID=
	grep -q "^stpd-bridge\[[0-9]*\]: warn: --record '$T/r.clog': the file reached --record-max (400 bytes): recording stopped$" "$T/b.log"
	# every line was printed, to the last
	grep -q '^thread.start .* thread="DestroyJavaVM" ' "$T/b.out"
	# a whole line last: it reads (which events got in depends on the JVM's own threads too)
	[ "$(stat -c %s "$T/r.clog")" -le 400 ]
	[ "$(head -n 1 "$T/r.clog")" = '#clog,1' ]
	[ "$(tail -c 1 "$T/r.clog" | od -An -c | tr -d ' ')" = '\n' ]
	run -0 "$BRIDGE" --read "$T/r.clog"
	[ -z "$(grep -v '^[a-z_.]* pid=[0-9]* tid=' <<<"$output")" ]
}

@test "record: --record-max ends a session that only records (status 0)" {
	clog_jvm "$JDK17"
	bridge b --record "$T/r.clog" --record-max 300
	until_ok 20 registered
	touch "$T/go"
	status_of "$BPID"
	BPID=
	kill -0 "$JPID" # the JVM waits for $T/release: still there
	grep -q "^stpd-bridge\[[0-9]*\]: warn: --record '$T/r.clog': the file reached --record-max (300 bytes): recording stopped$" "$T/b.log"
	grep -q "^stpd-bridge\[[0-9]*\]: info: stopping: the recording stopped, and nothing else is done with the events$" "$T/b.log"
}

# A full disk (/dev/full): one error naming the file; the session goes on
# while it prints, and the bridge's status is 1.
@test "record: a full disk stops the recording with its error, the session goes on while it prints" {
	clog_jvm "$JDK17"
	bridge b --print -o "$T/b.out" --record /dev/full --force --format clog
	until_ok 20 registered
	until_ok 10 logged b "error: --record '/dev/full': No space left on device: recording stopped$"
	clog_to_end
	local rc=0
	status_of "$BPID" || rc=$?
	BPID=
	[ "$rc" -eq 1 ]
	grep -q '^thread.start .* thread="DestroyJavaVM" ' "$T/b.out"
	[ "$(grep -c ': error: ' "$T/b.log")" -eq 1 ]
}

@test "record: a full disk ends a session that only records (status 1)" {
	clog_jvm "$JDK17"
	bridge b --record /dev/full --force --format clog
	local rc=0
	status_of "$BPID" || rc=$?
	BPID=
	[ "$rc" -eq 1 ]
	kill -0 "$JPID"
	grep -q "^stpd-bridge\[[0-9]*\]: error: --record '/dev/full': No space left on device: recording stopped$" "$T/b.log"
	grep -q "^stpd-bridge\[[0-9]*\]: info: stopping: the recording stopped, and nothing else is done with the events$" "$T/b.log"
}

# flood_accounted N: the Flood.tick lines printed and the agent's last
# running total of lost events make N (every call is either).
flood_accounted() {
	local d l
	d=$(grep -c '^method\.enter .* method=Flood\.tick(I)V ' "$T/b.out")
	l=$(sed -n 's/^lost .* lost=\([0-9]*\)$/\1/p' "$T/b.out" | tail -1)
	[ "$((d + ${l:-0}))" -eq "$1" ]
}

# A recorder that falls behind (stopped here) never holds up a JVM: the
# workers drop what the channel cannot take and count it; the count goes
# into the file (#dropped) and is said at the end, and every event the
# bridge selected is either recorded or counted.
@test "record: a recorder that falls behind: events dropped, counted in the file and said" {
	"$JDK17" "-agentpath:$AGENT=sockdir=$T/s,loglevel=info,logfile=$T/agent.log" -cp "$CLASSES" \
		Families flood "$T/go" 200000 "$T/done" "$T/release" >"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
	until_ok 20 has_socket
	bridge b --print -o "$T/b.out" --record "$T/r.clog" -m 'Flood.tick(I)V:enter'
	until_ok 20 registered
	local rec dropped recorded
	rec=$(sed -n 's/.*: recorder \([0-9]*\) started.*/\1/p' "$T/b.log")
	kill -STOP "$rec"
	touch "$T/go"
	until_ok 120 test -e "$T/done"
	until_ok 60 flood_accounted 200000
	kill -CONT "$rec"
	touch "$T/release"
	status_of "$JPID"
	JPID=
	status_of "$BPID"
	BPID=
	dropped=$(sed -n "s/^stpd-bridge\[[0-9]*\]: warn: --record '.*': \([0-9]*\) events could not be recorded (the recorder fell behind); the file counts them$/\1/p" "$T/b.log")
	[ "${dropped:-0}" -gt 0 ]
	[ "$(sed -n 's/^#dropped,[0-9.]*,//p' "$T/r.clog" | tail -1)" = "$dropped" ]
	recorded=$(sed -n "s/^stpd-bridge\[[0-9]*\]: info: --record '.*': \([0-9]*\) events recorded in [0-9]* bytes (clog)$/\1/p" "$T/b.log")
	[ "$((recorded + dropped))" -eq "$(wc -l <"$T/b.out")" ]
	[ "$(tail -n 1 "$T/r.clog")" = '#end' ]
}

# record_jvm JAVA CLASS [ARGS...] -- BRIDGE_ARGS...: CLASS run with the agent,
# waiting for $T/go (its last argument), and a bridge with BRIDGE_ARGS; once
# the bridge has registered, go; wait for both to end.
record_jvm() {
	local java=$1 main=()
	shift
	while [ "$1" != -- ]; do
		main+=("$1")
		shift
	done
	shift
	"$java" "-XX:ErrorFile=$T/hs_err_%p.log" "-agentpath:$AGENT=sockdir=$T/s,loglevel=info,logfile=$T/agent.log" \
		-cp "$CLASSES" "${main[@]}" "$T/go" >"$T/java.out" 2>"$T/java.err" 3>&- &
	JPID=$!
	until_ok 20 has_socket
	bridge b "$@"
	until_ok 20 registered
	touch "$T/go"
	status_of "$JPID"
	JPID=
	status_of "$BPID"
	BPID=
}

# A real JVM's method calls recorded to .jfr while the bridge prints them:
# the JDK's own jfr reads the file, and each call is one stapjava.MethodCall
# with the thread's OS tid, a duration >= 0, the arguments and return value
# of its --print lines (Families' Demo: every type, a popped frame), and the
# name of its thread, main, which started before the session did (the agent
# names the running threads when thread events are switched on).
check_jfr_of_jvm() {
	local java=$1 jfr=${1%/java}/jfr
	record_jvm "$java" Families methods -- --print -o "$T/b.out" --record "$T/r.jfr" -m 'Demo.*' --args --return
	# each call from the printed lines (one thread: enters and returns nest)
	local expected got
	expected=$(awk '
		function field(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
		/^method.enter / { n++; m[n] = field("method"); a[n] = substr($0, index($0, " args=") + 6); t[n] = field("tid") }
		/^method.return / { r = substr($0, index($0, " ret=") + 5); printf "%s tid=%s thread=main args=%s ret=%s popped=%s\n", m[n], t[n], a[n], r, field("popped"); n-- }
	' "$T/b.out" | LC_ALL=C sort)
	[ "$(grep -c '^method.enter ' "$T/b.out")" -eq 20 ]
	"$jfr" summary "$T/r.jfr" >"$T/summary" || { cat "$T/summary" >&2; false; }
	grep -Eq '^ stapjava\.MethodCall +20 ' "$T/summary" || { cat "$T/summary" >&2; false; }
	got=$("$jfr" print --json "$T/r.jfr" | jq -r '.recording.events[] | select(.type == "stapjava.MethodCall") | .values
		| select(.duration | test("^PT[0-9.]+S$"))
		| "\(.method.type.name).\(.method.name)\(.method.descriptor) tid=\(.eventThread.osThreadId) thread=\(.eventThread.javaName) args=\((.arguments // "") | gsub(", "; ",")) ret=\(.returnValue) popped=\(if .exception then 1 else 0 end)"' |
		LC_ALL=C sort)
	[ "$got" = "$expected" ] || { diff <(echo "$expected") <(echo "$got") >&2; false; }
}

@test "record: a JVM's calls to .jfr, read by the JDK's jfr (JDK 17): thread, duration, arguments, return value" { check_jfr_of_jvm "$JDK17"; }
@test "record: a JVM's calls to .jfr, read by the JDK's jfr (JDK 25): thread, duration, arguments, return value" { check_jfr_of_jvm "$JDK25"; }

# The threads of a .jfr the bridge writes have their Java id: the
# javaThreadId of main (running before the session: named from the agent's
# list of running threads) and of worker (started during it: its
# ThreadStart) is what Thread.getId() gave them, in the threads of their
# calls and in worker's jdk.ThreadStart.
check_jfr_java_ids() {
	local java=$1 jfr=${1%/java}/jfr got want
	record_jvm "$java" JavaIds -- --record "$T/r.jfr" -m 'JavaIds.add:enter' -m 'JavaIds.add:return'
	"$jfr" print --json "$T/r.jfr" >"$T/r.json"
	got=$(jq -r '.recording.events[] | select(.type == "stapjava.MethodCall") | .values.eventThread
		| "\(.javaName) \(.osThreadId) \(.javaThreadId)"' "$T/r.json" | LC_ALL=C sort)
	want=$(awk -F'[ =]' '/^javaid / { j[$2] = $3 } /^tid / { t[$2] = $3 } END { for (n in j) print n, t[n], j[n] }' \
		"$T/java.out" | LC_ALL=C sort)
	[ "$(wc -l <<<"$want")" -eq 2 ]
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got") >&2; false; }
	got=$(jq -r '.recording.events[] | select(.type == "jdk.ThreadStart") | .values.thread
		| select(.javaName == "worker") | .javaThreadId' "$T/r.json")
	[ "$got" = "$(sed -n 's/^javaid worker=//p' "$T/java.out")" ]
}

@test "record: .jfr threads have their Java id (javaThreadId = Thread.getId()) (JDK 17)" { check_jfr_java_ids "$JDK17"; }
@test "record: .jfr threads have their Java id (javaThreadId = Thread.getId()) (JDK 25)" { check_jfr_java_ids "$JDK25"; }
