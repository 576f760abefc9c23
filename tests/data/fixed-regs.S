/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fixture of scripts/lint.sh's self-test of scripts/check-fixed-regs.sh:
 * code assembled without C (its mapping symbols say so), as picolibc's
 * string routines are, so objdump shows it as .2byte/.4byte words.  Every
 * function but `clean` names t3..t6 or gp.
 */
	.text
	.option arch, -c
	.globl uses_t3
uses_t3:
	.insn 2, 0x8e2a         /* c.mv t3, a0 (CR: rd) */
	.insn 2, 0x8082         /* c.jr ra */
	.globl uses_gp
uses_gp:
	.insn 2, 0x0185         /* c.addi gp, 1 (CI: rd) */
	.insn 2, 0x8082
	.globl stores_t5
stores_t5:
	.insn 2, 0xe07a         /* c.sdsp t5, 0(sp) (CSS: rs2) */
	.insn 2, 0x8082
	.globl uses_t4_hfence
uses_t4_hfence:
	.insn 4, 0x23de8073     /* hfence.gvma t4, t4 (SYSTEM: rs1, rs2) */
	.insn 2, 0x8082
	.globl clean
clean:
	.insn 2, 0x832a         /* c.mv t1, a0 */
	.insn 2, 0x8082
