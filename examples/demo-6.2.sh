# demo-6.2.sh: the seed's example 6.2 ("Java Probes & Kernel Probes Mix") for
# ./quickstart demo, run for real: examples/java/test.java under
# examples/bufferedwriter.stp, through stap-java and SystemTap's kernel
# runtime (in a qemu guest when this kernel cannot load modules).
#
#   . examples/demo-6.2.sh && demo_6_2 BUILDDIR
#
# BUILDDIR: a configured and built tree (make, make build-tests), not under
# /tmp (in the guest, uprobes on binaries under /tmp do not fire).
demo_6_2() {
	local build src classes java dir st=0
	build=$(cd "${1:?usage: demo_6_2 BUILDDIR}" && pwd -P) || return 1
	src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	classes=$build/examples/java/classes
	[ -f "$classes/test.class" ] || make -s -C "$build" examples/java/classes.stamp || return 1
	java=$(readlink -f "$(command -v java)")
	dir=$(mktemp -d /tmp/stapjava-demo.XXXXXX) || return 1
	chmod 755 "$dir"
	printf '==> %s\n' "demo: the seed's example 6.2: which java.io.BufferedWriter calls end in write(2)" \
		"(examples/java/test.java; script examples/bufferedwriter.stp, run by stap-java):"
	grep -v '^#' "$src/examples/bufferedwriter.stp"
	printf '==> output:\n'
	STAPJAVA_BRIDGE=$build/stpd-bridge/stpd-bridge STAPJAVA_AGENT=$build/agent/libstapjava.so \
	STAPJAVA_TAPSET=$build/tapset STAPJAVA_RUNTIME_FIX=$src/translator-patches/stap-runtime-fix \
		"$src/testsuite/vm/stap-vm" --timeout 300 --stap "$build/translator-patches/stap-java" \
		--env "JAVA_TOOL_OPTIONS=-agentpath:$build/agent/libstapjava.so=wait_ms=20000" \
		-c "sh -c 'mkdir -p /tmp/stapjava-0 && mount -t tmpfs -o mode=0700 sj /tmp/stapjava-0 && cd $dir && exec $java -cp $classes test'" \
		"$src/examples/bufferedwriter.stp" 2> >(grep -v -e '^WARNING: Kernel function symbol table missing' \
			-e '^WARNING: cannot find module kernel debuginfo' -e '^Picked up JAVA_TOOL_OPTIONS' >&2) || st=$?
	rm -rf "$dir"
	return "$st"
}
