// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the N-Trace message parser and the dump/stats path of the
 * ntrace tool (tools/ntrace/dump.c, stats.c) on arbitrary bytes.
 *
 * Input: byte 0 = stream format (XLEN, SRC width, address MSB extension),
 * then the stream.  Checks, besides the sanitizers:
 *  - every call consumes input or reports the end (no endless loop), and
 *    parsed messages lie inside the buffer;
 *  - every message parsed without error is written back by ntrace_msg_write
 *    and parses again to the same fields: writer and parser share one layout
 *    table (Table 8) and must agree;
 *  - `ntrace dump` (to /dev/null), `ntrace stats` and the SRC width detection
 *    run to the end with counts that fit the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ntrace/ntrace.h"
#include "ntrace_tool.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static void check_tool_paths(const struct ntrace_format *fmt, const uint8_t *data, size_t size)
{
	struct nt_tool_config cfg;
	struct nt_stream_stats st;
	long malformed;

	nt_tool_config_default(&cfg);
	cfg.xlen = fmt->xlen;
	cfg.src_bits = fmt->src_bits;
	cfg.ext_addr = fmt->extend_addr_msb;
	malformed = nt_dump_stream(&cfg, data, size, devnull, "fuzz", devnull);
	if (malformed < 0 || (size_t)malformed > size)
		abort();
	nt_stream_stats(&cfg, data, size, &st);
	if (st.bytes != size || st.idle_bytes > size || st.messages + st.malformed > size)
		abort();
	if (nt_detect_src_bits(&cfg, data, size) > NTRACE_MAX_SRC)
		abort();
}

#define OPT_RV32      (1u << 0)
#define OPT_EXT_ADDR  (1u << 1)
#define OPT_SRC_SHIFT 2         /* bits 2..5: SRC width 0..15, > 12 = 12 */

static void check_rewrite(const struct ntrace_format *fmt, const struct ntrace_msg *m)
{
	uint8_t out[NTRACE_MAX_MSG_BYTES + 32];
	struct ntrace_msg again;
	struct ntrace_error err;
	size_t pos = 0;
	int n;

	n = ntrace_msg_write(fmt, m, out, sizeof(out));
	if (n <= 0)
		abort();        /* the parser accepted what the writer refuses */
	if (ntrace_msg_parse(fmt, out, (size_t)n, &pos, &again, &err) != 1 ||
	    pos != (size_t)n)
		abort();
	if (again.present != m->present)
		abort();
	for (unsigned f = 0; f < NTRACE_FLD_COUNT; f++)
		if (ntrace_msg_has(m, f) && again.val[f] != m->val[f])
			abort();
	/* Names used by the dump path. */
	if (!ntrace_tcode_name((unsigned)m->val[NTRACE_FLD_TCODE]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ntrace_format fmt;
	struct ntrace_msg m;
	struct ntrace_error err;
	size_t pos = 0;
	unsigned src;

	if (size < 1)
		return 0;
	memset(&fmt, 0, sizeof(fmt));
	fmt.xlen = (data[0] & OPT_RV32) ? 32 : 64;
	fmt.extend_addr_msb = data[0] & OPT_EXT_ADDR;
	src = (data[0] >> OPT_SRC_SHIFT) & 0xf;
	fmt.src_bits = (uint8_t)(src > NTRACE_MAX_SRC ? NTRACE_MAX_SRC : src);
	data++;
	size--;

	for (;;) {
		size_t before = pos;
		int rc = ntrace_msg_parse(&fmt, data, size, &pos, &m, &err);

		if (rc == 0) {
			if (pos != size)
				abort();
			break;
		}
		if (pos <= before || pos > size)
			abort();        /* no progress, or beyond the input */
		if (rc == 1) {
			if (m.offset < before || m.offset + m.length > pos)
				abort();
			check_rewrite(&fmt, &m);
		} else if (rc > 0 || -rc >= NTRACE_ERR_COUNT ||
			   !ntrace_strerror(rc) || err.offset > size) {
			abort();
		}
	}
	check_tool_paths(&fmt, data, size);
	return 0;
}
