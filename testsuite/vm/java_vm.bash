# java_vm.bash: what the Bats files of Java runs in the guest share
# (java_probes.bats, systemtap_java.bats), loaded with `load java_vm`.
# A run NAME leaves $D/NAME.out, .err, .java.out, .java.err, .agent.log.

# java_vm_setup PREFIX [FILE]...: for setup_file. The trees
# (STAPJAVA_SRCDIR / STAPJAVA_BUILDDIR, default the repository top) as S and
# B, stap-vm as VM, java as JAVA, the build tree's programs as the STAPJAVA_*
# paths, those and each FILE (relative to B) checked, and D, a new directory
# PREFIX.XXXXXX in the host's /tmp (shared with the guest, writable there).
java_vm_setup() {
	local prefix=$1 top f
	shift
	top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	export STAPJAVA_SRCDIR=${STAPJAVA_SRCDIR:-$top}
	export STAPJAVA_BUILDDIR=${STAPJAVA_BUILDDIR:-$top}
	export B S VM JAVA D
	B=$(cd "$STAPJAVA_BUILDDIR" && pwd -P)
	S=$STAPJAVA_SRCDIR
	VM=$S/testsuite/vm/stap-vm
	JAVA=$(readlink -f "$(command -v java)")
	for f in stpd-bridge/stpd-bridge agent/libstapjava.so translator-patches/stap-java tapset/stapjava.stp "$@"; do
		[ -e "$B/$f" ] || { echo "missing $B/$f: run make and make build-tests first" >&2; return 1; }
	done
	export STAPJAVA_BRIDGE=$B/stpd-bridge/stpd-bridge STAPJAVA_AGENT=$B/agent/libstapjava.so
	export STAPJAVA_TAPSET=$B/tapset STAPJAVA_RUNTIME_FIX=$S/translator-patches/stap-runtime-fix
	D=$(mktemp -d "/tmp/$prefix.XXXXXX")
	chmod 755 "$D"
}

# show NAME: everything a run left, on stderr, for a failing test.
show() {
	local name=$1
	printf -- '--- status %s\n--- stdout\n' "$status" >&2
	cat "$D/$name.out" >&2
	printf -- '--- stderr\n' >&2
	cat "$D/$name.err" >&2
	# every JVM's output, agent log and crash report of the run
	# ($name.java.out, or one per JVM: $name.A.java.out ...); a file the run
	# did not make is skipped
	local f
	for f in "$D/$name".java.out "$D/$name".java.err "$D/$name".*.java.out "$D/$name".*.java.err \
		"$D/$name".agent.log "$D/$name".*.agent.log "$D/$name".*hs_err.log; do
		[ -f "$f" ] || continue
		printf -- '--- %s\n' "${f##*/}" >&2
		cat "$f" >&2
	done
	return 0
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
