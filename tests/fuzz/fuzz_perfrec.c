// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: tsbi-record's recordings (linux-trace/recording.h) as
 * `ntrace perf` reads them (tools/ntrace/perfrec.c), on arbitrary bytes.
 * Checks, besides the sanitizers:
 *  - a rejected input is named by a byte inside it, or at its end
 *    ("fuzz: byte N: ..."), never past it;
 *  - a parsed one has its records in order inside the input, its AUX bytes
 *    inside too, and names that end inside their records;
 *  - what the command then does runs to the end: the settings from
 *    attr.config (which the parse has checked, so they cannot fail), the
 *    traced pid, each segment's header line, and each AUX record decoded
 *    as a stream of its own (against no program image: the decoder has a
 *    target of its own).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "recording.h"

static void check_rejection(const struct nt_err *err, size_t size)
{
	size_t at;

	if (strstr(err->msg, "out of memory"))
		return;
	if (sscanf(err->msg, "fuzz: byte %zu: ", &at) != 1 || at > size)
		abort();
}

static void check_records(const struct nt_perf_recording *r, const uint8_t *data, size_t size)
{
	size_t prev_end = 0, segments = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct nt_perf_record *rec = &r->v[i];

		if (rec->offset < prev_end || rec->size < TSBIREC_HEADER_BYTES ||
		    rec->offset + rec->size > size)
			abort();
		prev_end = rec->offset + rec->size;
		if (rec->name && (rec->name < (const char *)data + rec->offset ||
				  rec->name + strlen(rec->name) >= (const char *)data + prev_end))
			abort();
		if (rec->type != TSBIREC_AUX)
			continue;
		segments++;
		if (rec->aux_at != prev_end || rec->aux != data + rec->aux_at ||
		    rec->aux_size > size - rec->aux_at)
			abort();
		prev_end = rec->aux_at + rec->aux_size;
	}
	if (segments != r->segments)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nt_perf_recording r;
	struct nt_tool_config cfg;
	struct nt_image_set images;
	struct nt_perf_output out = { 0 };
	struct nt_err err;
	uint32_t pid;
	char line[256];

	if (nt_perf_parse(data, size, "fuzz", &r, &err)) {
		check_rejection(&err, size);
		return 0;
	}
	check_records(&r, data, size);
	nt_tool_config_default(&cfg);
	if (nt_perf_config(&r, &cfg, &err))
		abort();
	(void)nt_perf_traced_pid(&r, &pid);
	for (size_t i = 0, k = 0; i < r.count; i++)
		if (r.v[i].type == TSBIREC_AUX &&
		    (nt_perf_segment_header(line, sizeof(line), k++, &r.v[i]) <= 0 ||
		     strncmp(line, "# segment ", 10) != 0))
			abort();
	nt_images_init(&images);
	if (nt_perf_decode(&r, &cfg, &images, &out, "fuzz", NULL, &err) < 0 &&
	    !strstr(err.msg, "out of memory"))
		abort();
	nt_images_free(&images);
	nt_perf_free(&r);
	return 0;
}
