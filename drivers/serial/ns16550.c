// SPDX-License-Identifier: BSD-2-Clause
/*
 * NS16550-compatible UART ("ns16550a", "ns16550", and the Synopsys
 * DesignWare APB UART "snps,dw-apb-uart", a 16550 whose registers sit
 * 1 << reg-shift bytes apart and take reg-io-width-byte accesses): polled
 * transmit and receive.  The firmware never enables its interrupts (nor
 * writes LCR, which the DesignWare UART refuses while busy); S-mode owns
 * the UART through its own driver once it boots.
 */
#include <stdint.h>
#include "firmware/core/console.h"
#include "firmware/core/driver.h"
#include "drivers/serial/ns16550.h"

#define UART_THR 0    /* transmit holding register (write) */
#define UART_RBR 0    /* receive buffer register (read) */
#define UART_LSR 5    /* line status register */
#define UART_LSR_DR   0x01
#define UART_LSR_THRE 0x20

static struct {
	volatile uint8_t *base;
	unsigned int shift;
	unsigned int width;       /* reg-io-width: 1 or 4 */
} uart;

static uint8_t uart_read(unsigned int reg)
{
	volatile uint8_t *p = uart.base + (reg << uart.shift);

	if (uart.width == 4)
		return (uint8_t)*(volatile uint32_t *)p;
	return *p;
}

static void uart_write(unsigned int reg, uint8_t v)
{
	volatile uint8_t *p = uart.base + (reg << uart.shift);

	if (uart.width == 4)
		*(volatile uint32_t *)p = v;
	else
		*p = v;
}

static void ns16550_putc(char c)
{
	while (!(uart_read(UART_LSR) & UART_LSR_THRE))
		;
	uart_write(UART_THR, (uint8_t)c);
}

static int ns16550_getc(void)
{
	if (uart_read(UART_LSR) & UART_LSR_DR)
		return uart_read(UART_RBR);
	return -1;
}

static const struct console_device ns16550_console = {
	.name = "ns16550",
	.putc = ns16550_putc,
	.getc = ns16550_getc,
};

static void uart_attach(uintptr_t base, unsigned int shift, unsigned int width)
{
	uart.base = (volatile uint8_t *)base;
	uart.shift = shift;
	uart.width = width;
	console_register(&ns16550_console);
}

void ns16550_init_early(uintptr_t base, unsigned int reg_shift)
{
	uart_attach(base, reg_shift, 1);
}

static int ns16550_probe(const struct fdt *fdt, int node)
{
	uint64_t base, size;
	uint32_t shift = 0, width = 1;

	if (!fdt_is_compatible(fdt, node, "ns16550a") &&
	    !fdt_is_compatible(fdt, node, "ns16550") &&
	    !fdt_is_compatible(fdt, node, "snps,dw-apb-uart"))
		return -1;
	if (fdt_get_reg(fdt, node, 0, &base, &size) < 0)
		return -1;
	fdt_prop_u32(fdt, node, "reg-shift", &shift);
	fdt_prop_u32(fdt, node, "reg-io-width", &width);
	if (shift > 4 || (width != 1 && width != 4))
		return -1;
	uart_attach((uintptr_t)base, shift, width);
	return 0;
}

CONSOLE_DRIVER(10, ns16550a_console_driver, "ns16550a", ns16550_probe);
CONSOLE_DRIVER(11, ns16550_console_driver, "ns16550", ns16550_probe);
CONSOLE_DRIVER(12, dw_apb_uart_console_driver, "snps,dw-apb-uart", ns16550_probe);
