/* SPDX-License-Identifier: BSD-2-Clause */
/* ntrace tool: parsed command line and the command implementations. */
#ifndef NTRACE_CLI_H
#define NTRACE_CLI_H

#include "ntrace_tool.h"

struct cli_list {
	const char **v;
	size_t count;
};

/* One saved buffer and how to decode it (its sidecar, else the command line). */
struct cli_input {
	const char *path;
	struct nt_tool_config cfg;
	bool src_bits_given;
	int hart;                       /* from the sidecar, -1: from the file name */
	uint64_t timebase_hz;           /* from the sidecar, 0: unknown */
	uint32_t tscontrol;             /* trTsControl from the sidecar */
	bool has_next_addr;             /* the sidecar's next-addr: */
	uint64_t next_addr;
	char *settings_path;            /* the sidecar read, or NULL */
};

struct cli_args {
	struct cli_list elves;          /* --elf, in order */
	struct cli_list raws;           /* --raw FILE@ADDR, in order */
	const char *trace_path;         /* --pcs or --pcseq */
	bool trace_is_pcseq;
	const char *out_path;           /* --out */
	const char *input_path;         /* positional .nex */
	struct nt_tool_config cfg;
	bool src_given;
	bool xlen_given;
	bool src_bits_given;
	bool all_opt;
	bool symbols;                   /* decode --symbols: listing */
	bool listing;                   /* decode --listing: with disassembly, events */
	bool export_pcseq;              /* decode --export-pcseq */
	const char *objdump;            /* --objdump PROGRAM */
	bool json, folded, svg;         /* profile / timeline output forms */
	bool profile;                   /* perf --profile: the profile's text tables */
	unsigned top;                   /* profile --top N rows (0: default) */
	struct cli_list inputs;         /* every .nex (timeline: one per hart) */
	struct cli_input *in;           /* inputs.count of them (commands reading buffers) */
	bool has_next_addr;             /* the first sidecar's next-addr, which */
	uint64_t next_addr;             /* places --elf files without @ADDR */
};

/* Each returns the process exit status (0 ok, 1 error). */
int cli_encode(struct cli_args *a);
int cli_decode(struct cli_args *a);
int cli_dump(struct cli_args *a);
int cli_stats(struct cli_args *a);
int cli_profile(struct cli_args *a);
int cli_timeline(struct cli_args *a);
int cli_perf(struct cli_args *a);

/* A profile in the form a asks for (--json, --folded, --svg, else text
 * tables) to --out or stdout; 0, or -1 with the message printed. */
int cli_write_profile(const struct nt_profile *p, struct cli_args *a);

#endif
