/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ntrace host tool: reusable core (image loading, trace text formats,
 * encode/decode drivers).  main.c is only the command line around these
 * functions, so a benchmark can time encode and decode without the cost of
 * loading ELF files or parsing text.
 */
#ifndef NTRACE_TOOL_H
#define NTRACE_TOOL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Error reporting ------------------------------------------------- */

/* One error message, already prefixed with its position ("file:line: "). */
struct nt_err {
	char msg[512];
};

void nt_err_set(struct nt_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Error lines of one input, "name: byte offset N: ..." (diag.c): the first
 * `max` are printed (0: all), the rest counted; nt_diag_finish() then says
 * how many were not shown. */
#define NT_DIAG_MAX_DEFAULT 10

struct nt_diag {
	FILE *f;                /* NULL: count only */
	const char *name;
	unsigned long max;
	unsigned long total;    /* errors reported so far */
};

void nt_diag_init(struct nt_diag *d, FILE *f, const char *name, unsigned long max);
void nt_diag_error(struct nt_diag *d, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void nt_diag_finish(const struct nt_diag *d);
/* An error that sums up the others (a stream without any sync message),
 * printed after nt_diag_finish() whatever the cap. */
void nt_diag_conclusion(struct nt_diag *d, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- Memory images (ELF program segments, raw files) ------------------ */

struct nt_image {
	uint64_t base;          /* address of bytes[0] */
	uint64_t size;          /* number of bytes */
	uint8_t *bytes;
	char *origin;           /* "file.elf" or "file.bin@0x..." for messages */
};

struct nt_image_set {
	struct nt_image *images;        /* sorted by base, never overlapping */
	size_t count;
	size_t last_hit;                /* lookup cache: consecutive pcs share an image */
	int elf_class;                  /* 32 or 64 from the first ELF, 0 if none */
};

void nt_images_init(struct nt_image_set *set);
void nt_images_free(struct nt_image_set *set);

/* Adds the executable allocated sections of an ELF file (or, for a file
 * without section headers, its executable PT_LOAD segments). */
int nt_images_add_elf(struct nt_image_set *set, const char *path,
		      struct nt_err *err);

/* ---- Two mappings of one ELF: --elf FILE@ADDR (loadmap.c) -------------- */

/* An --elf argument: "FILE", or "FILE@ADDR" when what follows the last '@'
 * is an address (hex with 0x, or decimal): the file's load image was
 * placed at ADDR, so its code is there as well as at its virtual
 * addresses (a kernel before and after its MMU is on). */
struct nt_elf_spec {
	char *path;             /* owned */
	bool has_load;
	uint64_t load;          /* ADDR */
	/* A position-independent file (ET_DYN) a loader mapped with a load
	 * bias (`ntrace perf`: from the process's PERF_RECORD_MMAP2): its
	 * code, symbols and disassembly are at vaddr + bias, and only there. */
	bool moved;
	uint64_t bias;
};

int nt_elf_spec_parse(const char *arg, struct nt_elf_spec *spec, struct nt_err *err);
void nt_elf_spec_free(struct nt_elf_spec *spec);
/* "0x..." (hex) or decimal, the whole string; -1 otherwise. */
int nt_parse_address(const char *s, uint64_t *out);

struct Elf;

/* Where each PT_LOAD segment's bytes are in the load image placed at ADDR:
 * [vaddr, vaddr + size) at laddr = ADDR + (p_paddr - lowest p_paddr). */
struct nt_load_seg {
	uint64_t vaddr, size, laddr;
};

struct nt_load_map {
	struct nt_load_seg *v;
	size_t count;
};

int nt_load_map_build(struct Elf *elf, uint64_t addr, const char *name, struct nt_load_map *m,
		      struct nt_err *err);
/* The same from the file at path. */
int nt_load_map_read(const char *path, uint64_t addr, struct nt_load_map *m, struct nt_err *err);
/* Each PT_LOAD segment at vaddr + bias (a spec's `moved` placement). */
int nt_load_map_moved(struct Elf *elf, uint64_t bias, const char *name, struct nt_load_map *m,
		      struct nt_err *err);
/* The map of a spec with has_load or moved, from its file. */
int nt_load_map_read_spec(const struct nt_elf_spec *spec, struct nt_load_map *m, struct nt_err *err);
void nt_load_map_free(struct nt_load_map *m);
/* The load address of [vaddr, vaddr + size) when one segment holds it all
 * (size 0: of the address vaddr, a segment's end included). */
bool nt_load_map_find(const struct nt_load_map *m, uint64_t vaddr, uint64_t size, uint64_t *laddr);

/* The sidecar's next-addr (where the firmware started S-mode: the load
 * address of a kernel QEMU's -kernel placed) for an --elf FILE given
 * without @ADDR: when FILE's load image is not at its virtual addresses
 * (some PT_LOAD p_paddr != p_vaddr, as in vmlinux) and its entry point is
 * in a PT_LOAD segment, the spec gets the load address that puts the entry
 * point's byte of the load image at next_addr.  Otherwise it is left as
 * it is.  0, or -1 with err when FILE cannot be read. */
int nt_elf_spec_place_at_entry(struct nt_elf_spec *spec, uint64_t next_addr, struct nt_err *err);

/* 1 when a PT_LOAD segment of the ELF has p_paddr != p_vaddr (the first
 * such: *paddr, *vaddr): a load image that --elf FILE@ADDR could map. */
int nt_elf_load_differs(const char *path, uint64_t *paddr, uint64_t *vaddr);

/* nt_images_add_elf, and with spec->has_load the same code again at its
 * load addresses (an image named "FILE@ADDR"); with spec->moved only at
 * vaddr + bias (an image named "FILE+BIAS"). */
int nt_images_add_elf_spec(struct nt_image_set *set, const struct nt_elf_spec *spec,
			   struct nt_err *err);
/* Same from a buffer already in memory; name is used in messages. */
int nt_images_add_elf_buffer(struct nt_image_set *set, const uint8_t *buf,
			     size_t len, const char *name, struct nt_err *err);
/* "FILE@ADDR": the whole file is memory starting at ADDR (hex or decimal). */
int nt_images_add_raw(struct nt_image_set *set, const char *spec,
		      struct nt_err *err);
/* Raw bytes at base (copied). */
int nt_images_add_bytes(struct nt_image_set *set, const uint8_t *bytes,
			size_t len, uint64_t base, const char *origin,
			struct nt_err *err);

/* Pointer to the byte at addr and how many bytes follow it in the same
 * image (*avail), or NULL when addr is in no image. */
const uint8_t *nt_images_lookup(struct nt_image_set *set, uint64_t addr,
				uint64_t *avail);

/* Copies len bytes at addr, all from one image; -1 when they are not there
 * (the decoder's read_code callback). */
int nt_images_read(struct nt_image_set *set, uint64_t addr, void *dst, size_t len);

/* ---- Trace text formats ----------------------------------------------- */

/* What happened right after an instruction retired (.pcs marker). */
enum nt_event {
	NT_EVENT_NONE = 0,
	NT_EVENT_EXCEPTION,     /* "exc": synchronous exception taken */
	NT_EVENT_INTERRUPT,     /* "int": interrupt taken */
};

/* Instruction class of a pcseq line (N-Trace reference code format). */
enum nt_seq_class {
	NT_SEQ_UNKNOWN = 0,     /* .pcs input: class comes from the images */
	NT_SEQ_LINEAR,          /* L: no control transfer */
	NT_SEQ_BRANCH_TAKEN,    /* B, BD, BT: direct conditional branch, taken */
	NT_SEQ_BRANCH_NOT_TAKEN,/* BN, BDN: direct conditional branch, not taken */
	NT_SEQ_JUMP_DIRECT,     /* J, JD */
	NT_SEQ_JUMP_INDIRECT,   /* JI */
	NT_SEQ_CALL_DIRECT,     /* C, CD */
	NT_SEQ_CALL_INDIRECT,   /* CI */
	NT_SEQ_RETURN,          /* R */
	NT_SEQ_TRAP_RETURN,     /* X: mret/sret (extension of this tool) */
	NT_SEQ_TRAP_INSN,       /* E: ecall/ebreak (extension of this tool) */
};

/* Privilege token at the end of a .pcs line (ground-truth windows). */
enum nt_priv {
	NT_PRIV_NONE = 0,       /* no token */
	NT_PRIV_U,
	NT_PRIV_S,
	NT_PRIV_M,              /* M-mode: never traced, never classified */
	NT_PRIV_VU,
	NT_PRIV_VS,
};

/* Record privilege (PRV[1:0] | V << 2, N-Trace Table 12) of a token. */
unsigned nt_priv_record(unsigned token);

struct nt_retired {
	uint64_t pc;
	uint32_t line;          /* 1-based line in the text file, 0 if none */
	uint8_t event;          /* enum nt_event */
	uint8_t seq_class;      /* enum nt_seq_class */
	uint8_t seq_size;       /* pcseq: 2 or 4; .pcs: 0 */
	uint8_t priv;           /* enum nt_priv */
};

struct nt_trace {
	struct nt_retired *v;
	size_t count;
	size_t cap;
	bool has_priv;          /* every line has a privilege token */
};

#define NT_TEXT_MAX_LINE 255    /* longer lines are malformed */

void nt_trace_init(struct nt_trace *t);
void nt_trace_free(struct nt_trace *t);
int nt_trace_push(struct nt_trace *t, const struct nt_retired *r);

/* Parsers: text/len is the whole file, name is used in messages
 * ("name:line: ...").  Return 0, or -1 with err set at the first bad line.
 * .pcs lines may end with a privilege token (U, S, M, VU, VS, after the
 * exc/int marker): on every line or on none (out->has_priv). */
int nt_pcs_parse(const char *text, size_t len, const char *name,
		 struct nt_trace *out, struct nt_err *err);
int nt_pcseq_parse(const char *text, size_t len, const char *name,
		   struct nt_trace *out, struct nt_err *err);

/* Canonical .pcs line: lowercase hex pc without "0x" and without leading
 * zeros, then " exc" or " int" when marked.  Returns chars written (< 40). */
int nt_pcs_format_line(char *buf, size_t size, uint64_t pc, int event);
int nt_pcs_write(FILE *f, const struct nt_trace *t);

/* Whole-file helper: reads path into a malloc'ed buffer. */
/* libelf handle on an ELF file in memory (file stays owned by the caller and
 * must outlive the handle); NULL with the reason in err. */
struct Elf;
struct Elf *nt_elf_open(uint8_t *file, size_t len, const char *name, struct nt_err *err);

int nt_read_file(const char *path, uint8_t **buf, size_t *len,
		 struct nt_err *err);

/* ---- Codec configuration (command-line view) --------------------------- */

enum nt_tool_mode {
	NT_TOOL_HTM = 0,        /* History Trace Messaging (trTeInstMode=6) */
	NT_TOOL_BTM = 1,        /* Branch Trace Messaging (trTeInstMode=3) */
};

/*
 * How the encode drivers hand the records to the library.  A diagnostic:
 * every form must give the same bytes (tests/ntrace/roundtrip.sh compares
 * them).
 */
enum nt_feed {
	NT_FEED_DEFAULT = 0,    /* chunks; through the ingress: blocks */
	NT_FEED_CHUNKS,         /* ntrace_enc_retire() on many records at a time */
	NT_FEED_RECORDS,        /* ntrace_enc_retire() once per record */
	NT_FEED_BLOCKS,         /* ntrace_enc_block() on the runs nt_block_cut() finds;
				   through the ingress: nt_ingress_cut() */
};

struct nt_tool_config {
	int mode;                       /* enum nt_tool_mode */
	/* decode: what was given; the rest is inferred (nt_tool_dec_config) */
	bool mode_set;                  /* --mode or --tci: else told by the messages */
	bool return_set;                /* --callstack, --implicit-return-mode, --tci,
					   --all-opt: else a 32-entry stack */
	unsigned callstack;             /* implicit-return stack depth, 0 = off */
	unsigned implicit_return_mode;  /* trTeInstImplicitReturnMode, 0..3 */
	bool repeat_history;            /* trTeInstEnRepeatedHistory */
	bool repeat_branch;             /* RepeatBranch messages (BTM) */
	bool seq_jump;                  /* trTeInstEnSequentialJump */
	bool ext_addr;                  /* trTeInstExtendAddrMSB */
	bool timestamp;                 /* TSTAMP = index of the instruction */
	uint32_t sync_period;           /* periodic sync every N messages, 0 = off */
	uint32_t src_id;                /* trTeSrcID */
	bool src_id_set;                /* decoder: keep only messages of src_id */
	unsigned src_bits;              /* trTeSrcBits, 0 = no SRC field */
	bool src_bits_detected;         /* src_bits guessed by nt_detect_src_bits */
	unsigned xlen;                  /* 32 or 64 */
	unsigned feed;                  /* enum nt_feed (encode only) */
	bool all_jumps;                 /* trTeInstEnAllJumps */
	bool context;                   /* trTeContext: Ownership messages */
	uint8_t sync_mode;              /* trTeInstSyncMode (0: sync_period decides) */
	uint8_t sync_max;               /* trTeInstSyncMax, with sync_mode */
	/* qualification (encode of a .pcs with privilege tokens) */
	uint8_t trace_priv;             /* filter 0 MatchChoicePrivilege bits (U 0, S 1); 0 none */
	bool trace_range;               /* filter 0 needs comparator 0: */
	uint64_t range_start;           /*   iaddr >= range_start && */
	uint64_t range_end;             /*   iaddr < range_end */
	bool wrapped;                   /* decode: buffer of a wrapped circular sink */
	unsigned long max_errors;       /* error lines printed per input (0: all) */
	const char *settings_from;      /* where the register values came from ("--tci",
					   a sidecar's path), for hints; NULL: none */
	const char *settings_remedy;    /* what a hint says to do when they do not fit;
					   NULL: give the buffer's sidecar or --tci */
};

void nt_tool_config_default(struct nt_tool_config *cfg);

/*
 * Codec options from Trace Control Interface register values as the trace
 * encoder reads them back: trTeControl, trTeInstFeatures and trTsControl,
 * mapped as tracesbi's firmware configures its encoder (config_from_registers
 * in firmware/trace/engine.c): trTeInstMode 3 BTM / 6 HTM, trTeContext,
 * trTeInhibitSrc, trTeInstSyncMode/Max, SequentialJump, ImplicitReturn with
 * its mode (call stack of 32), RepeatedHistory (RepeatBranch in BTM),
 * AllJumps, ExtendAddrMSB, trTeSrcBits/ID, and TSTAMP fields when trTsActive,
 * trTsEnable and trTsMode = 2 (the firmware's timestamp unit).  Every codec
 * field of cfg is set (xlen and feed are kept; the SRC ID is not made a
 * decoder filter).  Returns 0, or -1 with err naming the register and field
 * that this tool cannot follow.
 */
int nt_tool_config_from_tci(struct nt_tool_config *cfg, uint32_t control, uint32_t features,
			    uint32_t ts_control, struct nt_err *err);

/* Timestamp ticks per second of the firmware's timestamp unit (trTsControl's
 * prescaler over the time CSR's timebase_hz). */
double nt_tool_ts_ticks_per_second(uint32_t ts_control, uint64_t timebase_hz);

/* ---- What decoding a saved buffer needs (settings.c) -------------------- */

/* BUFFER.tci: "key=value" lines ('#' comments), written next to a saved
 * buffer (tools/ntrace/README.md, "The sidecar"). */
#define NT_SIDECAR_SUFFIX ".tci"

struct nt_sidecar {
	uint32_t control, features, tscontrol;  /* as for --tci */
	uint32_t ingress;               /* tracesbi's tsbiTeIngress (bit 2: TV records) */
	bool wrapped;                   /* the sink wrapped: decode as --wrapped */
	int hart;                       /* the hart that wrote it, -1 when not given */
	uint64_t timebase_hz;           /* the time CSR's frequency, 0 when not given */
	bool has_next_addr;             /* next-addr= given: */
	uint64_t next_addr;             /* where the boot hart entered S-mode */
	char path[4096];                /* BUFFER.tci */
};

/* Parses a sidecar's text (name for messages "name:line: ..."): 0, or -1
 * with err; control and features are required, every key known. */
int nt_sidecar_parse(const char *text, size_t len, const char *name, struct nt_sidecar *sc,
		     struct nt_err *err);
/* Reads nex_path + ".tci": 1 when there is one (sc filled), 0 when there is
 * none, -1 with err when it is malformed or says the buffer is not N-Trace
 * (tandem-verification records). */
int nt_sidecar_read(const char *nex_path, struct nt_sidecar *sc, struct nt_err *err);

/*
 * After decoding nex (errors: how many): one "name: hint: ..." line on diag
 * when a setting does not fit the stream: the SRC width (the stream parses
 * better with another), the SRC ID (the registers are another hart's, or no
 * message has the --src ID), the mode (DirectBranch messages decoded as
 * HTM, IndirectBranchHist as BTM), or, with errors and no registers given,
 * that they were not.  Without errors only the SRC ID is checked, and only
 * when registers were given.
 */
void nt_settings_hint(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		      unsigned long errors, const char *name, FILE *diag);

/* ---- Encode / decode drivers (codec.c) ---------------------------------- */

#include "ntrace.h"

/* Library configurations for the command-line configuration. */
void nt_tool_enc_config(const struct nt_tool_config *cfg, struct ntrace_enc_config *out);
void nt_tool_dec_config(const struct nt_tool_config *cfg, struct ntrace_dec_config *out);
void nt_tool_format(const struct nt_tool_config *cfg, struct ntrace_format *out);

/* Growing byte buffer. */
struct nt_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

void nt_buf_free(struct nt_buf *b);

/* Ingress records for the encoder, one per retired instruction. */
struct nt_records {
	struct ntrace_retired *v;
	size_t count;
	uint64_t end_addr;      /* where execution would continue after the last */
	bool ingress;           /* privileges known: through lib/ntrace's qualified ingress */
};

void nt_records_free(struct nt_records *r);

/*
 * Trace text -> ingress records.  .pcs lines (seq_class 0) are classified
 * from the images with rvinsn, and each transition to the next line is
 * checked: an unmarked transition the instruction cannot make, or a pc in no
 * image, is an error naming the line (name:line).  pcseq lines carry their
 * own class and size; the images are then not used.
 * itype: 4-bit form when implicit return is on, else 3-bit (Table 2);
 * tstamp = index of the record (0, 1, 2, ...) when cfg->timestamp.
 * With privilege tokens (trace->has_priv) each record carries its line's
 * privilege; an M line becomes a record {pc, size 0, itype 0, priv M} (the
 * firmware's M-mode excursion as its ingress sees it) without looking at
 * the images, and the line before it is checked against the next line
 * that is not M.  Without tokens every record has priv M and the ingress
 * is not used.  Qualification options (trace_priv, trace_range) need tokens.
 */
int nt_records_from_trace(struct nt_image_set *images, const struct nt_trace *trace,
			  const struct nt_tool_config *cfg, const char *name,
			  struct nt_records *out, struct nt_err *err);

/*
 * Runs the encoder over the records (start: ProgTraceSync, stop:
 * ProgTraceCorrelation) and appends the bytes to out.  stats may be NULL.
 * Records with privileges (recs->ingress) go through lib/ntrace's
 * qualified ingress as tracesbi's firmware feeds it: ntrace_ingress_start()
 * with the TCI filter of trace_priv/trace_range (nt_tool_filter_regs), the
 * records (cfg->feed: firmware-shaped blocks by default, see
 * nt_ingress_cut), then ntrace_ingress_stop(end_addr).
 */
int nt_encode_records(const struct nt_tool_config *cfg, const struct nt_records *recs,
		      struct nt_buf *out, struct ntrace_enc_stats *stats,
		      struct nt_err *err);

/* nt_records_from_trace + nt_encode_records in chunks: memory for the
 * records does not grow with the trace.  Same output. */
int nt_encode_trace(struct nt_image_set *images, const struct nt_trace *trace,
		    const struct nt_tool_config *cfg, const char *name,
		    struct nt_buf *out, struct ntrace_enc_stats *stats, struct nt_err *err);

/*
 * Records -> blocks for ntrace_enc_block(), as a block-level encoder (one
 * that steps from one control transfer to the next) sees them: maximal runs
 * of itype-0 records of size 2 or 4, each at the address after the one
 * before, with one priv, context and tstamp, at most NTRACE_BLOCK_MAX long.
 * A run ends at the first record that cannot extend it: a record that can
 * start a run starts the next one (the run goes out without an end record);
 * any other record goes out as the run's end record (after an empty run when
 * none is open).  Runs may continue from one nt_block_cut() call to the
 * next; nt_block_cut_finish() hands over the last one.
 */
typedef void nt_block_fn(void *ctx, const struct ntrace_block *b, const struct ntrace_retired *end);

struct nt_block_cutter {
	struct ntrace_block run;        /* open run (count 0: none) */
	uint64_t next_addr;             /* address that continues it */
	nt_block_fn *fn;
	void *ctx;
};

void nt_block_cut_init(struct nt_block_cutter *c, nt_block_fn *fn, void *ctx);
void nt_block_cut(struct nt_block_cutter *c, const struct ntrace_retired *recs, size_t n);
void nt_block_cut_finish(struct nt_block_cutter *c);

/*
 * Records -> the calls tracesbi's firmware makes into its ingress
 * (firmware/trace/stepper.c): a run of up to NTRACE_BLOCK_MAX sequential
 * itype-0 instructions goes out as a block of all but its last instruction
 * with the last one as end record (that one carries the trap when one
 * follows); any other retired instruction (a transfer, or a trap-marked one
 * that does not continue the run) as an empty block with itself as end; a
 * record of no size (an M-mode excursion) alone through `single`
 * (ntrace_ingress_retire(..., 1) in the firmware).  Calls are made in record
 * order; nt_ingress_cut_finish() hands over the last run.
 */
typedef void nt_single_fn(void *ctx, const struct ntrace_retired *r);

struct nt_ingress_cutter {
	struct ntrace_retired run[NTRACE_BLOCK_MAX];
	unsigned count;
	nt_block_fn *block;
	nt_single_fn *single;
	void *ctx;
};

void nt_ingress_cut_init(struct nt_ingress_cutter *c, nt_block_fn *block, nt_single_fn *single,
			 void *ctx);
void nt_ingress_cut(struct nt_ingress_cutter *c, const struct ntrace_retired *recs, size_t n);
void nt_ingress_cut_finish(struct nt_ingress_cutter *c);

/* Filter registers (trTeInstFilters, filter 0, comparator 0) for the
 * qualification options, written with tci_filter_write() as the S-mode
 * trace test kernel programs them (tests/target/trace/kernel.c). */
struct tci_filter_regs;
void nt_tool_filter_regs(const struct nt_tool_config *cfg, struct tci_filter_regs *regs);

/*
 * Decodes a whole N-Trace stream against the images into out (pc + exc/int
 * marker per retired instruction; out may be NULL to only count).  Each
 * decoding error is printed to diag (if not NULL) as
 * "name: byte offset N: <reason>".  Returns the number of errors (>= 0), or
 * -1 with err set when the decoder could not run at all.
 * cfg->wrapped: the stream is what a wrapped circular buffer held, from its
 * oldest byte: decoding starts at the first synchronisation message (of
 * the --src source when one is given) after the first end-of-message byte;
 * what comes before it is skipped without error (malformed bytes there are
 * still errors), and diag gets one line saying how many bytes that was.
 */
long nt_decode_stream(const struct nt_tool_config *cfg, struct nt_image_set *images,
		      const uint8_t *nex, size_t len, struct nt_trace *out,
		      struct ntrace_dec_stats *stats, const char *name, FILE *diag,
		      struct nt_err *err);

/* Same, writing canonical .pcs lines to text as they are decoded (memory
 * does not grow with the trace). */
long nt_decode_to_text(const struct nt_tool_config *cfg, struct nt_image_set *images,
		       const uint8_t *nex, size_t len, FILE *text,
		       struct ntrace_dec_stats *stats, const char *name, FILE *diag,
		       struct nt_err *err);

/* One retired instruction of a decoded trace, for a visitor. */
struct nt_step {
	uint64_t pc;
	uint8_t event;          /* enum nt_event: the trap taken right after it */
	bool has_tstamp;
	uint64_t tstamp;        /* of the message that reported it (8.7) */
};

/*
 * What a decoded trace is walked with: step() for each retired instruction
 * (after its trap marker is known), event() for each decoder event
 * (ntrace_event: sync, trap, ownership, stop, overflow, error; offsets are
 * positions in the whole input), in stream order: an event comes after
 * the instructions before it.  event may be NULL.
 */
struct nt_visitor {
	void (*step)(void *ctx, const struct nt_step *s);
	void (*event)(void *ctx, const struct ntrace_event *ev);
	void *ctx;
};

/* Does the event break the flow (trace stop, lost trace, decoding error):
 * the next instruction is not the successor of the one before it. */
bool nt_event_breaks_flow(const struct ntrace_event *ev);

/* nt_decode_stream handing the trace to a visitor (errors are still
 * counted and reported on diag). */
long nt_decode_visit(const struct nt_tool_config *cfg, struct nt_image_set *images,
		     const uint8_t *nex, size_t len, const struct nt_visitor *visit,
		     struct ntrace_dec_stats *stats, const char *name, FILE *diag,
		     struct nt_err *err);

/* ---- Symbols (symbols.c) ------------------------------------------------- */

/* A function or label of an executable section (STT_FUNC / STT_NOTYPE). */
struct nt_symbol {
	uint64_t addr;
	uint64_t sec_start, sec_end;    /* its section: [sec_start, sec_end) */
	const char *name;
	uint8_t rank;                   /* among symbols at one address: higher wins */
};

struct nt_symtab {
	struct nt_symbol *v;            /* sorted by address, best first at each */
	size_t count;
	char **names;                   /* owned name strings */
	size_t nnames;
};

void nt_symtab_init(struct nt_symtab *t);
void nt_symtab_free(struct nt_symtab *t);
/* Adds the STT_FUNC and STT_NOTYPE symbols (mapping symbols "$x"/"$d" and
 * ".L" labels left out) of the ELF's executable sections. */
int nt_symtab_add_elf(struct nt_symtab *t, const char *path, struct nt_err *err);
int nt_symtab_add_elf_buffer(struct nt_symtab *t, const uint8_t *buf, size_t len,
			     const char *name, struct nt_err *err);
/* nt_symtab_add_elf, and with spec->has_load each symbol again at its load
 * address (same name); with spec->moved each symbol only at its address +
 * bias. */
int nt_symtab_add_elf_spec(struct nt_symtab *t, const struct nt_elf_spec *spec, struct nt_err *err);
/* The nearest symbol at or below addr in the same section, or NULL. */
const struct nt_symbol *nt_symtab_lookup(const struct nt_symtab *t, uint64_t addr);
/* Listing line "pc[ exc|int]  symbol+0xoff" ("?" without a symbol), with
 * '\n'.  Returns chars written (truncated to size like snprintf). */
int nt_listing_format_line(char *buf, size_t size, uint64_t pc, int event,
			   const struct nt_symtab *t);

/* nt_decode_to_text writing listing lines instead of canonical .pcs. */
long nt_decode_to_listing(const struct nt_tool_config *cfg, struct nt_image_set *images,
			  const struct nt_symtab *symbols, const uint8_t *nex, size_t len,
			  FILE *text, struct ntrace_dec_stats *stats, const char *name,
			  FILE *diag, struct nt_err *err);

/* ---- Disassembly (disasm.c) ---------------------------------------------- */

/* objdump's text of one instruction. */
struct nt_disasm_line {
	uint64_t addr;
	char *text;             /* "addi    sp,sp,-16" */
};

struct nt_disasm {
	struct nt_disasm_line *v;       /* sorted by address */
	size_t count, cap;
};

void nt_disasm_init(struct nt_disasm *d);
void nt_disasm_free(struct nt_disasm *d);
/* Runs `objdump -d` on an ELF file (objdump NULL: $NTRACE_OBJDUMP, else
 * riscv64-unknown-elf-objdump, riscv64-linux-gnu-objdump, objdump, the
 * first on PATH) and keeps the text of every instruction it prints. */
int nt_disasm_add_elf(struct nt_disasm *d, const char *objdump, const char *path,
		      struct nt_err *err);
/* nt_disasm_add_elf, and with spec->has_load each instruction again at its
 * load address, the addresses objdump names with a symbol moved with it
 * (spec->moved: only at its address + bias, so moved). */
int nt_disasm_add_elf_spec(struct nt_disasm *d, const char *objdump,
			   const struct nt_elf_spec *spec, struct nt_err *err);
/* The same from objdump's output already in memory (lines that are not
 * "<hex address>:\t<instruction>" are skipped). */
int nt_disasm_add_objdump_text(struct nt_disasm *d, const char *text, size_t len,
			       const char *name, struct nt_err *err);
/* Text of the instruction at addr, or NULL. */
const char *nt_disasm_lookup(const struct nt_disasm *d, uint64_t addr);

/* ---- Listing (listing.c) ------------------------------------------------- */

/* `decode --listing`: one line per retired instruction, one per event. */
struct nt_listing {
	FILE *out;
	const struct nt_symtab *symbols;
	const struct nt_disasm *disasm;
	bool write_error;
};

/* A visitor for nt_decode_visit that writes the listing to l->out. */
void nt_listing_visitor(struct nt_listing *l, struct nt_visitor *v);

/* ---- pcseq export (pcseq_out.c) ------------------------------------------ */

/*
 * `decode --export-pcseq`: the decoded trace in the N-Trace reference
 * code's pcseq form, each instruction classified from the images with
 * rvinsn and the pc that followed it (pcs.c has the format).
 */
struct nt_pcseq_writer {
	FILE *out;
	struct nt_image_set *images;
	unsigned xlen;
	bool have_last;
	struct nt_step last;
	bool write_error;
};

void nt_pcseq_writer_visitor(struct nt_pcseq_writer *w, struct nt_visitor *v);
/* Writes the last instruction (its successor unknown: a branch is written
 * not taken). */
void nt_pcseq_writer_finish(struct nt_pcseq_writer *w);
/* Class letters of an instruction at pc followed by next (has_next false:
 * unknown), e.g. "L", "BN", "CI"; its size in *size (0 when it is in no
 * image). */
const char *nt_pcseq_class(struct nt_image_set *images, unsigned xlen, uint64_t pc,
			   uint64_t next, bool has_next, unsigned *size);

/* ---- Profile (profile.c, profile_out.c, flamegraph.c) -------------------- */

/* Keeps only the symbols that start functions: STT_FUNC and global labels
 * (a local label such as a loop head is inside a function). */
void nt_symtab_keep_functions(struct nt_symtab *t);

struct nt_map {                 /* 64-bit key -> 32-bit value, open addressing */
	uint64_t *keys;
	uint32_t *vals;         /* UINT32_MAX: empty */
	size_t cap, count;
};

/* One path of functions from the root (node 0, no function). */
struct nt_profile_node {
	uint32_t func;          /* index in the symbol table; unknown_func: none */
	uint32_t parent;
	uint32_t first_child, next_sibling;     /* UINT32_MAX: none */
	uint32_t depth;
	uint64_t self;          /* instructions retired with exactly this stack */
	uint64_t total;         /* self + children's (nt_profile_finish) */
};

struct nt_profile_edge {
	uint32_t caller, callee;
	uint64_t calls;
};

/* A basic block: start, last instruction, length; how often it ran. */
struct nt_profile_block {
	uint64_t start, last;
	uint32_t length;
	uint64_t executions;
};

/* What an instruction does to the stack and the basic blocks (profile.c). */
struct nt_profile_insn {
	uint64_t tag;           /* pc | 1 when valid */
	uint8_t size, transfer;
	bool linear;            /* falls through: does not end a basic block */
	bool next_known;        /* the opcode alone gives the successor: */
	uint64_t next;          /* pc + size, or a direct jump's or call's target */
};

/* One frame of the shadow call stack (profile.c). */
struct nt_profile_frame {
	uint32_t node;          /* its call tree node: the path to it */
	uint8_t kind;           /* base, call or trap frame */
	uint8_t pending;        /* trap frames: the trapped instruction's transfer, if a call */
	uint64_t ra;            /* call frames: the return address (call pc + size) */
	uint64_t pending_ra;    /* trap frames: that call's return address */
};

#define NT_PROFILE_ICACHE 4096
#define NT_PROFILE_MAX_DEPTH 1024       /* frames of all segments */
#define NT_PROFILE_MAX_SEGMENTS 16      /* a new one beyond forgets the oldest */

struct nt_profile {
	struct nt_image_set *images;
	const struct nt_symtab *symbols;        /* nt_symtab_keep_functions'ed */
	unsigned xlen;
	uint32_t unknown_func;                  /* = symbols->count */
	uint64_t *func_self, *func_total, *func_calls;  /* per function (+ unknown) */
	struct nt_profile_node *nodes;
	size_t nodes_count, nodes_cap;
	struct nt_map child_map;                /* (parent, func) -> node */
	struct nt_profile_edge *edges;
	size_t edges_count, edges_cap;
	struct nt_map edge_map;                 /* (caller, callee) -> edge */
	struct nt_profile_block *blocks;
	size_t blocks_count, blocks_cap;
	struct nt_map block_map;
	struct nt_profile_insn *icache;         /* classified instructions, by pc */
	uint64_t instructions, traps;
	uint32_t max_depth;                     /* deepest stack an instruction ran on */
	/* the walk */
	struct nt_profile_frame *stack;         /* NT_PROFILE_MAX_DEPTH frames */
	uint32_t depth;
	struct nt_map vectors;                  /* pcs entered by a trap: trap vectors */
	bool have_prev;                         /* prev_* is the last instruction's */
	uint8_t prev_event;                     /* its trap marker */
	uint64_t prev_pc;
	struct nt_profile_insn prev_insn;
	uint64_t block_start, block_last, block_next;
	uint32_t block_len;
	uint64_t func_lo, func_hi;              /* function_of() cache */
	uint32_t func_cached;
	bool oom;
};

/* symbols must outlive the profile; -1 when out of memory. */
int nt_profile_init(struct nt_profile *p, struct nt_image_set *images,
		    const struct nt_symtab *symbols, unsigned xlen);
/* A visitor for nt_decode_visit that profiles the instructions. */
void nt_profile_visitor(struct nt_profile *p, struct nt_visitor *v);
/* After the walk: totals per node and function; -1 when memory ran out. */
int nt_profile_finish(struct nt_profile *p);
void nt_profile_free(struct nt_profile *p);
const char *nt_profile_func_name(const struct nt_profile *p, uint32_t func);

/* Outputs: text tables (top rows of each), JSON, folded stacks
 * ("f1;f2;f3 N" per stack with N > 0 self instructions), SVG flame graph.
 * Each returns 0 or -1 on a write error. */
int nt_profile_write_text(const struct nt_profile *p, FILE *f, unsigned top);
int nt_profile_write_json(const struct nt_profile *p, FILE *f);
int nt_profile_write_folded(const struct nt_profile *p, FILE *f);
int nt_profile_write_svg(const struct nt_profile *p, FILE *f, const char *title);

/* ---- Timeline (timeline.c) ----------------------------------------------- */

struct nt_timeline_event {
	uint64_t index;         /* instructions of the hart before it */
	uint64_t tstamp;        /* the message's timestamp (all_tstamp) */
	uint64_t pc;            /* last instruction before it (traps: the trapped one) */
	uint64_t addr;          /* the event's address (handler, sync, next pc) */
	uint32_t hart;          /* index in harts[] */
	uint32_t seq;           /* order of arrival (stable sort) */
	uint8_t kind;           /* enum ntrace_event_kind */
	uint8_t code;           /* SYNC, B-TYPE, privilege, EVCODE, ETYPE or error */
};

struct nt_timeline_hart {
	unsigned id;
	uint64_t instructions, exceptions, interrupts;
	uint64_t time;          /* of the last instruction */
	uint64_t last_pc;
	double ticks_per_second;        /* of its timestamps, 0 when not known */
};

struct nt_timeline {
	const struct nt_symtab *symbols;
	struct nt_timeline_event *events;
	size_t nevents, cap;
	struct nt_timeline_hart *harts;
	size_t nharts;
	bool all_tstamp;        /* every instruction and event had a timestamp */
	bool oom;
};

void nt_timeline_init(struct nt_timeline *t, const struct nt_symtab *symbols);
void nt_timeline_free(struct nt_timeline *t);
/* Starts the next hart's trace: the visitor to decode it with. */
int nt_timeline_add_hart(struct nt_timeline *t, unsigned id, struct nt_visitor *v);
/* The current hart's timestamps count ticks_per_second (the time CSR's
 * frequency over the timestamp unit's prescaler): the SVG's axis is then in
 * seconds when every hart's clock is the same. */
void nt_timeline_hart_clock(struct nt_timeline *t, double ticks_per_second);
/* An event's place on the axis: timestamp, or instruction index. */
uint64_t nt_timeline_event_time(const struct nt_timeline *t, const struct nt_timeline_event *e);
/* "U", "S", "M", "VU", "VS" for PRV[1:0] | V << 2. */
const char *nt_timeline_priv_name(unsigned priv);
int nt_timeline_write_text(const struct nt_timeline *t, FILE *f);
/* One lane per hart (timeline_svg.c): per pixel column, the share of each
 * privilege in the traced bar and the number of exceptions (above it) and
 * interrupts (below it); a time axis with ticks and its unit; a legend. */
int nt_timeline_write_svg(const struct nt_timeline *t, FILE *f);

/* ---- tsbi-record's recordings: `ntrace perf` (perfrec.c) ---------------- */

/*
 * A recording (linux-trace/recording.h, linux-trace/recorder/README.md):
 * the perf_event_attr the tracesbi_trace event was opened with, each CPU's
 * hart, and the kernel's records; each PERF_RECORD_AUX is one N-Trace
 * stream (a segment).
 */

/* A record's sample_id (attr.sample_id_all): whose, when, where. */
struct nt_perf_id {
	uint32_t pid, tid, cpu;
	uint64_t time;
};

/* One record, its fields checked against its size. */
struct nt_perf_record {
	size_t offset;                  /* file byte of its perf_event_header */
	uint32_t type;                  /* PERF_RECORD_* (recording.h: TSBIREC_*) */
	uint16_t misc, size;
	bool has_id;                    /* it has a sample_id trailer (not SAMPLE, not an unknown type) */
	struct nt_perf_id id;
	uint32_t pid, tid;              /* COMM, MMAP, MMAP2, ITRACE_START */
	uint64_t addr, len, pgoff;      /* MMAP, MMAP2 */
	uint32_t prot;                  /* MMAP2; MMAP: PROT_EXEC (it reports exec mappings) */
	const char *name;               /* COMM's comm, MMAP's and MMAP2's file name (in the file) */
	uint64_t aux_offset, aux_flags; /* AUX */
	const uint8_t *aux;             /* AUX: its bytes, in the file */
	size_t aux_size;
	size_t aux_at;                  /* AUX: the file byte of aux[0] */
	uint64_t lost;                  /* LOST, LOST_SAMPLES */
};

struct nt_perf_recording {
	uint32_t attr_size, attr_type;
	uint64_t config, sample_type, attr_flags;
	uint32_t ncpus;
	uint32_t *hart;                 /* per CPU (TSBIREC_HART_UNKNOWN: not known) */
	struct nt_perf_record *v;       /* in file order */
	size_t count, cap;
	size_t segments;                /* PERF_RECORD_AUX records */
	uint64_t aux_bytes, truncated;  /* their bytes; those flagged TRUNCATED */
	uint64_t lost, lost_samples;    /* PERF_RECORD_LOST, _LOST_SAMPLES: their sums */
};

/*
 * Parses and checks a whole recording (buf, len: the file; its names and AUX
 * bytes stay in buf): the header, the attr (sample_id_all with TID, TIME
 * and CPU; attr.config only tracesbi_trace's format bits), every record's
 * size against the file and its fields against its size.  0, or -1 with err
 * "name: byte N: what" (N: where the bad or incomplete item starts).
 */
int nt_perf_parse(const uint8_t *buf, size_t len, const char *name, struct nt_perf_recording *r,
		  struct nt_err *err);
void nt_perf_free(struct nt_perf_recording *r);

/* The decoder's settings from attr.config: the encoder's registers as the
 * firmware sets them for the PMU's format terms (recording.h), XLEN 64. */
int nt_perf_config(const struct nt_perf_recording *r, struct nt_tool_config *cfg,
		   struct nt_err *err);

/* The traced process: the pid of the first ITRACE_START, else of the
 * first AUX record; false when there is neither. */
bool nt_perf_traced_pid(const struct nt_perf_recording *r, uint32_t *pid);

/*
 * Where an --elf file's code ran in process pid: an ET_DYN file is moved
 * (spec->moved) by the load bias of the process's first executable
 * PERF_RECORD_MMAP2 (or MMAP) of a file of the same base name: its address
 * minus the page of p_vaddr of the PT_LOAD segment whose p_offset is in the
 * mapped page pgoff.  Any other file (ET_EXEC: vmlinux, a static program)
 * stays at its own addresses.  0, or -1 with err (an ET_DYN with no such
 * mapping, or none of whose segments the mapping starts).
 */
int nt_perf_place_elf(const struct nt_perf_recording *r, uint32_t pid, struct nt_elf_spec *spec,
		      const char *name, struct nt_err *err);

/* "# segment K: cpu C pid P tid T time NS, B bytes[, truncated]" (and the
 * AUX record's other flags) with '\n'; like snprintf. */
int nt_perf_segment_header(char *buf, size_t size, size_t k, const struct nt_perf_record *aux);

/* What nt_perf_decode writes each segment to. */
struct nt_perf_output {
	FILE *pcs;                      /* canonical .pcs lines, or NULL for: */
	const struct nt_visitor *visit;
	/* before each segment's instructions (k counts segments from 0) and after them */
	void (*begin)(void *ctx, size_t k, const struct nt_perf_record *aux);
	void (*end)(void *ctx, size_t k, const struct nt_perf_record *aux);
	/* at a PERF_RECORD_LOST or LOST_SAMPLES, where it is */
	void (*lost)(void *ctx, const struct nt_perf_record *lost);
	void *ctx;                      /* for begin, end, lost */
};

/*
 * Decodes every AUX record's bytes as a stream of its own, in record order,
 * with cfg (nt_perf_config) against images, into out; decoding errors on
 * diag as "name: segment K: byte offset N: ...".  A LOST record gets a
 * line on diag.  Returns the number of decoding errors, or -1 with err.
 */
long nt_perf_decode(const struct nt_perf_recording *r, const struct nt_tool_config *cfg,
		    struct nt_image_set *images, const struct nt_perf_output *out, const char *name,
		    FILE *diag, struct nt_err *err);

/* ---- Dump and statistics (dump.c, stats.c) ------------------------------ */

/* Table 6 style listing of every byte and message; returns the number of
 * malformed messages found (reported on diag as "name: byte offset N: ..."). */
long nt_dump_stream(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		    FILE *out, const char *name, FILE *diag);

struct nt_stream_stats {
	uint64_t bytes;
	uint64_t idle_bytes;
	uint64_t messages;
	uint64_t malformed;
	uint64_t reserved_values;       /* well-formed messages with reserved field values */
	uint64_t per_tcode[64];
	uint32_t src[8];                /* the first SRC values seen (with a SRC field) */
	unsigned nsrc;
};

/* Counts messages per TCODE with the message parser. */
void nt_stream_stats(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		     struct nt_stream_stats *st);

/* SRC field width (0..12) under which the stream parses with the fewest
 * malformed messages, then the fewest reserved SYNC/EVCODE/RCODE/ETYPE
 * values (the smallest width without any): for dump and stats when
 * --src-bits is not given.  A heuristic: short streams can be ambiguous. */
unsigned nt_detect_src_bits(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len);

#endif
