/* wire.h: the stapjava wire protocol between the JVMTI agent and stpd-bridge.
 *
 * Contract: PROTOCOL.md is the specification; this header mirrors it. The
 * seed's Appendix A (events, agent -> bridge), B (commands, bridge -> agent)
 * and C (strings, optional data) byte for byte, plus negotiated extensions
 * with codes outside the appendix ranges. Decoders are incremental and
 * bounded: they parse one message from the front of a buffer and say either
 * "decoded, N bytes used", "need more bytes" (-EAGAIN) or "malformed"
 * (-EBADMSG, with the field and offset). Decoded strings point into the
 * caller's buffer and live as long as those bytes do. Encoders append to a
 * caller-owned fixed buffer and never allocate. Nothing here logs or exits.
 *
 * Layout summary (every integer in the sender's byte order; see PROTOCOL.md):
 *   string  = u32 length, then length bytes (no terminator)
 *   value   = u8 type, then the type's payload (WIRE_T_*)
 *   thread  = u64 (sizeof(jthread)), carrying the OS thread id
 *   object  = u64 (sizeof(jobject)), a stable per-object id
 *   trailer = only after a Hello exchange that negotiated WIRE_CAP_TRAILER:
 *             u64 seq, u64 timestamp_ns, u32 os_tid, u8 flags,
 *             [flags & WIRE_TF_STACK: u16 depth, depth x (string method, i32 line
 *              [, string source file with WIRE_CAP_FRAME_SOURCE])]
 *             [flags & WIRE_TF_MONITOR: string monitor class signature,
 *              u32 owner os_tid, string owner thread name]
 */
#ifndef STAPJAVA_WIRE_H
#define STAPJAVA_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ limits */
#define WIRE_MAX_STRING        65535u    /* bytes in one string */
#define WIRE_MAX_VALUES        255u      /* optional records per event (u8 count) */
#define WIRE_MAX_STACK_DEPTH   256u      /* frames in one stack trace */
#define WIRE_MAX_MESSAGE       (1u << 20) /* bytes in one whole message */
#define WIRE_HELLO_MIN_STRING  16u       /* bridge Hello: magic..caps, before the description */

#define WIRE_PROTOCOL_VERSION  1u
#define WIRE_MAGIC             "STPJ"    /* 4 bytes, in both Hellos */

/* ------------------------------------------------- Appendix A: events (agent -> bridge) */
enum wire_event_code {
	WIRE_EV_METHOD_ENTER      = 0x80, /* string method, thread, u8 n, n x value */
	WIRE_EV_METHOD_EXIT       = 0x81, /* string method, thread, bool popped, value retval */
	WIRE_EV_METHOD_COMPILE    = 0x82, /* string method, u32 code_size, u8 n, n x value */
	WIRE_EV_CLASS_LOAD        = 0x83, /* string class, u32 thread (the seed's 4 bytes) */
	WIRE_EV_CLASS_PREPARE     = 0x84, /* string class, thread */
	WIRE_EV_EXCEPTION_THROWN  = 0x85, /* string exception, thread, string method */
	WIRE_EV_EXCEPTION_CATCH   = 0x86, /* string exception, thread, string method */
	WIRE_EV_THREAD_START      = 0x87, /* thread */
	WIRE_EV_THREAD_END        = 0x88, /* thread */
	WIRE_EV_MONITOR_ENTER     = 0x89, /* thread, object (contended enter) */
	WIRE_EV_MONITOR_ENTERED   = 0x8A, /* thread, object (contended entered) */
	WIRE_EV_MONITOR_WAIT      = 0x8B, /* thread, object, u32 timeout_ms */
	WIRE_EV_MONITOR_WAITED    = 0x8C, /* thread, object, u32 timeout_ms */
	/* extensions (ours), sent only after the Hello exchange */
	WIRE_EV_HELLO             = 0x90, /* "STPJ", u8 order, u16 version, u32 pid, u32 caps, string description; never a trailer */
	WIRE_EV_GC_START          = 0x91, /* (nothing) */
	WIRE_EV_GC_FINISH         = 0x92, /* (nothing) */
	WIRE_EV_VM_INIT           = 0x93, /* thread */
	WIRE_EV_VM_DEATH          = 0x94, /* (nothing) */
	WIRE_EV_CLASS_UNLOAD      = 0x95, /* string class */
	WIRE_EV_THREAD_NAME       = 0x96, /* thread, string name */
	WIRE_EV_LOST              = 0x97, /* u64 total events dropped on this connection so far */
	/* string text: what the agent cannot do for this connection;
	 * with CAP_NOTICE_SUBJECT then u8 scope, u8 kind, u8 events, string
	 * subject: which events it says cannot be reported (wire_notice_scope) */
	WIRE_EV_NOTICE            = 0x98,
	WIRE_EV_MATCH             = 0x99, /* u8 kind, string name: one loaded match of a ListMatches */
	WIRE_EV_MATCH_END         = 0x9A, /* u8 kind, u32 total: a ListMatches answered */
	WIRE_EV_JFR_DATA          = 0x9B, /* u8 flags (WIRE_JFR_*), string bytes: the JVM's JFR chunk data */
	/* string class, string root: the class descends from a root method pattern's class */
	WIRE_EV_DESCENDS          = 0x9C,
	/* CAP_METHOD_IDS: a method's number on this connection, given once,
	 * then plain method events by number */
	WIRE_EV_METHOD_NAME       = 0x9D, /* u32 id, string method name */
	WIRE_EV_METHOD_ENTER_ID   = 0x9E, /* u32 id, thread */
	WIRE_EV_METHOD_EXIT_ID    = 0x9F, /* u32 id, thread, u8 value type ('?' or 'V') */
	/* CAP_METHOD_ID_VALUES: method events with values by number, the
	 * fields of MethodEnter / MethodExit after the name */
	WIRE_EV_METHOD_ENTER_ID_VALUES = 0xA0, /* u32 id, thread, u8 k, k values */
	WIRE_EV_METHOD_EXIT_ID_VALUE   = 0xA1, /* u32 id, thread, bool popped, value */
};
#define WIRE_EV_LAST_EXTENSION WIRE_EV_METHOD_EXIT_ID_VALUE

/* ------------------------------------------------ Appendix B: commands (bridge -> agent) */
enum wire_command_code {
	WIRE_CMD_REGISTER_METHOD    = 0x40, /* string pattern (all method event types) */
	WIRE_CMD_REGISTER_CLASS     = 0x41, /* string pattern (all class event types) */
	WIRE_CMD_REGISTER_EXCEPTION = 0x42, /* string pattern (all exception event types) */
	WIRE_CMD_GC_EVENTS          = 0x43, /* bool enable */
	WIRE_CMD_THREAD_EVENTS      = 0x44, /* bool enable */
	WIRE_CMD_MONITOR_EVENTS     = 0x45, /* bool enable */
	WIRE_CMD_OPTIONAL_DATA      = 0x46, /* u32 mask (WIRE_OPT_*) */
	/* extensions (ours), sent only after the Hello exchange */
	WIRE_CMD_REGISTER           = 0x50, /* u8 kind, u8 events, string pattern */
	WIRE_CMD_UNREGISTER         = 0x51, /* u8 kind, string pattern */
	WIRE_CMD_RESET              = 0x52, /* (nothing): drop every registration and switch */
	WIRE_CMD_VM_EVENTS          = 0x53, /* bool enable */
	WIRE_CMD_DISPATCH_MODE      = 0x54, /* u8 mode (WIRE_DISPATCH_*), u32 timeout_us */
	WIRE_CMD_ACK                = 0x55, /* u64 seq */
	WIRE_CMD_START              = 0x56, /* (nothing): this connection's registrations are complete */
	WIRE_CMD_FIRE_IN_THREAD     = 0x57, /* u32 session: the agent fires this connection's markers itself */
	WIRE_CMD_REGISTER_SLOT      = 0x58, /* u8 kind, u8 events, u16 slot, string pattern */
	WIRE_CMD_LIST_MATCHES       = 0x59, /* u8 kind, string pattern: the loaded methods/classes it selects */
	WIRE_CMD_JFR_SETTINGS       = 0x5A, /* string: the JFR event types wanted, one "PATTERN[#k=v[;k=v]]" a line */
	WIRE_CMD_JFR_EVENT          = 0x5B, /* one parsed JFR event for the agent to fire (struct wire_jfr_event) */
	/* Not a wire code: the bridge's Hello travels as REGISTER_METHOD (0x40)
	 * whose string starts with "\0STPJ", so that an Appendix-only agent takes
	 * it for a pattern that matches no method. Decoders report it with this
	 * code. */
	WIRE_CMD_HELLO              = 0x140,
};

/* ------------------------------------------- Appendix C: optional data (value) types */
enum wire_value_type {
	WIRE_T_BOOLEAN = 'Z', /* u8 0 or 1 */
	WIRE_T_BYTE    = 'B', /* i8 */
	WIRE_T_CHAR    = 'C', /* u16 (UTF-16 code unit) */
	WIRE_T_SHORT   = 'S', /* i16 */
	WIRE_T_INT     = 'I', /* i32 */
	WIRE_T_LONG    = 'J', /* i64 */
	WIRE_T_FLOAT   = 'F', /* u32, IEEE 754 bits */
	WIRE_T_DOUBLE  = 'D', /* u64, IEEE 754 bits */
	WIRE_T_VOID    = 'V', /* nothing: return value of a void method */
	WIRE_T_NULL    = 'N', /* nothing: a null reference */
	WIRE_T_NONE    = '?', /* nothing: not captured (not requested, or unavailable) */
	WIRE_T_STRING  = 'T', /* string utf8 contents, bool truncated */
	WIRE_T_OBJECT  = 'L', /* string class signature, u64 object id, u32 identity hash */
	WIRE_T_ARRAY   = '[', /* string class signature ("[I"), u64 object id, u32 length */
};

/* ------------------------------------------------------------ bits and enums */
enum wire_capability {                 /* Hello caps; negotiated = both sides' AND */
	WIRE_CAP_TRAILER    = 1u << 0, /* seq, timestamp, OS tid after every event */
	WIRE_CAP_EXT_EVENTS = 1u << 1, /* 0x91..0x97 */
	WIRE_CAP_EXT_CMDS   = 1u << 2, /* 0x50..0x53, 0x56 */
	WIRE_CAP_SYNC       = 1u << 3, /* 0x54, 0x55, WIRE_TF_SYNC */
	WIRE_CAP_STACK      = 1u << 4, /* WIRE_TF_STACK, WIRE_OPT_STACK */
	WIRE_CAP_NOTICE     = 1u << 5, /* 0x98 */
	WIRE_CAP_IN_THREAD  = 1u << 6, /* 0x57, 0x58: markers fired in the Java thread */
	/* the bridge's Appendix B commands before its first extension command
	 * are for an Appendix-only agent, and an agent with the bit ignores them
	 * (wire_early_window_ignores); negotiated only with WIRE_CAP_EXT_CMDS */
	WIRE_CAP_EARLY_APPENDIX = 1u << 7,
	WIRE_CAP_MONITOR_DETAIL = 1u << 8, /* WIRE_TF_MONITOR, WIRE_OPT_MONITOR */
	WIRE_CAP_FRAME_SOURCE   = 1u << 9, /* each stack frame carries its source file */
	WIRE_CAP_LIST           = 1u << 10, /* 0x59 ListMatches, 0x99 Match, 0x9A MatchEnd */
	WIRE_CAP_JFR            = 1u << 11, /* 0x5A JfrSettings, 0x9B JfrData */
	/* method patterns ending ":LINE" select that line (pattern.h) */
	WIRE_CAP_LINES          = 1u << 12,
	/* 0x5B JfrEvent: in-thread, the agent's own thread fires the jfr marker */
	WIRE_CAP_JFR_FIRE       = 1u << 13,
	/* ThreadName ends with the thread's Java id (Thread.getId()) */
	WIRE_CAP_JAVA_THREAD_ID = 1u << 14,
	/* root method patterns "^C.m" (pattern.h), 0x9C Descends */
	WIRE_CAP_ROOTS          = 1u << 15,
	/* JfrData flag WIRE_JFR_NONE: a JfrSettings got no recording */
	WIRE_CAP_JFR_NONE       = 1u << 16,
	/* the bridge sends Ack(VmDeath's seq) once it has handled every event
	 * before it, and Acks of what it handled during a long batch; the agent
	 * holds the VM's end until then (bounded) */
	WIRE_CAP_END_ACK        = 1u << 17,
	/* 0x9D MethodName, 0x9E MethodEnterId, 0x9F MethodExitId */
	WIRE_CAP_METHOD_IDS     = 1u << 18,
	/* 0xA0 MethodEnterIdValues, 0xA1 MethodExitIdValue; only with
	 * CAP_METHOD_IDS (they need its MethodName) */
	WIRE_CAP_METHOD_ID_VALUES = 1u << 19,
	/* a Notice says which events it is about (enum wire_notice_scope) */
	WIRE_CAP_NOTICE_SUBJECT = 1u << 20,
};
#define WIRE_CAP_ALL 0x1FFFFFu
/* The VM's end is acknowledged (CAP_END_ACK): an Ack names VmDeath's
 * sequence number, so numbered events are needed too. */
static inline bool wire_caps_end_ack(uint32_t caps)
{
	return (caps & WIRE_CAP_END_ACK) && (caps & WIRE_CAP_TRAILER);
}
#define WIRE_CMD_LAST_EXTENSION WIRE_CMD_JFR_EVENT

/* JfrData flags. CHUNK_BEGIN: the bytes are the first of a new chunk (its
 * header). NONE (CAP_JFR_NONE), alone and without bytes: the connection's
 * last JfrSettings got no recording (none of its types is the JVM's, JFR is
 * unavailable or refused it; a Notice said which), so no JfrData follows. */
#define WIRE_JFR_CHUNK_BEGIN 0x01u
#define WIRE_JFR_NONE        0x02u
#define WIRE_JFR_FLAGS_ALL   0x03u

/* Slot markers slot0 .. slot255 (doc/markers.md), in the bridge and the agent. */
#define WIRE_MAX_SLOTS 256u

enum wire_optional_bits {              /* OPTIONAL_DATA mask; other bits are ignored */
	WIRE_OPT_ARGUMENTS    = 1u << 0,
	WIRE_OPT_RETURN_VALUE = 1u << 1,
	WIRE_OPT_STACK        = 1u << 2, /* needs WIRE_CAP_STACK */
	WIRE_OPT_MONITOR      = 1u << 3, /* needs WIRE_CAP_MONITOR_DETAIL */
};

/* The agent's I/O thread's name (its /proc/PID/task/TID/comm) from VMInit
 * on, when it makes its socket: a bridge tells by it that an agent runs
 * and has started. */
#define WIRE_AGENT_IO_THREAD "stapjava-agent"

enum wire_kind { WIRE_KIND_METHOD = 1, WIRE_KIND_CLASS = 2, WIRE_KIND_EXCEPTION = 3 };
/* "method", "class", "exception": a kind as logs and messages say it
 * ("?" for a byte that is none). */
static inline const char *wire_kind_name(unsigned kind)
{
	return kind == WIRE_KIND_METHOD ? "method" : kind == WIRE_KIND_CLASS ? "class" :
	       kind == WIRE_KIND_EXCEPTION ? "exception" : "?";
}

enum wire_event_bits {                 /* REGISTER events mask, per kind */
	WIRE_METHOD_ENTER = 1u << 0, WIRE_METHOD_RETURN = 1u << 1, WIRE_METHOD_COMPILE = 1u << 2,
	WIRE_CLASS_LOAD = 1u << 0, WIRE_CLASS_PREPARE = 1u << 1, WIRE_CLASS_UNLOAD = 1u << 2,
	WIRE_EXCEPTION_THROWN = 1u << 0, WIRE_EXCEPTION_CATCH = 1u << 1,
};

/* What a Notice (with CAP_NOTICE_SUBJECT) says cannot be reported: its
 * kind's events of the bits it names, for what its subject names. */
enum wire_notice_scope {
	WIRE_NOTICE_GENERAL = 0, /* nothing a pattern selects: kind 0, events 0, no subject */
	WIRE_NOTICE_METHOD  = 1, /* the method the subject names ("p.C.m(I)V"), kind method */
	WIRE_NOTICE_CLASS   = 2, /* every method of the class the subject names ("p.C"), kind method */
	WIRE_NOTICE_KIND    = 3, /* every pattern of the kind, no subject */
};
#define WIRE_NOTICE_LAST_SCOPE WIRE_NOTICE_KIND

enum wire_dispatch { WIRE_DISPATCH_ASYNC = 0, WIRE_DISPATCH_SYNC = 1 };

enum wire_trailer_flags {
	WIRE_TF_SYNC      = 1u << 0, /* the Java thread waits for ACK(seq) */
	WIRE_TF_STACK     = 1u << 1, /* a stack trace follows the flags */
	WIRE_TF_TIMED_OUT = 1u << 2, /* MONITOR_WAITED: the wait timed out */
	WIRE_TF_MONITOR   = 1u << 3, /* monitor events: the monitor's class and owner follow */
};
#define WIRE_TF_ALL 0x0Fu

enum wire_byte_order { WIRE_ORDER_LITTLE = 'l', WIRE_ORDER_BIG = 'B' };

/* ------------------------------------------------------------ decoded forms */
struct wire_str {
	const char *ptr;      /* into the decoded buffer; not NUL-terminated */
	uint32_t len;
};

struct wire_value {
	uint8_t type;         /* enum wire_value_type */
	bool truncated;       /* WIRE_T_STRING */
	union {
		int64_t i;    /* Z B C S I J (C zero-extended, others sign-extended) */
		float f;      /* F */
		double d;     /* D */
	} v;
	struct wire_str str;  /* T: contents; L and [: class signature */
	uint64_t object_id;   /* L, [ */
	uint32_t aux;         /* L: identity hash; [: length */
};

struct wire_frame {
	struct wire_str method;
	int32_t line;         /* -1: unknown; -2: native */
	struct wire_str source; /* with WIRE_CAP_FRAME_SOURCE: "Shop.java"; "" unknown */
};

struct wire_trailer {
	uint64_t seq;
	uint64_t timestamp_ns; /* CLOCK_MONOTONIC */
	uint32_t os_tid;
	uint8_t flags;         /* enum wire_trailer_flags */
	uint16_t depth;
	struct wire_frame frames[WIRE_MAX_STACK_DEPTH];
	/* WIRE_TF_MONITOR: the monitor's class signature ("Ljava/lang/Object;"),
	 * and on MONITOR_ENTER the thread that owns it (0 and "": none, or the
	 * tid not known to the agent) */
	struct wire_str monitor_class;
	uint32_t owner_tid;
	struct wire_str owner_name;
};

struct wire_hello {
	uint8_t order;         /* enum wire_byte_order */
	uint16_t version;
	uint32_t pid;
	uint32_t caps;
	struct wire_str description;
};

struct wire_event {
	unsigned code;           /* enum wire_event_code */
	struct wire_str name;    /* method, class or exception name; THREAD_NAME: the name */
	/* EXCEPTION_*: the throwing / catching method; DESCENDS: the root;
	 * NOTICE: its subject */
	struct wire_str method;
	uint64_t thread;         /* thread id (CLASS_LOAD's u32 widened) */
	uint64_t object;         /* MONITOR_*: object id */
	uint32_t u32;            /* METHOD_COMPILE: code size; MONITOR_WAIT(ED): timeout_ms */
	bool popped;             /* METHOD_EXIT: popped by exception */
	uint8_t kind;            /* MATCH, MATCH_END, NOTICE: enum wire_kind (NOTICE: 0 for none) */
	uint8_t notice_scope;    /* NOTICE: enum wire_notice_scope */
	uint8_t events;          /* NOTICE: the kind's events it is about (enum wire_event_bits) */
	uint8_t jfr_flags;       /* JFR_DATA: WIRE_JFR_*; its bytes are in name */
	uint64_t lost;           /* LOST */
	uint64_t java_tid;       /* THREAD_NAME with WIRE_CAP_JAVA_THREAD_ID: Thread.getId(), 0 unknown */
	uint32_t method_id;      /* METHOD_NAME, METHOD_ENTER_ID, METHOD_EXIT_ID */
	bool by_id;              /* METHOD_ENTER/EXIT made from *_ID (methodids.h): method_id is its */
	struct wire_hello hello; /* HELLO */
	uint8_t nvalues;         /* METHOD_ENTER / COMPILE */
	struct wire_value values[WIRE_MAX_VALUES];
	struct wire_value retval;  /* METHOD_EXIT */
	bool has_trailer;
	struct wire_trailer trailer;
};

/* JfrEvent: one JFR event a session's --jfr-slot points select, as the
 * bridge parsed it. fields holds nfields x "PATH\0VALUE\0", stack depth x
 * "FRAME\0" (innermost first): the decoder checks the NULs' count, so a
 * receiver splits them without further checks. */
struct wire_jfr_event {
	uint64_t slots;          /* bit N: --jfr-slot N selects it */
	uint64_t tid;            /* eventThread's OS thread id, as the host sees it; 0: none */
	int64_t start_ns;        /* since the epoch, JFR's clock */
	int64_t duration_ns;
	struct wire_str type;    /* "jdk.GarbageCollection" */
	struct wire_str thread_name;
	uint16_t nfields;
	struct wire_str fields;
	uint16_t depth;
	struct wire_str stack;
};

struct wire_command {
	unsigned code;           /* enum wire_command_code */
	uint8_t kind;            /* REGISTER, REGISTER_SLOT, UNREGISTER: enum wire_kind */
	uint8_t events;          /* REGISTER, REGISTER_SLOT: enum wire_event_bits */
	struct wire_str pattern; /* REGISTER_*, REGISTER, REGISTER_SLOT, UNREGISTER; JFR_SETTINGS: the text */
	bool enable;             /* *_EVENTS */
	uint32_t mask;           /* OPTIONAL_DATA */
	uint16_t slot;           /* REGISTER_SLOT: < WIRE_MAX_SLOTS */
	uint32_t session;        /* FIRE_IN_THREAD */
	uint8_t mode;            /* DISPATCH_MODE */
	uint32_t timeout_us;     /* DISPATCH_MODE */
	uint64_t seq;            /* ACK */
	struct wire_hello hello; /* HELLO */
	struct wire_jfr_event jfr; /* JFR_EVENT */
};

/* What one side knows of its peer's stream. Starts as wire_peer_init()
 * (host byte order, no extensions: an Appendix-only peer); a Hello from the
 * peer updates it through wire_peer_accept_hello(). */
struct wire_peer {
	bool swap;      /* peer's byte order differs from ours */
	bool hello;     /* a Hello was received */
	uint32_t caps;  /* negotiated: our caps AND the peer's */
};

struct wire_error {
	const char *field;  /* e.g. "method name length" */
	size_t offset;      /* byte offset of that field within the message */
	char text[160];     /* complete sentence: message, field, offset, what was wrong */
};

/* ------------------------------------------------------------ API */
void wire_peer_init(struct wire_peer *peer);
/* Negotiate from the peer's Hello: caps = ours & theirs (without
 * WIRE_CAP_EARLY_APPENDIX unless WIRE_CAP_EXT_CMDS is in them: no extension
 * command could end its window), byte order from hello->order.
 * Returns 0, or -EPROTO for an unknown order / version 0. */
int wire_peer_accept_hello(struct wire_peer *peer, const struct wire_hello *hello, uint32_t our_caps);

/* The early-Appendix window of a connection (PROTOCOL.md, Handshake): a
 * bridge whose Hello has WIRE_CAP_EARLY_APPENDIX sends right after it the
 * Appendix B commands an Appendix-only agent needs. An agent that
 * negotiated the bit ignores every Appendix B command (0x40..0x46) received
 * before the bridge's first extension command (0x50..0x58). Zeroed when the
 * connection starts; the receiver passes every command after the Hello, in
 * order, to wire_early_window_ignores(), which says whether it is one of
 * those (and counts it). */
struct wire_early_window {
	bool closed;        /* an extension command arrived */
	uint32_t ignored;   /* Appendix B commands ignored so far */
};
bool wire_early_window_ignores(struct wire_early_window *w, const struct wire_peer *peer, unsigned code);

/* Decode one message from buf[0..len). Returns 0 and sets *used, -EAGAIN when
 * buf holds a valid but incomplete prefix, -EBADMSG when it can never become a
 * valid message (err says why and where). Codes that need a negotiated
 * capability the peer lacks are malformed. The decoders are stateless: a Hello
 * decodes wherever it stands, and refusing a second or late one is the
 * caller's job (PROTOCOL.md, "Rules for peers"). */
int wire_decode_event(const struct wire_peer *peer, const uint8_t *buf, size_t len,
		      struct wire_event *ev, size_t *used, struct wire_error *err);
/* The same without its fast reading of the commonest event (a method event
 * by number, no trailer flags): for the tests that hold the two equal. */
int wire_decode_event_general(const struct wire_peer *peer, const uint8_t *buf, size_t len,
			      struct wire_event *ev, size_t *used, struct wire_error *err);
int wire_decode_command(const struct wire_peer *peer, const uint8_t *buf, size_t len,
			struct wire_command *cmd, size_t *used, struct wire_error *err);

/* Encoding appends to a fixed buffer in our byte order. */
struct wire_buf {
	uint8_t *data;
	size_t cap;
	size_t len;
};
/* Append one message. Returns 0, -ENOSPC (buffer unchanged) or -EINVAL (the
 * struct breaks a limit or names an unknown code/type). The event trailer is
 * written when peer->caps has WIRE_CAP_TRAILER and ev->has_trailer. */
int wire_encode_event(struct wire_buf *b, const struct wire_peer *peer, const struct wire_event *ev);
/* The same, and *TRAILER_AT: the offset in the message of its trailer (its
 * u64 seq, then its u64 timestamp_ns), 0 when it has none; a queue that
 * numbers messages later patches them there. */
int wire_encode_event_at(struct wire_buf *b, const struct wire_peer *peer, const struct wire_event *ev,
			 size_t *trailer_at);
int wire_encode_command(struct wire_buf *b, const struct wire_command *cmd);
/* Our Hello, filled for this process (host order, version, getpid()). */
void wire_hello_init(struct wire_hello *hello, uint32_t caps, const char *description);

/* Names for logs and --print output: "MethodEnter", "RegisterMethod", ... or NULL. */
const char *wire_event_name(unsigned code);
const char *wire_command_name(unsigned code);
bool wire_event_is_extension(unsigned code);
bool wire_command_is_extension(unsigned code);

/* A bounded receive buffer for a stream (socket): fill from an fd, decode
 * from the front, consume. Capacity is at least WIRE_MAX_MESSAGE so every
 * valid message fits; a peer that sends more without completing one is
 * malformed (the decoder says so before the buffer is full). */
struct wire_reader {
	uint8_t *buf;
	size_t cap, start, end;
};
int wire_reader_init(struct wire_reader *r, size_t cap);
void wire_reader_free(struct wire_reader *r);
/* read() once into free space: bytes read, 0 at EOF, or -errno (-EAGAIN included). */
long wire_reader_fill(struct wire_reader *r, int fd);
/* Append bytes that arrived some other way; -ENOSPC when they do not fit. */
int wire_reader_push(struct wire_reader *r, const void *data, size_t len);
static inline const uint8_t *wire_reader_data(const struct wire_reader *r, size_t *len)
{
	*len = r->end - r->start;
	return r->buf + r->start;
}
/* Strings decoded from wire_reader_data() point into the buffer: they are
 * valid until the next consume, fill or push, which may move the bytes. */
void wire_reader_consume(struct wire_reader *r, size_t n);

#endif
