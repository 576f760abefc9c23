/* SPDX-License-Identifier: BSD-2-Clause */
/* Start-up and trap entry shared by the N-Trace corpus programs (RV32/RV64). */

/* A fixed name for the symbol table: otherwise the assembler records the
 * name of its temporary object file and every build differs. */
    .file "crt0.S"
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define REGBYTES 8
#else
#define REG_S sw
#define REG_L lw
#define REGBYTES 4
#endif

/* Registers a C trap handler may clobber (the ABI's caller-saved set). */
#define FRAME_WORDS 16

    .section .text.start, "ax"
    .globl _start
_start:
    la      sp, __stack_top
    la      t0, trap_entry
    csrw    mtvec, t0
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    REG_S   zero, 0(t0)
    addi    t0, t0, REGBYTES
    j       1b
2:  call    main
    call    rt_exit
3:  j       3b

    .text
    .balign 4
    .globl trap_entry
trap_entry:
    addi    sp, sp, -FRAME_WORDS * REGBYTES
    REG_S   ra,  0 * REGBYTES(sp)
    REG_S   t0,  1 * REGBYTES(sp)
    REG_S   t1,  2 * REGBYTES(sp)
    REG_S   t2,  3 * REGBYTES(sp)
    REG_S   a0,  4 * REGBYTES(sp)
    REG_S   a1,  5 * REGBYTES(sp)
    REG_S   a2,  6 * REGBYTES(sp)
    REG_S   a3,  7 * REGBYTES(sp)
    REG_S   a4,  8 * REGBYTES(sp)
    REG_S   a5,  9 * REGBYTES(sp)
    REG_S   a6, 10 * REGBYTES(sp)
    REG_S   a7, 11 * REGBYTES(sp)
    REG_S   t3, 12 * REGBYTES(sp)
    REG_S   t4, 13 * REGBYTES(sp)
    REG_S   t5, 14 * REGBYTES(sp)
    REG_S   t6, 15 * REGBYTES(sp)
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    rt_trap
    /* rt_trap returns the pc to resume at. */
    csrw    mepc, a0
    REG_L   ra,  0 * REGBYTES(sp)
    REG_L   t0,  1 * REGBYTES(sp)
    REG_L   t1,  2 * REGBYTES(sp)
    REG_L   t2,  3 * REGBYTES(sp)
    REG_L   a0,  4 * REGBYTES(sp)
    REG_L   a1,  5 * REGBYTES(sp)
    REG_L   a2,  6 * REGBYTES(sp)
    REG_L   a3,  7 * REGBYTES(sp)
    REG_L   a4,  8 * REGBYTES(sp)
    REG_L   a5,  9 * REGBYTES(sp)
    REG_L   a6, 10 * REGBYTES(sp)
    REG_L   a7, 11 * REGBYTES(sp)
    REG_L   t3, 12 * REGBYTES(sp)
    REG_L   t4, 13 * REGBYTES(sp)
    REG_L   t5, 14 * REGBYTES(sp)
    REG_L   t6, 15 * REGBYTES(sp)
    addi    sp, sp, FRAME_WORDS * REGBYTES
    mret
