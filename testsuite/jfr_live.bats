#!/usr/bin/env bats
# The live JFR chunk parser (formats/jfr_live*.c) against the JDK's own
# reader: JfrWork (System.gc(), a contended lock, a FileWrite, a thrown
# exception) recorded with default.jfc on JDK 17 and on JDK 25; every event
# and every field testsuite/jfr-live-dump gives, fed the file whole, in
# pieces of 7 bytes and of 1 byte, equals what `jfr print --json` gives
# (testsuite/jfr_live_compare.py says which conversions); the workload's own
# events carry the values it made. A chunk copied from the repository while
# the JVM still writes it (up to the size its header gives, as the agent
# streams it), on JDK 17 and 25, gives what is complete (each event one of
# the finished recording's), and cut inside a record says where; a
# corrupted one is refused with the offset; the types and their paths
# are listed from the JVM's metadata.

bats_require_minimum_version 1.5.0

setup_file() {
	load jvms
	export DUMP=$BUILD/testsuite/jfr-live-dump
	export COMPARE=$SRC/testsuite/jfr_live_compare.py
	export TZ=UTC
	export D=$BATS_FILE_TMPDIR
	[ -x "$DUMP" ] || { echo "no $DUMP: run make build-tests" >&2; return 1; }
	[ -f "$CLASSES/JfrWork.class" ] || { echo "no JfrWork.class: run make build-tests" >&2; return 1; }
}

# The settings: default.jfc, every exception, and no threshold on the
# workload's file write and contended enter (so each is recorded whatever
# the machine's speed).
JFR_SETTINGS=settings=default,exceptions=all,jdk.FileWrite#threshold=0ms,jdk.JavaMonitorEnter#threshold=0ms

# record JAVA NAME: $D/NAME.jfr, and the JDK's JSON of it in $D/NAME.json.
# No flush before the end (flush-interval): each event is resolved with
# every constant of the chunk, as the JDK's reader of a whole file does; a
# flush on the way would leave null, in ours, a constant the JVM writes
# only at the chunk's end (the class loaders of jdk.ClassLoaderStatistics).
record() {
	"$1" -XX:StartFlightRecording=filename="$D/$2.jfr",flush-interval=1h,$JFR_SETTINGS -cp "$CLASSES" JfrWork \
		"$D/$2.bin" >"$D/$2.out" 2>&1
	grep -qx DONE "$D/$2.out"
	"${1%/java}/jfr" print --json --stack-depth 2048 "$D/$2.jfr" >"$D/$2.json"
}

# the workload's events, as ours gives them: type and the fields that say what it did
workload_events() {
	python3 - "$1" "$2" <<-'EOF'
	import json, sys
	written = sys.argv[2]
	for line in open(sys.argv[1], encoding='utf-8', errors='surrogateescape'):
	    e = json.loads(line)
	    f = {p: v for p, k, v in e.get('fields', [])}
	    t = e.get('type')
	    if t == 'jdk.GarbageCollection' and f.get('cause') == 'System.gc()':
	        print(t, f['cause'], f['sumOfPauses'] > 0 and f['sumOfPauses'] <= e['duration'])
	    elif t == 'jdk.JavaMonitorEnter' and e['thread'] == 'jfr-blocker':
	        print(t, f['monitorClass.name'], f['previousOwner.javaName'], e['frames'][0][0], e['duration'] > 0)
	    elif t == 'jdk.FileWrite' and f.get('path') == written:
	        # the first frame of the workload's (JDK 17 has FileOutputStream.write above it, 25 not)
	        print(t, f['bytesWritten'], next(fr[0] for fr in e['frames'] if fr[0].startswith('JfrWork')),
	              e['tid'] > 0)
	    elif t == 'jdk.JavaExceptionThrow' and f.get('message') == 'jfr-work':
	        print(t, f['thrownClass.name'], e['thread'], [fr[0] for fr in e['frames']][-2:])
	EOF
}

# the same, sorted (the JVM's threads write their events in buffers of their own)
workload_sorted() {
	workload_events "$@" | sort
}

check_jdk() {
	record "$1" "$2"
	for piece in 0 7 1; do
		run "$DUMP" --piece $piece "$D/$2.jfr"
		[ "$status" -eq 0 ]
		printf '%s\n' "$output" >"$D/$2.ours"
		run python3 "$COMPARE" "$D/$2.json" "$D/$2.ours"
		echo "pieces of $piece: $output"
		[ "$status" -eq 0 ]
		[[ "$output" == "equal: "* ]]
	done
	run workload_sorted "$D/$2.ours" "$D/$2.bin"
	echo "$output"
	[ "${lines[0]}" = "jdk.FileWrite 4096 JfrWork.write True" ]
	[ "${lines[1]}" = "jdk.GarbageCollection System.gc() True" ]
	[ "${lines[2]}" = "jdk.JavaExceptionThrow java/lang/IllegalStateException main ['JfrWork.throwIt', 'JfrWork.main']" ]
	[ "${lines[3]}" = "jdk.JavaMonitorEnter java/lang/Object jfr-holder JfrWork\$2.run True" ]
	[ "${#lines[@]}" -eq 4 ]
}

@test "JDK 17: every event and every field equals jfr print --json (whole, pieces of 7 and of 1 byte)" {
	check_jdk "$JDK17" j17
}

@test "JDK 25: every event and every field equals jfr print --json (whole, pieces of 7 and of 1 byte)" {
	check_jdk "$JDK25" j25
}

# live_chunk JAVA NAME: JfrWork recorded with a repository in $D/NAME-repo;
# its chunk copied while the JVM writes it, up to the size its header gives
# (what the agent streams: JDK 25 has zeros past it mid-write), until a flush
# has put the workload's exception in it; then the JVM ends. $D/NAME-copy.jfr
# and the finished recording's JSON, $D/NAME-live.json.
live_chunk() {
	local jvm chunk i size
	mkdir "$D/$2-repo"
	"$1" -XX:StartFlightRecording=filename="$D/$2-live.jfr",$JFR_SETTINGS \
		-XX:FlightRecorderOptions:repository="$D/$2-repo" -cp "$CLASSES" JfrWork "$D/$2.bin" "$D/$2-go" \
		>"$D/$2-live.out" 2>&1 &
	jvm=$!
	for ((i = 0; i < 600; i++)); do   # bounded: 60 s
		chunk=$(find "$D/$2-repo" -name '*.jfr' 2>/dev/null | head -1)
		if [ -n "$chunk" ] && cp "$chunk" "$D/$2-raw.jfr" && [ "$(stat -c %s "$D/$2-raw.jfr")" -ge 68 ]; then
			size=$(od -An -tu8 --endian=big -j8 -N8 "$D/$2-raw.jfr" | tr -d ' ')
			head -c "$size" "$D/$2-raw.jfr" >"$D/$2-copy.jfr"
			"$DUMP" --types jdk.JavaExceptionThrow "$D/$2-copy.jfr" | grep -q '"jfr-work"' && break
		fi
		sleep 0.1
	done
	touch "$D/$2-go"
	wait $jvm
	grep -qx DONE "$D/$2-live.out"
	[ "$i" -lt 600 ]
	# the copy's header still says the chunk is being written
	[ "$(od -An -tu1 -j64 -N1 "$D/$2-copy.jfr" | tr -d ' ')" != 0 ]
	"${1%/java}/jfr" print --json --stack-depth 2048 "$D/$2-live.jfr" >"$D/$2-live.json"
}

check_live() {
	live_chunk "$1" "$2"
	run "$DUMP" --piece 7 "$D/$2-copy.jfr"
	printf '%s\n' "$output" >"$D/$2-copy.ours"
	echo "${lines[-1]}"
	[ "$status" -eq 0 ]
	run python3 "$COMPARE" --subset "$D/$2-live.json" "$D/$2-copy.ours"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "subset: "* ]]
	run workload_sorted "$D/$2-copy.ours" "$D/$2.bin"
	echo "$output"
	[ "${lines[2]}" = "jdk.JavaExceptionThrow java/lang/IllegalStateException main ['JfrWork.throwIt', 'JfrWork.main']" ]
	# cut one byte short: the last record is reported, with where it starts and how much of it came
	local size=$(stat -c %s "$D/$2-copy.jfr")
	head -c $((size - 1)) "$D/$2-copy.jfr" >"$D/$2-cut.jfr"
	run "$DUMP" "$D/$2-cut.jfr"
	echo "${lines[-1]}"
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" =~ \"error\":\ \"at\ ([0-9]+)\ of\ chunk\ 0:\ the\ stream\ ended\ inside\ a\ record:\ ([0-9]+)\ bytes\ of\ it\ came\ \(-22\)\" ]]
	[ $((BASH_REMATCH[1] + BASH_REMATCH[2])) -eq $((size - 1)) ]
}

@test "JDK 17: a chunk the JVM is still writing: what is complete is delivered, a record cut short is reported" {
	check_live "$JDK17" l17
}

@test "JDK 25: a chunk the JVM is still writing: what is complete is delivered, a record cut short is reported" {
	check_live "$JDK25" l25
}

@test "a corrupted chunk is refused with the offset" {
	[ -f "$D/j17.jfr" ] || record "$JDK17" j17
	# the first record's size (the JDK pads it to 4 bytes) made 0
	{ head -c 68 "$D/j17.jfr"; printf '\0'; tail -c +70 "$D/j17.jfr"; } >"$D/zero.jfr"
	run "$DUMP" "$D/zero.jfr"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = '{"end": true, "events": 0, "unresolved": 0, "error": "at 68 of chunk 0: a record of 0 bytes (-22)"}' ]
	{ printf 'FLX'; tail -c +4 "$D/j17.jfr"; } >"$D/magic.jfr"
	run "$DUMP" --piece 1 "$D/magic.jfr"
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == *'"error": "at 0 of chunk 0: no JFR chunk starts here (its magic is not \"FLR\\0\") (-22)"}' ]]
}

@test "the event types and their field paths, from the JVM's own metadata (jfr_live_types)" {
	[ -f "$D/j17.jfr" ] || record "$JDK17" j17
	[ -f "$D/j25.jfr" ] || record "$JDK25" j25
	run "$DUMP" --list "$D/j17.jfr"
	[ "$status" -eq 0 ]
	local thread='eventThread.osName eventThread.osThreadId eventThread.javaName eventThread.javaThreadId eventThread.group.parent eventThread.group.name'
	[ "$(grep '^jdk.GarbageCollection:' <<<"$output")" = 'jdk.GarbageCollection: gcId name cause sumOfPauses longestPause' ]
	[ "$(grep '^jdk.FileWrite:' <<<"$output")" = "jdk.FileWrite: $thread path bytesWritten" ]
	# every type the JDK's metadata lists, ours lists: `jfr metadata` (JDK 17 has it)
	"${JDK17%/java}/jfr" metadata "$D/j17.jfr" | sed -n 's/^@Name("\(jdk\.[A-Za-z0-9]*\)")$/\1/p' | sort -u >"$D/jdk-types"
	grep -o '^jdk\.[A-Za-z0-9]*' <<<"$output" | sort -u >"$D/our-types"
	comm -23 "$D/jdk-types" "$D/our-types" >"$D/missing"
	[ ! -s "$D/missing" ] || { cat "$D/missing"; false; }
	run "$DUMP" --list "$D/j25.jfr"
	[ "$status" -eq 0 ]
	[ "$(grep '^jdk.GarbageCollection:' <<<"$output")" = "jdk.GarbageCollection: $thread eventThread.virtual gcId name cause sumOfPauses longestPause" ]
}
