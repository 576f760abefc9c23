/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What trace_trap_enter() (trace.h) leaves to the trap entry: every trap
 * of a hart the engine steps, but an SBI call, is first the engine's.
 * Values read by trap/trap.S.
 */
#ifndef FIRMWARE_TRACE_TRACE_TRAP_H
#define FIRMWARE_TRACE_TRACE_TRAP_H

/* Nothing left to do: the full exit. */
#define TRACE_TRAP_DONE    0
/* Nothing left to do, and the frame's s0..s11, mepc and mstatus are as
 * the trap left them (the common visit of block stepping): the exit
 * restores only the registers C code may have changed.  (DONE and LIGHT
 * are stepper_breakpoint()'s false and true.) */
#define TRACE_TRAP_LIGHT   1
/* Not the engine's: the ordinary handling (trap_handler_traced(): the
 * handler, then trace_trap_redirected() if it went to S-mode, then
 * trace_trap_done()). */
#define TRACE_TRAP_OTHER   2

#endif
