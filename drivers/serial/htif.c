// SPDX-License-Identifier: BSD-2-Clause
/*
 * Berkeley Host-Target Interface ("ucb,htif0": Spike, QEMU -M spike).  Two
 * 64-bit words: the target writes a command to tohost and the host answers
 * in fromhost.  Where the DT's reg places them is the emulator's choice:
 * QEMU 7.2 has fromhost at reg and tohost at reg + 8 (found by experiment:
 * a command written at reg is never taken).  A command is device << 56 | command << 48
 * | 48-bit payload.  The host takes a command by clearing tohost, so one
 * command at a time; the target clears fromhost once it has read an answer.
 *   device 0, command 0: the program ends; payload = exit code << 1 | 1
 *   device 1 (console), command 1: write the payload's low byte (answered)
 *   device 1, command 0: read a byte; answered when one arrives, payload =
 *                         the byte
 * The DT's reg form is QEMU's MMIO device, which takes each word as two
 * 32-bit halves and acts when the upper half of tohost is written: so the
 * words are written and read in halves, lower first.  No symbol of
 * the firmware may be called "tohost" or "fromhost": QEMU's spike machine
 * takes such ELF symbols, local ones too, as the HTIF words instead of the
 * DT's reg.
 */
#include <stdint.h>
#include "firmware/core/console.h"
#include "firmware/core/driver.h"
#include "drivers/serial/htif.h"

#define HTIF_DEV_SYSCALL 0
#define HTIF_DEV_CONSOLE 1
#define HTIF_CONSOLE_READ  0
#define HTIF_CONSOLE_WRITE 1
#define HTIF_PAYLOAD_MASK ((1ull << 48) - 1)

/* Each word as its two 32-bit halves, lower first. */
static volatile uint32_t *to_host, *from_host;
/* A console read command is waiting for its answer. */
static bool read_requested;
/* The byte of an answered read that getc has not taken yet, or -1. */
static int read_byte = -1;

static uint64_t word_read(volatile uint32_t *w)
{
	uint64_t lower = w[0];

	return (uint64_t)w[1] << 32 | lower;
}

static void word_write(volatile uint32_t *w, uint64_t v)
{
	w[0] = (uint32_t)v;
	w[1] = (uint32_t)(v >> 32);
}

static uint64_t htif_word(unsigned int device, unsigned int command, uint64_t payload)
{
	return (uint64_t)device << 56 | (uint64_t)command << 48 | (payload & HTIF_PAYLOAD_MASK);
}

/* Takes the host's answer, if any: keeps a console byte, drops the
 * acknowledgement of a write. */
static void take_answer(void)
{
	uint64_t answer = word_read(from_host);

	if (!answer)
		return;
	word_write(from_host, 0);
	if (answer >> 56 == HTIF_DEV_CONSOLE && (answer >> 48 & 0xff) == HTIF_CONSOLE_READ) {
		read_requested = false;
		read_byte = (int)(answer & 0xff);
	}
}

static void htif_send(uint64_t word)
{
	while (word_read(to_host))
		take_answer();
	word_write(to_host, word);
	take_answer();
}

static void htif_putc(char c)
{
	htif_send(htif_word(HTIF_DEV_CONSOLE, HTIF_CONSOLE_WRITE, (uint8_t)c));
}

static int htif_getc(void)
{
	int c;

	take_answer();
	if (read_byte < 0 && !read_requested) {
		read_requested = true;
		htif_send(htif_word(HTIF_DEV_CONSOLE, HTIF_CONSOLE_READ, 0));
	}
	c = read_byte;
	read_byte = -1;
	return c;
}

static const struct console_device htif_console = {
	.name = "htif",
	.putc = htif_putc,
	.getc = htif_getc,
};

int htif_attach(const struct fdt *fdt, int node)
{
	uint64_t base, size;

	if (!fdt_is_compatible(fdt, node, "ucb,htif0") ||
	    fdt_get_reg(fdt, node, 0, &base, &size) < 0 || size < 16 || base & 7)
		return -1;
	from_host = (volatile uint32_t *)(uintptr_t)base;
	to_host = from_host + 2;
	return 0;
}

static int htif_console_probe(const struct fdt *fdt, int node)
{
	if (htif_attach(fdt, node) < 0)
		return -1;
	console_register(&htif_console);
	return 0;
}

void htif_exit(uint32_t code)
{
	htif_send(htif_word(HTIF_DEV_SYSCALL, 0, (uint64_t)code << 1 | 1));
}

CONSOLE_DRIVER(14, htif_console_driver, "ucb,htif0", htif_console_probe);
