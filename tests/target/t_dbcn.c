/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * DBCN extension (ext-debug-console.adoc).  Memory that does not satisfy the
 * shared-memory rules (firmware memory, outside RAM, a range crossing RAM's
 * end, base_addr_hi != 0 on RV64) gives SBI_ERR_INVALID_PARAM per the
 * function tables.  OpenSBI 1.1 has no DBCN: every test here is a deviation.
 */
#include "testlib.h"

static struct sbiret dbcn(int fid, unsigned long n, unsigned long lo, unsigned long hi)
{
	return sbi_ecall(SBI_EXT_DBCN, fid, n, lo, hi, 0, 0, 0);
}

static void write_returns_count(void)
{
	static const char msg[] = "DBCN: console_write test line\n";
	struct sbiret r = dbcn(SBI_DBCN_CONSOLE_WRITE, sizeof(msg) - 1, (uintptr_t)msg, 0);

	CHECK_ERR(r.error, SBI_SUCCESS, "console_write(%zu bytes)", sizeof(msg) - 1);
	/* The QEMU UART always takes bytes: a short write would be a bug here. */
	CHECK_EQ(r.value, sizeof(msg) - 1, "bytes written by console_write");
}

static void write_byte(void)
{
	static const char msg[] = "DBCN: console_write_byte test line\n";
	size_t i;

	for (i = 0; i < sizeof(msg) - 1; i++) {
		struct sbiret r = dbcn(SBI_DBCN_CONSOLE_WRITE_BYTE, (unsigned char)msg[i], 0, 0);

		if (!CHECK_ERR(r.error, SBI_SUCCESS, "console_write_byte(%#x)", msg[i]) ||
		    !CHECK_EQ(r.value, 0, "sbiret.uvalue of console_write_byte"))
			break;
	}
}

/* No input (the runner's stdin is /dev/null): read returns 0 bytes and
 * leaves the buffer alone. */
static void read_without_input(void)
{
	uint8_t buf[16];
	struct sbiret r;
	size_t i;

	memset(buf, 0xA5, sizeof(buf));
	r = dbcn(SBI_DBCN_CONSOLE_READ, sizeof(buf), (uintptr_t)buf, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "console_read(16)");
	CHECK_EQ(r.value, 0, "bytes read without input");
	for (i = 0; i < sizeof(buf); i++)
		if (!CHECK_EQ(buf[i], 0xA5, "buffer byte %zu after an empty read", i))
			break;
}

static void zero_bytes(void)
{
	static char buf[8];
	struct sbiret r;

	r = dbcn(SBI_DBCN_CONSOLE_WRITE, 0, (uintptr_t)buf, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "console_write(0 bytes)");
	CHECK_EQ(r.value, 0, "bytes written by console_write(0)");
	r = dbcn(SBI_DBCN_CONSOLE_READ, 0, (uintptr_t)buf, 0);
	CHECK_ERR(r.error, SBI_SUCCESS, "console_read(0 bytes)");
	CHECK_EQ(r.value, 0, "bytes read by console_read(0)");
}

/* Both directions refuse [lo, lo + n) with INVALID_PARAM. */
static void expect_refused(unsigned long n, unsigned long lo, unsigned long hi, const char *what)
{
	CHECK_ERR(dbcn(SBI_DBCN_CONSOLE_WRITE, n, lo, hi).error, SBI_ERR_INVALID_PARAM,
		  "console_write(%lu, %#lx, %#lx): %s", n, lo, hi, what);
	CHECK_ERR(dbcn(SBI_DBCN_CONSOLE_READ, n, lo, hi).error, SBI_ERR_INVALID_PARAM,
		  "console_read(%lu, %#lx, %#lx): %s", n, lo, hi, what);
}

static void firmware_memory(void)
{
	expect_refused(16, fw_base(), 0, "firmware memory");
	expect_refused(8, fw_end() - 8, 0, "last bytes of firmware memory");
	expect_refused(16, fw_end() - 8, 0, "range ending past the firmware");
}

static void beyond_ram(void)
{
	expect_refused(8, ram_end(), 0, "just past RAM");
	expect_refused(8, ram_end() + 0x1000000, 0, "far past RAM");
	expect_refused(8, plat.ram_base - 0x1000, 0, "below RAM");
}

static void crossing_ram_end(void)
{
	expect_refused(16, ram_end() - 8, 0, "range crossing the end of RAM");
	expect_refused((unsigned long)-1, (uintptr_t)__image_end, 0, "length wrapping around");
}

/* RV64 addresses fit in base_addr_lo: any high bits name memory that does
 * not exist. */
static void base_addr_hi_nonzero(void)
{
	static char buf[8] = "xxxxxxx";

	expect_refused(sizeof(buf), (uintptr_t)buf, 1, "base_addr_hi = 1");
	expect_refused(sizeof(buf), (uintptr_t)buf, (unsigned long)-1, "base_addr_hi = -1");
}

static void unknown_fid(void)
{
	CHECK_ERR(dbcn(3, 0, 0, 0).error, SBI_ERR_NOT_SUPPORTED, "DBCN FID 3");
}

static const struct target_test tests[] = {
	{ "write_returns_count", write_returns_count, DEV_OPENSBI_NO_DBCN },
	{ "write_byte", write_byte, DEV_OPENSBI_NO_DBCN },
	{ "read_without_input", read_without_input, DEV_OPENSBI_NO_DBCN },
	{ "zero_bytes", zero_bytes, DEV_OPENSBI_NO_DBCN },
	{ "firmware_memory", firmware_memory, DEV_OPENSBI_NO_DBCN },
	{ "beyond_ram", beyond_ram, DEV_OPENSBI_NO_DBCN },
	{ "crossing_ram_end", crossing_ram_end, DEV_OPENSBI_NO_DBCN },
	{ "base_addr_hi_nonzero", base_addr_hi_nonzero, DEV_OPENSBI_NO_DBCN },
	{ "unknown_fid", unknown_fid, DEV_NONE }   /* trivially true without DBCN */,
};
GROUP(dbcn, tests);
