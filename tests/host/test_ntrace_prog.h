/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the N-Trace codec tests: a program image in memory,
 * collectors for encoder bytes and decoder output, and record builders.
 */
#ifndef TEST_NTRACE_PROG_H
#define TEST_NTRACE_PROG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ntrace/ntrace.h"
#include "lib/rvinsn/rvinsn.h"
#include "lib/rvinsn/rvinsn_enc.h"

/* ---------------------------------------------------------------- image */

#define IMG_MAX (64 * 1024)

struct image {
	uint64_t base;
	uint32_t size;  /* bytes used */
	uint8_t bytes[IMG_MAX];
};

static inline void img_init(struct image *img, uint64_t base)
{
	memset(img, 0, sizeof(*img));
	img->base = base;
}

/* Place an instruction at addr (2 or 4 bytes, by its length encoding). */
static inline unsigned img_put(struct image *img, uint64_t addr, uint32_t raw)
{
	unsigned len = rv_insn_length((uint16_t)raw, RV_EXT_C);
	uint64_t off = addr - img->base;

	if (len == 0)
		len = 4;
	for (unsigned i = 0; i < len; i++)
		img->bytes[off + i] = (uint8_t)(raw >> (8 * i));
	if (off + len > img->size)
		img->size = (uint32_t)(off + len);
	return len;
}

static inline void img_put_word(struct image *img, uint64_t addr, uint64_t v, unsigned bytes)
{
	uint64_t off = addr - img->base;

	for (unsigned i = 0; i < bytes; i++)
		img->bytes[off + i] = (uint8_t)(v >> (8 * i));
	if (off + bytes > img->size)
		img->size = (uint32_t)(off + bytes);
}

static inline int img_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct image *img = ctx;

	if (addr < img->base || addr - img->base > img->size || len > img->size - (addr - img->base))
		return -1;
	memcpy(dst, img->bytes + (addr - img->base), len);
	return 0;
}

static inline uint32_t img_fetch(const struct image *img, uint64_t addr)
{
	uint64_t off = addr - img->base;
	uint32_t raw = 0;

	for (unsigned i = 0; i < 4 && off + i < IMG_MAX; i++)
		raw |= (uint32_t)img->bytes[off + i] << (8 * i);
	return raw;
}

/* ---------------------------------------------------------------- bytes */

struct bytes {
	uint8_t *data;
	size_t len, cap;
};

static inline int bytes_sink(void *ctx, const uint8_t *data, size_t len)
{
	struct bytes *b = ctx;

	if (b->len + len > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 4096) + len;
		uint8_t *p = realloc(b->data, cap);

		if (!p)
			return -1;
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return 0;
}

static inline void bytes_free(struct bytes *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

/* ---------------------------------------------------------------- output */

#define OUT_MAX_EVENTS 4096

struct dec_out {
	uint64_t *addrs;
	size_t n, cap;
	struct ntrace_event ev[OUT_MAX_EVENTS];
	size_t nev;
	size_t nerr;
	size_t ntrap;
	int first_error;
	size_t first_error_offset;
	/* position in addrs at which each event arrived */
	size_t ev_pos[OUT_MAX_EVENTS];
	struct image *img;
};

static inline void out_retired(void *ctx, const uint64_t *a, size_t n)
{
	struct dec_out *o = ctx;

	if (o->n + n > o->cap) {
		size_t cap = (o->cap ? o->cap * 2 : 4096) + n;

		o->addrs = realloc(o->addrs, cap * sizeof(uint64_t));
		o->cap = cap;
	}
	memcpy(o->addrs + o->n, a, n * sizeof(uint64_t));
	o->n += n;
}

static inline void out_event(void *ctx, const struct ntrace_event *ev)
{
	struct dec_out *o = ctx;

	if (ev->kind == NTRACE_EV_ERROR) {
		if (!o->nerr) {
			o->first_error = ev->error;
			o->first_error_offset = ev->offset;
		}
		o->nerr++;
	}
	if (ev->kind == NTRACE_EV_TRAP)
		o->ntrap++;
	if (o->nev < OUT_MAX_EVENTS) {
		o->ev_pos[o->nev] = o->n;
		o->ev[o->nev++] = *ev;
	}
}

static inline void out_free(struct dec_out *o)
{
	free(o->addrs);
	memset(o, 0, sizeof(*o));
}

static inline int out_read_code(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct dec_out *o = ctx;

	return img_read(o->img, addr, dst, len);
}

/* Decode a whole stream against an image; `o` must be zeroed. */
static inline int decode_stream(const struct ntrace_dec_config *cfg, struct image *img,
				const uint8_t *buf, size_t len, struct dec_out *o)
{
	static struct ntrace_decoder dec; /* large: keep off the stack */
	struct ntrace_dec_ops ops = { .read_code = out_read_code, .retired = out_retired,
				      .event = out_event, .ctx = o };
	int rc;

	o->img = img;
	rc = ntrace_dec_init(&dec, cfg, &ops);
	if (rc)
		return rc;
	return ntrace_dec_decode(&dec, buf, len);
}

#endif /* TEST_NTRACE_PROG_H */
