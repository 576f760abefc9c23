// SPDX-License-Identifier: BSD-2-Clause
/* `ntrace stats`: stream size and messages per TCODE (message parser). */
#include <string.h>

#include "ntrace_tool.h"

/* Fixed fields holding values the spec reserves (Tables 15, 19, 23, 25). */
static bool has_reserved_value(const struct ntrace_msg *m)
{
	if (ntrace_msg_has(m, NTRACE_FLD_SYNC)) {
		uint64_t v = m->val[NTRACE_FLD_SYNC];
		if (v == 8 || v > NTRACE_SYNC_POWER_UP)
			return true;
	}
	if (ntrace_msg_has(m, NTRACE_FLD_EVCODE)) {
		uint64_t v = m->val[NTRACE_FLD_EVCODE];
		if (v != NTRACE_EVCODE_DEBUG_ENTRY && v != NTRACE_EVCODE_LOW_POWER &&
		    v != NTRACE_EVCODE_TRACE_DISABLED)
			return true;
	}
	if (ntrace_msg_has(m, NTRACE_FLD_RCODE) && m->val[NTRACE_FLD_RCODE] > NTRACE_RCODE_HIST_REPEAT)
		return true;
	return ntrace_msg_has(m, NTRACE_FLD_ETYPE) && m->val[NTRACE_FLD_ETYPE] != NTRACE_ETYPE_QUEUE_OVERRUN;
}

static void note_src(struct nt_stream_stats *st, uint32_t src)
{
	for (unsigned i = 0; i < st->nsrc; i++)
		if (st->src[i] == src)
			return;
	if (st->nsrc < sizeof(st->src) / sizeof(st->src[0]))
		st->src[st->nsrc++] = src;
}

void nt_stream_stats(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		     struct nt_stream_stats *st)
{
	struct ntrace_format fmt;
	nt_tool_format(cfg, &fmt);
	memset(st, 0, sizeof(*st));
	st->bytes = len;
	size_t pos = 0;
	while (pos < len) {
		if (nex[pos] == NTRACE_IDLE_BYTE) {
			st->idle_bytes++;
			pos++;
			continue;
		}
		size_t start = pos;
		struct ntrace_msg m;
		struct ntrace_error err;
		int rc = ntrace_msg_parse(&fmt, nex, len, &pos, &m, &err);
		if (rc == 0)
			break;
		if (rc == 1 || rc == -NTRACE_ERR_RESERVED_TCODE || rc == -NTRACE_ERR_VENDOR_TCODE) {
			st->messages++;
			st->per_tcode[m.val[NTRACE_FLD_TCODE] & 63]++;
		}
		if (rc == 1 && has_reserved_value(&m))
			st->reserved_values++;
		if (rc == 1 && fmt.src_bits)
			note_src(st, (uint32_t)m.val[NTRACE_FLD_SRC]);
		if (rc != 1 && rc != -NTRACE_ERR_VENDOR_TCODE)
			st->malformed++;
		if (pos <= start)
			pos = start + 1;
	}
}

unsigned nt_detect_src_bits(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len)
{
	struct nt_tool_config try = *cfg;
	unsigned best = 0;
	uint64_t best_score = UINT64_MAX;
	for (unsigned bits = 0; bits <= NTRACE_MAX_SRC; bits++) {
		struct nt_stream_stats st;
		try.src_bits = bits;
		nt_stream_stats(&try, nex, len, &st);
		/* malformed messages weigh most, then reserved field values */
		uint64_t score = st.malformed * 1024 + st.reserved_values;
		if (score < best_score) {
			best = bits;
			best_score = score;
		}
		if (score == 0)
			break;
	}
	return best;
}
