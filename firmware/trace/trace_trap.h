/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What trace_trap_enter() (trace.h) leaves to the trap entry: every trap
 * of a hart the engine steps, but an SBI call, is first the engine's.
 * Values read by trap/trap.S.
 */
#ifndef FIRMWARE_TRACE_TRACE_TRAP_H
#define FIRMWARE_TRACE_TRACE_TRAP_H

/* Not the engine's: the ordinary handling (trap_handler), then
 * trace_trap_redirected() if it went to S-mode, then trace_trap_done(). */
#define TRACE_TRAP_OTHER   0
/* Handled by the engine (delivered and reported): trace_trap_done(). */
#define TRACE_TRAP_HANDLED 1
/* Nothing left to do: the full exit. */
#define TRACE_TRAP_DONE    2
/* Nothing left to do, and the frame's s0..s11, mepc and mstatus are as
 * the trap left them (the common visit of block stepping): the exit
 * restores only the registers C code may have changed. */
#define TRACE_TRAP_LIGHT   3

#endif
