// SPDX-License-Identifier: BSD-2-Clause
/*
 * board-check: whether tracesbi, linked at a given address, can serve the
 * board a DTB describes, read with the firmware's own DT code
 * (lib/fdt, platform/cpu_smode.c, platform/dt_memory.h).
 *
 *   board-check --fw-base ADDR BOARD.dtb
 *
 * Prints the board's RAM and harts, then "ok" (status 0) or every reason it
 * cannot (status 1): no hart with S-mode (the Kendryte K210), or the
 * firmware's region and the next stage's first MiB (at ADDR + 2 MiB, where
 * `make fit-image` puts U-Boot) outside the board's RAM (the firmware runs
 * where it is linked, FW_TEXT_START).  A file that is not a DTB: status 2.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "firmware/core/platform.h"
#include "platform/dt_memory.h"

#define MAX_RAM 16
/* The firmware's region and the next stage's (docs/ARCHITECTURE.md "Memory"). */
#define NEXT_STAGE_OFFSET 0x200000ULL
#define NEXT_STAGE_MIN    0x100000ULL

static int usage(void)
{
	fprintf(stderr, "usage: board-check --fw-base ADDR BOARD.dtb\n");
	return 2;
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
		errno = EIO;
	} else if (buf) {
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* [base, base + size) inside one RAM range. */
static bool in_ram(const struct mem_region *ram, int n, uint64_t base, uint64_t size)
{
	for (int i = 0; i < n; i++)
		if (base >= ram[i].base && base - ram[i].base + size <= ram[i].size)
			return true;
	return false;
}

static bool is_cpu(const struct fdt *fdt, int node)
{
	return fdt_prop_is_string(fdt, node, "device_type", "cpu");
}

int main(int argc, char **argv)
{
	struct mem_region ram[MAX_RAM];
	uint64_t fw_base;
	const char *path;
	struct fdt fdt;
	int nram, cpus, node, harts = 0, smode = 0, err, bad = 0;
	char *end;
	size_t size = 0;
	void *blob;

	if (argc != 4 || strcmp(argv[1], "--fw-base") != 0)
		return usage();
	fw_base = strtoull(argv[2], &end, 0);
	if (!*argv[2] || *end)
		return usage();
	path = argv[3];
	blob = read_file(path, &size);
	if (!blob) {
		fprintf(stderr, "board-check: %s: %s\n", path, strerror(errno ? errno : EINVAL));
		return 2;
	}
	err = fdt_open(&fdt, blob, size);
	if (err) {
		fprintf(stderr, "board-check: %s: not a DTB: %s\n", path, fdt_strerror(err));
		free(blob);
		return 2;
	}

	nram = fdt_memory_regions(&fdt, ram, MAX_RAM);
	for (int i = 0; i < nram; i++)
		printf("board-check: %s: RAM 0x%llx-0x%llx\n", path, (unsigned long long)ram[i].base,
		       (unsigned long long)(ram[i].base + ram[i].size - 1));
	cpus = fdt_path_offset(&fdt, "/cpus");
	for (node = cpus >= 0 ? fdt_first_child(&fdt, cpus) : -1; node >= 0;
	     node = fdt_next_sibling(&fdt, node)) {
		if (!is_cpu(&fdt, node) || !fdt_node_is_enabled(&fdt, node))
			continue;
		harts++;
		smode += fdt_cpu_has_smode(&fdt, node);
	}
	printf("board-check: %s: %d harts, %d with S-mode\n", path, harts, smode);

	if (!nram) {
		printf("board-check: %s: cannot serve: no memory node\n", path);
		bad = 1;
	}
	if (!smode) {
		printf("board-check: %s: cannot serve: no hart has S-mode, nothing to boot\n", path);
		bad = 1;
	}
	if (nram && !in_ram(ram, nram, fw_base, NEXT_STAGE_OFFSET + NEXT_STAGE_MIN)) {
		printf("board-check: %s: cannot serve: the firmware is linked at 0x%llx and needs "
		       "RAM up to 0x%llx (its region, then the next stage's at +2 MiB), "
		       "outside the board's RAM\n", path, (unsigned long long)fw_base,
		       (unsigned long long)(fw_base + NEXT_STAGE_OFFSET + NEXT_STAGE_MIN - 1));
		bad = 1;
	}
	if (!bad)
		printf("board-check: %s: ok\n", path);
	free(blob);
	return bad;
}
