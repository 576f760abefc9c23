/* `ntrace stats`: stream size and messages per TCODE (message parser). */
#include <string.h>

#include "ntrace_tool.h"

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
	uint64_t best_bad = UINT64_MAX;
	for (unsigned bits = 0; bits <= NTRACE_MAX_SRC; bits++) {
		struct nt_stream_stats st;
		try.src_bits = bits;
		nt_stream_stats(&try, nex, len, &st);
		if (st.malformed < best_bad) {
			best = bits;
			best_bad = st.malformed;
		}
		if (st.malformed == 0)
			break;
	}
	return best;
}
