// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for the emulated Trace Control Interface register
 * models: firmware/trace/tci_encoder.c (with lib/tci's filters and
 * comparators) and firmware/trace/tci_ramsink.c, which take every value
 * S-mode stores to the emulated blocks.
 *
 * The input is a list of 8-byte operations:
 *   byte 0  bits 1:0  0 encoder read, 1 encoder write, 2 sink read,
 *                     3 sink write; bit 2: after it, push trace bytes into
 *                     the sink (count: byte 7) and qualify an address;
 *           bits 7:3  time step for the timestamp unit
 *   bytes 1-2  register offset (12 bits, 4-byte aligned, as the MMIO
 *              layer passes them)
 *   bytes 3-6  value
 *   byte 7     trace byte count / address seed
 *
 * Checked: the sink writes only S-mode RAM outside the firmware hole and
 * inside its own buffer [Start, Limit + 4), never the SRAM's neighbours
 * (the SRAM buffer is a heap block of exactly its size: ASan sees any
 * byte past it); trTeImpl and trRamImpl never change; WARL registers
 * without side effects read back the same value when what was read is
 * written again.
 * Built by mk/70-ntrace-tests.mk (suite fuzz).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/trace/tci_encoder.h"
#include "firmware/trace/tci_ramsink.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

#define RAM_BASE   0x80100000ull
#define RAM_SIZE   0x4000u
#define HOLE       (RAM_BASE + 0x1000u)   /* firmware: refused by range_ok */
#define HOLE_SIZE  0x1000u
#define SRAM_SIZE  4096u

static uint8_t ram[RAM_SIZE];
static struct tci_ramsink sink;

static bool fake_range_ok(uint64_t base, uint64_t size)
{
	if (!size || base < RAM_BASE || base + size < base || base + size > RAM_BASE + RAM_SIZE)
		return false;
	return base + size <= HOLE || base >= HOLE + HOLE_SIZE;
}

static void fake_write(uint64_t addr, const uint8_t *data, size_t len)
{
	CHECK(addr >= RAM_BASE && addr + len <= RAM_BASE + RAM_SIZE && addr + len >= addr);
	CHECK(addr + len <= HOLE || addr >= HOLE + HOLE_SIZE);
	CHECK(addr >= sink.start && addr + len <= sink.limit + 4);
	memcpy(ram + (addr - RAM_BASE), data, len);
}

static const struct tci_ramsink_env env = {
	.range_ok = fake_range_ok,
	.addr_min = RAM_BASE,
	.addr_max = RAM_BASE + RAM_SIZE - 4,
	.write = fake_write,
};

/* Registers whose write has no effect beyond the value kept. */
static bool encoder_plain(uint32_t off)
{
	return off == TRTE_INST_FEATURES || off == TSBI_TE_INGRESS || off == TSBI_TE_CALL_STACK ||
	       tci_filter_offset(off);
}

static bool sink_plain(uint32_t off)
{
	return off >= TRRAM_START_LOW && off <= TRRAM_LIMIT_HIGH;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tci_encoder te;
	struct tci_qualifier q;
	uint8_t *sram = malloc(SRAM_SIZE);
	uint32_t te_impl, ram_impl;
	uint64_t now = 1000;

	CHECK(sram);
	memset(ram, 0xA5, sizeof(ram));
	tci_encoder_init(&te);
	tci_ramsink_init(&sink, sram, SRAM_SIZE, &env);
	te_impl = tci_encoder_read(&te, TRTE_IMPL, now);
	ram_impl = tci_ramsink_read(&sink, TRRAM_IMPL);

	for (size_t at = 0; at + 8 <= size; at += 8) {
		const uint8_t *op = data + at;
		uint32_t off = ((uint32_t)op[1] | (uint32_t)op[2] << 8) & 0xFFC;
		uint32_t val = le32(op + 3), back;

		now += op[0] >> 3;
		switch (op[0] & 3) {
		case 0:
			(void)tci_encoder_read(&te, off, now);
			break;
		case 1:
			tci_encoder_write(&te, off, val, now);
			if (encoder_plain(off)) {
				back = tci_encoder_read(&te, off, now);
				tci_encoder_write(&te, off, back, now);
				CHECK(tci_encoder_read(&te, off, now) == back);
			}
			break;
		case 2:
			(void)tci_ramsink_read(&sink, off);
			break;
		case 3:
			tci_ramsink_write(&sink, off, val);
			if (sink_plain(off)) {
				back = tci_ramsink_read(&sink, off);
				tci_ramsink_write(&sink, off, back);
				CHECK(tci_ramsink_read(&sink, off) == back);
			}
			break;
		}
		if (op[0] & 4) {
			size_t n = op[7];

			if (n > size - at)
				n = size - at;
			(void)tci_ramsink_put(&sink, data + at, n);
			tci_qualifier_init(&q, &te.filters);
			(void)tci_qualify(&q, RAM_BASE + (uint64_t)val * 2, op[7] & 7, val);
			(void)tci_encoder_tracing(&te);
			(void)tci_encoder_timestamp(&te, now);
		}
		CHECK(tci_encoder_read(&te, TRTE_IMPL, now) == te_impl);
		CHECK(tci_ramsink_read(&sink, TRRAM_IMPL) == ram_impl);
	}
	free(sram);
	return 0;
}
