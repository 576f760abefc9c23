/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ntrace: RISC-V N-Trace 1.0 codec (message layer, encoder, decoder).
 *
 * Freestanding C: no allocation, no libc beyond string.h.  Every piece of
 * state lives in a caller-provided struct (one encoder per hart), so several
 * encoders/decoders can run in one process.  XLEN 32 and 64.
 *
 * Layers:
 *  1. Message layer: struct ntrace_msg holds one message as TCODE + named
 *     fields.  ntrace_msg_write() turns it into MDO/MSEO bytes (chapter 3,
 *     8-bit form), ntrace_msg_parse() reads it back.  Both walk the same
 *     layout table (Table 8, ntrace_msg_layout()), so they cannot disagree.
 *  2. Encoder: Trace Ingress Port records (one per retired instruction,
 *     chapter 2) in, message bytes out through a byte sink.
 *  3. Decoder: message bytes + program image in, retired instruction
 *     addresses and events out (chapter 11).
 *
 * Section/table numbers refer to ntrace-spec-1.0.0-rc7.txt.
 *
 * Error convention: functions return 0 or a positive count on success and a
 * negative enum ntrace_err value (-NTRACE_ERR_*) on failure.
 */
#ifndef NTRACE_H
#define NTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ntrace_spec.h"
#include "lib/rvinsn/rvinsn.h"

/* ------------------------------------------------------------------------ */
/* Errors                                                                     */
/* ------------------------------------------------------------------------ */

enum ntrace_err {
	NTRACE_OK = 0,
	NTRACE_ERR_ARG,             /* invalid argument or configuration      */
	NTRACE_ERR_SPACE,           /* output buffer too small                */
	NTRACE_ERR_SINK,            /* byte sink reported failure             */
	/* framing and message layout (chapter 3, Table 8, Table 10) */
	NTRACE_ERR_MSEO_RESERVED,   /* MSEO = 10 seen                         */
	NTRACE_ERR_BAD_START,       /* first byte of a message has MSEO != 00 */
	NTRACE_ERR_TRUNCATED,       /* input ends inside a message            */
	NTRACE_ERR_FIELD_MISSING,   /* message ends before a required field   */
	NTRACE_ERR_FIELD_SPLIT,     /* field end (MSEO) inside a fixed field  */
	NTRACE_ERR_FIELD_TOO_LONG,  /* variable field longer than Table 10    */
	NTRACE_ERR_EXTRA_FIELDS,    /* more fields than layout + TSTAMP       */
	NTRACE_ERR_RESERVED_TCODE,  /* TCODE not defined by N-Trace 1.0       */
	NTRACE_ERR_VENDOR_TCODE,    /* vendor-defined TCODE (56..62): skipped */
	NTRACE_ERR_BAD_VALUE,       /* reserved value in a field              */
	/* decoding (chapter 11) */
	NTRACE_ERR_BAD_ICNT,        /* I-CNT ends inside an instruction (8.4.1) */
	NTRACE_ERR_NO_CODE,         /* address not in the program image       */
	NTRACE_ERR_ILLEGAL_INSN,    /* invalid encoding in the walked code    */
	NTRACE_ERR_UNINFERABLE,     /* indirect jump inside an I-CNT block    */
	NTRACE_ERR_NOT_BRANCH,      /* DirectBranch block not ending on a branch */
	NTRACE_ERR_HIST_EMPTY,      /* branch in HTM with no HIST bit left    */
	NTRACE_ERR_HIST_LEFT,       /* HIST bits left at end of a block       */
	NTRACE_ERR_HIST_QUEUE,      /* too many pending ResourceFull HIST     */
	NTRACE_ERR_NO_TARGET,       /* no address available for a jump       */
	NTRACE_ERR_REPEAT,          /* RepeatBranch without a branch before   */
	NTRACE_ERR_WALK_LIMIT,      /* walk exceeded the configured bound     */
	NTRACE_ERR_NO_SYNC,         /* the stream has no sync message at all  */
	NTRACE_ERR_COUNT
};

/* Short English text for an error code (positive or negative value). */
const char *ntrace_strerror(int err);

/* ------------------------------------------------------------------------ */
/* Message layer                                                              */
/* ------------------------------------------------------------------------ */

/* Field identifiers (names as in Table 8 with '-' removed, like the spec's
 * reference code: B-TYPE -> BTYPE). */
enum ntrace_field {
	NTRACE_FLD_TCODE = 0,
	NTRACE_FLD_SRC,
	NTRACE_FLD_SYNC,
	NTRACE_FLD_BTYPE,
	NTRACE_FLD_ICNT,
	NTRACE_FLD_FADDR,
	NTRACE_FLD_UADDR,
	NTRACE_FLD_HIST,
	NTRACE_FLD_PROCESS,
	NTRACE_FLD_ETYPE,
	NTRACE_FLD_ECODE,
	NTRACE_FLD_RCODE,
	NTRACE_FLD_RDATA,   /* RDATA[0]                                   */
	NTRACE_FLD_HREPEAT, /* RDATA[1], only with RCODE = 2              */
	NTRACE_FLD_BCNT,
	NTRACE_FLD_EVCODE,
	NTRACE_FLD_CDF,
	NTRACE_FLD_TSTAMP,
	NTRACE_FLD_COUNT
};

/* Field kinds of Table 8. */
enum ntrace_field_kind {
	NTRACE_KIND_FIXED, /* [n]: fixed number of bits, packed            */
	NTRACE_KIND_VAR,   /* [Var]: ends on a byte boundary (MSEO 01/11)  */
	NTRACE_KIND_ADDR,  /* x-ADDR: variable, with optional MSB extension (8.2) */
};

/* When a field is present (fields marked Opt/Cfg in chapter 7). */
enum ntrace_field_cond {
	NTRACE_COND_ALWAYS,
	NTRACE_COND_RCODE_2, /* HREPEAT: only when RCODE = 2 (Table 19)      */
	NTRACE_COND_CDF_1,   /* HIST of ProgTraceCorrelation: CDF = 1 (Table 23) */
};

struct ntrace_field_desc {
	uint8_t id;      /* enum ntrace_field                              */
	uint8_t kind;    /* enum ntrace_field_kind                         */
	uint8_t bits;    /* FIXED: width; VAR/ADDR: Table 10 maximum value bits */
	uint8_t cond;    /* enum ntrace_field_cond                         */
};

#define NTRACE_LAYOUT_MAX_FIELDS 6

/*
 * Layout of one message type: the payload fields in transmission order.
 * TCODE (6 bits) is always first, SRC (format.src_bits, when non-zero)
 * always second, and the optional TSTAMP is always last; those three are
 * implicit and not listed in `fields`.
 */
struct ntrace_msg_layout {
	uint8_t tcode;
	uint8_t nfields;
	const char *name; /* Table 8 message name, e.g. "IndirectBranchHist" */
	struct ntrace_field_desc fields[NTRACE_LAYOUT_MAX_FIELDS];
};

/* Layout for `tcode`, or NULL when the TCODE is reserved or vendor-defined. */
const struct ntrace_msg_layout *ntrace_msg_layout(unsigned tcode);

/* Field name as printed by dump tools ("TCODE", "ICNT", "UADDR", ...). */
const char *ntrace_field_name(unsigned field);

/* Message type name for a TCODE ("Reserved"/"VendorDefined" if not in Table 8). */
const char *ntrace_tcode_name(unsigned tcode);

/* Stream format parameters shared by writer, parser, encoder and decoder. */
struct ntrace_format {
	uint8_t xlen;            /* 32 or 64                                  */
	uint8_t src_bits;        /* SRC field width 0..12 (0 = no SRC field)  */
	bool extend_addr_msb;    /* trTeInstExtendAddrMSB (8.2)               */
};

/*
 * One message.  val[] holds field values; for F-ADDR/U-ADDR it is the field
 * value (address bits 63..1, i.e. address >> 1), after MSB extension when
 * parsing.  `present` has bit (1u << NTRACE_FLD_x) set for each field in the
 * message (TCODE always).  The writer emits exactly the layout's fields
 * (conditional ones according to RCODE/CDF), SRC when format.src_bits != 0,
 * and TSTAMP when its `present` bit is set.
 */
struct ntrace_msg {
	uint64_t val[NTRACE_FLD_COUNT];
	uint8_t bits[NTRACE_FLD_COUNT]; /* parser: MDO bits the field occupied */
	uint32_t present;
	size_t offset; /* parser: byte offset of the first byte in the input */
	size_t length; /* parser: number of bytes of the message             */
};

static inline bool ntrace_msg_has(const struct ntrace_msg *m, unsigned field)
{
	return (m->present >> field) & 1u;
}

/* Start a message: clears `m` and sets TCODE. */
void ntrace_msg_init(struct ntrace_msg *m, unsigned tcode);

/* Set a field value and mark it present. */
static inline void ntrace_msg_set(struct ntrace_msg *m, unsigned field, uint64_t v)
{
	m->val[field] = v;
	m->present |= 1u << field;
}

/* Largest message ntrace_msg_write() can produce (any 64-bit field values,
 * 12-bit SRC, TSTAMP); messages within Table 10 limits fit in
 * NTRACE_MAX_MSG_BYTES. */
#define NTRACE_MSG_WRITE_MAX 56

/*
 * Write `m` as MDO/MSEO bytes into out[0..cap).  Returns the number of
 * bytes (at most NTRACE_MSG_WRITE_MAX), or -NTRACE_ERR_SPACE /
 * -NTRACE_ERR_ARG (unknown TCODE, missing field, value wider than a fixed
 * field, bad format).  Variable fields use the fewest bytes (F-ADDR/U-ADDR
 * with 8.2 MSB extension when fmt->extend_addr_msb).  No idle bytes.
 */
int ntrace_msg_write(const struct ntrace_format *fmt, const struct ntrace_msg *m,
		     uint8_t *out, size_t cap);

/* Error details of the parser and decoder. */
struct ntrace_error {
	int code;       /* enum ntrace_err (positive)                       */
	size_t offset;  /* byte offset in the input where it was detected   */
	size_t msg_offset; /* offset of the first byte of the message       */
};

/*
 * Parse the next message from buf[*pos .. len).  Idle bytes (0xFF) before
 * the message are skipped.
 *  - returns 1: *m holds the message (m->offset/length give its bytes),
 *    *pos is just after it;
 *  - returns 0: only idle bytes (or nothing) left, *pos = len;
 *  - returns -NTRACE_ERR_*: malformed input; *err says where; *pos is moved
 *    past the bad bytes to the next possible message start (the byte after
 *    the next MSEO=11 byte), so calling again resynchronises.  For
 *    NTRACE_ERR_RESERVED_TCODE/NTRACE_ERR_VENDOR_TCODE the framing was
 *    valid: m->offset/length/TCODE are filled, other fields are not.
 * Never reads outside buf[0..len).
 */
int ntrace_msg_parse(const struct ntrace_format *fmt, const uint8_t *buf, size_t len,
		     size_t *pos, struct ntrace_msg *m, struct ntrace_error *err);

/* Variable-field helpers (also used by tests and dump tools). */
/* Number of MDO bytes a VAR field of value v needs when it starts at MDO bit
 * `start_bit` (0..5) of a byte. */
unsigned ntrace_var_bytes(uint64_t v, unsigned start_bit);

/* Address <-> field conversions of 8.1/8.2.  Field = address >> 1. */
static inline uint64_t ntrace_addr_to_field(uint64_t addr) { return addr >> 1; }
static inline uint64_t ntrace_field_to_addr(uint64_t field, unsigned xlen)
{
	return rv_xlen_mask(field << 1, xlen);
}

/* ------------------------------------------------------------------------ */
/* Encoder                                                                    */
/* ------------------------------------------------------------------------ */

/*
 * Trace Ingress Port record (chapter 2), one per instruction, simplified to
 * one instruction per record (iretire = 0 or 1).
 *
 *  addr   address of the instruction.
 *  size   bytes retired: 2 or 4 (larger multiples of 2 allowed), or 0 when
 *         the instruction did NOT retire (exception in it, or it was
 *         interrupted before retiring: itype 1/2 with size 0).  ecall/ebreak
 *         retire (Table 2 "ecall is reported after retirement"): size != 0.
 *  itype  enum rv_itype, 3-bit (0..7) or 4-bit (0..15) form; see
 *         rv_insn_itype().  1/2 mean a trap is taken after this record (after
 *         the instruction retired when size != 0, instead of it when 0).
 *         When the instruction that retired before the trap (size != 0) is
 *         itself a branch or jump, its own itype may be given in
 *         `retired_itype` (its HIST bit is then sent; 0 = not given, the
 *         decoder tolerates the missing bit).  Equivalently, report it as a
 *         record with its own itype followed by a size-0 trap record at its
 *         target.  Every trap empties the implicit-return stack on both
 *         sides (README: "Traps and the call stack").
 *         The next record's address is the trap handler / jump target /
 *         return address: the encoder defers every address-carrying message
 *         to the next record (Table 3: "An address emitted is known at the
 *         next ingress port cycle").
 *  priv   privilege: PRV[1:0] in bits 1..0, V in bit 2 (Table 12 encoding).
 *  flags  NTRACE_REC_SEQ_INFERABLE: the hart identified this indirect jump
 *         as sequentially inferable (9.1); see rv_insn_seq_inferable().
 *  context  scontext value (Ownership PROCESS CONTEXT).
 *  tstamp   timestamp of the retirement (used only when trTsEnable).
 */
#define NTRACE_REC_SEQ_INFERABLE (1u << 0)

struct ntrace_retired {
	uint64_t addr;
	uint64_t tstamp;
	uint64_t context;
	uint8_t size;
	uint8_t itype;
	uint8_t priv;
	uint8_t flags;
	uint8_t retired_itype; /* itype 1/2, size != 0: the instruction's own (opt.) */
};

/*
 * Byte sink: receives the encoded stream in chunks (write may be NULL: bytes
 * are then only counted in the statistics).  Returns 0 on success,
 * non-zero when the bytes could not be taken (the encoder then counts the
 * bytes as lost and reports a queue overrun: Error + SYNC=7, 7.4).
 */
struct ntrace_sink {
	int (*write)(void *ctx, const uint8_t *data, size_t len);
	void *ctx;
};

/*
 * Encoder configuration.  Fields named tr* mirror the Trace Control Interface
 * registers (trTeControl, trTeInstFeatures, trTsControl) so firmware can copy
 * register values; the others are implementation parameters.
 */
struct ntrace_enc_config {
	/* trTeControl */
	uint8_t trTeInstMode;            /* 3 = BTM, 6 = HTM                  */
	bool trTeContext;                /* Ownership messages (7.1)          */
	bool trTeInhibitSrc;             /* suppress SRC field                */
	uint8_t trTeInstSyncMode;        /* 0 off, 1 messages, 2 cycles (timestamp ticks), 3 half-words */
	uint8_t trTeInstSyncMax;         /* sync every 2^(trTeInstSyncMax+4) units */
	/* trTeInstFeatures */
	bool trTeInstEnSequentialJump;   /* 9.1                               */
	bool trTeInstEnImplicitReturn;   /* 9.2 (needs 4-bit itype records)   */
	uint8_t trTeInstImplicitReturnMode; /* 1 count, 2 partial, 3 full address */
	/*
	 * 9.3 in HTM (ResourceFull RCODE=2 with HREPEAT); in BTM this bit
	 * enables RepeatBranch messages (7.11) instead.
	 */
	bool trTeInstEnRepeatedHistory;
	/*
	 * Inferable jumps are reported as taken branches: 3-bit ports send 5
	 * (or 7) for them, 4-bit ports send 9/15 which the encoder then treats
	 * as taken too (HIST bit 1 in HTM, DirectBranch in BTM).
	 */
	bool trTeInstEnAllJumps;
	bool trTeInstExtendAddrMSB;      /* 8.2                               */
	uint16_t trTeSrcID;              /* SRC value                         */
	uint8_t trTeSrcBits;             /* SRC width 0..12                   */
	/* trTsControl */
	bool trTsEnable;                 /* TSTAMP field (8.7)                */

	/* implementation parameters */
	uint8_t xlen;                    /* 32 or 64                          */
	uint8_t icnt_bits;   /* I-CNT counter width incl. overflow MSB, 2..22 (0 = 22) */
	uint8_t hist_bits;   /* HIST register width incl. stop bit, 2..32 (0 = 32) */
	uint8_t call_stack_depth;        /* 1..32 (0 = 32) for implicit return */
	uint8_t return_partial_bits;     /* mode 2: compared LSBs (0 = 16)    */
	bool btype_trap_as_1;            /* report traps as B-TYPE 1 instead of 2/3 */
	/*
	 * HTM: report I-CNT overflow with a SYNC=4 message when HIST is not
	 * empty (8.4.4; always used then); when false ResourceFull RCODE=0 is
	 * used with the HIST bits first flushed by ResourceFull RCODE=1.
	 */
	bool icnt_overflow_sync;
};

/* Encoder statistics (for `ntrace stats` and benchmarks). */
struct ntrace_enc_stats {
	uint64_t records;
	uint64_t halfwords;     /* I-CNT units retired                        */
	uint64_t messages;
	uint64_t bytes;
	uint64_t lost_bytes;    /* bytes the sink refused                     */
	uint32_t per_tcode[64];
};

#define NTRACE_ENC_BUF_SIZE 1024

/* What the next record's address completes (struct ntrace_encoder.run.pending). */
enum ntrace_enc_pending {
	NTRACE_PEND_NONE = 0,
	NTRACE_PEND_START,        /* ProgTraceSync after start/restart         */
	NTRACE_PEND_DIRECT,       /* BTM taken branch: DirectBranch            */
	NTRACE_PEND_INDIRECT,     /* indirect jump / trap / trap return        */
	NTRACE_PEND_RETURN_CHECK, /* 9.2 modes 2/3: compare the return address */
	NTRACE_PEND_ICNT_SYNC,    /* 8.4.4: I-CNT overflow reported with SYNC=4 */
};

/* Private encoder state: treat as opaque, allocate one per hart. */
struct ntrace_encoder {
	struct ntrace_enc_config cfg;
	struct ntrace_format fmt;
	struct ntrace_sink sink;
	/* The state of the current run, which the inline counting
	 * (ntrace_enc_block_inline()) and the firmware's fast visit
	 * (firmware/trace/step_fast.S, through generated offsets) read and
	 * write as the encoder does: they add a run to I-CNT and HIST when
	 * nothing is due (slow 0, icnt below icnt_check, hist below
	 * hist_limit), and resolve a pending IndirectBranch whose message
	 * is plain (ntrace_enc_inline_end()).  Apart from it they only
	 * count stats.records; everything else is the encoder's alone. */
	struct ntrace_enc_run {
		uint32_t icnt;          /* accumulated I-CNT                  */
		uint32_t icnt_check;    /* slow path when icnt >= icnt_check  */
		uint32_t hist;          /* HIST register with stop bit        */
		uint32_t hist_limit;    /* stop bit position of the next HIST
					   check: hist_full, or the held
					   record's length                    */
		uint32_t slow;          /* non-zero: every record takes the
					   slow path                          */
		uint8_t pending;        /* message waiting for the next
					   address                            */
		uint8_t pending_btype;
		uint8_t cur_priv;
		uint64_t cur_context;
		uint64_t pending_tstamp;
	} run;
	uint32_t hist_full;     /* stop bit position value meaning "full"     */
	uint32_t plain_jump_mask; /* itypes handled inline as IndirectBranch  */
	uint8_t active;         /* tracing (between start and stop)           */
	uint8_t pending_sync;   /* SYNC for the next sync message, 0xFF none  */
	uint8_t pending_return; /* deferred implicit-return compare (9.2)    */
	uint8_t htm;
	uint8_t sync_due;       /* periodic sync (or marker) requested        */
	uint8_t sync_reason;    /* SYNC value of that message                 */
	uint8_t overflowed;     /* queue overrun: Error then SYNC=7           */
	uint8_t need_ownership; /* Ownership with context after next message  */
	uint8_t plain_msgs;     /* messages have no SRC, TSTAMP or extended
				   address, no periodic sync counts them
				   (ntrace_enc_resolve_jump())              */
	uint8_t prev_in_block;  /* previous record counted in current I-CNT   */
	uint64_t pending_return_addr;
	uint64_t block_start;   /* address of first instruction of the block  */
	uint64_t ref_addr;      /* last transmitted address (8.1)             */
	uint64_t last_tstamp;   /* last reported timestamp                    */
	uint64_t sync_count;    /* units since last sync (trTeInstSyncMode)   */
	uint64_t sync_limit;
	uint64_t sync_tstamp;   /* timestamp of the last sync (mode 2)      */
	/* repeated branch (BTM) / repeated history (HTM) */
	uint32_t repeat_count;
	uint8_t repeat_tcode;
	uint32_t repeat_icnt;
	uint64_t repeat_start;
	uint64_t repeat_target;
	uint32_t held_hist;     /* HIST waiting for repeat detection          */
	uint32_t held_count;
	uint8_t held_cut;       /* bits a held record left to HIST (9.3)      */
	uint64_t held_tstamp;
	/* implicit return stack (circular, oldest dropped when full) */
	uint64_t stack[NTRACE_MAX_CALL_STACK];
	uint8_t stack_top;
	uint8_t stack_count;
	uint64_t msgv[NTRACE_FLD_COUNT]; /* field values of the message being built */
	/* output buffer */
	uint32_t buf_len;
	struct ntrace_enc_stats stats;
	uint8_t buf[NTRACE_ENC_BUF_SIZE];
};

/* Initialise; returns 0 or -NTRACE_ERR_ARG for an invalid configuration. */
int ntrace_enc_init(struct ntrace_encoder *e, const struct ntrace_enc_config *cfg,
		    const struct ntrace_sink *sink);

/*
 * Trace starts (or restarts).  The next record produces ProgTraceSync with
 * SYNC = `sync` (e.g. NTRACE_SYNC_DEBUG_EXIT, NTRACE_SYNC_TRACE_ENABLE,
 * NTRACE_SYNC_RESET), I-CNT = 0 and F-ADDR = that record's address, then
 * Ownership (when trTeContext).  Records given while not started are
 * ignored.
 */
void ntrace_enc_start(struct ntrace_encoder *e, unsigned sync);

/*
 * Feed n retired-instruction records.  The common case (itype 0, nothing
 * pending) costs a handful of instructions per record.
 */
void ntrace_enc_retire(struct ntrace_encoder *e, const struct ntrace_retired *rec, size_t n);

/*
 * Block-level entry (the firmware's software encoder steps a hart from one
 * control transfer to the next and knows a whole run of instructions at
 * once).  A block is `count` sequential instructions that retired in order
 * at addr, addr + size0, ... with itype 0 (no special type), all with the
 * same priv, context and tstamp; bit i of rvc_mask set means the i-th one is
 * 16 bits wide, clear means 32 bits.  count <= NTRACE_BLOCK_MAX.
 *
 * ntrace_enc_block(e, b, end) produces exactly the bytes (and statistics)
 * of ntrace_enc_retire() on the count records followed by *end (when end is
 * not NULL: the record that ends the block, e.g. the transfer, or a trap
 * record), at a cost independent of count when nothing is pending and no
 * counter limit (I-CNT overflow, half-word periodic sync) falls inside the
 * block.
 */
#define NTRACE_BLOCK_MAX 64

struct ntrace_block {
	uint64_t addr;
	uint64_t rvc_mask;
	uint64_t tstamp;
	uint64_t context;
	uint8_t count;
	uint8_t priv;
};

/* I-CNT units (half-words) of a block's instructions. */
static inline uint32_t ntrace_block_halfwords(const struct ntrace_block *b)
{
	uint64_t used = b->count >= 64 ? ~0ull : (1ull << b->count) - 1;

	return 2u * b->count - (uint32_t)__builtin_popcountll(b->rvc_mask & used);
}

void ntrace_enc_block(struct ntrace_encoder *e, const struct ntrace_block *b,
		      const struct ntrace_retired *end);

/*
 * ntrace_enc_block() for a run of `count` (0..NTRACE_BLOCK_MAX) sequential
 * records starting at `addr`, of `halfwords` I-CNT units in privilege
 * `priv` and `context` (an empty run: the end's address, privilege and
 * context), ended by `end`, when that call would only emit the
 * branch message waiting for the run's address, add the run to I-CNT and
 * HIST and leave the end's message waiting (no threshold reached, no sync
 * due): then it does exactly that and returns true; otherwise it changes
 * nothing and returns false.  For callers that know a run by its bounds
 * (the firmware's stepper).
 */
bool ntrace_enc_block_inline(struct ntrace_encoder *e, uint64_t addr, uint32_t halfwords,
			     unsigned count, uint8_t priv, uint64_t context,
			     const struct ntrace_retired *end);

/*
 * What ntrace_enc_block_inline() does with an end record of this itype
 * (no flags, the encoder's privilege and context) when it takes it, for a
 * caller that counts its blocks itself (the firmware's fast visit,
 * firmware/trace/step_fast.S).  In every case I-CNT takes the run's and
 * the end's half-words, and only while it stays below icnt_check; then:
 *  HIST     HIST takes bit itype & 1 (8.3) while (hist & hist_limit) == 0;
 *  COUNT    nothing more;
 *  INFER    cur_priv and cur_context take the record's;
 *  PENDING  an IndirectBranch waits for the next record: pending =
 *           NTRACE_PEND_INDIRECT, pending_btype = NTRACE_BTYPE_INDIRECT,
 *           pending_tstamp = the record's, slow = 1;
 *  DIRECT   a DirectBranch waits for the next record (a taken branch in
 *           BTM): cur_priv and cur_context take the record's, pending =
 *           NTRACE_PEND_DIRECT, pending_btype = 0, pending_tstamp = the
 *           record's, slow = 1;
 *  NO       not taken that way (ntrace_enc_block_inline() or
 *           ntrace_enc_block() take it).
 * And stats.records takes the run's records and the end.  The answer
 * depends on the configuration only: ask once per session.  With
 * trTeContext it holds only while the run and the end are in the
 * encoder's privilege and context (run.cur_priv, run.cur_context: no
 * Ownership is due, 7.1), which the caller must know.
 */
enum ntrace_inline_end {
	NTRACE_INLINE_NO,
	NTRACE_INLINE_HIST,
	NTRACE_INLINE_COUNT,
	NTRACE_INLINE_INFER,
	NTRACE_INLINE_PENDING,
	NTRACE_INLINE_DIRECT,
};

enum ntrace_inline_end ntrace_enc_inline_end(const struct ntrace_encoder *e, unsigned itype);

/*
 * For the same callers: the IndirectBranch[Hist] waiting for the next
 * record (after an uninferable jump, NTRACE_INLINE_PENDING), or the
 * DirectBranch (after a taken branch in BTM, NTRACE_INLINE_DIRECT), goes
 * out, the next record being at addr in privilege priv and context, as
 * ntrace_enc_block_inline() would send it, when nothing else is due with
 * it and emitting it can neither make a sync due nor reach the sink: then
 * the encoder counts again (slow = 0).  False, with nothing changed,
 * otherwise (ntrace_enc_block() takes the record then).
 */
bool ntrace_enc_resolve_jump(struct ntrace_encoder *e, uint64_t addr, uint8_t priv,
			     uint64_t context);

/*
 * Trace stops: emits what is pending (the message waiting for an address
 * uses `next_addr`, the address of the next instruction that would execute)
 * and ProgTraceCorrelation with EVCODE = `evcode` (NTRACE_EVCODE_*), I-CNT and
 * (HTM) HIST.  If trace was not active (Table 26 "Trace starts disabled" /
 * "Hart stops with trace disabled") the message has I-CNT = 0.
 */
void ntrace_enc_stop(struct ntrace_encoder *e, unsigned evcode, uint64_t next_addr,
		     uint64_t tstamp);

/*
 * Request a synchronisation message with SYNC = `sync` at the next record
 * (Table 25: e.g. NTRACE_SYNC_EXT_TRIGGER, NTRACE_SYNC_TRACE_EVENT as
 * markers that keep the encoder state, or NTRACE_SYNC_RESET).  If that record
 * completes a branch message, the sync rides on it (DirectBranchSync,
 * IndirectBranch[Hist]Sync); otherwise ProgTraceSync (or
 * IndirectBranchHistSync when HIST holds bits) with the I-CNT so far.
 */
void ntrace_enc_sync(struct ntrace_encoder *e, unsigned sync);

/*
 * Queue overflow (trace lost).  Pending state is dropped, an Error message
 * (ETYPE 0, ECODE "program trace lost") is emitted and the next record
 * produces a sync message with SYNC = 7 (7.4, Table 25).
 */
void ntrace_enc_overflow(struct ntrace_encoder *e, uint64_t tstamp);

/* Hand all buffered bytes to the sink.  Returns 0 or -NTRACE_ERR_SINK. */
int ntrace_enc_flush(struct ntrace_encoder *e);

/* ------------------------------------------------------------------------ */
/* Decoder                                                                    */
/* ------------------------------------------------------------------------ */

/* Decoder events, delivered in stream order (after the addresses of all
 * instructions that retired before them). */
enum ntrace_event_kind {
	NTRACE_EV_SYNC = 1,   /* sync message: sync, addr (F-ADDR target)      */
	NTRACE_EV_TRAP,       /* exception/interrupt: btype, addr = handler    */
	NTRACE_EV_OWNERSHIP,  /* priv, v, format, context                     */
	NTRACE_EV_STOP,       /* ProgTraceCorrelation: evcode; addr = next PC  */
	NTRACE_EV_OVERFLOW,   /* Error message: etype, ecode                   */
	NTRACE_EV_ERROR,      /* decoding error: error, offset; then unsynced  */
	NTRACE_EV_IGNORED,    /* vendor-defined TCODE skipped (reserved: ERROR) */
};

struct ntrace_event {
	uint8_t kind;         /* enum ntrace_event_kind                       */
	uint8_t tcode;        /* message that produced the event              */
	uint8_t sync;
	uint8_t btype;
	uint8_t evcode;
	uint8_t etype;
	uint8_t priv;         /* PRV[1:0] | V << 2                            */
	uint8_t format;       /* PROCESS FORMAT                                */
	bool has_tstamp;
	int error;            /* enum ntrace_err for NTRACE_EV_ERROR          */
	uint16_t src;
	size_t offset;        /* byte offset of the message (or of the error) */
	uint64_t addr;
	uint64_t context;
	uint64_t ecode;
	uint64_t tstamp;      /* full (reconstructed) timestamp, 8.7          */
};

/*
 * Caller services.
 *  read_code: copy `len` bytes of program code at `addr` into dst; return 0,
 *             or non-zero when any byte is outside the image.
 *  retired:   batch of addresses of retired instructions, in order
 *             (the decoder buffers up to NTRACE_DEC_OUT_BATCH of them and
 *             always flushes before an event and at the end of decoding).
 *  event:     one event.  Any callback may be NULL except read_code.
 */
struct ntrace_dec_ops {
	int (*read_code)(void *ctx, uint64_t addr, void *dst, size_t len);
	void (*retired)(void *ctx, const uint64_t *addrs, size_t n);
	void (*event)(void *ctx, const struct ntrace_event *ev);
	void *ctx;
};

struct ntrace_dec_config {
	struct ntrace_format fmt;   /* xlen, src_bits, extend_addr_msb         */
	int32_t src_id;             /* only messages with this SRC; -1 = all   */
	uint8_t inst_mode;          /* NTRACE_INST_MODE_BTM / _HTM, or
				       NTRACE_INST_MODE_AUTO: told by the messages */
	unsigned isa_ext;           /* RV_EXT_* of the traced code             */
	bool implicit_return;       /* trTeInstEnImplicitReturn (9.2)          */
	uint8_t call_stack_depth;   /* same as the encoder (0 = 32)            */
	bool sequential_jump;       /* trTeInstEnSequentialJump (9.1)          */
	bool all_jumps;             /* trTeInstEnAllJumps: jal, c.j, c.jal, cm.jt,
				       cm.jalt are reported like taken branches */
	bool have_jvt;              /* Zcmt jump table base known              */
	uint64_t jvt;               /* jvt.base for cm.jt/cm.jalt              */
	uint32_t max_walk;          /* bound on half-words walked per message
				       (0 = 1 << 23)                          */
};

struct ntrace_dec_stats {
	uint64_t messages;
	uint64_t instructions;
	uint64_t errors;
	uint64_t syncs;
	uint64_t traps;
};

#define NTRACE_DEC_OUT_BATCH   256
#define NTRACE_DEC_ICACHE_SIZE 1024  /* decoded-instruction cache entries  */
#define NTRACE_DEC_HIST_QUEUE  16    /* pending ResourceFull HIST entries   */

/* Private decoder state. */
struct ntrace_dec_icache_entry {
	uint64_t addr;          /* tag (address | 1 when valid)               */
	struct rv_insn insn;
};

struct ntrace_dec_hist_entry {
	uint32_t hist;          /* with stop bit                              */
	uint32_t repeat;        /* times still to deliver                     */
};

struct ntrace_decoder {
	struct ntrace_dec_config cfg;
	struct ntrace_dec_ops ops;
	bool htm;               /* walks take HIST bits (the mode in force)   */
	uint64_t unsynced_skipped; /* messages with instructions seen unsynced */
	bool synced;
	bool have_tstamp;
	uint64_t pc;
	uint64_t ref_addr;
	uint64_t tstamp;
	uint8_t priv;
	uint64_t context;
	size_t base_offset;     /* stream offset of the current input buffer  */
	/* HIST bits being consumed: current word and queue behind it */
	uint32_t hist_cur;      /* HIST record being consumed                 */
	uint8_t hist_left;      /* its bits not yet consumed                  */
	uint64_t walk_budget;   /* half-words left to walk for this message   */
	uint64_t icnt_walked;   /* half-words walked for ResourceFull HIST    */
	struct ntrace_dec_hist_entry hq[NTRACE_DEC_HIST_QUEUE];
	uint8_t hq_head, hq_len;
	/* last branch message for RepeatBranch */
	uint8_t last_branch_tcode;
	uint32_t last_branch_hist;
	uint32_t last_branch_icnt;
	uint64_t last_branch_target;
	/* sequential-jump tracking inside one walk */
	bool prev_const;
	uint8_t prev_const_rd;
	uint64_t prev_const_val;
	/* implicit return stack */
	uint64_t stack[NTRACE_MAX_CALL_STACK];
	uint8_t stack_top, stack_count;
	/* output */
	uint32_t out_len;
	uint64_t out[NTRACE_DEC_OUT_BATCH];
	struct ntrace_dec_stats stats;
	struct ntrace_dec_icache_entry icache[NTRACE_DEC_ICACHE_SIZE];
};

/* Initialise; returns 0 or -NTRACE_ERR_ARG. */
int ntrace_dec_init(struct ntrace_decoder *d, const struct ntrace_dec_config *cfg,
		    const struct ntrace_dec_ops *ops);

/*
 * Decode buf[0..len): a whole stream, or consecutive chunks that split it at
 * message boundaries (offsets in events continue across calls).  Errors are
 * reported as NTRACE_EV_ERROR events with their byte offset; the decoder then
 * skips messages until the next synchronisation message (one with SYNC and
 * F-ADDR).  Returns the number of errors reported by this call (>= 0).
 * Never reads outside buf or the image, never loops without consuming input:
 * every walk is bounded by I-CNT (<= 2^22 half-words) and cfg.max_walk.
 */
int ntrace_dec_decode(struct ntrace_decoder *d, const uint8_t *buf, size_t len);

/*
 * Decode one already parsed message (m->offset is used for error offsets).
 * Returns 0 or -NTRACE_ERR_* (also reported as an event).
 */
int ntrace_dec_message(struct ntrace_decoder *d, const struct ntrace_msg *m);

/*
 * The end of the stream: reports NTRACE_ERR_NO_SYNC (offset = stream
 * length) when no sync message was seen but messages describing
 * instructions were, since none of them could be decoded (a stream that
 * only says trace never started is not an error); flushes.  Returns the number of errors it reported (0 or 1).
 */
int ntrace_dec_finish(struct ntrace_decoder *d);

/* Flush buffered instruction addresses to ops.retired. */
void ntrace_dec_flush(struct ntrace_decoder *d);

/* Forget cached instructions (after the image changed, 11.4). */
void ntrace_dec_invalidate_code(struct ntrace_decoder *d);

#endif /* NTRACE_H */
