/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Emulation of the CSR instructions and SCTRCLR that reach CTR state on a
 * hart without Smctr/Ssctr: the illegal-instruction trap they raise is
 * decoded here and applied to the register model (ctr_model.h).  Pure:
 * the caller passes the instruction, the mode it ran in and the GPRs.
 */
#ifndef TRACE_CTR_CSR_H
#define TRACE_CTR_CSR_H

#include <stdbool.h>
#include <stdint.h>
#include "firmware/ctr/ctr_model.h"

enum ctr_csr_result {
	CTR_CSR_NOT_CTR,   /* not CTR's: the illegal instruction stands */
	CTR_CSR_DONE,      /* emulated: rd written, continue after it */
	CTR_CSR_ILLEGAL,   /* CTR's, but illegal from this mode */
	CTR_CSR_VIRTUAL,   /* CTR's, and a virtual-instruction exception */
};

/* `x`: x0..x31 of the trapped context (x[0] reads 0 and is never
 * written); `has_h`: the hart has the H extension (vsctrctl exists). */
enum ctr_csr_result ctr_csr_emulate(struct ctr_state *s, uint32_t insn, enum ctr_mode mode,
				    bool has_h, unsigned long x[32]);

#endif
