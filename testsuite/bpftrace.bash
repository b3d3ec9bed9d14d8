# bpftrace.bash: stopping a bpftrace the Bats files started (`load bpftrace`).

# stop_bpftrace PID: SIGINT, then its exit, once it has printed its maps;
# its status. The SIGINT again every 5 s while it runs: bpftrace 0.17 once
# kept polling after a SIGINT it had caught (its handler was in, nothing
# was pending; two fresh clones' runs, one test each), and a second one
# ended it, maps printed. Not sooner: a SIGINT while it prints its maps
# would kill it (it restores the default action then). Bounded (600 s), a
# hang guard, not a time: when hit, what the tracer waits in is printed.
stop_bpftrace() {
	local pid=$1 i
	for ((i = 0; i < 600 * 50; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		((i % 250)) || kill -INT "$pid" 2>/dev/null || true
		sleep 0.02
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "bpftrace $pid still runs 600 s after the first SIGINT: $(cat "/proc/$pid/wchan" 2>/dev/null)" >&2
		cat "/proc/$pid/stack" "/proc/$pid/status" >&2 2>/dev/null || true
		return 1
	fi
	wait "$pid"
}
