/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware console: one character device, a lock, and printf. */
#ifndef FIRMWARE_CONSOLE_H
#define FIRMWARE_CONSOLE_H

#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>

struct console_device {
	const char *name;
	void (*putc)(char c);
	int (*getc)(void);          /* -1 when nothing is waiting */
};

void console_register(const struct console_device *dev);
bool console_present(void);
void console_putc(char c);
int console_getc(void);
/* Writes n bytes under the console lock; returns how many were written. */
size_t console_write(const char *buf, size_t n);
size_t console_read(char *buf, size_t n);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
/* Releases the console lock whoever holds it: for the fault report
 * (panic.c), which must print even if the fault came inside printf. */
void console_break_lock(void);

#endif
