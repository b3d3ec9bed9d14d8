# runtime/: the code the agent and the bridge share (wire protocol, names and
# patterns, logging). A libtool convenience library, so it links into both
# the agent's shared object (PIC) and the bridge's executable.
noinst_LTLIBRARIES += runtime/libsjruntime.la
runtime_libsjruntime_la_SOURCES = \
	runtime/log.c runtime/log.h \
	runtime/utf8.c runtime/utf8.h \
	runtime/mutf8.c runtime/mutf8.h \
	runtime/fdio.c runtime/fdio.h \
	runtime/jvmsock.c runtime/jvmsock.h \
	runtime/monoclock.h \
	runtime/wire.h runtime/wire_bytes.h runtime/wire_codes.c \
	runtime/events.c runtime/events.h \
	runtime/wire_encode.c runtime/wire_decode.c runtime/wire_reader.c \
	runtime/pattern.c runtime/pattern.h \
	runtime/patindex.c runtime/patindex.h \
	runtime/signature.c runtime/signature.h \
	runtime/errtext.c runtime/errtext.h \
	runtime/outbuf.c runtime/outbuf.h \
	runtime/print.c runtime/print.h \
	runtime/similar.c runtime/similar.h \
	runtime/jfrspec.c runtime/jfrspec.h \
	runtime/methodids.c runtime/methodids.h

# The SDT marker sites (doc/markers.md) and their arguments, apart: only the
# bridge and the agent carry them, each as the binary that scripts probe.
noinst_LTLIBRARIES += runtime/libsjmarkers.la
runtime_libsjmarkers_la_SOURCES = runtime/markers.c runtime/markers.h
