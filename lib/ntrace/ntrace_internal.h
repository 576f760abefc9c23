/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to the ntrace library: the Table 8 layout table and the MDO/MSEO
 * bit writer.  They live here as static data and inline functions so that
 * the encoder, which writes messages of constant TCODEs, gets writers the
 * compiler specialises from the same single table the parser walks.  Also
 * the message predicates the encoder and the decoder must agree on.
 */
#ifndef NTRACE_INTERNAL_H
#define NTRACE_INTERNAL_H

#include "ntrace.h"

/* Worst-case bytes ntrace_write_layout() may store: TCODE+SRC+fixed fields
 * (4) and up to four 64-bit variable fields (12 each). */
#define NTRACE_WRITE_MAX NTRACE_MSG_WRITE_MAX

#define F(id_, kind_, bits_) { NTRACE_FLD_##id_, NTRACE_KIND_##kind_, bits_, NTRACE_COND_ALWAYS }
#define FC(id_, kind_, bits_, cond_) { NTRACE_FLD_##id_, NTRACE_KIND_##kind_, bits_, NTRACE_COND_##cond_ }

/* Upper bounds for variable fields Table 10 does not list. */
#define MAX_PROCESS_BITS 64
#define MAX_ECODE_BITS   32
#define MAX_RDATA_BITS   NTRACE_MAX_HIST /* RDATA is I-CNT (22) or HIST (32) */
#define MAX_COUNT_BITS   NTRACE_MAX_REPEAT_BITS /* HREPEAT, B-CNT            */

/* Table 8 "Fields in Messages" (chapter 7 tables for each message). */
static const struct ntrace_msg_layout ntrace_layouts[] = {
	{ NTRACE_TCODE_OWNERSHIP, 1, "Ownership",
	  { F(PROCESS, VAR, MAX_PROCESS_BITS) } },
	{ NTRACE_TCODE_DIRECT_BRANCH, 1, "DirectBranch",
	  { F(ICNT, VAR, NTRACE_MAX_ICNT) } },
	{ NTRACE_TCODE_INDIRECT_BRANCH, 3, "IndirectBranch",
	  { F(BTYPE, FIXED, 2), F(ICNT, VAR, NTRACE_MAX_ICNT), F(UADDR, ADDR, NTRACE_MAX_ADDR) } },
	{ NTRACE_TCODE_ERROR, 2, "Error",
	  { F(ETYPE, FIXED, 4), F(ECODE, VAR, MAX_ECODE_BITS) } },
	{ NTRACE_TCODE_PROG_TRACE_SYNC, 3, "ProgTraceSync",
	  { F(SYNC, FIXED, 4), F(ICNT, VAR, NTRACE_MAX_ICNT), F(FADDR, ADDR, NTRACE_MAX_ADDR) } },
	{ NTRACE_TCODE_DIRECT_BRANCH_SYNC, 3, "DirectBranchSync",
	  { F(SYNC, FIXED, 4), F(ICNT, VAR, NTRACE_MAX_ICNT), F(FADDR, ADDR, NTRACE_MAX_ADDR) } },
	{ NTRACE_TCODE_INDIRECT_BRANCH_SYNC, 4, "IndirectBranchSync",
	  { F(SYNC, FIXED, 4), F(BTYPE, FIXED, 2), F(ICNT, VAR, NTRACE_MAX_ICNT),
	    F(FADDR, ADDR, NTRACE_MAX_ADDR) } },
	{ NTRACE_TCODE_RESOURCE_FULL, 3, "ResourceFull",
	  { F(RCODE, FIXED, 4), F(RDATA, VAR, MAX_RDATA_BITS),
	    FC(HREPEAT, VAR, MAX_COUNT_BITS, RCODE_2) } },
	{ NTRACE_TCODE_INDIRECT_BRANCH_HIST, 4, "IndirectBranchHist",
	  { F(BTYPE, FIXED, 2), F(ICNT, VAR, NTRACE_MAX_ICNT), F(UADDR, ADDR, NTRACE_MAX_ADDR),
	    F(HIST, VAR, NTRACE_MAX_HIST) } },
	{ NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC, 5, "IndirectBranchHistSync",
	  { F(SYNC, FIXED, 4), F(BTYPE, FIXED, 2), F(ICNT, VAR, NTRACE_MAX_ICNT),
	    F(FADDR, ADDR, NTRACE_MAX_ADDR), F(HIST, VAR, NTRACE_MAX_HIST) } },
	{ NTRACE_TCODE_REPEAT_BRANCH, 1, "RepeatBranch",
	  { F(BCNT, VAR, MAX_COUNT_BITS) } },
	{ NTRACE_TCODE_PROG_TRACE_CORRELATION, 4, "ProgTraceCorrelation",
	  { F(EVCODE, FIXED, 4), F(CDF, FIXED, 2), F(ICNT, VAR, NTRACE_MAX_ICNT),
	    FC(HIST, VAR, NTRACE_MAX_HIST, CDF_1) } },
};

/* TCODE -> 1 + index in ntrace_layouts[] (0: not in Table 8). */
static const uint8_t ntrace_layout_index[64] = {
	[NTRACE_TCODE_OWNERSHIP] = 1, [NTRACE_TCODE_DIRECT_BRANCH] = 2,
	[NTRACE_TCODE_INDIRECT_BRANCH] = 3, [NTRACE_TCODE_ERROR] = 4,
	[NTRACE_TCODE_PROG_TRACE_SYNC] = 5, [NTRACE_TCODE_DIRECT_BRANCH_SYNC] = 6,
	[NTRACE_TCODE_INDIRECT_BRANCH_SYNC] = 7, [NTRACE_TCODE_RESOURCE_FULL] = 8,
	[NTRACE_TCODE_INDIRECT_BRANCH_HIST] = 9, [NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC] = 10,
	[NTRACE_TCODE_REPEAT_BRANCH] = 11, [NTRACE_TCODE_PROG_TRACE_CORRELATION] = 12,
};

static inline const struct ntrace_msg_layout *ntrace_layout_of(unsigned tcode)
{
	if (tcode >= 64 || !ntrace_layout_index[tcode])
		return 0;
	return &ntrace_layouts[ntrace_layout_index[tcode] - 1];
}

static inline unsigned ntrace_addr_bits(const struct ntrace_format *fmt)
{
	return fmt->xlen == 32 ? 31 : NTRACE_MAX_ADDR;
}

/* Bytes a variable field of value v needs from MDO bit `start_bit`. */
static inline unsigned ntrace_var_bytes_inline(uint64_t v, unsigned start_bit)
{
	/* The fewest bytes whose MDO bits (after start_bit) hold v, counted
	 * upwards: fields are mostly short, and without Zbb a count of
	 * leading zeros is a library call. */
	unsigned bytes = 1, room = NTRACE_MDO_BITS - start_bit;

	while (room < 64 && (v >> room)) {
		room += NTRACE_MDO_BITS;
		bytes++;
	}
	return bytes;
}

/* Messages with a full address that (re)start decoding (8.7: absolute TSTAMP). */
static inline bool ntrace_is_sync_tcode(unsigned tcode)
{
	return tcode == NTRACE_TCODE_PROG_TRACE_SYNC || tcode == NTRACE_TCODE_DIRECT_BRANCH_SYNC ||
	       tcode == NTRACE_TCODE_INDIRECT_BRANCH_SYNC ||
	       tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC;
}

/* Sync codes that reset the encoder state (Table 25 "Encoder Reset"). */
static inline bool ntrace_sync_resets_state(unsigned sync)
{
	return sync != NTRACE_SYNC_EXT_TRIGGER && sync != NTRACE_SYNC_ICNT &&
	       sync != NTRACE_SYNC_TRACE_EVENT;
}

/* Table 19 / Table 23: conditional fields. */
static inline bool ntrace_cond_holds(unsigned cond, const uint64_t *val)
{
	if (cond == NTRACE_COND_RCODE_2)
		return val[NTRACE_FLD_RCODE] == NTRACE_RCODE_HIST_REPEAT;
	if (cond == NTRACE_COND_CDF_1)
		return val[NTRACE_FLD_CDF] == NTRACE_CDF_ICNT_HIST;
	return true;
}


/*
 * Bit writer: MDO bits accumulate LSB first (3.3); a byte is stored as soon
 * as its 6 MDO bits are known.  The caller guarantees NTRACE_WRITE_MAX bytes
 * of space, so the hot path has no bounds checks.
 */
struct ntrace_bit_writer {
	uint8_t *p;
	uint64_t acc; /* pending MDO bits (fewer than 6 after each call) */
	unsigned nb;  /* number of pending bits                          */
};

static inline __attribute__((always_inline)) void ntrace_put_fixed(struct ntrace_bit_writer *w, uint64_t v, unsigned n)
{
	uint64_t a = w->acc | ((v & ((1ull << n) - 1)) << w->nb);
	unsigned nb = w->nb + n;

	while (nb >= NTRACE_MDO_BITS) {
		*w->p++ = (uint8_t)((a & NTRACE_MDO_MASK) << 2); /* MSEO = 00 */
		a >>= NTRACE_MDO_BITS;
		nb -= NTRACE_MDO_BITS;
	}
	w->acc = a;
	w->nb = nb;
}

/* Variable field occupying `bytes` bytes from the current bit; the last
 * byte gets MSEO=01 (the message end turns it into 11). */
static inline __attribute__((always_inline)) void ntrace_put_var_bytes(struct ntrace_bit_writer *w, uint64_t v, unsigned bytes)
{
	uint8_t *p = w->p;

	*p++ = (uint8_t)(((w->acc | (v << w->nb)) & NTRACE_MDO_MASK) << 2);
	v >>= NTRACE_MDO_BITS - w->nb;
	while (--bytes) {
		*p++ = (uint8_t)((v & NTRACE_MDO_MASK) << 2);
		v >>= NTRACE_MDO_BITS;
	}
	p[-1] |= NTRACE_MSEO_END_FIELD;
	w->p = p;
	w->acc = 0;
	w->nb = 0;
}

/* A variable field in the fewest bytes that hold v after the pending bits
 * (ntrace_var_bytes_inline()), sized while it is written: one pass. */
static inline __attribute__((always_inline)) void ntrace_put_var(struct ntrace_bit_writer *w, uint64_t v)
{
	uint8_t *p = w->p;
	uint64_t b = (w->acc | (v << w->nb)) & NTRACE_MDO_MASK;

	v >>= NTRACE_MDO_BITS - w->nb;   /* (w->nb < 6) */
	while (v) {
		*p++ = (uint8_t)(b << 2);
		b = v & NTRACE_MDO_MASK;
		v >>= NTRACE_MDO_BITS;
	}
	*p++ = (uint8_t)(b << 2 | NTRACE_MSEO_END_FIELD);
	w->p = p;
	w->acc = 0;
	w->nb = 0;
}

/*
 * 8.2: with trTeInstExtendAddrMSB the decoder extends the most significant
 * MDO bit of an address field up to the top address bit, so the encoder
 * picks the shortest length whose top transmitted bit, extended, gives the
 * value: either a 0 top bit with only zeros above, or ones all the way up.
 * (Without the option an address is a plain variable field: ntrace_put_var().)
 */
static inline unsigned ntrace_addr_bytes(const struct ntrace_format *fmt, uint64_t v, unsigned start)
{
	unsigned amax = ntrace_addr_bits(fmt);
	unsigned total = NTRACE_MDO_BITS - start;

	v &= (1ull << amax) - 1;
	for (;; total += NTRACE_MDO_BITS) {
		if (total >= amax + 1)
			break; /* everything fits with a zero top bit */
		uint64_t above = v >> (total - 1);
		uint64_t ones = (1ull << (amax - (total - 1))) - 1;

		if (above == 0 || above == ones)
			break;
	}
	return (start + total) / NTRACE_MDO_BITS;
}


static inline __attribute__((always_inline)) int
ntrace_write_layout(const struct ntrace_format *fmt, const struct ntrace_msg_layout *l,
		    const uint64_t *val, bool has_tstamp, uint8_t *out)
{
	struct ntrace_bit_writer w = { .p = out };

	ntrace_put_fixed(&w, l->tcode, NTRACE_TCODE_BITS);
	if (fmt->src_bits)
		ntrace_put_fixed(&w, val[NTRACE_FLD_SRC], fmt->src_bits);
	/* unrolled so that a constant layout folds into straight-line code */
#pragma GCC unroll 6
	for (unsigned i = 0; i < NTRACE_LAYOUT_MAX_FIELDS; i++) {
		const struct ntrace_field_desc *fd = &l->fields[i];
		uint64_t v = val[fd->id];

		if (i >= l->nfields)
			break;
		if (fd->cond != NTRACE_COND_ALWAYS && !ntrace_cond_holds(fd->cond, val))
			continue;
		if (fd->kind == NTRACE_KIND_FIXED)
			ntrace_put_fixed(&w, v, fd->bits);
		else if (fd->kind == NTRACE_KIND_ADDR && fmt->extend_addr_msb)
			ntrace_put_var_bytes(&w, v, ntrace_addr_bytes(fmt, v, w.nb));
		else
			ntrace_put_var(&w, v);
	}
	if (has_tstamp)
		ntrace_put_var(&w, val[NTRACE_FLD_TSTAMP]);
	/* Every layout ends with a variable field: its last byte ends the message. */
	w.p[-1] |= NTRACE_MSEO_END_MSG;
	return (int)(w.p - out);
}


/*
 * Out-of-line form of ntrace_write_layout(): val[] is indexed by enum
 * ntrace_field and only the layout's fields (plus SRC when fmt->src_bits,
 * TSTAMP when has_tstamp) are read.  Fixed fields are masked to their width.
 * `out` must have NTRACE_WRITE_MAX bytes.  Returns the message length.
 */
int ntrace_write_fields(const struct ntrace_format *fmt, const struct ntrace_msg_layout *l,
			const uint64_t *val, bool has_tstamp, uint8_t *out);

#endif /* NTRACE_INTERNAL_H */
