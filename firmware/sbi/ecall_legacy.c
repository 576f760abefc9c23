// SPDX-License-Identifier: BSD-2-Clause
/*
 * The legacy extensions (ext-legacy.adoc, EIDs 0x00-0x08), kept for older
 * kernels and bootloaders.  Each is a thin wrapper over the code behind
 * TIME, IPI, RFENCE, SRST and the console.
 *
 * Calling convention: a6 is ignored, only a0 is returned and every other
 * register — a1 included — must be preserved, so the handlers hand a1 back
 * unchanged as the "value" half.
 *
 * A hart mask is a pointer (an S-mode virtual address) to a bit vector of
 * unsigned longs, bit n of word i selecting hartid 64 * i + n.  It is read
 * through MPRV as S-mode would read it (umem.c), so S-mode's translation
 * and PMP apply.  tracesbi's choices where the spec leaves them open:
 *  - a NULL pointer selects every hart (what the SBI v0.1 kernels that
 *    pass NULL for "all harts" expect);
 *  - a pointer that is not aligned to an unsigned long is
 *    SBI_ERR_INVALID_ADDRESS;
 *  - a page or access fault of the read is redirected to S-mode with sepc
 *    at the ecall (the spec's rule, and what OpenSBI does), every register
 *    as it was at the ecall;
 *  - a set bit of a hartid the platform does not have is
 *    SBI_ERR_INVALID_PARAM (as hart masks of IPI and RFENCE), and nothing
 *    is sent;
 *  - only the words up to the highest hartid are read (at most
 *    LEGACY_MASK_WORDS: hartids from 64 * LEGACY_MASK_WORDS on cannot be
 *    named by a legacy mask).
 */
#include "firmware/sbi/ecall.h"
#include "firmware/core/console.h"
#include "firmware/core/hart.h"
#include "firmware/service/hsm.h"
#include "firmware/service/ipi.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/umem.h"
#include "firmware/service/tlb.h"
#include "firmware/service/timer.h"
#include "firmware/service/redirect.h"
#include "firmware/service/reset.h"
#include "firmware/core/fw_event.h"

#define LEGACY_MASK_WORDS 4
#define BITS_PER_LONG     (8 * sizeof(unsigned long))

/* A hart mask read from S-mode: every word, or base -1 (every hart). */
struct legacy_mask {
	unsigned long word[LEGACY_MASK_WORDS];
	unsigned int words;
	bool all;
};

/* Result of reading a mask: the SBI error, or a fault to redirect. */
struct mask_read {
	long error;
	bool faulted;
	struct trap_info fault;
};

static unsigned int mask_words_needed(void)
{
	unsigned long max = 0;
	unsigned int i;

	for (i = 0; i < hart_count; i++)
		if (hart_ids[i] > max)
			max = hart_ids[i];
	max = max / BITS_PER_LONG + 1;
	return max < LEGACY_MASK_WORDS ? (unsigned int)max : LEGACY_MASK_WORDS;
}

/* One unsigned long at S-mode address va, byte by byte (little-endian). */
static int load_smode_ulong(unsigned long mstatus, unsigned long va, unsigned long *out,
			    struct trap_info *fault)
{
	unsigned long v = 0;
	unsigned int i;
	uint8_t byte;

	for (i = 0; i < sizeof(v); i++) {
		if (umem_load_u8(mstatus, va + i, &byte, fault))
			return -1;
		v |= (unsigned long)byte << (8 * i);
	}
	*out = v;
	return 0;
}

/* The words of the mask; false when a load faulted.  A fault goes through
 * the trap guard, which overwrites mepc: the ecall's is put back. */
static bool load_mask_words(unsigned long va, struct legacy_mask *m, struct trap_info *fault)
{
	unsigned long mstatus = csr_read(mstatus), epc = csr_read(mepc);
	unsigned int i, n = mask_words_needed();

	for (i = 0; i < n; i++)
		if (load_smode_ulong(mstatus, va + i * sizeof(unsigned long), &m->word[i], fault))
			break;
	csr_write(mepc, epc);
	m->words = i;
	return i == n;
}

static struct mask_read read_hart_mask(unsigned long va, struct legacy_mask *m)
{
	struct mask_read r = { SBI_SUCCESS, false, { 0, 0 } };
	unsigned int i;

	m->all = va == 0;
	m->words = 0;
	if (m->all)
		return r;
	if (va & (sizeof(unsigned long) - 1)) {
		r.error = SBI_ERR_INVALID_ADDRESS;
		return r;
	}
	if (!load_mask_words(va, m, &r.fault)) {
		r.faulted = true;
		return r;
	}
	for (i = 0; i < m->words; i++)
		if (hart_mask_validate(m->word[i], i * BITS_PER_LONG))
			r.error = SBI_ERR_INVALID_PARAM;
	return r;
}

/*
 * ext-legacy.adoc: "The page and access faults taken by the SBI
 * implementation while accessing memory on behalf of the supervisor are
 * redirected back to the supervisor with sepc CSR pointing to the faulting
 * ECALL instruction."  trap.S moves mepc past the ecall once the handler
 * returns, hence stvec - 4 here; a0 and a1 go back as they came, so S-mode
 * finds every register as it was at the ecall.
 */
static struct sbiret redirect_fault(const struct trap_info *fault, unsigned long a0,
				    unsigned long a1)
{
	struct trap_regs regs = { .mepc = csr_read(mepc), .mstatus = csr_read(mstatus) };

	trap_redirect(&regs, fault);
	csr_write(mstatus, regs.mstatus);
	csr_write(mepc, regs.mepc - 4);
	return SBI_RET(a0, a1);
}

/* The ending of every mask call: a redirected fault or the error in a0. */
static struct sbiret mask_call_result(const struct mask_read *r, long error, unsigned long a0,
				      unsigned long a1)
{
	if (r->faulted)
		return redirect_fault(&r->fault, a0, a1);
	return SBI_RET(r->error ? r->error : error, a1);
}

static long send_ipis(const struct legacy_mask *m, struct hart *self)
{
	unsigned int i;
	long ret;

	if (m->all)
		return hart_mask_for_each(0, (unsigned long)-1, sbi_ipi_send_ssip, self);
	for (i = 0; i < m->words; i++) {
		ret = hart_mask_for_each(m->word[i], i * BITS_PER_LONG, sbi_ipi_send_ssip, self);
		if (ret)
			return ret;
	}
	return SBI_SUCCESS;
}

static long send_fences(const struct legacy_mask *m, const struct fence_request *req)
{
	unsigned int i;
	long ret;

	if (m->all)
		return fence_remote(0, (unsigned long)-1, req);
	for (i = 0; i < m->words; i++) {
		if (!m->word[i])
			continue;
		ret = fence_remote(m->word[i], i * BITS_PER_LONG, req);
		if (ret)
			return ret;
	}
	return SBI_SUCCESS;
}

static struct sbiret legacy_set_timer(unsigned long a0, unsigned long a1, unsigned long a2,
				      unsigned long a3, unsigned long a4, unsigned long a5,
				      unsigned long fid, struct hart *self)
{
	(void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	fw_event_count(self->fw_events, PMU_FW_SET_TIMER);
	timer_set_smode_deadline(self, a0);
	return SBI_RET(SBI_SUCCESS, a1);
}

static struct sbiret legacy_putchar(unsigned long a0, unsigned long a1, unsigned long a2,
				    unsigned long a3, unsigned long a4, unsigned long a5,
				    unsigned long fid, struct hart *self)
{
	(void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	console_putc((char)a0);
	self->smode_console_bytes++;
	return SBI_RET(0, a1);
}

static struct sbiret legacy_getchar(unsigned long a0, unsigned long a1, unsigned long a2,
				    unsigned long a3, unsigned long a4, unsigned long a5,
				    unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a0, (void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	return SBI_RET(console_getc(), a1);
}

/* "returns 0 if no IPI had been pending, or an implementation specific
 * positive value if an IPI had been pending": 1. */
static struct sbiret legacy_clear_ipi(unsigned long a0, unsigned long a1, unsigned long a2,
				      unsigned long a3, unsigned long a4, unsigned long a5,
				      unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a0, (void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	bool pending = csr_read(mip) & MIP_SSIP;

	csr_clear(mip, MIP_SSIP);
	return SBI_RET(pending ? 1 : 0, a1);
}

static struct sbiret legacy_send_ipi(unsigned long a0, unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long a4, unsigned long a5,
				     unsigned long fid, struct hart *self)
{
	struct legacy_mask m;
	struct mask_read r = read_hart_mask(a0, &m);

	(void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	if (r.faulted || r.error)
		return mask_call_result(&r, 0, a0, a1);
	return mask_call_result(&r, send_ipis(&m, self), a0, a1);
}

/* EIDs 0x05-0x07: a0 mask pointer, a1 start, a2 size, a3 ASID. */
static struct sbiret legacy_remote_fence(enum fence_kind kind, unsigned long a0,
					 unsigned long a1, unsigned long a2, unsigned long a3,
					 struct hart *self)
{
	struct fence_request req = { .kind = kind, .start = a1, .size = a2, .id = a3 };
	struct legacy_mask m;
	struct mask_read r = read_hart_mask(a0, &m);

	if (!r.faulted && !r.error && kind != FENCE_I)
		r.error = sbi_rfence_check(&req, self);
	if (r.faulted || r.error)
		return mask_call_result(&r, 0, a0, a1);
	return mask_call_result(&r, send_fences(&m, &req), a0, a1);
}

static struct sbiret legacy_remote_fence_i(unsigned long a0, unsigned long a1, unsigned long a2,
					   unsigned long a3, unsigned long a4, unsigned long a5,
					   unsigned long fid, struct hart *self)
{
	(void)a4, (void)a5, (void)fid;
	return legacy_remote_fence(FENCE_I, a0, a1, a2, a3, self);
}

static struct sbiret legacy_remote_sfence_vma(unsigned long a0, unsigned long a1,
					      unsigned long a2, unsigned long a3,
					      unsigned long a4, unsigned long a5,
					      unsigned long fid, struct hart *self)
{
	(void)a4, (void)a5, (void)fid;
	return legacy_remote_fence(FENCE_SFENCE_VMA, a0, a1, a2, a3, self);
}

static struct sbiret legacy_remote_sfence_vma_asid(unsigned long a0, unsigned long a1,
						   unsigned long a2, unsigned long a3,
						   unsigned long a4, unsigned long a5,
						   unsigned long fid, struct hart *self)
{
	(void)a4, (void)a5, (void)fid;
	return legacy_remote_fence(FENCE_SFENCE_VMA_ASID, a0, a1, a2, a3, self);
}

/* "doesn't return irrespective whether it succeeds or fails": when the
 * reset device is missing or does not act, the calling hart stops (HSM
 * STOPPED), so it still answers the other harts' IPIs and fences. */
static struct sbiret legacy_shutdown(unsigned long a0, unsigned long a1, unsigned long a2,
				     unsigned long a3, unsigned long a4, unsigned long a5,
				     unsigned long fid, struct hart *self)
{
	(void)self;
	(void)a0, (void)a2, (void)a3, (void)a4, (void)a5, (void)fid;
	system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_NONE);
	hsm_hart_stop();
	return SBI_RET(SBI_ERR_FAILED, a1);   /* the hart was not STARTED */
}

/* One descriptor per legacy EID, each with its own home in eid_table; the
 * banner names them all once, as LEGACY. */
#define LEGACY_EXTENSION(var, ext_name, eid, handler)	\
	static const struct sbi_extension var = {	\
		.name = (ext_name),			\
		.eid_first = (eid),			\
		.eid_last = (eid),			\
		.handle = (handler),			\
	};						\
	SBI_EXTENSION(var)

LEGACY_EXTENSION(sbi_legacy_set_timer, "LEGACY", SBI_EXT_LEGACY_SET_TIMER, legacy_set_timer);
LEGACY_EXTENSION(sbi_legacy_putchar, NULL, SBI_EXT_LEGACY_CONSOLE_PUTCHAR, legacy_putchar);
LEGACY_EXTENSION(sbi_legacy_getchar, NULL, SBI_EXT_LEGACY_CONSOLE_GETCHAR, legacy_getchar);
LEGACY_EXTENSION(sbi_legacy_clear_ipi, NULL, SBI_EXT_LEGACY_CLEAR_IPI, legacy_clear_ipi);
LEGACY_EXTENSION(sbi_legacy_send_ipi, NULL, SBI_EXT_LEGACY_SEND_IPI, legacy_send_ipi);
LEGACY_EXTENSION(sbi_legacy_fence_i, NULL, SBI_EXT_LEGACY_REMOTE_FENCE_I,
		 legacy_remote_fence_i);
LEGACY_EXTENSION(sbi_legacy_sfence_vma, NULL, SBI_EXT_LEGACY_REMOTE_SFENCE_VMA,
		 legacy_remote_sfence_vma);
LEGACY_EXTENSION(sbi_legacy_sfence_vma_asid, NULL, SBI_EXT_LEGACY_REMOTE_SFENCE_VMA_ASID,
		 legacy_remote_sfence_vma_asid);
LEGACY_EXTENSION(sbi_legacy_shutdown, NULL, SBI_EXT_LEGACY_SHUTDOWN, legacy_shutdown);
