// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for lib/tvtrace's parser (Bluespec tandem-verification
 * trace protocol).
 *
 * Byte 0 picks the parameters (bit 0: XLEN 32/64, bits 2:1: FLEN 0/32/64,
 * bits 4:3: MLEN 32/40/64 bits); the rest is a trace stream parsed from an
 * exact-size copy.  After an error the parse goes on one byte further with
 * a fresh parser, so every offset is tried as a record start.
 *
 * Checked: an error's offset lies within [record start, end of input] and
 * the offset did not move; a record that parsed consumed at least its opcode
 * and stays in bounds, and writing it back gives exactly the bytes it was
 * parsed from (the encoding is canonical).
 * Built by mk/87-fuzz.mk (suite fuzz).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tvtrace/tvtrace.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t flens[4] = { 0, 4, 8, 8 };
	static const uint8_t mlens[4] = { 4, 5, 8, 8 };
	struct tvtrace_params params;
	struct tvtrace_parser p;
	struct tvtrace_record rec, prev = { 0 };
	uint8_t *buf, out[32];
	size_t len, off = 0;

	if (size < 1)
		return 0;
	params.xlen_bytes = data[0] & 1 ? 8 : 4;
	params.flen_bytes = flens[(data[0] >> 1) & 3];
	params.mlen_bytes = mlens[(data[0] >> 3) & 3];
	len = size - 1;
	buf = malloc(len ? len : 1);
	CHECK(buf);
	memcpy(buf, data + 1, len);

	tvtrace_parser_init(&p, &params);
	while (off < len) {
		size_t start = off;
		int err = tvtrace_parse(&p, buf, len, &off, &rec);

		if (err) {
			CHECK(off == start);
			CHECK(p.err_offset >= start && p.err_offset <= len);
			tvtrace_parser_init(&p, &params);
			off = start + 1;
			continue;
		}
		CHECK(off > start && off <= len);
		{
			const struct tvtrace_record *req =
				rec.opcode == TVTRACE_OP_MEM_RSP ? &prev : NULL;
			int w = tvtrace_write(&params, &rec, req, out, sizeof(out));

			CHECK(w > 0 && (size_t)w == off - start);
			CHECK(memcmp(out, buf + start, (size_t)w) == 0);
		}
		prev = rec;
	}
	free(buf);
	return 0;
}
