/* SPDX-License-Identifier: BSD-2-Clause */
/* ntrace tool: parsed command line and the command implementations. */
#ifndef NTRACE_CLI_H
#define NTRACE_CLI_H

#include "ntrace_tool.h"

struct cli_list {
	const char **v;
	size_t count;
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
	unsigned top;                   /* profile --top N rows (0: default) */
	struct cli_list inputs;         /* timeline: every .nex, one per hart */
};

/* Each returns the process exit status (0 ok, 1 error). */
int cli_encode(struct cli_args *a);
int cli_decode(struct cli_args *a);
int cli_dump(struct cli_args *a);
int cli_stats(struct cli_args *a);
int cli_profile(struct cli_args *a);
int cli_timeline(struct cli_args *a);

#endif
