# java_vm.bash: what the Bats files of Java runs in the guest share
# (java_probes.bats, systemtap_java.bats), loaded with `load java_vm`.
# A run NAME leaves $D/NAME.out, .err, .java.out, .java.err, .agent.log.

# show NAME: everything a run left, on stderr, for a failing test.
show() {
	local name=$1
	printf -- '--- status %s\n--- stdout\n' "$status" >&2
	cat "$D/$name.out" >&2
	printf -- '--- stderr\n' >&2
	cat "$D/$name.err" >&2
	printf -- '--- java\n' >&2
	cat "$D/$name.java.out" "$D/$name.java.err" >&2 2>/dev/null
	printf -- '--- agent log\n' >&2
	cat "$D/$name.agent.log" >&2 2>/dev/null
}

# stderr without stap's usual warnings about the Debian kernel's missing
# debuginfo (and its note that more of them were suppressed) and without the JVM's "Picked up JAVA_TOOL_OPTIONS".
clean_err() {
	grep -v -e '^WARNING: Kernel function symbol table missing' \
		-e '^WARNING: cannot find module kernel debuginfo' \
		-e '^Number of similar warning messages suppressed: [0-9]*\.$' \
		-e '^Rerun with -v to see them\.$' \
		-e '^Picked up JAVA_TOOL_OPTIONS' "$1" || true
}
