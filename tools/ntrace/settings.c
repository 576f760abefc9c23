// SPDX-License-Identifier: BSD-2-Clause
/*
 * What decoding a saved buffer needs, and whether what it was given fits:
 *
 *  - the sidecar, BUFFER.tci next to BUFFER: the encoder's register values
 *    (trTeControl, trTeInstFeatures, trTsControl, tracesbi's tsbiTeIngress)
 *    and how the buffer was saved (wrapped, hart, timebase, where S-mode
 *    started: next-addr, a kernel's load address), written by
 *    whoever saved the buffer (tests/trace/trace-run.py), read by decode,
 *    profile, timeline, dump and stats as if given with --tci;
 *  - one hint after a decode that went wrong, naming the setting that does
 *    not fit the stream (another hart's SRC ID, another SRC width, the other
 *    instruction mode) or that no settings were given at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

/* tsbiTeIngress bit 2 (docs/TRACE.md, "tracesbi registers"): the buffer
 * holds tandem-verification records, not N-Trace. */
#define TSBI_INGRESS_TV (1u << 2)

/* ---- the sidecar file ------------------------------------------------------ */

enum sidecar_key { KEY_CONTROL, KEY_FEATURES, KEY_TSCONTROL, KEY_INGRESS, KEY_WRAPPED,
		   KEY_HART, KEY_TIMEBASE, KEY_NEXT_ADDR, KEY_COUNT };

static const struct {
	const char *name;
	uint64_t max;
} sidecar_keys[KEY_COUNT] = {
	[KEY_CONTROL] = { "control", UINT32_MAX },
	[KEY_FEATURES] = { "features", UINT32_MAX },
	[KEY_TSCONTROL] = { "tscontrol", UINT32_MAX },
	[KEY_INGRESS] = { "ingress", UINT32_MAX },
	[KEY_WRAPPED] = { "wrapped", 1 },
	[KEY_HART] = { "hart", 1u << 20 },
	[KEY_TIMEBASE] = { "timebase-hz", UINT64_MAX },
	[KEY_NEXT_ADDR] = { "next-addr", UINT64_MAX },
};

/* A number as the TRACEBUF lines print them: hex with 0x, or decimal. */
static int parse_number(const char *s, uint64_t max, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -1;      /* a sign, a blank, or octal */
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static void store(struct nt_sidecar *sc, enum sidecar_key key, uint64_t v)
{
	switch (key) {
	case KEY_CONTROL: sc->control = (uint32_t)v; break;
	case KEY_FEATURES: sc->features = (uint32_t)v; break;
	case KEY_TSCONTROL: sc->tscontrol = (uint32_t)v; break;
	case KEY_INGRESS: sc->ingress = (uint32_t)v; break;
	case KEY_WRAPPED: sc->wrapped = v != 0; break;
	case KEY_HART: sc->hart = (int)v; break;
	case KEY_TIMEBASE: sc->timebase_hz = v; break;
	case KEY_NEXT_ADDR: sc->next_addr = v; sc->has_next_addr = true; break;
	default: break;
	}
}

/* One "key=value" line (blanks around both allowed); 0 or -1 with err. */
static int parse_line(char *line, unsigned lineno, const char *name, struct nt_sidecar *sc,
		      bool *seen, struct nt_err *err)
{
	char *eq = strchr(line, '=');
	char *key = line, *val, *end;
	uint64_t v;

	if (!eq) {
		nt_err_set(err, "%s:%u: not 'key=value': '%s'", name, lineno, line);
		return -1;
	}
	for (end = eq; end > key && (end[-1] == ' ' || end[-1] == '\t'); end--)
		;
	*end = '\0';
	for (val = eq + 1; *val == ' ' || *val == '\t'; val++)
		;
	for (unsigned k = 0; k < KEY_COUNT; k++) {
		if (strcmp(key, sidecar_keys[k].name) != 0)
			continue;
		if (seen[k]) {
			nt_err_set(err, "%s:%u: '%s' given twice", name, lineno, key);
			return -1;
		}
		if (parse_number(val, sidecar_keys[k].max, &v)) {
			nt_err_set(err, "%s:%u: %s needs a number (hex with 0x, or decimal) up to "
				   "%#" PRIx64 ", not '%s'", name, lineno, key, sidecar_keys[k].max, val);
			return -1;
		}
		seen[k] = true;
		store(sc, (enum sidecar_key)k, v);
		return 0;
	}
	nt_err_set(err, "%s:%u: unknown key '%s' (control, features, tscontrol, ingress, wrapped, "
		   "hart, timebase-hz, next-addr)", name, lineno, key);
	return -1;
}

int nt_sidecar_parse(const char *text, size_t len, const char *name, struct nt_sidecar *sc,
		     struct nt_err *err)
{
	bool seen[KEY_COUNT] = { false };
	unsigned lineno = 0;
	size_t pos = 0;

	sc->control = sc->features = sc->tscontrol = sc->ingress = 0;
	sc->wrapped = false;
	sc->hart = -1;
	sc->timebase_hz = 0;
	sc->next_addr = 0;
	sc->has_next_addr = false;
	while (pos < len) {
		char line[NT_TEXT_MAX_LINE + 1];
		size_t n = 0, start = pos;

		lineno++;
		while (pos < len && text[pos] != '\n')
			pos++;
		n = pos - start;
		pos++;          /* past the newline */
		while (n && (text[start + n - 1] == '\r' || text[start + n - 1] == ' ' ||
			     text[start + n - 1] == '\t'))
			n--;
		while (n && (text[start] == ' ' || text[start] == '\t'))
			start++, n--;
		if (n > NT_TEXT_MAX_LINE) {
			nt_err_set(err, "%s:%u: line longer than %d characters", name, lineno,
				   NT_TEXT_MAX_LINE);
			return -1;
		}
		if (n == 0 || text[start] == '#')
			continue;
		if (memchr(text + start, '\0', n)) {
			nt_err_set(err, "%s:%u: a NUL byte: not a text file", name, lineno);
			return -1;
		}
		memcpy(line, text + start, n);
		line[n] = '\0';
		if (parse_line(line, lineno, name, sc, seen, err))
			return -1;
	}
	if (!seen[KEY_CONTROL] || !seen[KEY_FEATURES]) {
		nt_err_set(err, "%s: needs control= and features= (the trTeControl and "
			   "trTeInstFeatures the encoder ran with)", name);
		return -1;
	}
	return 0;
}

int nt_sidecar_read(const char *nex_path, struct nt_sidecar *sc, struct nt_err *err)
{
	uint8_t *text;
	size_t len;
	int n = snprintf(sc->path, sizeof(sc->path), "%s%s", nex_path, NT_SIDECAR_SUFFIX);
	FILE *f;

	if (n < 0 || (size_t)n >= sizeof(sc->path) || !(f = fopen(sc->path, "rb")))
		return 0;       /* none (or a name too long to have one) */
	fclose(f);
	if (nt_read_file(sc->path, &text, &len, err))
		return -1;
	int rc = nt_sidecar_parse((const char *)text, len, sc->path, sc, err);

	free(text);
	if (rc)
		return -1;
	if (sc->ingress & TSBI_INGRESS_TV) {
		nt_err_set(err, "%s holds tandem-verification records, not N-Trace (%s: ingress "
			   "%#" PRIx32 ", tsbiTeIngress bit 2): read it with tvtrace, e.g. "
			   "'tvtrace check --elf PROG.elf --idle-padded %s'", nex_path, sc->path,
			   sc->ingress, nex_path);
		return -1;
	}
	return 1;
}

/* ---- one hint when the settings do not fit the stream ---------------------- */

static bool mode_fits(const struct nt_tool_config *cfg, const struct nt_stream_stats *st,
		      char *hint, size_t size)
{
	uint64_t btm_only = st->per_tcode[NTRACE_TCODE_DIRECT_BRANCH] +
			    st->per_tcode[NTRACE_TCODE_DIRECT_BRANCH_SYNC];
	uint64_t htm_only = st->per_tcode[NTRACE_TCODE_INDIRECT_BRANCH_HIST] +
			    st->per_tcode[NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC];

	if (!cfg->mode_set)
		return true;
	if (cfg->mode == NT_TOOL_HTM && btm_only && !htm_only) {
		snprintf(hint, size, "the stream has %" PRIu64 " DirectBranch messages, which only "
			 "BTM sends, but the settings say HTM", btm_only);
		return false;
	}
	if (cfg->mode == NT_TOOL_BTM && htm_only && !btm_only) {
		snprintf(hint, size, "the stream has %" PRIu64 " IndirectBranchHist messages, which "
			 "only HTM sends, but the settings say BTM", htm_only);
		return false;
	}
	return true;
}

/* The SRC values the stream's messages carry, "1" or "1, 2 and 3". */
static void src_list(const struct nt_stream_stats *st, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < st->nsrc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%" PRIu32,
					 i == 0 ? "" : i + 1 == st->nsrc ? " and " : ", ",
					 st->src[i]);
}

static bool src_seen(const struct nt_stream_stats *st, uint32_t id)
{
	for (unsigned i = 0; i < st->nsrc; i++)
		if (st->src[i] == id)
			return true;
	return false;
}

/* The SRC field: its width, then (with registers or --src) its value. */
static bool src_fits(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		     const struct nt_stream_stats *st, unsigned long errors, char *hint,
		     size_t size, bool *says_remedy)
{
	char ids[96];

	if (errors) {
		unsigned width = nt_detect_src_bits(cfg, nex, len);
		struct nt_tool_config other = *cfg;
		struct nt_stream_stats ost;

		other.src_bits = width;
		nt_stream_stats(&other, nex, len, &ost);
		if (ost.malformed * 4 > ost.messages) {
			snprintf(hint, size, "%" PRIu64 " malformed messages against %" PRIu64
				 " well-formed ones, whatever the SRC width: is this an N-Trace "
				 "stream?", ost.malformed, ost.messages);
			*says_remedy = true;
			return false;
		}
		if (width != cfg->src_bits && ost.malformed < st->malformed) {
			snprintf(hint, size, "the stream parses with a SRC field of %u bits (%" PRIu64
				 " malformed messages), not the %u bits it was decoded with (%" PRIu64
				 ")", width, ost.malformed, cfg->src_bits, st->malformed);
			return false;
		}
	}
	if (!cfg->src_bits || !st->nsrc || src_seen(st, cfg->src_id))
		return true;
	src_list(st, ids, sizeof(ids));
	*says_remedy = cfg->src_id_set;
	if (cfg->src_id_set)
		snprintf(hint, size, "no message has SRC %" PRIu32 ": the stream's carry SRC %s; "
			 "decode with one of those in --src, or without --src", cfg->src_id, ids);
	else
		snprintf(hint, size, "the messages carry SRC %s but trTeSrcID in the FEATURES "
			 "given is %" PRIu32 ": these are another hart's registers", ids, cfg->src_id);
	return false;
}

void nt_settings_hint(const struct nt_tool_config *cfg, const uint8_t *nex, size_t len,
		      unsigned long errors, const char *name, FILE *diag)
{
	struct nt_stream_stats st;
	char hint[400] = "";
	bool fits, says_remedy = false;

	/* Nothing went wrong: only a look at the SRC ID of the registers. */
	if (!errors && (!cfg->settings_from || !cfg->src_bits || cfg->src_id_set))
		return;
	nt_stream_stats(cfg, nex, len, &st);
	if (!st.messages && !st.malformed)
		return;         /* nothing but idle bytes: no setting would help */
	fits = src_fits(cfg, nex, len, &st, errors, hint, sizeof(hint), &says_remedy) &&
	       (!errors || mode_fits(cfg, &st, hint, sizeof(hint)));
	if (fits && errors && !cfg->settings_from)
		snprintf(hint, sizeof(hint), "decoded without the encoder's registers");
	else if (fits)
		return;
	if (says_remedy)
		fprintf(diag, "%s: hint: %s\n", name, hint);
	else if (cfg->settings_from && cfg->settings_remedy)
		fprintf(diag, "%s: hint: %s (settings from %s); %s\n", name, hint, cfg->settings_from,
			cfg->settings_remedy);
	else if (cfg->settings_from)
		fprintf(diag, "%s: hint: %s (settings from %s); give this buffer's own: %s%s next "
			"to it, or --tci CONTROL,FEATURES,TSCONTROL from its TRACEBUF line\n", name,
			hint, cfg->settings_from, name, NT_SIDECAR_SUFFIX);
	else
		fprintf(diag, "%s: hint: %s; they are in %s%s when the buffer was saved with it "
			"(make trace, the trace suite), else give --tci CONTROL,FEATURES,TSCONTROL "
			"from its TRACEBUF line\n", name, hint, name, NT_SIDECAR_SUFFIX);
}
