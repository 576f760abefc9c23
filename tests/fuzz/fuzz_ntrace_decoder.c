// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the N-Trace decoder on arbitrary message bytes, walking
 * a fixed program image (the corpus program "interp", RV64 or RV32, embedded
 * by tests/fuzz/bin2c.py: calls, returns, a jump table, indirect calls).
 *
 * Input: byte 0 = decoder options, byte 1 = call-stack depth (bit 7: mode
 * told by the messages, NTRACE_INST_MODE_AUTO), then the
 * stream.  The seed corpus holds real encodings of that program with the
 * matching option bytes (tests/fuzz/make-seeds.sh).
 *
 * Besides the sanitizers, it checks that every retired address the decoder
 * reports is inside the image (it can only know an instruction's size by
 * reading it) and that the decoder's instruction count matches what it
 * delivered.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ntrace/ntrace.h"
#include "fuzz_image.h"

/* Byte 0 of the input. */
#define OPT_RV32          (1u << 0)
#define OPT_BTM           (1u << 1)
#define OPT_IMPLICIT_RET  (1u << 2)
#define OPT_SEQ_JUMP      (1u << 3)
#define OPT_EXT_ADDR      (1u << 4)
#define OPT_ALL_JUMPS     (1u << 5)
#define OPT_SRC_SHIFT     6
/* second byte: bit 7 selects NTRACE_INST_MODE_AUTO, the rest the depth */
#define DEPTH_AUTO_MODE   0x80u
static const uint8_t src_bits_choice[4] = { 0, 3, 4, 12 };

struct image {
	const uint8_t *bytes;
	size_t size;
	uint64_t base;
};

struct run {
	struct image img;
	uint64_t delivered;
};

static int read_code(void *ctx, uint64_t addr, void *dst, size_t len)
{
	const struct image *img = &((struct run *)ctx)->img;

	if (addr < img->base || addr - img->base > img->size ||
	    len > img->size - (addr - img->base))
		return -1;
	memcpy(dst, img->bytes + (addr - img->base), len);
	return 0;
}

static void retired(void *ctx, const uint64_t *addrs, size_t n)
{
	struct run *run = ctx;

	for (size_t i = 0; i < n; i++) {
		/* An address the decoder never read code at: a decoder bug. */
		if (addrs[i] < run->img.base ||
		    addrs[i] - run->img.base >= run->img.size)
			abort();
	}
	run->delivered += n;
}

static void event(void *ctx, const struct ntrace_event *ev)
{
	(void)ctx;
	if (ev->kind < NTRACE_EV_SYNC || ev->kind > NTRACE_EV_IGNORED)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ntrace_decoder dec;     /* large: keep it off the stack */
	struct ntrace_dec_config cfg;
	struct ntrace_dec_ops ops;
	struct run run;
	uint8_t opt, depth;

	if (size < 2)
		return 0;
	opt = data[0];
	depth = data[1];
	data += 2;
	size -= 2;

	memset(&run, 0, sizeof(run));
	if (opt & OPT_RV32) {
		run.img = (struct image){ interp32, sizeof(interp32), interp32_base };
	} else {
		run.img = (struct image){ interp64, sizeof(interp64), interp64_base };
	}

	memset(&cfg, 0, sizeof(cfg));
	cfg.fmt.xlen = (uint8_t)((opt & OPT_RV32) ? interp32_xlen : interp64_xlen);
	cfg.fmt.src_bits = src_bits_choice[opt >> OPT_SRC_SHIFT];
	cfg.fmt.extend_addr_msb = opt & OPT_EXT_ADDR;
	cfg.src_id = -1;
	cfg.inst_mode = (opt & OPT_BTM) ? NTRACE_INST_MODE_BTM : NTRACE_INST_MODE_HTM;
	if (depth & DEPTH_AUTO_MODE)
		cfg.inst_mode = NTRACE_INST_MODE_AUTO; /* told by the messages */
	cfg.isa_ext = RV_EXT_C;
	cfg.implicit_return = opt & OPT_IMPLICIT_RET;
	cfg.call_stack_depth = (depth & ~DEPTH_AUTO_MODE) % (NTRACE_MAX_CALL_STACK + 1);
	cfg.sequential_jump = opt & OPT_SEQ_JUMP;
	cfg.all_jumps = opt & OPT_ALL_JUMPS;
	cfg.max_walk = 1u << 16;         /* keep single inputs fast */

	ops.read_code = read_code;
	ops.retired = retired;
	ops.event = event;
	ops.ctx = &run;

	if (ntrace_dec_init(&dec, &cfg, &ops) != 0)
		abort();        /* every configuration built above is valid */
	if (ntrace_dec_decode(&dec, data, size) < 0)
		abort();        /* errors are events, the count is >= 0 */
	if (ntrace_dec_finish(&dec) > 1)
		abort();        /* at most the one no-sync error */
	if (dec.stats.instructions != run.delivered)
		abort();
	return 0;
}
