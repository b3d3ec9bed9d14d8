#!/usr/bin/env bats
# SystemTap's own Java probe points (stapprobes(3stap), JAVA) on the kernel
# runtime in the guest, served by stapjava: our conformance suite, modelled
# on the cases of SystemTap's testsuite/systemtap.apps/java.exp (one
# parameter of each primitive type and String, the same on .return, ten
# parameters of mixed types, print_java_backtrace()), with a JVM named as jps
# names it and one named by pid, the first started after the script.  Each
# JVM does a fixed amount of work and ends (or waits for a file the run
# makes once the script has seen what it needs); outputs are compared
# exactly, with only pids and object ids masked.
#
# STAPJAVA_SRCDIR / STAPJAVA_BUILDDIR: source and build trees (default: the
# repository top).

bats_require_minimum_version 1.5.0

load java_vm
load guest_pid

setup_file() {
	java_vm_setup stapjava-sysjava || return 1
	# Conform: the methods SystemTap's java.exp probes, at fixed lines (the
	# backtrace says them). "once": each called once, then burst() 500 times
	# and exit at once. "loop STOP":
	# ten() and takeInt(7) every 50 ms until the file STOP exists (at most 2 min).
	# Other: calls them too, but is not the JVM the scripts name.
	cat >"$D/Conform.java" <<-'EOF'
		public class Conform {
			static void takeBoolean(boolean v) { }
			static void takeByte(byte v) { }
			static void takeChar(char v) { }
			static void takeShort(short v) { }
			static void takeInt(int v) { }
			static void takeLong(long v) { }
			static void takeFloat(float v) { }
			static void takeDouble(double v) { }
			static void takeString(String v) { }
			static void ten(Object a, String b, short c, char d, boolean e, byte f, float g, double h, long i, int j) { }
			public String toString() { return "just a Conform"; }
			static void calls() {
				takeBoolean(true); takeByte((byte) -10); takeChar('a'); takeShort((short) 14);
				takeInt(42); takeLong(254775806L); takeFloat(2.5f); takeDouble(3.14159265359);
				takeString("hello, world");
				ten(new Conform(), "hello", (short) 14, 'a', true, (byte) 10, 2.71828f, 3.14159265359, 254775806L, 42);
				ten(null, "hello", (short) 14, 'a', true, (byte) 10, 2.71828f, 3.14159265359, 254775806L, 42);
			}
			public static void main(String[] args) throws Exception {
				if (args[0].equals("once")) {
					calls();
					for (int i = 0; i < 500; i++) burst(i); return; // one line: the backtraces' numbers stay
				}
				java.io.File stop = new java.io.File(args[1]);
				for (int i = 0; i < 24000 && !stop.exists(); i++) {	// bounded: 20 min
					ten(new Conform(), "hello", (short) 14, 'a', true, (byte) 10, 2.71828f, 3.14159265359, 254775806L, 42);
					takeInt(7);
					if (i == 0)
						System.out.println("running");
					Thread.sleep(50);
				}
			}
			static void burst(int v) { }
		}
	EOF
	cat >"$D/Other.java" <<-'EOF'
		public class Other {
			public static void main(String[] args) { Conform.takeInt(99); Conform.takeString("not me"); }
		}
	EOF
	javac -d "$D" "$D/Conform.java" "$D/Other.java"
}

# run_with_command NAME COMMAND: $D/NAME.stp through stap-java in the guest
# with -c COMMAND, the JVM it starts (after the script) held until the
# bridge has registered; sets status, leaves NAME.out, NAME.err and
# NAME.agent.log.
run_with_command() {
	local name=$1 tcmd
	export STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' STAPJAVA_WAIT_MS=600000
	export STAPJAVA_AGENT_OPTS=sockdir=/run/sjd,loglevel=info,logfile=$D/$name.agent.log
	tcmd=$("$B/translator-patches/stap-java" --target-command "$2" "$D/$name.stp")
	status=0
	timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		-c "$tcmd" "$D/$name.stp" >"$D/$name.out" 2>"$D/$name.err" </dev/null || status=$?
}

teardown_file() {
	[ -n "${D:-}" ] && rm -rf "$D"
}


@test "java(\"PNAME\"): each primitive type and String, on entry and on .return, ten mixed parameters and print_java_backtrace(), in the JVM named Conform alone, started after the script, through stap" {
	# every case of java.exp's multiparams and returnstatement, one script
	{
		for t in boolean byte char short int long float double String; do
			m="take${t^}($t)"
			echo "probe java(\"Conform\").class(\"Conform\").method(\"$m\") { printf(\"%s %s\\n\", pn(), arg1) }"
			echo "probe java(\"Conform\").class(\"Conform\").method(\"$m\").return { printf(\"%s %s %d\\n\", pn(), arg1, \$arg1) }"
		done
		cat <<-'EOF'
			probe java("Conform").class("Conform").method("ten(Object, String, short, char, boolean, byte, float, double, long, int)")
			{
				printf("%s %s %s %s %s %s %s %s %s %s %s\n", pn(), arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9, arg10)
				print_java_backtrace()
			}
			global bursts
			probe java("Conform").class("Conform").method("burst(int)") { bursts++ }
			probe end { printf("burst %d\n", bursts) }
		EOF
	} >"$D/pname.stp"
	# through `stap` provided by stap-java (make install-as-stap's link), SystemTap's after it in PATH
	mkdir -p "$D/bin"
	ln -sf "$B/translator-patches/stap-java" "$D/bin/stap"
	export PATH=$D/bin:$PATH
	local tcmd
	export STAPJAVA_BRIDGE_OPTS='--sockdir /run/sjd' STAPJAVA_WAIT_MS=600000
	export STAPJAVA_AGENT_OPTS=sockdir=/run/sjd,loglevel=info,logfile=$D/pname.agent.log
	# Other runs first, without the agent: the bridge leaves it alone (not Conform).
	# Conform ends right after its last calls (500 of burst()), and the
	# session with it: the agent holds the VM's end until the bridge has fired
	# every event (PROTOCOL.md, CAP_END_ACK; before, the last ones could be
	# lost, unsaid: 1 run in 4 lost even the two ten() before the burst)
	tcmd=$(stap --target-command \
		"cd $D && env -u JAVA_TOOL_OPTIONS $JAVA -cp $D Other && $JAVA -cp $D Conform once >$D/pname.java.out 2>$D/pname.java.err" \
		"$D/pname.stp")
	status=0
	timeout 1300 "$VM" --timeout 1200 --stap "$D/bin/stap" \
		-c "$tcmd" "$D/pname.stp" >"$D/pname.out" 2>"$D/pname.err" </dev/null || status=$?
	[ "$status" -eq 0 ] || { show pname; false; }
	local p='java("Conform").class("Conform").method'
	diff -u - <(sed -E 's/Conform@[0-9a-f]+#[0-9]+/Conform@H#ID/' "$D/pname.out") <<-EOF || { show pname; false; }
		$p("takeBoolean(boolean)") true
		$p("takeBoolean(boolean)").return true 1
		$p("takeByte(byte)") -10
		$p("takeByte(byte)").return -10 -10
		$p("takeChar(char)") a
		$p("takeChar(char)").return a 97
		$p("takeShort(short)") 14
		$p("takeShort(short)").return 14 14
		$p("takeInt(int)") 42
		$p("takeInt(int)").return 42 42
		$p("takeLong(long)") 254775806
		$p("takeLong(long)").return 254775806 254775806
		$p("takeFloat(float)") 2.5
		$p("takeFloat(float)").return 2.5 2
		$p("takeDouble(double)") 3.1415926535900001
		$p("takeDouble(double)").return 3.1415926535900001 3
		$p("takeString(String)") hello, world
		$p("takeString(String)").return hello, world 0
		$p("ten(Object, String, short, char, boolean, byte, float, double, long, int)") Conform@H#ID hello 14 a true 10 2.71828008 3.1415926535900001 254775806 42
		java.lang.Throwable
		$(printf '\t')at Conform.ten(Conform.java:11)
		$(printf '\t')at Conform.calls(Conform.java:17)
		$(printf '\t')at Conform.main(Conform.java:22)
		$p("ten(Object, String, short, char, boolean, byte, float, double, long, int)") null hello 14 a true 10 2.71828008 3.1415926535900001 254775806 42
		java.lang.Throwable
		$(printf '\t')at Conform.ten(Conform.java:11)
		$(printf '\t')at Conform.calls(Conform.java:18)
		$(printf '\t')at Conform.main(Conform.java:22)
		burst 500
	EOF
	[ -z "$(clean_err "$D/pname.err")" ] || { show pname; false; }
}

@test "java(PID) of a JVM started without the agent (it is loaded, as with -x), --compatible=3.0's \$argN, and SystemTap's own multiparams script form" {
	# The JVM gets pid 5000 (start_with_pid) and runs before the script, without
	# the agent; the bridge loads it. The script ends itself once it has seen
	# one ten() and one return of takeInt(7); the JVM then stops on its file.
	cat >"$D/pid.stp" <<-'EOF'
		global done
		probe java(5000).class("Conform").method("ten(Object, String, short, char, boolean, byte, float, double, long, int)")
		{
		  if (!done)
		    printf("%s %s %s %d %d %d %d %d %d %d %d\n", pn(), user_string_quoted($arg1), user_string_quoted($arg2), $arg3, $arg4, $arg5, $arg6, $arg7, $arg8, $arg9, $arg10)
		}
		probe java(5000).class("Conform").method("takeInt(int)").return
		{
		  if (!done++) { printf("%s %d ret\n", pn(), $arg1); exit() }
		}
	EOF
	local before after
	before="cd $D || exit 1; $(start_with_pid 5000 "$JAVA -cp $D Conform loop $D/pid.stop >$D/pid.java.out 2>$D/pid.java.err" "$D/pid.pid")"
	before+="; i=0; until grep -q running $D/pid.java.out; do i=\$((i+1)); [ \$i -lt 3000 ] || exit 1; sleep 0.2; done"
	after="touch $D/pid.stop; p=\$(cat $D/pid.pid); i=0; while kill -0 \$p 2>/dev/null && [ \$i -lt 3000 ]; do i=\$((i+1)); sleep 0.2; done"
	status=0
	STAPJAVA_BRIDGE_OPTS="--sockdir /run/sjd --agent-options loglevel=info,logfile=$D/pid.agent.log" \
		timeout 1300 "$VM" --timeout 1200 --stap "$B/translator-patches/stap-java" \
		--stap-opt --compatible=3.0 --before "$before" --after "$after" \
		"$D/pid.stp" >"$D/pid.out" 2>"$D/pid.err" </dev/null || status=$?
	[ "$status" -eq 0 ] || { show pid; false; }
	[ "$(cat "$D/pid.pid")" = 5000 ] || { echo "the JVM got pid $(cat "$D/pid.pid"), not 5000" >&2; false; }
	diff -u - <(sed -E 's/Conform@[0-9a-f]+#[0-9]+/Conform@H#ID/' "$D/pid.out") <<-'EOF' || { show pid; false; }
		java(5000).class("Conform").method("ten(Object, String, short, char, boolean, byte, float, double, long, int)") "Conform@H#ID" "hello" 14 97 1 10 2 3 254775806 42
		java(5000).class("Conform").method("takeInt(int)").return 7 ret
	EOF
	[ -z "$(clean_err "$D/pid.err")" ] || { show pid; false; }
}

@test "java(\"PNAME\").class().method(\"m(...):LINE\"): a line's first instruction, once each time it runs, with its backtrace, in a JVM started after the script" {
	# Conform.java's line 16 is calls()'s takeString("hello, world"), 18 its
	# second ten(); 13 declares calls(): no code, said as Conform loads
	cat >"$D/line.stp" <<-'EOF'
		probe java("Conform").class("Conform").method("calls():16") { printf("%s [%s]\n", pn(), arg1); print_java_backtrace() }
		probe java("Conform").class("Conform").method("calls:18") { println(pp()) }
		probe java("Conform").class("Conform").method("calls:13") { println(pp()) }
	EOF
	run_with_command line "cd $D && $JAVA -cp $D Conform once >$D/line.java.out 2>$D/line.java.err"
	[ "$status" -eq 0 ] || { show line; false; }
	diff -u - "$D/line.out" <<-EOF || { show line; false; }
		java("Conform").class("Conform").method("calls():16") []
		java.lang.Throwable
		$(printf '\t')at Conform.calls(Conform.java:16)
		$(printf '\t')at Conform.main(Conform.java:22)
		java("Conform").class("Conform").method("calls:18")
	EOF
	diff -u - <(clean_err "$D/line.err" | sed -E 's/^stpd-bridge\[[0-9]+\]: warn: pid [0-9]+:/stpd-bridge[N]: warn: pid P:/') <<-'EOF' || { show line; false; }
		stpd-bridge[N]: warn: pid P: java.method pattern '*Conform.calls(*)*:13': line 13 of Conform.calls()V has no code; the nearest lines with code: 14
		WARNING: java("Conform").class("Conform").method("calls:13") never fired: no event of any JVM matched it
	EOF
}

@test "java(\"PNAME\").class(\"^CLASS\"): the class and every subclass that overrides the method, one loaded later; ^java.lang.Object over several classes" {
	# Square and Blob do not override toString() (Blob not area() either):
	# their calls are Shape's. Tri (a Square) is loaded by name after the
	# others. The ^java.lang.Object point also fires for the JDK's own
	# toString()s; the script keeps Shapes' classes.
	cat >"$D/Shapes.java" <<-'EOF'
		class Shape { double area() { return 0; } public String toString() { return "shape"; } }
		class Circle extends Shape { double area() { return 3; } public String toString() { return "circle"; } }
		class Square extends Shape { double area() { return 4; } }
		class Blob extends Shape { }
		class Tri extends Square { double area() { return 2; } public String toString() { return "tri"; } }
		public class Shapes {
			public static void main(String[] args) throws Exception {
				for (Shape s : new Shape[] { new Shape(), new Circle(), new Square(), new Blob() }) {
					s.area();
					s.toString();
				}
				Shape t = (Shape) Class.forName("Tri").getDeclaredConstructor().newInstance();
				t.area();
				t.toString();
			}
		}
	EOF
	javac -d "$D" "$D/Shapes.java"
	cat >"$D/roots.stp" <<-'EOF'
		probe java("Shapes").class("^Shape").method("area()") { printf("%s %s\n", pn(), java_name) }
		probe java("Shapes").class("^java.lang.Object").method("toString()").return
		{
		  if (java_name =~ "^(Shape|Circle|Square|Blob|Tri)\\.") printf("%s %s %s\n", pn(), java_name, java_return)
		}
	EOF
	run_with_command roots "cd $D && $JAVA -cp $D Shapes >$D/roots.java.out 2>$D/roots.java.err"
	[ "$status" -eq 0 ] || { show roots; false; }
	local a='java("Shapes").class("^Shape").method("area()")'
	local t='java("Shapes").class("^java.lang.Object").method("toString()").return'
	diff -u - "$D/roots.out" <<-EOF || { show roots; false; }
		$a Shape.area()D
		$t Shape.toString()Ljava/lang/String; "shape"
		$a Circle.area()D
		$t Circle.toString()Ljava/lang/String; "circle"
		$a Square.area()D
		$t Shape.toString()Ljava/lang/String; "shape"
		$a Shape.area()D
		$t Shape.toString()Ljava/lang/String; "shape"
		$a Tri.area()D
		$t Tri.toString()Ljava/lang/String; "tri"
	EOF
	# java.lang.Object is never rewritten: its own toString() is not probed on return
	diff -u - <(clean_err "$D/roots.err" | sed -E 's/^stpd-bridge\[[0-9]+\]: warn: pid [0-9]+:/stpd-bridge[N]: warn: pid P:/') <<-'EOF' || { show roots; false; }
		stpd-bridge[N]: warn: pid P: method.return of java.lang.Object.toString()Ljava/lang/String; cannot be reported (no injected call: the VM's root class is left alone, and MethodExit would make every method of the JVM interpreted (agent option methods=jvmti has it at that cost))
	EOF
}
