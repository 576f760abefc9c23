// SPDX-License-Identifier: BSD-2-Clause
/*
 * When the firmware itself goes wrong: an unexpected trap in M-mode (trap.S
 * sends it to m_fault_panic on the hart's panic stack), a damaged stack
 * canary, or an explicit panic().  Each prints what a developer needs --
 * hart, mcause, mepc, mtval, a backtrace with firmware symbols -- and stops
 * the whole machine: the other harts are told to halt, then a system reset
 * with a failure reason (QEMU's test finisher: exit status 3, as an SRST
 * system-failure shutdown) or a plain power-off, else every hart parks.
 * Nothing here trusts the state it reports on: a second fault while
 * reporting parks the hart (mtvec = park_trap), and only the first hart to
 * panic reports.
 */
#include <stdarg.h>
#include <stdint.h>
#include "firmware/core/console.h"
#include "firmware/core/hart.h"
#include "firmware/service/ipi.h"
#include "firmware/service/panic.h"
#include "firmware/core/riscv_csr.h"
#include "firmware/core/trap_regs.h"
#include "firmware/service/reset.h"

/* The symbol table the second link adds (mk/80-firmware.mk,
 * scripts/gen-fwsyms.py): sorted offsets from _fw_start and names. */
extern const unsigned int fw_sym_count;
extern const uint32_t fw_sym_offset[];
extern const uint16_t fw_sym_name[];
extern const char fw_sym_names[];
extern char _fw_start[], _text_end[];
extern char park_trap[];

#define BACKTRACE_MAX 16

static int panic_owner = -1;   /* index + 1 of the reporting hart, or -1 */

static bool in_text(unsigned long pc)
{
	return pc >= (unsigned long)_fw_start && pc < (unsigned long)_text_end && !(pc & 1);
}

/* Prints " name+0xoff" for pc, or nothing when no symbol covers it. */
static void print_symbol(unsigned long pc)
{
	unsigned long off = pc - (unsigned long)_fw_start;
	unsigned int lo = 0, hi = fw_sym_count;

	if (!in_text(pc) || !hi || off < fw_sym_offset[0])
		return;
	while (hi - lo > 1) {   /* last symbol at or below off */
		unsigned int mid = lo + (hi - lo) / 2;

		if (fw_sym_offset[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	printf(" %s+0x%lx", fw_sym_names + fw_sym_name[lo], off - fw_sym_offset[lo]);
}

/* A return address: the instruction before it is a call through ra
 * (jal ra / jalr ra, or c.jalr; unprivileged spec, "RV32I Base Integer
 * Instruction Set" and "RVC"). */
static bool after_call(unsigned long ra)
{
	const uint16_t *p = (const uint16_t *)ra;
	uint32_t insn;

	if (!in_text(ra) || ra - 4 < (unsigned long)_fw_start)
		return false;
	insn = (uint32_t)p[-2] | (uint32_t)p[-1] << 16;
	if ((insn & 0xfff) == 0x0ef || (insn & 0x7fff) == 0x00e7)
		return true;
	return (p[-1] & 0xf07f) == 0x9002 && (p[-1] & 0x0f80);
}

/* A return address is named by its call (the instruction before it): a
 * call that ends a function returns to the start of the next one. */
static void print_frame(unsigned int n, unsigned long pc, bool is_return)
{
	printf("tracesbi:   #%u 0x%lx", n, pc);
	print_symbol(is_return ? pc - 2 : pc);
	printf("\n");
}

/*
 * The firmware is built without frame pointers, so the backtrace scans
 * the stack: pc, then every word between sp and `limit` that is a return
 * address into firmware code.  A scan can show a stale return address
 * from an earlier call; each line is a real call site.
 */
static void backtrace(unsigned long pc, unsigned long ra, unsigned long sp, unsigned long limit)
{
	unsigned int n = 0;

	printf("tracesbi: backtrace (stack 0x%lx-0x%lx):\n", sp, limit);
	print_frame(n++, pc, false);
	if (after_call(ra))
		print_frame(n++, ra, true);
	for (sp = (sp + 7) & ~7UL; sp + 8 <= limit && n < BACKTRACE_MAX; sp += 8) {
		unsigned long w = *(const unsigned long *)sp;

		if (w != ra && after_call(w))
			print_frame(n++, w, true);
	}
}

/* Only the first hart to panic reports; any other parks at once. */
static void claim_report(const struct hart *self)
{
	int me = self ? (int)self->index + 1 : 0, none = -1;

	csr_write(mie, 0);
	csr_write(mtvec, (unsigned long)park_trap);
	if (!__atomic_compare_exchange_n(&panic_owner, &none, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		for (;;)
			wfi();
	console_break_lock();
}

static void __attribute__((noreturn)) stop_machine(const struct hart *self)
{
	for (unsigned int i = 0; i < hart_count; i++) {
		struct hart *h = hart_table[i];

		if (h && h != self)
			ipi_post(h, IPI_EVENT_HALT);
	}
	printf("tracesbi: machine stopped\n");
	system_failure_shutdown();
	for (;;)
		wfi();
}

void m_fault_panic(struct trap_regs *regs)
{
	struct hart *self = (struct hart *)((char *)regs + TRAP_REGS_SIZE);
	unsigned long frame = (unsigned long)regs, sp = regs->x[2];
	unsigned long base = frame + TRAP_REGS_SIZE + HART_STRUCT_SIZE - HART_STACK_SIZE;

	claim_report(self);
	printf("\ntracesbi: M-mode fault on hart %lu: mcause 0x%lx mepc 0x%lx mtval 0x%lx\n",
	       self->hartid, csr_read(mcause), regs->mepc, csr_read(mtval));
	printf("tracesbi: at");
	print_symbol(regs->mepc);
	printf(", ra 0x%lx sp 0x%lx%s\n", regs->x[1], sp,
	       hart_stack_canary_ok(self) ? "" : ", stack canary overwritten (overflow)");
	/* The faulting code's stack, if sp still points into it (above the
	 * panic stack this report runs on); else pc and ra only. */
	if (sp < base + HART_PANIC_STACK || sp >= frame)
		sp = frame;
	backtrace(regs->mepc, regs->x[1], sp, frame);
	stop_machine(self);
}

void hart_stack_overflow_panic(struct hart *self, unsigned long pc)
{
	claim_report(self);
	printf("\ntracesbi: M-mode stack overflow on hart %lu: the canary at 0x%lx is 0x%lx "
	       "(detected at 0x%lx)\n", self->hartid, (unsigned long)hart_stack_canary(self),
	       *hart_stack_canary(self), pc);
	stop_machine(self);
}

/* This hart's struct when it runs on its own stack (not the boot stack of
 * cold boot), found without reading through a pointer that may be wrong. */
static struct hart *current_hart(void)
{
	struct hart *h = hart_self();

	for (unsigned int i = 0; i < hart_count; i++)
		if (hart_table[i] == h)
			return h;
	return NULL;
}

void panic(const char *fmt, ...)
{
	unsigned long sp = (unsigned long)__builtin_frame_address(0);
	struct hart *self = current_hart();
	va_list ap;

	claim_report(self);
	va_start(ap, fmt);
	printf("\ntracesbi: panic: ");
	vprintf(fmt, ap);
	va_end(ap);
	backtrace((unsigned long)__builtin_return_address(0) - 2, 0, sp,
		  (sp | (HART_STACK_SIZE - 1)) + 1);
	stop_machine(self);
}
