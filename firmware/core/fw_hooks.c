// SPDX-License-Identifier: BSD-2-Clause
/* The walks of the subsystems' hooks (fw_hooks.h). */
#include <stddef.h>
#include "firmware/core/fw_hooks.h"

HOOK_TABLE(fw, const struct fw_hooks);

#define CALL_EACH(member, ...)                          \
	do {                                            \
		const struct fw_hooks *const *h_;       \
		hook_for_each(fw, h_)                   \
			if ((*h_)->member)              \
				(*h_)->member(__VA_ARGS__); \
	} while (0)

void fw_hooks_hart_reset(struct hart *self)
{
	CALL_EACH(hart_reset, self);
}

void fw_hooks_hart_suspend(struct hart *self)
{
	CALL_EACH(hart_suspend, self);
}

void fw_hooks_hart_resume(struct hart *self)
{
	const struct fw_hooks *const *h;

	hook_for_each_reverse(fw, h)
		if ((*h)->hart_resume)
			(*h)->hart_resume(self);
}

void fw_hooks_hart_leaving(struct hart *self)
{
	CALL_EACH(hart_leaving, self);
}

void fw_hooks_hart_entering(struct hart *self, unsigned long addr, unsigned long mode)
{
	CALL_EACH(hart_entering, self, addr, mode);
}

void fw_hooks_wait_done(struct hart *self)
{
	CALL_EACH(wait_done, self);
}

void fw_hooks_code_changed(struct hart *self, const struct fence_request *req)
{
	CALL_EACH(code_changed, self, req);
}

void fw_hooks_ipi(struct hart *self, uint32_t events, struct trap_regs *regs)
{
	const struct fw_hooks *const *h;

	hook_for_each(fw, h)
		if ((events & (*h)->ipi_events) && (*h)->ipi)
			(*h)->ipi(self, regs);
}

bool fw_hooks_before_reset(void)
{
	const struct fw_hooks *const *h;
	bool hold = false;

	hook_for_each(fw, h)
		if ((*h)->before_reset)
			hold |= (*h)->before_reset();
	return hold;
}
