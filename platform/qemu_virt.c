// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU "virt": its DTB describes everything, so the only board knowledge
 * here is where the UART sits, to report a DTB that cannot be read.
 */
#include "firmware/core/platform.h"

const struct platform_desc platform_qemu_virt = {
	.name = "qemu-virt",
	.compatible = "riscv-virtio",
	.early_uart = 0x10000000,
	.early_uart_shift = 0,
};
