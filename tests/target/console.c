/* SPDX-License-Identifier: BSD-2-Clause */
/* Console output through the legacy putchar (EID 0x01: OpenSBI 1.1 has no
 * DBCN) and a small printf: %d %i %u %x %X %p %s %c %%, flags '-' '0' '#', a
 * width, and the l/ll/z length modifiers. */
#include "rt.h"

static volatile int console_lock;

void con_putc(char c)
{
	sbi_legacy(SBI_EXT_LEGACY_CONSOLE_PUTCHAR, (unsigned char)c);
}

void con_puts(const char *s)
{
	while (*s)
		con_putc(*s++);
}

struct outbuf {
	char *buf;
	size_t size, len;
};

static void out_char(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_padded(struct outbuf *o, const char *s, size_t n, int width,
		       bool left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;

	if (!left)
		while (fill-- > 0)
			out_char(o, pad);
	while (n--)
		out_char(o, *s++);
	if (left)
		while (fill-- > 0)
			out_char(o, ' ');
}

static size_t format_unsigned(char *tmp, unsigned long long v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0, i;

	do {
		rev[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		char tmp[26];
		bool left = false, alt = false;
		char pad = ' ';
		int width = 0, lng = 0;
		size_t n;

		if (*fmt != '%') {
			out_char(&o, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '#')
				alt = true;
			else if (*fmt == '0')
				pad = '0';
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
		case 'i': {
			long long v = lng ? va_arg(ap, long) : va_arg(ap, int);
			unsigned long long mag = v < 0 ? -(unsigned long long)v : (unsigned long long)v;

			n = 0;
			if (v < 0)
				tmp[n++] = '-';
			n += format_unsigned(tmp + n, mag, 10, false);
			out_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			unsigned long long v = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);

			n = 0;
			if (alt && *fmt != 'u') {
				tmp[n++] = '0';
				tmp[n++] = 'x';
			}
			n += format_unsigned(tmp + n, v, *fmt == 'u' ? 10 : 16, *fmt == 'X');
			out_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'p':
			tmp[0] = '0';
			tmp[1] = 'x';
			n = 2 + format_unsigned(tmp + 2, (uintptr_t)va_arg(ap, void *), 16, false);
			out_padded(&o, tmp, n, width, left, pad);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			out_padded(&o, s, strlen(s), width, left, ' ');
			break;
		}
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			out_padded(&o, tmp, 1, width, left, ' ');
			break;
		case '%':
			out_char(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			out_char(&o, '%');
			out_char(&o, *fmt);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Whole lines under a lock so that lines of two harts never interleave. */
void kprintf(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	while (__atomic_exchange_n(&console_lock, 1, __ATOMIC_ACQUIRE))
		;
	con_puts(line);
	__atomic_store_n(&console_lock, 0, __ATOMIC_RELEASE);
}
