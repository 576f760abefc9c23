// SPDX-License-Identifier: BSD-2-Clause
/*
 * ctrdata.TYPE of an instruction that retires without trapping, by the
 * table "Control Transfer Type Definitions" of Smctr/Ssctr 1.0 (the
 * E-Trace itype definitions), from lib/rvinsn's decode.  Traps (types 1
 * and 2) are known only where they are taken, not from the opcode.
 */
#include "firmware/ctr/ctr_model.h"
#include "lib/rvinsn/rvinsn.h"

/* jal, c.j, c.jal (rd = x1 on RV32). */
static enum ctr_type direct_jump(unsigned int rd)
{
	if (rd == 0)
		return CTR_TYPE_DIRECT_JUMP;
	return rv_is_link_reg(rd) ? CTR_TYPE_DIRECT_CALL : CTR_TYPE_OTHER_DIRECT_JUMP;
}

/* jalr, c.jr (rd = 0), c.jalr (rd = x1). */
static enum ctr_type indirect_jump(unsigned int rd, unsigned int rs1)
{
	bool rd_link = rv_is_link_reg(rd), rs_link = rv_is_link_reg(rs1);

	if (rd_link && rs_link && rd != rs1)
		return CTR_TYPE_CO_ROUTINE_SWAP;   /* x1,x5 / x5,x1 / c.jalr x5 */
	if (rd_link)
		return CTR_TYPE_INDIRECT_CALL;
	if (rs_link)
		return CTR_TYPE_FUNCTION_RETURN;
	return rd == 0 ? CTR_TYPE_INDIRECT_JUMP : CTR_TYPE_OTHER_INDIRECT_JUMP;
}

enum ctr_type ctr_classify(const struct rv_insn *in, bool taken)
{
	switch (in->kind) {
	case RV_INSN_BRANCH:
		return taken ? CTR_TYPE_TAKEN_BRANCH : CTR_TYPE_NOT_TAKEN_BRANCH;
	case RV_INSN_JUMP:
		return direct_jump(in->rd);
	case RV_INSN_JUMP_REG:
		return indirect_jump(in->rd, in->rs1);
	case RV_INSN_TABLE_JUMP:   /* cm.jalt links x1, cm.jt does not */
		return in->rd ? CTR_TYPE_DIRECT_CALL : CTR_TYPE_DIRECT_JUMP;
	case RV_INSN_POPRET:
		return CTR_TYPE_FUNCTION_RETURN;
	case RV_INSN_TRAP_RETURN:
		return CTR_TYPE_TRAP_RETURN;
	default:
		return CTR_TYPE_NONE;
	}
}
