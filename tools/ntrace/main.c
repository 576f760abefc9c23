/*
 * ntrace: command line around the N-Trace codec library.
 *
 *   ntrace encode --elf P.elf --pcs P.pcs --out P.nex [codec options]
 *   ntrace decode --elf P.elf P.nex --out P.pcs [codec options]
 *   ntrace dump P.nex
 *   ntrace stats P.nex [--elf P.elf]
 *
 * Exit status: 0 success, 1 error (bad input, decode error), 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "ntrace_cli.h"

#define EXIT_USAGE 2

static const char tool_usage[] =
	"usage: ntrace <command> [options]\n"
	"\n"
	"N-Trace (RISC-V Nexus trace) encoder, decoder and dump tool.\n"
	"\n"
	"commands:\n"
	"  encode   retired-instruction trace (.pcs or pcseq) -> N-Trace messages\n"
	"  decode   N-Trace messages -> retired-instruction trace (.pcs)\n"
	"  dump     list messages byte by byte with MDO/MSEO bits and fields\n"
	"  stats    sizes and message counts (and bits/instruction with --elf)\n"
	"\n"
	"'ntrace <command> --help' describes each command.\n"
	"Exit status: 0 ok, 1 error in the input or while decoding, 2 usage error.\n";

static const char codec_options_help[] =
	"codec options (the decoder must be given the same ones as the encoder):\n"
	"  --mode htm|btm            history (default) or branch trace messaging\n"
	"  --callstack N             implicit return with an N-entry call stack, 1..32\n"
	"                            (alone: mode 3; 0 = off)\n"
	"  --implicit-return-mode M  trTeInstImplicitReturnMode: 0 off, 1 count,\n"
	"                            2 partial, 3 full addresses (alone: stack of 32)\n"
	"  --repeat-history          ResourceFull with HREPEAT for repeated HIST (HTM)\n"
	"  --repeat-branch           RepeatBranch messages (BTM mode; no effect in HTM)\n"
	"  --seq-jump                sequential jump optimization\n"
	"  --ext-addr                extend address MSB (trTeInstExtendAddrMSB)\n"
	"  --sync-period N           periodic sync message every N messages, N rounded\n"
	"                            down to a power of two >= 16 (0 = off)\n"
	"  --src ID --src-bits B     SRC field of B bits holding ID (default: no SRC);\n"
	"                            decode keeps only messages of ID (all without --src)\n"
	"  --timestamp               TSTAMP field in every message; its value is the\n"
	"                            index (from 0) of the last instruction retired\n"
	"                            when the message was generated\n"
	"  --xlen 32|64              address width (default: ELF class, else 64)\n"
	"  --all-opt                 every optional compression: repeat history,\n"
	"                            implicit return mode 3 with a 32-entry call stack,\n"
	"                            seq jump, ext addr, and repeat branch in BTM mode\n";

static const char image_options_help[] =
	"program images (used to classify each pc):\n"
	"  --elf FILE                ELF file (repeatable, e.g. firmware + kernel)\n"
	"  --raw FILE@ADDR           raw memory image loaded at ADDR (repeatable)\n";

static const char encode_usage[] =
	"usage: ntrace encode (--elf FILE | --raw FILE@ADDR)... --pcs FILE --out FILE.nex\n"
	"                     [codec options]\n"
	"       ntrace encode --pcseq FILE --out FILE.nex [--elf FILE...] [codec options]\n"
	"\n"
	"Encodes a retired-instruction trace into N-Trace messages.\n"
	"\n"
	"  --pcs FILE    one retired instruction per line: '<hex pc>[ exc|int]'\n"
	"                ('0x' optional; 'exc'/'int': an exception / interrupt was taken\n"
	"                right after this instruction retired; '#' comment lines and\n"
	"                blank lines are ignored).  Each instruction is classified from\n"
	"                the images; the next line's pc tells taken/not-taken and the\n"
	"                trap handler.  An unexplained transition is an error.\n"
	"  --pcseq FILE  N-Trace reference code PC sequence: '<hex pc>,<class><size>'\n"
	"                with class L (linear), B (taken branch), BN (not-taken branch),\n"
	"                J/JI (direct/indirect jump), C/CI (direct/indirect call),\n"
	"                R (return), E (ecall/ebreak), X (mret/sret); size 2 or 4;\n"
	"                optional ' exc'/' int' marker.  Images are not needed.\n"
	"  --out FILE    N-Trace output (binary, one MDO/MSEO byte per 6 bits)\n"
	"  --feed chunks|records|blocks\n"
	"                diagnostic: how the records reach the library: many per\n"
	"                ntrace_enc_retire() call (chunks, the default), one per call\n"
	"                (records), or as runs of sequential instructions through\n"
	"                ntrace_enc_block() (blocks: must give the bytes of records)\n"
	"\n";

static const char decode_usage[] =
	"usage: ntrace decode (--elf FILE | --raw FILE@ADDR)... FILE.nex [--out FILE.pcs]\n"
	"                     [codec options]\n"
	"\n"
	"Decodes N-Trace messages back into the retired-instruction sequence and\n"
	"writes it in canonical .pcs form: lowercase hex pc without '0x' and without\n"
	"leading zeros, then ' exc' or ' int' when a trap was taken after it.\n"
	"Errors (message at byte offset N) go to stderr; decoding resumes at the\n"
	"next synchronization message; the exit status is 1 if there was any error.\n"
	"Without --out the trace goes to standard output.\n"
	"\n";

static const char dump_usage[] =
	"usage: ntrace dump FILE.nex [--src-bits B] [--ext-addr] [--xlen 32|64]\n"
	"\n"
	"Lists every byte (offset, value, MDO[5:0] and MSEO[1:0] bits) and the decoded\n"
	"fields of each message, as in Table 6 of the N-Trace specification: each\n"
	"field is shown on the byte where it ends, as NAME[MDO bits] = value.\n"
	"Without --src-bits the SRC field width is detected (the smallest width under\n"
	"which every message parses).  TSTAMP fields are recognised without options.\n"
	"Malformed bytes are shown and reported; the exit status is then 1.\n"
	"Other codec options are accepted (and ignored) so the encoder's can be reused.\n"
	"\n";

static const char stats_usage[] =
	"usage: ntrace stats FILE.nex [--elf FILE | --raw FILE@ADDR]... [codec options]\n"
	"\n"
	"Prints the size, the number of messages per TCODE and, with program images,\n"
	"the number of decoded instructions and bits per instruction (decoding needs\n"
	"the encoder's codec options).  Without --src-bits the SRC width is detected.\n"
	"Exit status 1 when a message is malformed or decoding reports an error.\n"
	"\n";

enum {
	OPT_ELF = 256, OPT_RAW, OPT_PCS, OPT_PCSEQ, OPT_OUT, OPT_MODE,
	OPT_CALLSTACK, OPT_IRMODE, OPT_REPEAT_HISTORY, OPT_REPEAT_BRANCH,
	OPT_SEQ_JUMP, OPT_EXT_ADDR, OPT_SYNC_PERIOD, OPT_SRC, OPT_SRC_BITS,
	OPT_TIMESTAMP, OPT_XLEN, OPT_ALL_OPT, OPT_FEED, OPT_HELP,
};

static const struct option long_options[] = {
	{ "elf", required_argument, NULL, OPT_ELF },
	{ "raw", required_argument, NULL, OPT_RAW },
	{ "pcs", required_argument, NULL, OPT_PCS },
	{ "pcseq", required_argument, NULL, OPT_PCSEQ },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "callstack", required_argument, NULL, OPT_CALLSTACK },
	{ "implicit-return-mode", required_argument, NULL, OPT_IRMODE },
	{ "repeat-history", no_argument, NULL, OPT_REPEAT_HISTORY },
	{ "repeat-branch", no_argument, NULL, OPT_REPEAT_BRANCH },
	{ "seq-jump", no_argument, NULL, OPT_SEQ_JUMP },
	{ "ext-addr", no_argument, NULL, OPT_EXT_ADDR },
	{ "sync-period", required_argument, NULL, OPT_SYNC_PERIOD },
	{ "src", required_argument, NULL, OPT_SRC },
	{ "src-bits", required_argument, NULL, OPT_SRC_BITS },
	{ "timestamp", no_argument, NULL, OPT_TIMESTAMP },
	{ "xlen", required_argument, NULL, OPT_XLEN },
	{ "all-opt", no_argument, NULL, OPT_ALL_OPT },
	{ "feed", required_argument, NULL, OPT_FEED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* Which options a command accepts (bit per OPT_* - OPT_ELF). */
#define OPTBIT(o) (1u << ((o) - OPT_ELF))
#define CODEC_OPTS (OPTBIT(OPT_MODE) | OPTBIT(OPT_CALLSTACK) | OPTBIT(OPT_IRMODE) | \
		    OPTBIT(OPT_REPEAT_HISTORY) | OPTBIT(OPT_REPEAT_BRANCH) | \
		    OPTBIT(OPT_SEQ_JUMP) | OPTBIT(OPT_EXT_ADDR) | OPTBIT(OPT_SYNC_PERIOD) | \
		    OPTBIT(OPT_SRC) | OPTBIT(OPT_SRC_BITS) | OPTBIT(OPT_TIMESTAMP) | \
		    OPTBIT(OPT_XLEN) | OPTBIT(OPT_ALL_OPT))
#define IMAGE_OPTS (OPTBIT(OPT_ELF) | OPTBIT(OPT_RAW))

struct command {
	const char *name;
	const char *usage;
	unsigned accepted;      /* OPTBIT set */
	int positional;         /* number of positional arguments required */
	int (*run)(struct cli_args *args);
};

static const struct command commands[] = {
	{ "encode", encode_usage, CODEC_OPTS | IMAGE_OPTS | OPTBIT(OPT_PCS) |
	  OPTBIT(OPT_PCSEQ) | OPTBIT(OPT_OUT) | OPTBIT(OPT_FEED), 0, cli_encode },
	{ "decode", decode_usage, CODEC_OPTS | IMAGE_OPTS | OPTBIT(OPT_OUT), 1, cli_decode },
	{ "dump", dump_usage, CODEC_OPTS, 1, cli_dump },
	{ "stats", stats_usage, CODEC_OPTS | IMAGE_OPTS, 1, cli_stats },
};

static void print_usage(FILE *f, const struct command *cmd)
{
	fputs(cmd->usage, f);
	if (cmd->accepted & IMAGE_OPTS)
		fputs(image_options_help, f);
	if (cmd->accepted & CODEC_OPTS) {
		if (cmd->accepted & IMAGE_OPTS)
			fputc('\n', f);
		fputs(codec_options_help, f);
	}
}

static int usage_error(const struct command *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "ntrace %s: ", cmd->name);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see 'ntrace %s --help')\n", cmd->name);
	return EXIT_USAGE;
}

static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int add_list(struct cli_list *l, const char *s)
{
	const char **v = realloc(l->v, (l->count + 1) * sizeof(*v));
	if (!v)
		return -1;
	l->v = v;
	l->v[l->count++] = s;
	return 0;
}

/* Options an explicit value was given for: --all-opt fills in only the rest. */
struct explicit_opts {
	bool callstack, irmode, repeat_branch;
};

static void apply_all_opt(struct nt_tool_config *cfg, const struct explicit_opts *set)
{
	cfg->repeat_history = true;
	cfg->seq_jump = true;
	cfg->ext_addr = true;
	if (!set->callstack)
		cfg->callstack = NTRACE_MAX_CALL_STACK;
	if (!set->irmode)       /* full addresses: exact, so never a wrong guess */
		cfg->implicit_return_mode = NTRACE_IMPLICIT_RETURN_FULL;
	if (cfg->mode == NT_TOOL_BTM && !set->repeat_branch)
		cfg->repeat_branch = true;
}

static int parse_option(const struct command *cmd, int opt, const char *arg,
			struct cli_args *a, struct explicit_opts *set)
{
	uint64_t v;
	switch (opt) {
	case OPT_ELF:
	case OPT_RAW:
		if (add_list(opt == OPT_ELF ? &a->elves : &a->raws, arg)) {
			fprintf(stderr, "ntrace: out of memory\n");
			return 1;
		}
		return 0;
	case OPT_PCS:
	case OPT_PCSEQ:
		if (a->trace_path)
			return usage_error(cmd, "%s", "give one of --pcs or --pcseq, once");
		a->trace_path = arg;
		a->trace_is_pcseq = opt == OPT_PCSEQ;
		return 0;
	case OPT_OUT:
		a->out_path = arg;
		return 0;
	case OPT_MODE:
		if (strcmp(arg, "htm") == 0)
			a->cfg.mode = NT_TOOL_HTM;
		else if (strcmp(arg, "btm") == 0)
			a->cfg.mode = NT_TOOL_BTM;
		else
			return usage_error(cmd, "--mode must be htm or btm, not '%s'", arg);
		return 0;
	case OPT_CALLSTACK:
		if (parse_uint(arg, NTRACE_MAX_CALL_STACK, &v))
			return usage_error(cmd, "--callstack needs a depth 0..32, not '%s'", arg);
		a->cfg.callstack = (unsigned)v;
		set->callstack = true;
		return 0;
	case OPT_IRMODE:
		if (parse_uint(arg, 3, &v))
			return usage_error(cmd, "--implicit-return-mode must be 0..3, not '%s'", arg);
		a->cfg.implicit_return_mode = (unsigned)v;
		set->irmode = true;
		return 0;
	case OPT_REPEAT_HISTORY:
		a->cfg.repeat_history = true;
		return 0;
	case OPT_REPEAT_BRANCH:
		a->cfg.repeat_branch = true;
		set->repeat_branch = true;
		return 0;
	case OPT_SEQ_JUMP:
		a->cfg.seq_jump = true;
		return 0;
	case OPT_EXT_ADDR:
		a->cfg.ext_addr = true;
		return 0;
	case OPT_SYNC_PERIOD:
		if (parse_uint(arg, UINT32_MAX, &v))
			return usage_error(cmd, "--sync-period needs a number, not '%s'", arg);
		a->cfg.sync_period = (uint32_t)v;
		return 0;
	case OPT_SRC:
		if (parse_uint(arg, 4095, &v))
			return usage_error(cmd, "--src needs an ID 0..4095, not '%s'", arg);
		a->cfg.src_id = (uint32_t)v;
		a->cfg.src_id_set = true;
		a->src_given = true;
		return 0;
	case OPT_SRC_BITS:
		if (parse_uint(arg, 12, &v))   /* NTRACE_MAX_SRC, spec Table 10 */
			return usage_error(cmd, "--src-bits must be 0..12, not '%s'", arg);
		a->cfg.src_bits = (unsigned)v;
		a->src_bits_given = true;
		return 0;
	case OPT_TIMESTAMP:
		a->cfg.timestamp = true;
		return 0;
	case OPT_XLEN:
		if (strcmp(arg, "32") && strcmp(arg, "64"))
			return usage_error(cmd, "--xlen must be 32 or 64, not '%s'", arg);
		a->cfg.xlen = (unsigned)atoi(arg);
		a->xlen_given = true;
		return 0;
	case OPT_ALL_OPT:
		a->all_opt = true;
		return 0;
	case OPT_FEED:
		if (strcmp(arg, "chunks") == 0)
			a->cfg.feed = NT_FEED_CHUNKS;
		else if (strcmp(arg, "records") == 0)
			a->cfg.feed = NT_FEED_RECORDS;
		else if (strcmp(arg, "blocks") == 0)
			a->cfg.feed = NT_FEED_BLOCKS;
		else
			return usage_error(cmd, "--feed must be chunks, records or blocks, not '%s'", arg);
		return 0;
	}
	return usage_error(cmd, "%s", "internal error: unknown option");
}

static int check_args(const struct command *cmd, struct cli_args *a)
{
	if (a->src_given && a->cfg.src_bits == 0)
		return usage_error(cmd, "%s", "--src needs --src-bits B (B > 0)");
	if (a->cfg.src_bits && a->cfg.src_id >> a->cfg.src_bits)
		return usage_error(cmd, "%s", "--src ID does not fit in --src-bits");
	if (strcmp(cmd->name, "encode") == 0) {
		if (!a->trace_path)
			return usage_error(cmd, "%s", "needs --pcs FILE or --pcseq FILE");
		if (!a->out_path)
			return usage_error(cmd, "%s", "needs --out FILE");
		if (!a->trace_is_pcseq && a->elves.count + a->raws.count == 0)
			return usage_error(cmd, "%s", "--pcs needs program images (--elf or --raw)");
	}
	if (strcmp(cmd->name, "decode") == 0 && a->elves.count + a->raws.count == 0)
		return usage_error(cmd, "%s", "needs program images (--elf or --raw)");
	return 0;
}

static int run_command(const struct command *cmd, int argc, char **argv)
{
	struct cli_args a;
	memset(&a, 0, sizeof(a));
	nt_tool_config_default(&a.cfg);
	struct explicit_opts set = { 0 };
	int rc = 0;

	optind = 1;
	opterr = 0;
	for (;;) {
		int idx = 0;
		int opt = getopt_long(argc, argv, "h", long_options, &idx);
		if (opt == -1)
			break;
		if (opt == 'h' || opt == OPT_HELP) {
			print_usage(stdout, cmd);
			goto out;
		}
		if (opt == '?' || opt == ':') {
			rc = usage_error(cmd, "bad option or missing argument: '%s'",
					 argv[optind - 1]);
			goto out;
		}
		if (!(cmd->accepted & OPTBIT(opt))) {
			rc = usage_error(cmd, "option '--%s' does not apply to this command",
					 long_options[idx].name);
			goto out;
		}
		rc = parse_option(cmd, opt, optarg, &a, &set);
		if (rc)
			goto out;
	}
	if (argc - optind != cmd->positional) {
		rc = argc - optind > cmd->positional
			? usage_error(cmd, "unexpected argument '%s'", argv[optind + cmd->positional])
			: usage_error(cmd, "%s", "missing the N-Trace input file");
		goto out;
	}
	if (cmd->positional)
		a.input_path = argv[optind];
	if (a.all_opt)
		apply_all_opt(&a.cfg, &set);
	/* 9.2: the stack depth alone turns on mode 3, the mode alone a full stack. */
	if (set.callstack && !set.irmode && a.cfg.callstack)
		a.cfg.implicit_return_mode = NTRACE_IMPLICIT_RETURN_FULL;
	if (set.callstack && a.cfg.callstack == 0)
		a.cfg.implicit_return_mode = 0;
	if (a.cfg.implicit_return_mode && a.cfg.callstack == 0)
		a.cfg.callstack = NTRACE_MAX_CALL_STACK;
	rc = check_args(cmd, &a);
	if (rc == 0)
		rc = cmd->run(&a);
out:
	free(a.elves.v);
	free(a.raws.v);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(tool_usage, stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(tool_usage, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return run_command(&commands[i], argc - 1, argv + 1);
	fprintf(stderr, "ntrace: unknown command '%s'\n\n%s", argv[1], tool_usage);
	return EXIT_USAGE;
}
