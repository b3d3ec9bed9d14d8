# demo-6.2.sh: the seed's example 6.2 ("Java Probes & Kernel Probes Mix") for
# ./quickstart demo, run for real: examples/java/test.java under
# examples/bufferedwriter.stp, through stap-java and SystemTap's kernel
# runtime (natively when this kernel can load modules, else in a qemu guest,
# see testsuite/vm/README.md).
#
#   . examples/demo-6.2.sh && demo_6_2 BUILDDIR
#
# BUILDDIR: a configured and built tree (make, make build-tests).
demo_6_2() {
	local build src classes java dir cmd st=0
	build=$(cd "${1:?usage: demo_6_2 BUILDDIR}" && pwd -P) || return 1
	src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	classes=$build/examples/java/classes
	[ -f "$classes/test.class" ] || make -s -C "$build" examples/java/classes.stamp || return 1
	java=$(readlink -f "$(command -v java)") || return 1
	# the host's /tmp is writable in the guest too: test.java writes test.tmp there
	dir=$(mktemp -d /tmp/stapjava-demo.XXXXXX) || return 1
	chmod 755 "$dir"
	printf '==> %s\n' "demo: the seed's example 6.2: which java.io.BufferedWriter calls end in write(2)" \
		"(examples/java/test.java; script examples/bufferedwriter.stp, run by stap-java):"
	grep -v '^#' "$src/examples/bufferedwriter.stp"
	printf '==> output:\n'
	(
		export STAPJAVA_BRIDGE=$build/stpd-bridge/stpd-bridge STAPJAVA_AGENT=$build/agent/libstapjava.so
		export STAPJAVA_TAPSET=$build/tapset STAPJAVA_RUNTIME_FIX=$src/translator-patches/stap-runtime-fix
		# the guest is slow; its /tmp (9p) cannot hold Unix sockets, /run (tmpfs) can
		export STAPJAVA_WAIT_MS=60000
		if ! { [ -e /proc/modules ] && [ "$(cat /proc/sys/kernel/modules_disabled 2>/dev/null)" = 0 ] &&
			[ -d "/lib/modules/$(uname -r)/build" ]; }; then
			export STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' STAPJAVA_AGENT_OPTS=sockdir=/run/sjd
		fi
		# stap-java --target-command: the command for staprun -c that starts
		# the bridge inside the target's process tree and gives the JVM the agent
		cmd=$("$build/translator-patches/stap-java" --target-command \
			"cd $dir && exec $java -cp $classes test" "$src/examples/bufferedwriter.stp") || exit 1
		"$src/testsuite/vm/stap-vm" --timeout 300 --stap "$build/translator-patches/stap-java" \
			-c "$cmd" "$src/examples/bufferedwriter.stp" 2> >(grep -v -e '^WARNING: Kernel function symbol table missing' \
				-e '^WARNING: cannot find module kernel debuginfo' -e '^Number of similar warning messages suppressed' \
				-e '^Rerun with -v to see them' -e '^Picked up JAVA_TOOL_OPTIONS' >&2)
	) || st=$?
	rm -rf "$dir"
	return "$st"
}
