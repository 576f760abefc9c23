// SPDX-License-Identifier: BSD-2-Clause
/*
 * Console: the registered character device (drivers/serial), a lock so lines
 * from several harts don't interleave, and a small printf.  Callers that pass
 * S-mode memory (DBCN) validate the whole range first, so nothing under the
 * lock can fault.
 */
#include <stdint.h>
#include "firmware/core/console.h"
#include "firmware/core/spinlock.h"
#include "firmware/core/riscv_csr.h"

static const struct console_device *console_dev;
static spinlock_t console_lock;

void console_register(const struct console_device *dev)
{
	console_dev = dev;
}

bool console_present(void)
{
	return console_dev != NULL;
}

static void putc_raw(char c)
{
	if (c == '\n')
		console_dev->putc('\r');
	console_dev->putc(c);
}

size_t console_write(const char *buf, size_t n)
{
	size_t i;

	if (!console_dev)
		return 0;
	spin_lock(&console_lock);
	for (i = 0; i < n; i++)
		console_dev->putc(buf[i]);
	spin_unlock(&console_lock);
	return n;
}

size_t console_read(char *buf, size_t n)
{
	size_t i;
	int c;

	if (!console_dev)
		return 0;
	spin_lock(&console_lock);
	for (i = 0; i < n; i++) {
		c = console_dev->getc();
		if (c < 0)
			break;
		buf[i] = (char)c;
	}
	spin_unlock(&console_lock);
	return i;
}

void console_putc(char c)
{
	console_write(&c, 1);
}

int console_getc(void)
{
	char c;

	return console_read(&c, 1) ? (unsigned char)c : -1;
}

/* --- printf ------------------------------------------------------------ */

struct fmt_spec {
	int width;
	bool zero_pad, left;
	int longs;
};

static int print_number(unsigned long v, unsigned base, bool neg, const struct fmt_spec *s)
{
	char tmp[24];
	int n = 0, len, count = 0;

	do {
		unsigned d = v % base;
		tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v /= base;
	} while (v);
	len = n + (neg ? 1 : 0);
	if (neg && s->zero_pad) {
		putc_raw('-');
		count++;
	}
	for (; !s->left && len < s->width; len++, count++)
		putc_raw(s->zero_pad ? '0' : ' ');
	if (neg && !s->zero_pad) {
		putc_raw('-');
		count++;
	}
	while (n)
		putc_raw(tmp[--n]), count++;
	for (; s->left && len < s->width; len++, count++)
		putc_raw(' ');
	return count;
}

static int print_string(const char *str, const struct fmt_spec *s)
{
	int len = 0, count = 0;
	const char *p;

	if (!str)
		str = "(null)";
	for (p = str; *p; p++)
		len++;
	for (; !s->left && len < s->width; len++, count++)
		putc_raw(' ');
	for (p = str; *p; p++, count++)
		putc_raw(*p);
	for (; s->left && len < s->width; len++, count++)
		putc_raw(' ');
	return count;
}

static unsigned long fetch_unsigned(va_list *ap, int longs)
{
	return longs ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned int);
}

static long fetch_signed(va_list *ap, int longs)
{
	return longs ? va_arg(*ap, long) : va_arg(*ap, int);
}

static int vprintf_locked(const char *fmt, va_list ap_in)
{
	va_list ap;
	int count = 0;

	va_copy(ap, ap_in);
	for (; *fmt; fmt++) {
		struct fmt_spec s = { 0 };
		long sv;

		if (*fmt != '%') {
			putc_raw(*fmt);
			count++;
			continue;
		}
		fmt++;
		if (*fmt == '-')
			s.left = true, fmt++;
		if (*fmt == '0')
			s.zero_pad = true, fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			s.width = s.width * 10 + (*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z')
			s.longs++, fmt++;
		switch (*fmt) {
		case 'd':
		case 'i':
			sv = fetch_signed(&ap, s.longs);
			count += print_number(sv < 0 ? -(unsigned long)sv : (unsigned long)sv,
					      10, sv < 0, &s);
			break;
		case 'u':
			count += print_number(fetch_unsigned(&ap, s.longs), 10, false, &s);
			break;
		case 'x':
			count += print_number(fetch_unsigned(&ap, s.longs), 16, false, &s);
			break;
		case 'p':
			putc_raw('0');
			putc_raw('x');
			s.longs = 1;
			count += 2 + print_number((unsigned long)va_arg(ap, void *), 16, false, &s);
			break;
		case 's':
			count += print_string(va_arg(ap, const char *), &s);
			break;
		case 'c':
			putc_raw((char)va_arg(ap, int));
			count++;
			break;
		case '%':
			putc_raw('%');
			count++;
			break;
		case '\0':
			fmt--;
			break;
		default:
			putc_raw('%');
			putc_raw(*fmt);
			count += 2;
		}
	}
	va_end(ap);
	return count;
}

int vprintf(const char *fmt, va_list ap)
{
	int n;

	if (!console_dev)
		return 0;
	spin_lock(&console_lock);
	n = vprintf_locked(fmt, ap);
	spin_unlock(&console_lock);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

void console_break_lock(void)
{
	/* Ticket lock: serve the next ticket, the one this hart takes next. */
	__atomic_store_n(&console_lock.owner, console_lock.next, __ATOMIC_RELEASE);
}
