// SPDX-License-Identifier: BSD-2-Clause
/*
 * SiFive UART ("sifive,uart0", FU540-C000 manual, chapter UART): polled
 * transmit and receive through 32-bit txdata / rxdata registers, whose bit
 * 31 says "transmit FIFO full" / "receive FIFO empty".  The baud divisor is
 * left as the previous boot stage set it (QEMU ignores it); the firmware
 * only makes sure transmit and receive are enabled.
 */
#include <stdint.h>
#include "firmware/core/console.h"
#include "firmware/core/driver.h"

#define SIFIVE_UART_TXDATA 0x00
#define SIFIVE_UART_RXDATA 0x04
#define SIFIVE_UART_TXCTRL 0x08
#define SIFIVE_UART_RXCTRL 0x0c
#define SIFIVE_UART_TXDATA_FULL  (1u << 31)
#define SIFIVE_UART_RXDATA_EMPTY (1u << 31)
#define SIFIVE_UART_TXCTRL_TXEN  (1u << 0)
#define SIFIVE_UART_RXCTRL_RXEN  (1u << 0)

static volatile uint8_t *uart_base;

static volatile uint32_t *uart_reg(unsigned int offset)
{
	return (volatile uint32_t *)(uart_base + offset);
}

static void sifive_uart_putc(char c)
{
	while (*uart_reg(SIFIVE_UART_TXDATA) & SIFIVE_UART_TXDATA_FULL)
		;
	*uart_reg(SIFIVE_UART_TXDATA) = (uint8_t)c;
}

/* Reading rxdata pops the FIFO: one read decides both "empty" and the byte. */
static int sifive_uart_getc(void)
{
	uint32_t v = *uart_reg(SIFIVE_UART_RXDATA);

	if (v & SIFIVE_UART_RXDATA_EMPTY)
		return -1;
	return (int)(v & 0xff);
}

static const struct console_device sifive_uart_console = {
	.name = "sifive,uart0",
	.putc = sifive_uart_putc,
	.getc = sifive_uart_getc,
};

static int sifive_uart_probe(const struct fdt *fdt, int node)
{
	uint64_t base, size;

	if (!fdt_is_compatible(fdt, node, "sifive,uart0") ||
	    fdt_get_reg(fdt, node, 0, &base, &size) < 0 || size < 0x1c)
		return -1;
	uart_base = (volatile uint8_t *)(uintptr_t)base;
	*uart_reg(SIFIVE_UART_TXCTRL) |= SIFIVE_UART_TXCTRL_TXEN;
	*uart_reg(SIFIVE_UART_RXCTRL) |= SIFIVE_UART_RXCTRL_RXEN;
	console_register(&sifive_uart_console);
	return 0;
}

CONSOLE_DRIVER(13, sifive_uart_console_driver, "sifive,uart0", sifive_uart_probe);
