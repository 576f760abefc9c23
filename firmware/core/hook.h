/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tables the linker collects: a subsystem registers an item where it is
 * defined, and the core walks the table without naming the subsystem.  So
 * the core calls up into trace, CTR or PMU code only through a table, and
 * no circle of calls crosses a folder (scripts/layers.py).
 *
 * Each table is one line of linker/hook-tables.ld, which sorts its items by
 * the order number they were registered with (lower first), then by name.
 */
#ifndef FIRMWARE_CORE_HOOK_H
#define FIRMWARE_CORE_HOOK_H

#include <stddef.h>
#include <stdint.h>

/* Adds &item, of type `type`, to `table` at position `order`: two digits,
 * 10..99 (the sort is by name). */
#define HOOK_REGISTER(table, order, type, item) \
	static type *const hook_##table##_##item \
	__attribute__((used, section(".hook." #table "." #order))) = &(item)

// NOLINTBEGIN(bugprone-macro-parentheses): `type` is a type
#define HOOK_TABLE(table, type) \
	extern type *const __hook_##table##_start[], *const __hook_##table##_end[]
// NOLINTEND(bugprone-macro-parentheses)

/* (The count from the addresses as integers: the table's two ends are two
 * objects to C.  Every table holds pointers.) */
#define hook_count(table) \
	(((uintptr_t)__hook_##table##_end - (uintptr_t)__hook_##table##_start) / \
	 sizeof(void *))
#define hook_for_each(table, p) \
	for (size_t hook_i_ = 0; hook_i_ < hook_count(table) && \
	     ((p) = &__hook_##table##_start[hook_i_], 1); hook_i_++)
#define hook_for_each_reverse(table, p) \
	for (size_t hook_i_ = hook_count(table); hook_i_-- > 0 && \
	     ((p) = &__hook_##table##_start[hook_i_], 1);)

#endif
