# testsuite/vm: the kernel-runtime test tier (included from the top Makefile.am)

check_PROGRAMS += testsuite/vm/sdt_writer
testsuite_vm_sdt_writer_SOURCES = testsuite/vm/sdt_writer.c

EXTRA_DIST += \
	testsuite/vm/README.md \
	testsuite/vm/stap-vm \
	testsuite/vm/kernel_runtime.bats \
	testsuite/vm/kernel_runtime.stp \
	testsuite/vm/java_vm.bash \
	testsuite/vm/tour_mask.bash \
	testsuite/vm/guest_pid.bash \
	testsuite/vm/dispatch.bats \
	testsuite/vm/systemtap_java.bats
