// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests for platform/cpu_smode.c: which cpu nodes describe a hart with
 * S-mode (the firmware serves only those), on a dtc-compiled tree of cases
 * and on QEMU sifive_u's own DTB (hart 0, the E51, has none).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "firmware/core/platform.h"

static void *blob;

static void load(const char *name)
{
	char path[512];
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", FDT_TEST_DIR, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	free(blob);
	blob = malloc((size_t)n);
	assert_int_equal(fread(blob, 1, (size_t)n, f), (size_t)n);
	fclose(f);
}

static bool has_smode(const char *name, const char *cpu_path)
{
	struct fdt fdt;
	int cpu;

	load(name);
	assert_int_equal(fdt_open(&fdt, blob, 1u << 20), 0);
	cpu = fdt_path_offset(&fdt, cpu_path);
	assert_true(cpu >= 0);
	return fdt_cpu_has_smode(&fdt, cpu);
}

static void test_no_mmu_no_s_extension_means_no_smode(void **state)
{
	(void)state;
	assert_false(has_smode("cpus-smode.dtb", "/cpus/cpu@0"));
}

static void test_mmu_type_means_smode(void **state)
{
	(void)state;
	assert_true(has_smode("cpus-smode.dtb", "/cpus/cpu@1"));
}

static void test_supervisor_extension_means_smode(void **state)
{
	(void)state;
	assert_true(has_smode("cpus-smode.dtb", "/cpus/cpu@2"));    /* _sstc */
	assert_true(has_smode("cpus-smode.dtb", "/cpus/cpu@5"));    /* single-letter s */
	assert_true(has_smode("cpus-smode.dtb", "/cpus/cpu@9"));    /* _sh* */
}

static void test_machine_level_extension_is_not_smode(void **state)
{
	(void)state;
	assert_false(has_smode("cpus-smode.dtb", "/cpus/cpu@3"));   /* _smaia */
	assert_false(has_smode("cpus-smode.dtb", "/cpus/cpu@7"));   /* "smstateen" */
}

static void test_mmu_type_none_falls_back_to_isa(void **state)
{
	(void)state;
	assert_false(has_smode("cpus-smode.dtb", "/cpus/cpu@4"));
}

static void test_isa_extensions_list(void **state)
{
	(void)state;
	assert_true(has_smode("cpus-smode.dtb", "/cpus/cpu@6"));    /* "svpbmt" */
}

static void test_no_isa_information_is_served(void **state)
{
	(void)state;
	assert_true(has_smode("cpus-smode.dtb", "/cpus/cpu@8"));
}

static void test_qemu_sifive_u_e51_has_no_smode(void **state)
{
	(void)state;
	assert_false(has_smode("qemu-sifive-u.dtb", "/cpus/cpu@0"));
	assert_true(has_smode("qemu-sifive-u.dtb", "/cpus/cpu@1"));
	assert_true(has_smode("qemu-spike.dtb", "/cpus/cpu@0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_mmu_no_s_extension_means_no_smode),
		cmocka_unit_test(test_mmu_type_means_smode),
		cmocka_unit_test(test_supervisor_extension_means_smode),
		cmocka_unit_test(test_machine_level_extension_is_not_smode),
		cmocka_unit_test(test_mmu_type_none_falls_back_to_isa),
		cmocka_unit_test(test_isa_extensions_list),
		cmocka_unit_test(test_no_isa_information_is_served),
		cmocka_unit_test(test_qemu_sifive_u_e51_has_no_smode),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	free(blob);
	return rc;
}
