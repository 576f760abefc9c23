/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A kernel in miniature for the ntrace tool's tests of --elf FILE@ADDR
 * (tools/ntrace/loadmap.c): linked like Linux's vmlinux (kern.ld: virtual
 * addresses at 0xffffffff80000000, load addresses from 0), it starts where
 * a loader put its image, with the MMU off, calls a function there, then
 * jumps to its own virtual address and calls the same function again.  Its
 * pc-relative code runs at both addresses.  Built with -mno-relax so the
 * addresses are fixed; kern.pcs is its retired-instruction sequence loaded
 * at 0x80200000.  kern.ld also gives helper an alias without a size, as
 * Linux's vmlinux.lds gives its functions `__efistub_` names.
 */
	.section .head.text, "ax"
	.globl _start
_start:
	li	a0, 2			/* c.li */
1:
	call	helper			/* auipc + jalr: pc-relative, at the load address */
	addi	a0, a0, -1
	bnez	a0, 1b
	/* "MMU on": continue at the virtual address (an absolute one) */
2:
	auipc	t0, %pcrel_hi(virt_addr)
	ld	t0, %pcrel_lo(2b)(t0)
	jr	t0
	.balign 8
virt_addr:
	.dword	virt_entry

	.section .text, "ax"
	.globl helper
helper:
	addi	a1, a1, 1
	ret
	.size	helper, . - helper	/* sized, as Linux's asm functions are */

	.section .init.text, "ax"
	.globl virt_entry
virt_entry:
	call	helper			/* the same function at its virtual address */
	j	done
done:
	j	done

	.section .data, "aw"
	.globl counter
counter:
	.dword	0
