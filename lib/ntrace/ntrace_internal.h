/* Internal interfaces shared by the ntrace library files (not public API). */
#ifndef NTRACE_INTERNAL_H
#define NTRACE_INTERNAL_H

#include "ntrace.h"

/* Worst-case bytes ntrace_write_fields() may store: TCODE+SRC+fixed fields
 * (4) and up to four 64-bit variable fields (12 each). */
#define NTRACE_WRITE_MAX NTRACE_MSG_WRITE_MAX

/*
 * Write the message with layout `l`; val[] is indexed by enum ntrace_field
 * and only the layout's fields (plus SRC when fmt->src_bits, TSTAMP when
 * has_tstamp) are read.  Fixed fields are masked to their width.  `out`
 * must have NTRACE_WRITE_MAX bytes.  Returns the message length.
 */
int ntrace_write_fields(const struct ntrace_format *fmt, const struct ntrace_msg_layout *l,
			const uint64_t *val, bool has_tstamp, uint8_t *out);

#endif /* NTRACE_INTERNAL_H */
