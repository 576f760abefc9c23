/* SPDX-License-Identifier: BSD-2-Clause */
/* The N-Trace message parser of tci_regs.h. */
#include "tci_regs.h"

/* The next message from *pos (idle bytes skipped); false at the end of the
 * bytes or when they end inside a message. */
bool next_msg(const volatile uint8_t *b, size_t n, size_t *pos, struct msg *m)
{
	size_t i = *pos;
	unsigned shift = 0;

	while (i < n && b[i] == IDLE)
		i++;
	if (i >= n)
		return false;
	memset(m, 0, sizeof(*m));
	m->at = i;
	for (; i < n; i++) {
		uint8_t mseo = b[i] & 3;

		if (m->nseg < 4 && shift < 64)
			m->seg[m->nseg] |= (uint64_t)(b[i] >> 2) << shift;
		shift += 6;
		if (mseo == 0)
			continue;
		m->nseg++;
		shift = 0;
		if (mseo == 3) {
			m->tcode = (unsigned)(m->seg[0] & 0x3F);
			m->len = i + 1 - m->at;
			*pos = i + 1;
			return true;
		}
		if (mseo != 1)
			return false;   /* 10: reserved */
	}
	return false;
}

/* Every byte of [0, n) belongs to a complete message or is idle. */
bool all_messages(const volatile uint8_t *b, size_t n, int *count, struct msg *last,
			 const char *what)
{
	size_t pos = 0;
	struct msg m;

	*count = 0;
	while (next_msg(b, n, &pos, &m)) {
		*last = m;
		(*count)++;
	}
	while (pos < n && b[pos] == IDLE)
		pos++;
	return CHECK(pos == n, "%s: byte %zu of %zu (%#x) is not part of a complete message",
		     what, pos, n, pos < n ? b[pos] : 0);
}
