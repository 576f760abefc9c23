// SPDX-License-Identifier: BSD-2-Clause
/*
 * Run-time feature detection.  Every optional CSR is touched under a trap
 * guard (guard.h): an illegal-instruction trap means "not implemented".
 */
#include "firmware/core/features.h"
#include "firmware/core/guard.h"
#include "firmware/core/console.h"
#include "firmware/core/riscv_csr.h"

static unsigned int popcount(unsigned long v)
{
	return (unsigned int)__builtin_popcountl(v);
}

/* Write all-ones to a numbered CSR and read back what stuck (*v): false
 * when the CSR is missing or nothing stuck (hardwired to zero), else it is
 * left 0 again. */
static bool csr_holds_ones(unsigned int csr, unsigned long *v)
{
	if (csr_write_num(csr, -1UL) || csr_read_num(csr, v) || !*v)
		return false;
	csr_write_num(csr, 0);
	return true;
}

static void probe_pmp(struct hart_features *f)
{
	unsigned long v;
	unsigned int i;

	/* Entries are OFF at reset, so writing their address is harmless. */
	for (i = 0; i < 64 && csr_holds_ones(CSR_PMPADDR0 + i, &v); i++)
		;
	f->pmp_count = i;
	if (!i)
		return;
	/* Granularity: with entry 0 OFF, the low G-1 bits read back as zero
	 * (privileged spec, "Physical Memory Protection", granularity). */
	csr_write_num(CSR_PMPCFG0, 0);
	csr_holds_ones(CSR_PMPADDR0, &v);
	f->pmp_granularity = (unsigned int)__builtin_ctzl(v) + 2;
}

static void probe_hpm(struct hart_features *f)
{
	unsigned long v;
	unsigned int i;

	/* Privileged spec 1.10 harts (QEMU's sifive_u) have no mcountinhibit:
	 * then the PMU offers firmware counters only (pmu_hart_init). */
	f->mcountinhibit = csr_read_guarded(CSR_MCOUNTINHIBIT, &v) == 0;
	/* Such harts may trap reads of time too (time_csr.c). */
	f->time_csr = csr_read_guarded(CSR_TIME, &v) == 0;
	for (i = 3; i < 32; i++) {
		if (!csr_holds_ones(CSR_MHPMCOUNTER0 + i, &v))
			continue;
		f->hpm_mask |= 1u << i;
		if (!f->hpm_width)
			f->hpm_width = 64 - (unsigned int)__builtin_clzl(v);
	}
}

static void probe_triggers(struct hart_features *f)
{
	unsigned long v, tdata1;
	unsigned int i;

	for (i = 0; i < 32; i++) {
		if (csr_write_num(CSR_TSELECT, i) || csr_read_num(CSR_TSELECT, &v) || v != i)
			break;
		if (csr_read_num(CSR_TDATA1, &tdata1))
			break;
		/* tdata1.type (top 4 bits): 0 means no trigger at this index. */
		if ((tdata1 >> 60) == 0)
			break;
		f->trigger_types |= 1u << (tdata1 >> 60);
		/* The type is WARL: a trigger that resets as mcontrol may also
		 * take mcontrol6 (QEMU 7.2 does), which matches in VS/VU too. */
		if ((tdata1 >> 60) != 6 && !csr_write_num(CSR_TDATA1, 6UL << 60) &&
		    !csr_read_num(CSR_TDATA1, &v) && (v >> 60) == 6)
			f->trigger_types |= 1u << 6;
		csr_write_num(CSR_TDATA1, tdata1);
	}
	f->trigger_count = i;
	if (i)
		csr_write_num(CSR_TSELECT, 0);
}

/* Write all-ones into satp's / hgatp's ID field with a paging mode set and
 * count what sticks.  M-mode does not translate, so this is harmless. */
static void probe_id_bits(struct hart_features *f)
{
	unsigned long v;

	csr_write(satp, (8UL << SATP_MODE_SHIFT) | (SATP_ASID_MASK << SATP_ASID_SHIFT));
	v = csr_read(satp);
	csr_write(satp, 0);
	f->asid_bits = popcount((v >> SATP_ASID_SHIFT) & SATP_ASID_MASK);
	if (f->h) {
		csr_write_guarded(CSR_HGATP, (8UL << 60) | (HGATP_VMID_MASK << HGATP_VMID_SHIFT));
		csr_read_guarded(CSR_HGATP, &v);
		csr_write_guarded(CSR_HGATP, 0);
		f->vmid_bits = popcount((v >> HGATP_VMID_SHIFT) & HGATP_VMID_MASK);
	}
	sfence_vma_all();
}

/* One menvcfg bit (or field value) S-mode may be given: set it, read it
 * back, put menvcfg back.  Unimplemented bits are WARL zero. */
static bool menvcfg_takes(unsigned long field, unsigned long value)
{
	unsigned long old = csr_read(CSR_MENVCFG), got;

	csr_write(CSR_MENVCFG, (old & ~field) | value);
	got = csr_read(CSR_MENVCFG);
	csr_write(CSR_MENVCFG, old);
	return (got & field) == value;
}

void features_probe_fwft(struct fwft_support *s, bool menvcfg)
{
	unsigned long bits = (1UL << CAUSE_MISALIGNED_LOAD) | (1UL << CAUSE_MISALIGNED_STORE);
	unsigned long old = csr_read(medeleg), v;

	csr_write(medeleg, old | bits);
	*s = (struct fwft_support){ 0 };
	s->misaligned_deleg = (csr_read(medeleg) & bits) == bits;
	csr_write(medeleg, old);
	if (!menvcfg)
		return;
	s->zicfilp = menvcfg_takes(MENVCFG_LPE, MENVCFG_LPE);
	s->zicfiss = menvcfg_takes(MENVCFG_SSE, MENVCFG_SSE);
	s->ssdbltrp = menvcfg_takes(MENVCFG_DTE, MENVCFG_DTE);
	s->svadu = menvcfg_takes(MENVCFG_ADUE, MENVCFG_ADUE);
	for (v = 2; v <= 3; v++)
		if (menvcfg_takes(MENVCFG_PMM, v << MENVCFG_PMM_SHIFT))
			s->pmm_values |= (uint8_t)(1u << v);
}

void features_probe(struct hart_features *f)
{
	unsigned long misa = csr_read(misa), v;

	*f = (struct hart_features){ 0 };
	f->h = misa & (1UL << ('H' - 'A'));
	f->f = misa & (1UL << ('F' - 'A'));
	f->d = misa & (1UL << ('D' - 'A'));
	f->v = misa & (1UL << ('V' - 'A'));
	f->menvcfg = csr_read_guarded(CSR_MENVCFG, &v) == 0;
	f->sstc = csr_read_guarded(CSR_STIMECMP, &v) == 0;
	f->sscofpmf = csr_read_guarded(CSR_SCOUNTOVF, &v) == 0;
	f->smstateen = csr_read_guarded(CSR_MSTATEEN0, &v) == 0;
	probe_pmp(f);
	probe_hpm(f);
	probe_triggers(f);
	probe_id_bits(f);
}

void features_print(const struct hart_features *f)
{
	unsigned int t;

	printf("Features         : %s%s%s%s%s%s\n", f->sstc ? "sstc " : "",
	       f->sscofpmf ? "sscofpmf " : "", f->h ? "h " : "",
	       f->smstateen ? "smstateen " : "", f->f ? "f " : "", f->d ? "d" : "");
	printf("PMP              : %u entries, granularity %lu bytes\n", f->pmp_count,
	       f->pmp_count ? 1UL << f->pmp_granularity : 0UL);
	printf("HPM counters     : %u (mask 0x%x), %u bits%s\n", popcount(f->hpm_mask),
	       f->hpm_mask, f->hpm_width,
	       f->mcountinhibit ? "" : "; no mcountinhibit: PMU firmware counters only");
	printf("Debug triggers   : %u, types", f->trigger_count);
	for (t = 0; t < 16; t++)
		if (f->trigger_types & (1u << t))
			printf(" %u", t);
	printf("\nASID / VMID bits : %u / %u\n", f->asid_bits, f->vmid_bits);
}
