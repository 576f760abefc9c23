/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runtime of the S-mode test payloads: CSR access, SBI calls, console,
 * trap recording, the device tree facts the tests need, and the
 * secondary-hart service.
 */
#ifndef TARGET_RT_H
#define TARGET_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#include "firmware/core/sbi_spec.h"

#define MAX_HARTS 8
#define STACK_SIZE 16384

/* ---- CSRs (privileged spec, supervisor-level CSR numbers) ---- */
#define CSR_SSTATUS  0x100
#define CSR_SIE      0x104
#define CSR_STVEC    0x105
#define CSR_SIP      0x144
#define CSR_SATP     0x180
#define CSR_STIMECMP 0x14D
#define CSR_TIME     0xC01
#define CSR_INSTRET  0xC02

#define SSTATUS_SIE (1ul << 1)
#define SSTATUS_SPIE (1ul << 5)
#define SSTATUS_SPP (1ul << 8)
#define SIP_SSIP    (1ul << 1)
#define SIP_STIP    (1ul << 5)
#define SIP_SEIP    (1ul << 9)
#define SIE_SSIE    SIP_SSIP
#define SIE_STIE    SIP_STIP
#define SIE_SEIE    SIP_SEIP
#define SIP_LCOFIP  (1ul << 13)   /* Sscofpmf local counter overflow */
#define SIE_LCOFIE  SIP_LCOFIP

#define SCAUSE_INTERRUPT        (1ul << 63)
#define IRQ_S_SOFT              1
#define IRQ_S_TIMER             5
#define IRQ_S_EXT               9
#define IRQ_S_LCOF              13
#define EXC_INSN_ACCESS_FAULT   1
#define EXC_ILLEGAL_INSN        2
#define EXC_BREAKPOINT          3
#define EXC_LOAD_ACCESS_FAULT   5
#define EXC_STORE_ACCESS_FAULT  7
#define EXC_INSN_PAGE_FAULT     12

#define csr_read(csr) ({ unsigned long __v; \
	__asm__ volatile("csrr %0, " #csr : "=r"(__v) :: "memory"); __v; })
#define csr_write(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ volatile("csrw " #csr ", %0" :: "rK"(__v) : "memory"); })
#define csr_set(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ volatile("csrs " #csr ", %0" :: "rK"(__v) : "memory"); })
#define csr_clear(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ volatile("csrc " #csr ", %0" :: "rK"(__v) : "memory"); })

static inline uint64_t read_time(void) { return csr_read(time); }
static inline uint64_t read_instret(void) { return csr_read(instret); }
static inline void wfi(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void irq_disable(void) { csr_clear(sstatus, SSTATUS_SIE); }
static inline void irq_enable(void) { csr_set(sstatus, SSTATUS_SIE); }

/* ---- SBI calls (binary encoding chapter) ---- */
struct sbiret {
	long error;
	long value;
};

struct sbiret sbi_ecall(unsigned long eid, unsigned long fid, unsigned long a0,
			unsigned long a1, unsigned long a2, unsigned long a3,
			unsigned long a4, unsigned long a5);
/* Legacy extensions return one value in a0 and ignore a6. */
long sbi_legacy(unsigned long eid, unsigned long a0);

#define SBI0(e, f)                 sbi_ecall(e, f, 0, 0, 0, 0, 0, 0)
#define SBI1(e, f, a)              sbi_ecall(e, f, a, 0, 0, 0, 0, 0)
#define SBI2(e, f, a, b)           sbi_ecall(e, f, a, b, 0, 0, 0, 0)
#define SBI3(e, f, a, b, c)        sbi_ecall(e, f, a, b, c, 0, 0, 0)

static inline struct sbiret sbi_probe(long eid)
{ return SBI1(SBI_EXT_BASE, SBI_BASE_PROBE_EXTENSION, eid); }
static inline struct sbiret sbi_set_timer(uint64_t when)
{ return SBI1(SBI_EXT_TIME, SBI_TIME_SET_TIMER, when); }
static inline struct sbiret sbi_send_ipi(unsigned long mask, unsigned long base)
{ return SBI2(SBI_EXT_IPI, SBI_IPI_SEND_IPI, mask, base); }
static inline struct sbiret sbi_hart_start(unsigned long hart, unsigned long addr,
					   unsigned long opaque)
{ return SBI3(SBI_EXT_HSM, SBI_HSM_HART_START, hart, addr, opaque); }
static inline struct sbiret sbi_hart_stop(void)
{ return SBI0(SBI_EXT_HSM, SBI_HSM_HART_STOP); }
static inline struct sbiret sbi_hart_status(unsigned long hart)
{ return SBI1(SBI_EXT_HSM, SBI_HSM_HART_GET_STATUS, hart); }
static inline struct sbiret sbi_hart_suspend(unsigned long type, unsigned long addr,
					     unsigned long opaque)
{ return SBI3(SBI_EXT_HSM, SBI_HSM_HART_SUSPEND, type, addr, opaque); }
static inline struct sbiret sbi_system_reset(unsigned long type, unsigned long reason)
{ return SBI2(SBI_EXT_SRST, SBI_SRST_SYSTEM_RESET, type, reason); }

const char *sbi_error_name(long error);
void sbi_shutdown(void) __attribute__((noreturn));

/* ---- Console (legacy putchar, EID 0x01) ---- */
void con_putc(char c);
void con_puts(const char *s);
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Traps ---- */
struct trap_frame {
	unsigned long regs[32];   /* x0..x31; regs[2] is the interrupted sp */
	unsigned long sepc, scause, stval, sstatus;
};

/* What one hart's trap handler saw; written by the handler, read by tests. */
struct trap_record {
	volatile bool expecting;       /* a test expects a synchronous fault */
	volatile bool resume_at_ra;    /* resume at ra instead of the next insn */
	volatile bool faulted;
	volatile unsigned long cause, tval, epc;
	volatile unsigned long status;   /* sstatus at the expected fault */
	volatile unsigned long unexpected;   /* unexpected exceptions taken */
	volatile unsigned long last_unexpected_cause, last_unexpected_epc;
	volatile unsigned long ssi_count, sti_count, sei_count, lcofi_count;
	volatile unsigned long lcofi_scountovf;   /* scountovf at the last LCOFI */
	volatile uint64_t sti_time;    /* `time` when the last STI was taken */
};

void trap_init_hart(void);
struct trap_record *trap_record_of(unsigned long hartid);
unsigned long current_hart(void);     /* from sscratch, valid in any context */

/* Arm the expect-fault mechanism, then end it: returns whether a synchronous
 * exception was taken in between (its scause and stval in *cause and *tval). */
void fault_expect(bool resume_at_ra);
bool fault_end(unsigned long *cause, unsigned long *tval);
/* Guarded accesses (faulting instruction is skipped, *val untouched). */
bool probe_load64(uintptr_t addr, uint64_t *val, unsigned long *cause);
bool probe_store64(uintptr_t addr, uint64_t val, unsigned long *cause);
bool probe_exec(uintptr_t addr, unsigned long *cause);
bool probe_csr_stimecmp(uint64_t *val);
bool probe_hfence_gvma(void);
/* Unguarded accesses: pair with fault_expect/fault_end. */
uint64_t raw_load64(uintptr_t addr);
void raw_store64(uintptr_t addr, uint64_t val);

/* ---- Platform facts from the DTB ---- */

/* A node compatible "riscv,trace-component" (trace-component-dt-binding.md):
 * its register block, the hart its `cpus` phandle names, and the OF graph
 * endpoints under its out-ports (an encoder) or in-ports (a sink). */
#define MAX_TRACE_COMPONENTS (2 * MAX_HARTS + 4)
#define MAX_TRACE_ENDPOINTS 2
struct trace_component {
	uint64_t base, size;          /* first reg entry; size 0: no reg */
	bool enabled;                 /* status absent or "okay" */
	const char *compatible;       /* the whole string list, in the DTB */
	uint32_t compatible_len;
	uint32_t cpus_phandle;        /* 0: no cpus property */
	long hart;                    /* reg of that cpu node; -1: not a hart */
	bool out_ports, in_ports;     /* has an out-ports / in-ports child */
	int nendpoints;
	struct {
		bool out;             /* under out-ports (else in-ports) */
		uint32_t phandle;     /* the endpoint's own phandle (0: none) */
		uint32_t remote;      /* remote-endpoint (0: none) */
	} ep[MAX_TRACE_ENDPOINTS];
};

struct platform {
	unsigned long boot_hart;
	int nharts;
	unsigned long hart_ids[MAX_HARTS];
	unsigned long max_hart_id;
	uint64_t ram_base, ram_size;
	uint64_t ram_top;        /* end of the highest RAM range of the DT */
	uint64_t timebase_hz;
	int nreserved;
	uint64_t reserved_base[8], reserved_size[8];
	uintptr_t dtb;
	uint32_t dtb_size;
	char bootargs[256];
	uint32_t hart_phandle[MAX_HARTS];   /* phandle of each /cpus node (0: none) */
	int ntrace;                          /* trace components found */
	bool trace_overflow;                 /* more than MAX_TRACE_COMPONENTS or
	                                      * endpoints: the DT has more than this
	                                      * table holds */
	struct trace_component trace[MAX_TRACE_COMPONENTS];
};
extern struct platform plat;

int platform_init(unsigned long hartid, uintptr_t dtb);   /* 0 or error text printed */
/* Whether c is the trace encoder (or RAM sink) of a hart; that component's
 * base from the DT, 0 when there is none. */
bool trace_component_is(const struct trace_component *c, unsigned long hart, bool encoder);
uint64_t trace_component_of(unsigned long hart, bool encoder);
/* Word `key=value` in bootargs: copies value, returns true when present. */
bool bootarg(const char *key, char *val, size_t size);
bool bootarg_flag(const char *key);
/* Decimal `key=N` in bootargs; dflt when absent or not a number. */
unsigned long bootarg_ulong(const char *key, unsigned long dflt);
/* First reserved region (the firmware) and its end. */
uint64_t fw_base(void);
uint64_t fw_end(void);
uint64_t ram_end(void);
int hart_index(unsigned long hartid);   /* -1 when not a hart of the platform */

/* ---- Timing ---- */
uint64_t us_to_ticks(uint64_t us);
/* Sleep until `time` >= deadline with wfi on an SBI timer, then cancel it.
 * Must not be used while a test owns the timer. */
void sleep_until(uint64_t deadline);
void delay_us(uint64_t us);

/* ---- Secondary harts ---- */
typedef long (*hart_fn)(unsigned long arg);

/* What a hart recorded when it entered at secondary_entry. */
struct hart_entry_info {
	volatile unsigned long count;     /* entries so far */
	volatile unsigned long a0, a1, satp, sstatus;
};

struct hart_mailbox {
	volatile hart_fn fn;
	volatile unsigned long arg;
	volatile unsigned long req_seq, done_seq;
	volatile long result;
	struct hart_entry_info entry;
};

extern struct hart_mailbox mailbox[MAX_HARTS];
extern char secondary_entry[];
/* The instruction after sbi_ecall()'s ecall (where an SBI call returns). */
extern char sbi_ecall_return[];

/* Ask a started, parked secondary hart to run fn(arg). */
void hart_post(unsigned long hartid, hart_fn fn, unsigned long arg);
/* Wait for the posted call to finish; false on timeout. */
bool hart_wait(unsigned long hartid, uint64_t timeout_us, long *result);
bool hart_call(unsigned long hartid, hart_fn fn, unsigned long arg,
	       uint64_t timeout_us, long *result);
/* Wait until the hart's entry count exceeds `old` (it entered secondary_entry). */
bool hart_wait_entry(unsigned long hartid, unsigned long old, uint64_t timeout_us);
/* Wait until HSM reports `state` for the hart. */
bool hart_wait_state(unsigned long hartid, long state, uint64_t timeout_us, long *last);
/* Start every stopped secondary hart; false when one does not come up. */
bool secondaries_start_all(char *why, size_t size);
/* satp's MODE for Sv39, and its page table entry bits (privileged spec, "Sv39"). */
#define SATP_MODE_SV39 (8ul << 60)
#define PTE_V 0x01ul
#define PTE_R 0x02ul
#define PTE_W 0x04ul
#define PTE_X 0x08ul
#define PTE_A 0x40ul
#define PTE_D 0x80ul
/* Turn on an Sv39 identity map of the low 4 GiB on this hart. */
void mmu_enable_identity(void);
/* Wait (wfi, bounded) until cond(arg) holds. */
bool wait_for(bool (*cond)(unsigned long), unsigned long arg, uint64_t timeout_us);

/* ---- Misc ---- */
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

extern unsigned long boot_instret;   /* instret at the first instruction */
extern char __image_start[], __image_end[], __noinit_page[];

#endif
