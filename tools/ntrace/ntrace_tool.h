/*
 * ntrace host tool: reusable core (image loading, trace text formats,
 * encode/decode drivers).  main.c is only the command line around these
 * functions, so a benchmark can time encode and decode without the cost of
 * loading ELF files or parsing text.
 */
#ifndef NTRACE_TOOL_H
#define NTRACE_TOOL_H

#include <stdarg.h>
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

struct nt_retired {
	uint64_t pc;
	uint32_t line;          /* 1-based line in the text file, 0 if none */
	uint8_t event;          /* enum nt_event */
	uint8_t seq_class;      /* enum nt_seq_class */
	uint8_t seq_size;       /* pcseq: 2 or 4; .pcs: 0 */
};

struct nt_trace {
	struct nt_retired *v;
	size_t count;
	size_t cap;
};

#define NT_TEXT_MAX_LINE 255    /* longer lines are malformed */

void nt_trace_init(struct nt_trace *t);
void nt_trace_free(struct nt_trace *t);
int nt_trace_push(struct nt_trace *t, const struct nt_retired *r);

/* Parsers: text/len is the whole file, name is used in messages
 * ("name:line: ...").  Return 0, or -1 with err set at the first bad line. */
int nt_pcs_parse(const char *text, size_t len, const char *name,
		 struct nt_trace *out, struct nt_err *err);
int nt_pcseq_parse(const char *text, size_t len, const char *name,
		   struct nt_trace *out, struct nt_err *err);

/* Canonical .pcs line: lowercase hex pc without "0x" and without leading
 * zeros, then " exc" or " int" when marked.  Returns chars written (< 40). */
int nt_pcs_format_line(char *buf, size_t size, uint64_t pc, int event);
int nt_pcs_write(FILE *f, const struct nt_trace *t);

/* Whole-file helper: reads path into a malloc'ed buffer. */
int nt_read_file(const char *path, uint8_t **buf, size_t *len,
		 struct nt_err *err);

#endif
