/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What an SBI function returns (sbi/binary-encoding.adoc, "Binary
 * Encoding"): the core's services return it, the ecall front ends pass it
 * on.  Apart from the extension registry (sbi/ecall.h) so that a service
 * needs no part of the dispatch to say what it returns.
 */
#ifndef FIRMWARE_CORE_SBIRET_H
#define FIRMWARE_CORE_SBIRET_H

#ifndef __ASSEMBLER__
/*
 * A handler returns error/value in a0/a1 (psABI: a two-XLEN aggregate comes back in
 * registers).  The 16-byte alignment changes neither size nor registers; it
 * makes GCC 12 treat the struct as one 128-bit value, so a handler that
 * tail-calls another stops reserving a stack slot it never uses (two
 * instructions on every such call, e.g. pmu_handle -> pmu_counter_start).
 */
struct __attribute__((aligned(16))) sbiret {
	long error;
	long value;
};

#define SBI_RET(err, val) ((struct sbiret){ .error = (err), .value = (long)(val) })
#define SBI_ERR(err) SBI_RET(err, 0)
#endif

#endif
