// SPDX-License-Identifier: BSD-2-Clause
/*
 * The firmware's own platform code (platform/generic.c, the drivers' match
 * tables, lib/fdt) on the DTBs of the real RISC-V boards in Debian's
 * linux-source-6.1 (scripts/board-dtbs.sh compiles them): what it finds —
 * harts, memory, console, timer/IPI, reset — is printed and checked
 * against each board's known facts.  No board is needed: the devices the
 * drivers touch while probing or when they run (UART registers, the GPIO
 * line of a reset) are pages of anonymous memory mapped at the devices'
 * physical addresses, modelled from the DT as the hardware behaves, so
 * the test sees which register each driver reads and writes, and how wide.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "firmware/core/platform.h"
#include "firmware/core/hart.h"
#include "firmware/core/console.h"
#include "firmware/core/driver.h"
#include "firmware/service/ipi.h"
#include "drivers/gpio/sifive_gpio.h"

/* generic.c takes the firmware's extent from the linker script. */
char _fw_start[64], _fw_region_end[1];

static const struct console_device *console;

void console_register(const struct console_device *dev)
{
	console = dev;
}

/* The IPI device the MSWI driver registers (firmware/service/ipi.c). */
static const struct ipi_device *ipi_device;

void ipi_device_register(const struct ipi_device *dev)
{
	ipi_device = dev;
}

/* ---- The DTB and the fake devices ---- */

#define MAX_FAKES 16
#define FAKE_MAX_SIZE 0x10000
#define NS16550_LSR 5
#define NS16550_LSR_THRE 0x20
#define SIFIVE_UART_TXCTRL 0x08
#define SIFIVE_GPIO_OUTPUT_EN 0x08
#define SIFIVE_GPIO_OUTPUT_VAL 0x0c

struct fake {
	uint8_t *mem;
	size_t len;
	int node;
};

static struct {
	void *blob;
	struct fdt fdt;
	struct fake fakes[MAX_FAKES];
	unsigned int fake_count;
	struct hart harts[MAX_HARTS];
	const char *parse_err, *probe_err;
} b;

static void load_blob(const char *board)
{
	char path[512];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.dtb", BOARD_DTB_DIR, board);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		fail_msg("%s: %s (run scripts/board-dtbs.sh)", path, strerror(errno));
	free(b.blob);
	b.blob = malloc((size_t)st.st_size);
	assert_non_null(b.blob);
	assert_int_equal(read(fd, b.blob, (size_t)st.st_size), st.st_size);
	close(fd);
	assert_int_equal(fdt_open(&b.fdt, b.blob, (size_t)st.st_size), 0);
}

/* Anonymous memory at the node's physical address (the boards' buses map
 * 1:1, "ranges;"). */
static struct fake *map_fake(int node)
{
	uint64_t base, size;
	long page = sysconf(_SC_PAGESIZE);
	struct fake *fk;
	void *p;

	if (fdt_get_reg(&b.fdt, node, 0, &base, &size) < 0 || b.fake_count >= MAX_FAKES)
		return NULL;
	size = size > FAKE_MAX_SIZE ? FAKE_MAX_SIZE : size;
	size = (size + (uint64_t)page - 1) & ~((uint64_t)page - 1);
	p = mmap((void *)(uintptr_t)base, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || p != (void *)(uintptr_t)base)
		fail_msg("cannot map a fake device at 0x%llx: %s",
			 (unsigned long long)base, strerror(errno));
	fk = &b.fakes[b.fake_count++];
	*fk = (struct fake){ p, size, node };
	return fk;
}

static uint32_t node_u32(int node, const char *prop, uint32_t dflt)
{
	uint32_t v = dflt;

	fdt_prop_u32(&b.fdt, node, prop, &v);
	return v;
}

/* A 16550 whose transmitter is idle: LSR.THRE set where reg-shift puts LSR,
 * every other byte zero but THR's, preset to 0xff so a 4-byte store to it
 * shows (its upper bytes clear).  A driver that reads LSR elsewhere spins:
 * the alarm set in setup ends the test. */
static void model_ns16550(struct fake *fk)
{
	uint32_t shift = node_u32(fk->node, "reg-shift", 0);

	if ((size_t)NS16550_LSR << shift < fk->len)
		fk->mem[NS16550_LSR << shift] = NS16550_LSR_THRE;
	memset(fk->mem, 0xff, 4);
}

static void map_fakes_of(const char *compat, void (*model)(struct fake *))
{
	int node = -1;

	while ((node = fdt_find_compatible(&b.fdt, node, compat)) >= 0) {
		struct fake *fk;

		if (!fdt_node_is_enabled(&b.fdt, node) || !(fk = map_fake(node)))
			continue;
		if (model)
			model(fk);
	}
}

static void unmap_fakes(void)
{
	unsigned int i;

	for (i = 0; i < b.fake_count; i++)
		munmap(b.fakes[i].mem, b.fakes[i].len);
	b.fake_count = 0;
}

/* ---- Booting the platform code on a board's DTB ---- */

static void reset_firmware_state(void)
{
	memset(&platform, 0, sizeof(platform));
	memset(b.harts, 0, sizeof(b.harts));
	memset(hart_table, 0, sizeof(hart_table));
	memset(hart_ids, 0, sizeof(hart_ids));
	hart_count = 0;
	console = NULL;
	ipi_device = NULL;
}

/* What firmware/boot/init.c does at cold boot, up to the devices. */
static void boot_platform(const char *board)
{
	unsigned int i;

	reset_firmware_state();
	load_blob(board);
	platform.name = platform_match(&b.fdt)->name;
	map_fakes_of("ns16550a", model_ns16550);
	map_fakes_of("snps,dw-apb-uart", model_ns16550);
	map_fakes_of("sifive,uart0", NULL);
	map_fakes_of("sifive,gpio0", NULL);
	b.probe_err = NULL;
	b.parse_err = platform_parse_fdt(&b.fdt);
	if (b.parse_err)
		return;   /* the firmware stops here */
	for (i = 0; i < hart_count; i++) {
		b.harts[i].hartid = hart_ids[i];
		b.harts[i].index = i;
		hart_table[i] = &b.harts[i];
	}
	b.probe_err = platform_probe_devices(&b.fdt);
}

/* ---- What it found, printed ---- */

static const char *node_name(int node)
{
	int len;
	const char *n = node >= 0 ? fdt_node_name(&b.fdt, node, &len) : NULL;

	return n ? n : "?";
}

/* The enabled node whose first reg range holds addr (a device register). */
static int node_holding(uint64_t addr)
{
	int node = fdt_root(&b.fdt), depth = 0;

	while ((node = fdt_next_node(&b.fdt, node, &depth)) >= 0) {
		uint64_t base, size;

		if (fdt_node_is_enabled(&b.fdt, node) &&
		    fdt_get_reg(&b.fdt, node, 0, &base, &size) == 0 &&
		    addr >= base && addr - base < size && size < (1ull << 32))
			return node;
	}
	return -1;
}

/* The console the platform code chose, by where its output lands. */
struct console_found {
	int node;
	unsigned int shift, width;   /* ns16550: as observed */
	bool tx_enabled;             /* sifive,uart0: txctrl.txen */
};

static struct console_found console_write_test(void)
{
	struct console_found c = { -1, 0, 0, false };
	unsigned int i;

	if (!console)
		return c;
	console->putc('T');
	for (i = 0; i < b.fake_count; i++) {
		struct fake *fk = &b.fakes[i];

		if (fk->mem[0] != 'T')
			continue;
		c.node = fk->node;
		c.width = fk->mem[1] == 0 && fk->mem[2] == 0 && fk->mem[3] == 0 ? 4 : 1;
		c.shift = node_u32(fk->node, "reg-shift", 0);
		c.tx_enabled = fk->mem[SIFIVE_UART_TXCTRL] & 1;
	}
	return c;
}

static void print_harts(void)
{
	unsigned int i;

	printf("  harts with S-mode:");
	for (i = 0; i < hart_count; i++)
		printf(" %lu", hart_ids[i]);
	printf("\n  harts without S-mode (skipped):");
	for (i = 0; i < platform.no_smode_hart_count && i < PLATFORM_MAX_NO_SMODE; i++)
		printf(" %lu", platform.no_smode_hart_ids[i]);
	printf("%s\n", platform.no_smode_hart_count ? "" : " none");
}

static void print_memory(void)
{
	unsigned int i;

	printf("  memory:");
	for (i = 0; i < platform.ram_count; i++)
		printf(" 0x%llx+0x%llx", (unsigned long long)platform.ram[i].base,
		       (unsigned long long)platform.ram[i].size);
	printf("%s\n", platform.ram_count ? "" : " (not read)");
}

static void print_console(const struct console_found *c)
{
	if (!console) {
		printf("  console: none\n");
		return;
	}
	printf("  console: %s, driver %s", node_name(c->node), console->name);
	if (!strcmp(console->name, "ns16550"))
		printf(", reg-shift %u, reg-io-width %u", c->shift, c->width);
	printf("\n");
}

static void print_timer_ipi(void)
{
	unsigned int i;

	if (platform.mtime_in_time_csr) {
		printf("  timer/IPI: %s, no MTIME register (the time CSR counts)\n",
		       node_name(node_holding((uintptr_t)hart_table[0]->msip)));
	} else if (!platform.mtime) {
		printf("  timer/IPI: %s\n", b.parse_err ? "(not probed)" : "none");
		return;
	} else if (node_holding((uintptr_t)platform.mtime) >= 0)
		printf("  timer/IPI: %s", node_name(node_holding((uintptr_t)platform.mtime)));
	else
		printf("  timer/IPI: no DT node, the CLINT platform %s supplies", platform.name);
	if (platform.mtime)
		printf(", mtime 0x%lx\n", (unsigned long)(uintptr_t)platform.mtime);
	for (i = 0; i < hart_count; i++)
		printf("    hart %lu: msip 0x%lx, mtimecmp 0x%lx\n", hart_ids[i],
		       (unsigned long)(uintptr_t)hart_table[i]->msip,
		       (unsigned long)(uintptr_t)hart_table[i]->mtimecmp);
}

/* A GPIO reset line, found by firing it: the fake controller whose output
 * enable a bit went on.  mtime does not tick here, so no delays. */
struct gpio_fired {
	int controller;
	int pin;
	bool level;
};

static struct gpio_fired fire_gpio_reset(const struct reset_action *act)
{
	struct gpio_fired g = { -1, -1, false };
	uint64_t tb = platform.timebase_hz;
	unsigned int i;

	platform.timebase_hz = 0;
	act->fire();
	platform.timebase_hz = tb;
	for (i = 0; i < b.fake_count; i++) {
		uint32_t en, val;

		memcpy(&en, b.fakes[i].mem + SIFIVE_GPIO_OUTPUT_EN, 4);
		memcpy(&val, b.fakes[i].mem + SIFIVE_GPIO_OUTPUT_VAL, 4);
		if (!fdt_is_compatible(&b.fdt, b.fakes[i].node, "sifive,gpio0") || !en)
			continue;
		g.controller = b.fakes[i].node;
		g.pin = __builtin_ctz(en);
		g.level = (val >> g.pin) & 1;
		memset(b.fakes[i].mem, 0, 0x100);
	}
	return g;
}

static void print_reset(const char *what, const struct reset_action *act)
{
	if (!act->present) {
		printf("  %s: none\n", what);
	} else if (act->fire) {
		struct gpio_fired g = fire_gpio_reset(act);

		printf("  %s: GPIO line %s pin %d, left driven %s\n", what,
		       node_name(g.controller), g.pin, g.level ? "high" : "low");
	} else {
		printf("  %s: %s register 0x%lx <- 0x%x (mask 0x%x)\n", what,
		       node_name(node_holding((uintptr_t)act->reg)),
		       (unsigned long)(uintptr_t)act->reg, act->value, act->mask);
	}
}

/* ---- Each board's known facts ---- */

enum reset_kind { RESET_NONE, RESET_GPIO, RESET_SYSCON };

struct board_facts {
	const char *board;
	unsigned int smode_harts, first_smode_hart;
	const char *parse_err;          /* the firmware stops (K210) */
	uint64_t ram_base;
	unsigned int ram_ranges;
	const char *console_driver;
	uint64_t console_base;
	unsigned int shift, width;      /* ns16550 */
	uint64_t clint_base;
	enum reset_kind poweroff, reboot;
	int reset_pin;                  /* the GPIO line's pin */
	bool clint_without_mtime;       /* T-Head CLINT: the time CSR counts */
};

#define FACTS_K210(name) \
	{ name, 0, 0, "no usable cpu", 0, 0, "sifive,uart0", 0x38000000, 0, 0, 0, \
	  RESET_NONE, RESET_NONE, -1, false }
#define FACTS_MPFS(name, ram_ranges, uart) \
	{ name, 4, 1, NULL, 0, ram_ranges, "ns16550", uart, 2, 4, 0x2000000, \
	  RESET_NONE, RESET_NONE, -1, false }

static const struct board_facts facts[] = {
	/* The monitor cores (hart 0 of the FU540 / FU740 / PolarFire SoC) have
	 * status "disabled" in these DTs: the firmware never sees them (its
	 * S-mode check would skip them too: rv64imac, no mmu-type).
	 * FU740: S7 monitor core (hart 0) + 4 U74; 16 GiB; the PMIC's
	 * power-off line on GPIO 2 (active low); reboot goes through the PMIC
	 * over I2C, which the DT gives no reset node for.  No CLINT node in
	 * the FU540 / FU740 DTs of 6.1: platform/sifive_fu.c supplies it. */
	{ "hifive-unmatched-a00", 4, 1, NULL, 0x80000000, 1, "sifive,uart0", 0x10010000,
	  0, 0, 0x2000000, RESET_GPIO, RESET_NONE, 2, false },
	/* FU540: E51 (hart 0) + 4 U54; gpio-restart on GPIO 10, no power-off. */
	{ "hifive-unleashed-a00", 4, 1, NULL, 0x80000000, 1, "sifive,uart0", 0x10010000,
	  0, 0, 0x2000000, RESET_NONE, RESET_GPIO, 10, false },
	/* JH7100: 2 U74, DesignWare UARTs; its "starfive,jh7100-reset" resets
	 * peripherals, not the system: no reset device. */
	{ "jh7100-beaglev-starlight", 2, 0, NULL, 0x80000000, 1, "ns16550", 0x12440000,
	  2, 4, 0x2000000, RESET_NONE, RESET_NONE, -1, false },
	/* Not in 6.1: tests/data/boards/allwinner-d1-like.dts, written for
	 * this test.  One C906; its T-Head CLINT has MSIP and MTIMECMP where
	 * SiFive's has them but no MTIME; the watchdog that resets a D1 has
	 * no driver here: no reset device. */
	{ "allwinner-d1-like", 1, 0, NULL, 0x40000000, 1, "ns16550", 0x2500000,
	  2, 4, 0x14000000, RESET_NONE, RESET_NONE, -1, true },
	/* PolarFire SoC: E51 (hart 0) + 4 U54, MMUARTs are 16550s; system
	 * reset is a mailbox request to the system controller: none in DT. */
	FACTS_MPFS("mpfs-icicle-kit", 2, 0x20100000),
	FACTS_MPFS("mpfs-m100pfsevp", 2, 0x20100000),  /* stdout-path's serial1 has no alias:
							 * the first enabled 16550 */
	FACTS_MPFS("mpfs-polarberry", 2, 0x20000000),
	FACTS_MPFS("mpfs-sev-kit", 1, 0x20100000),
	/* K210: 2 cores the DT describes without S-mode (mmu-type riscv,none,
	 * rv64imafdc: Linux runs NOMMU in M-mode): nothing to serve. */
	FACTS_K210("canaan_kd233"),
	FACTS_K210("k210_generic"),
	FACTS_K210("sipeed_maix_bit"),
	FACTS_K210("sipeed_maix_dock"),
	FACTS_K210("sipeed_maix_go"),
	FACTS_K210("sipeed_maixduino"),
};

#define FACT_COUNT (sizeof(facts) / sizeof(facts[0]))

static int setup(void **state)
{
	alarm(20);   /* a driver polling the wrong register never returns */
	(void)state;
	return 0;
}

static int teardown(void **state)
{
	alarm(0);
	unmap_fakes();
	(void)state;
	return 0;
}

static void assert_reset(enum reset_kind kind, const struct reset_action *act, int pin)
{
	assert_int_equal(act->present, kind != RESET_NONE);
	if (kind == RESET_GPIO) {
		struct gpio_fired g;

		assert_non_null(act->fire);
		g = fire_gpio_reset(act);
		assert_int_equal(g.pin, pin);
		/* Active low: the line ends low (the active level). */
		assert_false(g.level);
	}
	if (kind == RESET_SYSCON)
		assert_non_null(act->reg);
}

static void assert_clint(uint64_t base, bool without_mtime)
{
	unsigned int i;

	assert_int_equal(platform.mtime_in_time_csr, without_mtime);
	if (without_mtime)
		assert_null(platform.mtime);
	else
		assert_int_equal((uintptr_t)platform.mtime, base + 0xbff8);
	/* The MSWI took the IPIs (ipi_device_register). */
	assert_non_null(ipi_device);
	/* One msip / mtimecmp per hart context, S-mode harts only; the
	 * skipped hart 0 keeps context 0 on the boards that have one. */
	for (i = 0; i < hart_count; i++) {
		assert_int_equal((uintptr_t)hart_table[i]->msip, base + 4 * hart_ids[i]);
		assert_int_equal((uintptr_t)hart_table[i]->mtimecmp,
				 base + 0x4000 + 8 * hart_ids[i]);
	}
}

static void check_board(const struct board_facts *f)
{
	struct console_found c;
	unsigned int i;

	boot_platform(f->board);
	c = console_write_test();
	printf("%s: \"%s\" (platform %s)%s%s\n", f->board, platform.model, platform.name,
	       b.parse_err ? ", firmware stops: " : "", b.parse_err ? b.parse_err : "");
	print_harts();
	print_memory();
	print_console(&c);
	print_timer_ipi();
	print_reset("power-off", &platform.poweroff);
	print_reset("reboot", &platform.reboot);
	fflush(stdout);

	assert_non_null(console);
	assert_string_equal(console->name, f->console_driver);
	assert_true(c.node >= 0);
	assert_int_equal(node_holding(f->console_base), c.node);
	if (!strcmp(f->console_driver, "ns16550")) {
		assert_int_equal(c.shift, f->shift);
		assert_int_equal(c.width, f->width);
	} else {
		assert_true(c.tx_enabled);
	}
	if (f->parse_err) {
		assert_non_null(b.parse_err);
		assert_non_null(strstr(b.parse_err, f->parse_err));
		assert_int_equal(hart_count, 0);
		assert_int_equal(platform.no_smode_hart_count, 2);
		return;
	}
	assert_null(b.parse_err);
	assert_null(b.probe_err);
	assert_int_equal(platform.no_smode_hart_count, 0);
	assert_int_equal(hart_count, f->smode_harts);
	for (i = 0; i < hart_count; i++)
		assert_int_equal(hart_ids[i], f->first_smode_hart + i);
	assert_int_equal(platform.ram_count, f->ram_ranges);
	if (f->ram_base)
		assert_int_equal(platform.ram[0].base, f->ram_base);
	assert_clint(f->clint_base, f->clint_without_mtime);
	assert_reset(f->poweroff, &platform.poweroff, f->reset_pin);
	assert_reset(f->reboot, &platform.reboot, f->reset_pin);
}

static void test_board(void **state)
{
	check_board(*state);
}

/* Every .dts the tree has is one of the boards above. */
static void test_every_board_has_facts(void **state)
{
	char path[512], line[256];
	unsigned int n = 0, i;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/boards.list", BOARD_DTB_DIR);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		bool known = false;

		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, ".dtb"))
			*strstr(line, ".dtb") = '\0';
		for (i = 0; i < FACT_COUNT; i++)
			known |= !strcmp(facts[i].board, line);
		if (!known)
			fail_msg("board %s: no known facts in the test", line);
		n++;
	}
	fclose(f);
	assert_int_equal(n, FACT_COUNT);
}

int main(void)
{
	struct CMUnitTest tests[FACT_COUNT + 1];
	unsigned int i;
	int rc;

	for (i = 0; i < FACT_COUNT; i++)
		tests[i] = (struct CMUnitTest){ facts[i].board, test_board, setup, teardown,
						(void *)&facts[i] };
	tests[FACT_COUNT] = (struct CMUnitTest)cmocka_unit_test(test_every_board_has_facts);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(b.blob);
	return rc;
}
