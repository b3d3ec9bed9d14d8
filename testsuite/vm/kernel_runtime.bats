#!/usr/bin/env bats
# The real SystemTap kernel runtime runs: a module with a kernel probe
# (syscall.write) and user-space SDT probes (process().mark) is built for
# the guest kernel, loaded with staprun, and its output comes back in order.
# On this project's machines the host kernel cannot load modules, so this
# boots a qemu guest (see README.md); nothing here is skipped.
#
# STAPJAVA_SRCDIR / STAPJAVA_BUILDDIR: source and build trees (default: the
# repository top, for an in-tree build run by hand).

bats_require_minimum_version 1.5.0

setup_file() {
    local top
    top=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
    export STAPJAVA_SRCDIR=${STAPJAVA_SRCDIR:-$top}
    export STAPJAVA_BUILDDIR=${STAPJAVA_BUILDDIR:-$top}
    export STAP_VM=$STAPJAVA_SRCDIR/testsuite/vm/stap-vm
    export SCRIPT=$STAPJAVA_SRCDIR/testsuite/vm/kernel_runtime.stp
    export WRITER=$STAPJAVA_BUILDDIR/testsuite/vm/sdt_writer
    if [ ! -x "$WRITER" ]; then
        echo "test program $WRITER is not built (run 'make check' or build testsuite/vm/sdt_writer)" >&2
        return 1
    fi
}

@test "syscall.write and SDT marker probes print in the exact order of the events" {
    run --separate-stderr "$STAP_VM" --timeout 240 -c "$WRITER -o /dev/null" "$SCRIPT" "$WRITER"
    if [ "$status" -ne 0 ]; then printf '%s\n' "$stderr" >&2; fi
    [ "$status" -eq 0 ]
    expected=$'mark 1\nwrite 7\nmark 2\nwrite 7\nmark 3\nwrite 7\ndone 3'
    if [ "$output" != "$expected" ]; then
        printf 'expected:\n%s\ngot:\n%s\nstderr:\n%s\n' "$expected" "$output" "$stderr" >&2
        return 1
    fi
}

@test "the COUNT argument of the -c command reaches the guest: 5 ticks, 5 writes" {
    run --separate-stderr "$STAP_VM" --timeout 240 -c "$WRITER -o /dev/null 5" "$SCRIPT" "$WRITER"
    [ "$status" -eq 0 ]
    expected=$'mark 1\nwrite 7\nmark 2\nwrite 7\nmark 3\nwrite 7\nmark 4\nwrite 7\nmark 5\nwrite 7\ndone 5'
    if [ "$output" != "$expected" ]; then
        printf 'expected:\n%s\ngot:\n%s\nstderr:\n%s\n' "$expected" "$output" "$stderr" >&2
        return 1
    fi
}

@test "a run-time script error gives stap's message and staprun's non-zero status" {
    run --separate-stderr "$STAP_VM" --timeout 240 --set mode=1 "$SCRIPT" "$WRITER"
    [ "$status" -eq 1 ]
    [ "$output" = "" ]
    [[ $stderr == *"ERROR: stapjava test error"* ]]
    [[ $stderr == *"stap-vm: staprun exited with status 1"* ]]
}

@test "a script that does not compile is reported as a module build failure" {
    run --separate-stderr "$STAP_VM" --timeout 60 -e 'probe begin { x = }'
    [ "$status" -eq 125 ]
    [ "$output" = "" ]
    [[ $stderr == *"parse error"* ]]
    [[ $stderr == *"stap-vm: module build failed"* ]]
}

@test "a script that never ends is stopped at --timeout, with its end probe run" {
    start=$SECONDS
    run --separate-stderr "$STAP_VM" --timeout 20 --set mode=2 "$SCRIPT" "$WRITER"
    elapsed=$((SECONDS - start))
    [ "$status" -eq 124 ]
    [ "$output" = "end" ]
    [[ $stderr == *"stap-vm: TIMEOUT: staprun was still running"* ]]
    # the module is cached by the earlier tests; allow for a rebuild anyway
    [ "$elapsed" -le 200 ]
}

@test "qemu itself is killed at the hard bound when the guest cannot finish in time" {
    start=$SECONDS
    run --separate-stderr "$STAP_VM" --timeout 2 --set mode=2 "$SCRIPT" "$WRITER"
    elapsed=$((SECONDS - start))
    [ "$status" -eq 124 ]
    [[ $stderr == *"stap-vm: TIMEOUT: killed qemu after 2 s"* ]]
    [[ $stderr == *"guest console"* ]]
    [ "$elapsed" -le 180 ]
}

@test "bad usage is refused with a message naming the problem" {
    run --separate-stderr "$STAP_VM" --timeout soon "$SCRIPT"
    [ "$status" -eq 125 ]
    [[ $stderr == *"--timeout wants a positive number of seconds, not 'soon'"* ]]
    run --separate-stderr "$STAP_VM" "$BATS_TEST_TMPDIR/no-such-script.stp"
    [ "$status" -eq 125 ]
    [[ $stderr == *"script not found"* ]]
}

@test "stap-runtime-fix gives a patched private runtime when the headers need it, and reuses it" {
    fix=$STAPJAVA_SRCDIR/translator-patches/stap-runtime-fix
    krel=$(find /lib/modules -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -rV | while read -r r; do
        if [ -f "/lib/modules/$r/build/include/linux/task_work.h" ] || [ -f "/lib/modules/$r/source/include/linux/task_work.h" ]; then echo "$r"; break; fi
    done)
    [ -n "$krel" ]
    installed=/usr/share/systemtap/runtime/stp_task_work.c
    cache=$BATS_TEST_TMPDIR/cache
    run --separate-stderr "$fix" -r "$krel" --cache-dir "$cache"
    [ "$status" -eq 0 ]
    if grep -Eqs '\btask_work_cancel_func[[:space:]]*\(' "/lib/modules/$krel/build/include/linux/task_work.h" "/lib/modules/$krel/source/include/linux/task_work.h" \
        && ! grep -q task_work_cancel_func "$installed"; then
        dir=$(echo "$output" | sed -n 2p)
        [ "$output" = "$(printf -- '-R\n%s\n-DSTAPCONF_TASK_WORK_CANCEL_FUNC' "$dir")" ]
        [[ $dir == "$cache"/runtime-* ]]
        grep -q '"task_work_cancel_func"' "$dir/stp_task_work.c"
        stamp=$(stat -c %Y.%i "$dir/.stapjava-fingerprint")
        run --separate-stderr "$fix" -r "$krel" --cache-dir "$cache"
        [ "$status" -eq 0 ]
        [ "$(echo "$output" | sed -n 2p)" = "$dir" ]
        [ "$(stat -c %Y.%i "$dir/.stapjava-fingerprint")" = "$stamp" ]
    else
        [ "$output" = "" ]
    fi
    run --separate-stderr "$fix" -r no-such-release --cache-dir "$cache"
    [ "$status" -eq 1 ]
    [ "$output" = "" ]
    [[ $stderr == *"no kernel headers for no-such-release"* ]]
}
