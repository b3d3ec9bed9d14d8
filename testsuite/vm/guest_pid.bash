# guest_pid.bash: a guest command started with a pid known in advance, for
# tests whose script is built with `-x PID` on the host before the guest
# runs (stap-java writes the pid into the bridge's command line).
#
# start_with_pid PID 'COMMAND >OUT 2>ERR' PIDFILE: shell text (for stap-vm
# --before) that starts COMMAND in the background with pid PID and writes
# PID to PIDFILE. Setting ns_last_pid to PID-1 makes the next fork get PID,
# unless another task (a kernel worker thread the guest starts at that
# moment) forks first; then the command is killed at once and started
# again: at most 20 tries, then it says so and fails the --before command.
start_with_pid() {
	local pid=$1 cmd=$2 pidfile=$3
	printf '%s' "n=0; while :; do echo $((pid - 1)) >/proc/sys/kernel/ns_last_pid; $cmd & p=\$!;"
	printf '%s' " [ \$p = $pid ] && break; kill -9 \$p; wait \$p 2>/dev/null; n=\$((n + 1));"
	printf '%s' " [ \$n -lt 20 ] || { echo \"start_with_pid: no pid $pid in 20 tries (the last: \$p)\" >&2; exit 1; }; done;"
	printf '%s' " echo \$p >$pidfile"
}
