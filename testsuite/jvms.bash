# jvms.bash: where the Bats files that run JVMs find the build (the agent, the
# bridge, the test classes) and the two JDKs every such test runs on
# (`load jvms` in their setup_file).
export SRC=${STAPJAVA_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
export BUILD=${STAPJAVA_BUILDDIR:-$SRC}
export AGENT=$BUILD/agent/libstapjava.so
export BRIDGE=$BUILD/stpd-bridge/stpd-bridge
export CLASSES=$BUILD/testsuite/java/classes
export JDK17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
export JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
