// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv-records: the records of a tandem-verification trace buffer, one per
 * line, parsed with lib/tvtrace (for tests/trace/tv-check.py; people use
 * `tvtrace dump`).
 *
 *     tv-records [--flen BYTES] FILE
 *
 * Lines: `OFFSET OPCODE` and then the fields of the record:
 *   reg VALUE (4), reg OFFSET (5), reg MASK (6), ID VALUE (7),
 *   ADDR OP SIZE DATA (8), SIZE RESULT DATA (9), INSN (16, 17),
 * numbers in hex.  Idle bytes (0xff, the sink's padding) after the last
 * record end the listing.  A malformed record: `error at offset N: WHAT`
 * on stderr, exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tvtrace.h"

static void print_record(size_t off, const struct tvtrace_record *r)
{
	printf("%zx %u", off, r->opcode);
	switch (r->opcode) {
	case TVTRACE_OP_FULL_REG:
		printf(" %x %llx", r->reg, (unsigned long long)r->value);
		break;
	case TVTRACE_OP_INCR_REG_ADD:
		printf(" %x %d", r->reg, r->reg_offset);
		break;
	case TVTRACE_OP_INCR_REG_OR:
		printf(" %x %x", r->reg, r->reg_mask);
		break;
	case TVTRACE_OP_STATE:
		printf(" %x %llx", r->state_id, (unsigned long long)r->value);
		break;
	case TVTRACE_OP_MEM_REQ:
		printf(" %llx %x %x %llx", (unsigned long long)r->addr, r->mem_op, r->mem_size,
		       (unsigned long long)r->value);
		break;
	case TVTRACE_OP_MEM_RSP:
		printf(" %x %x %llx", r->mem_size, r->mem_result, (unsigned long long)r->value);
		break;
	case TVTRACE_OP_INSN16:
	case TVTRACE_OP_INSN32:
		printf(" %x", r->insn);
		break;
	default:
		break;
	}
	putchar('\n');
}

static int all_idle(const uint8_t *buf, size_t off, size_t len)
{
	for (; off < len; off++)
		if (buf[off] != 0xff)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	struct tvtrace_params params = TVTRACE_PARAMS_RV64GC;
	struct tvtrace_parser p;
	struct tvtrace_record r;
	static uint8_t buf[1 << 24];
	size_t len, off = 0;
	FILE *f;
	int argi = 1;

	if (argc == 4 && !strcmp(argv[1], "--flen")) {
		params.flen_bytes = (uint8_t)atoi(argv[2]);
		argi = 3;
	}
	if (argi != argc - 1) {
		fprintf(stderr, "usage: tv-records [--flen BYTES] FILE\n");
		return 2;
	}
	f = fopen(argv[argi], "rb");
	if (!f) {
		perror(argv[argi]);
		return 2;
	}
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	tvtrace_parser_init(&p, &params);
	while (off < len && !all_idle(buf, off, len)) {
		size_t at = off;
		int rc = tvtrace_parse(&p, buf, len, &off, &r);

		if (rc != TVTRACE_OK) {
			fprintf(stderr, "%s: error at offset %zu: %s\n", argv[argi], p.err_offset,
				tvtrace_strerror(rc));
			return 1;
		}
		print_record(at, &r);
	}
	return 0;
}
