// SPDX-License-Identifier: BSD-2-Clause
/*
 * ntrace: command line around the N-Trace codec library.
 *
 *   ntrace encode --elf P.elf --pcs P.pcs --out P.nex [--trace-priv U|S|US]
 *                 [--trace-range A-B] [codec options]
 *   ntrace decode --elf P.elf P.nex --out P.pcs [--wrapped] [--symbols] [codec options]
 *   ntrace dump P.nex
 *   ntrace stats P.nex [--elf P.elf]
 *
 * Exit status: 0 success, 1 error (bad input, decode error), 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "ntrace_cli.h"
#include "tci_filter.h"

#define EXIT_USAGE 2

static const char tool_usage[] =
	"usage: ntrace <command> [options]\n"
	"\n"
	"N-Trace (RISC-V Nexus trace) encoder, decoder, listing, profile and dump tool.\n"
	"\n"
	"commands:\n"
	"  encode   retired-instruction trace (.pcs or pcseq) -> N-Trace messages\n"
	"  decode   N-Trace messages -> retired-instruction trace (.pcs, a listing with\n"
	"           disassembly, or the reference code's pcseq)\n"
	"  dump     list messages byte by byte with MDO/MSEO bits and fields\n"
	"  stats    sizes and message counts (and bits/instruction with --elf)\n"
	"  profile  instructions per function, call graph, hot blocks, flame graph\n"
	"  timeline privilege and trap events of several harts on one time axis\n"
	"  perf     a tsbi-record recording (Linux perf, PMU tracesbi_trace): listing,\n"
	"           profile, flame graph or .pcs of every AUX record's trace\n"
	"\n"
	"'ntrace <command> --help' describes each command.\n"
	"Exit status: 0 ok, 1 error in the input or while decoding, 2 usage error.\n";

static const char codec_options_help[] =
	"codec options (encode: what the encoder does; decode and stats: see\n"
	"'Decoding without codec options' in 'ntrace decode --help'):\n"
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
	"  --all-jumps               report inferable jumps (jal, c.j, c.jal) like taken\n"
	"                            branches (trTeInstEnAllJumps)\n"
	"  --xlen 32|64              address width (default: ELF class, else 64)\n"
	"  --all-opt                 every compression that never makes a trace larger:\n"
	"                            repeat history, implicit return mode 3 with a\n"
	"                            32-entry call stack, seq jump, and repeat branch in\n"
	"                            BTM mode (not --ext-addr: it can add a byte to an\n"
	"                            address, so it is left to the user)\n"
	"  --tci CONTROL,FEATURES[,TSCONTROL]\n"
	"                            every codec option from Trace Control Interface\n"
	"                            register values (trTeControl, trTeInstFeatures,\n"
	"                            trTsControl; hex with 0x or decimal) as tracesbi's\n"
	"                            firmware configures its encoder: trTeInstMode 3 btm,\n"
	"                            6 htm; trTeContext; trTeInhibitSrc; trTeInstSyncMode\n"
	"                            and SyncMax; SequentialJump; ImplicitReturn and its\n"
	"                            mode (call stack 32); RepeatedHistory (repeat branch\n"
	"                            in btm); AllJumps; ExtendAddrMSB; trTeSrcBits and\n"
	"                            trTeSrcID (decode keeps every source unless --src);\n"
	"                            TSTAMP fields with trTsActive, trTsEnable, trTsMode 2.\n"
	"                            Codec options must come after --tci: each then\n"
	"                            changes what it names (--callstack only the depth).\n"
	"                            Not with --all-opt.\n";

static const char image_options_help[] =
	"program images (used to classify each pc):\n"
	"  --elf FILE[@ADDR]         ELF file (repeatable, e.g. firmware + kernel); with\n"
	"                            @ADDR its code is also where a loader put its load\n"
	"                            image (p_paddr order, the lowest at ADDR): a kernel\n"
	"                            before and after its MMU is on (vmlinux@0x80200000);\n"
	"                            without @ADDR a sidecar's next-addr places it\n"
	"  --raw FILE@ADDR           raw memory image loaded at ADDR (repeatable)\n";

static const char encode_usage[] =
	"usage: ntrace encode (--elf FILE[@ADDR] | --raw FILE@ADDR)... --pcs FILE --out FILE.nex\n"
	"                     [--trace-priv U|S|US] [--trace-range A-B] [codec options]\n"
	"       ntrace encode --pcseq FILE --out FILE.nex [--elf FILE...] [codec options]\n"
	"\n"
	"Encodes a retired-instruction trace into N-Trace messages.\n"
	"\n"
	"  --pcs FILE    one retired instruction per line: '<hex pc>[ exc|int][ PRIV]'\n"
	"                ('0x' optional; 'exc'/'int': an exception / interrupt was taken\n"
	"                right after this instruction retired; '#' comment lines and\n"
	"                blank lines are ignored).  Each instruction is classified from\n"
	"                the images; the next line's pc tells taken/not-taken and the\n"
	"                trap handler.  An unexplained transition is an error.\n"
	"                PRIV (U, S, M, VU or VS, on every line or on none) is the\n"
	"                privilege: the records then go through the qualified ingress\n"
	"                of tracesbi's firmware (M never traced: leaving the traced\n"
	"                part ends the trace with ProgTraceCorrelation EVCODE=4,\n"
	"                entering it starts it with ProgTraceSync SYNC=5).  An M line\n"
	"                is an M-mode excursion: not classified, needs no image.\n"
	"  --pcseq FILE  N-Trace reference code PC sequence: '<hex pc>,<class><size>'\n"
	"                with class L (linear), B (taken branch), BN (not-taken branch),\n"
	"                J/JI (direct/indirect jump), C/CI (direct/indirect call),\n"
	"                R (return), E (ecall/ebreak), X (mret/sret); size 2 or 4;\n"
	"                optional ' exc'/' int' marker.  Images are not needed.\n"
	"  --out FILE    N-Trace output (binary, one MDO/MSEO byte per 6 bits)\n"
	"  --trace-priv U|S|US\n"
	"                trace only these privileges (filter 0 MatchPrivilege; needs\n"
	"                privilege tokens)\n"
	"  --trace-range A-B\n"
	"                trace only pcs A <= pc < B (hex; comparator 0 of filter 0;\n"
	"                needs privilege tokens).  With --trace-priv: both must hold\n"
	"  --feed chunks|records|blocks\n"
	"                diagnostic: how the records reach the library: many per\n"
	"                ntrace_enc_retire() call (chunks, the default without\n"
	"                privilege tokens), one per call (records), or as runs of\n"
	"                sequential instructions through ntrace_enc_block() (blocks,\n"
	"                the default with tokens: the firmware's calls).  Every form\n"
	"                gives the same bytes\n"
	"\n";

static const char decode_usage[] =
	"usage: ntrace decode (--elf FILE[@ADDR] | --raw FILE@ADDR)... FILE.nex [--out FILE.pcs]\n"
	"                     [--wrapped] [--symbols] [codec options]\n"
	"\n"
	"Decodes N-Trace messages back into the retired-instruction sequence and\n"
	"writes it in canonical .pcs form: lowercase hex pc without '0x' and without\n"
	"leading zeros, then ' exc' or ' int' when a trap was taken after it.\n"
	"Errors (message at byte offset N) go to stderr, the first 10 of them\n"
	"(--max-errors), then how many more; decoding resumes at the next\n"
	"synchronization message; the exit status is 1 if there was any error.\n"
	"When the settings do not fit the stream (another hart's SRC ID, another\n"
	"SRC width, the other mode), one 'hint:' line says so.\n"
	"Without --out the trace goes to standard output.\n"
	"\n"
	"  --wrapped     the bytes are a wrapped circular trace buffer read from its\n"
	"                oldest byte: what comes before the first synchronisation\n"
	"                message after the first message boundary is skipped, not an\n"
	"                error (stderr says how many bytes)\n"
	"  --symbols     a listing for people instead of .pcs: 'pc[ exc|int]  sym+0xoff'\n"
	"                with the nearest function or label at or below pc in the\n"
	"                symbol tables of the --elf files ('?' when there is none)\n"
	"  --listing     a listing with disassembly: per instruction '[t=TSTAMP ]pc\n"
	"                sym+0xoff  instruction' (t= when the messages carry\n"
	"                timestamps: the one of the message that reported it), and a\n"
	"                '-- ' line per event: exception/interrupt with its handler,\n"
	"                trace sync, stop, ownership, lost trace, decoding error\n"
	"  --objdump PROGRAM\n"
	"                objdump that disassembles the --elf files for --listing\n"
	"                (default: $NTRACE_OBJDUMP, else riscv64-unknown-elf-objdump,\n"
	"                riscv64-linux-gnu-objdump, objdump)\n"
	"  --export-pcseq\n"
	"                the N-Trace reference code's pcseq form instead of .pcs:\n"
	"                '0x<pc>,<class><size>[ exc|int]', classes L B BN J JI C CI R\n"
	"                E X as 'encode --pcseq' reads them\n"
	"\n"
	"Decoding without codec options: the decoder infers what the spec lets it\n"
	"infer from the stream, and codec options given override it:\n"
	"  - the mode: DirectBranch messages only BTM has; IndirectBranchHist,\n"
	"    ResourceFull with HIST and ProgTraceCorrelation with HIST only HTM has;\n"
	"    the other messages decode the same either way;\n"
	"  - implicit return (any depth, any trTeInstImplicitReturnMode): a 32-entry\n"
	"    call stack, the largest (9.2); a return inside a block was implicit;\n"
	"  - sequential jumps: a jalr inside a block after a constant was loaded into\n"
	"    its rs1 was inferred (9.1);\n"
	"  - repeated history and RepeatBranch: messages of their own;\n"
	"  - --all-jumps in BTM: only then does a DirectBranch end on a jump.\n"
	"Still needed when the encoder used them, because the bytes do not tell:\n"
	"  --src-bits B  the SRC field's width (a wrong width can still parse)\n"
	"  --ext-addr    how the last address byte extends (8.2)\n"
	"  --all-jumps   in HTM: a jump's HIST bit looks like a branch's\n"
	"A stream with no sync message at all cannot be decoded: that is an error\n"
	"(exit 1, one line), unless none of its messages describes instructions (a\n"
	"trace that never started: nothing was traced).\n"
	"\n";

static const char profile_usage[] =
	"usage: ntrace profile (--elf FILE[@ADDR])... FILE.nex [--out FILE] [--json | --folded | --svg]\n"
	"                      [--top N] [codec options]\n"
	"\n"
	"Decodes the trace and tells where its instructions went, by function (the\n"
	"nearest function symbol at or below each pc): self instructions (at the\n"
	"function's own pcs), total (while it is on the call stack, recursion once),\n"
	"calls; call graph edges (caller -> callee, calls); the hottest basic blocks\n"
	"(straight runs between transfers, by instructions retired in them).  The\n"
	"call stack follows calls and returns (jal/jalr with link registers), traps\n"
	"(the handler below the interrupted function) and trap returns.\n"
	"\n"
	"  --top N       rows of each text table (default 20)\n"
	"  --json        everything as JSON (functions, edges, blocks; addresses decimal)\n"
	"  --folded      folded stacks for flame graph tools: 'f1;f2;f3 COUNT' per stack\n"
	"  --svg         a flame graph, one self-contained SVG\n"
	"\n";

static const char timeline_usage[] =
	"usage: ntrace timeline (--elf FILE[@ADDR])... HART0.nex [HART1.nex...] [--out FILE] [--svg]\n"
	"                       [codec options]\n"
	"\n"
	"Privilege and trap events of one trace per hart on one time axis: trace\n"
	"sync and stop, exceptions and interrupts (the trapped instruction and the\n"
	"handler), privilege from Ownership messages, lost trace, decoding errors.\n"
	"Time is the messages' timestamp when every trace has them, else each hart's\n"
	"instruction index.  A hart is numbered by its sidecar's hart=, else by\n"
	"'hart<N>' in its file name, else by its position.  Each trace is decoded\n"
	"with its own sidecar (FILE.nex.tci) when it has one, and the options given.\n"
	"\n"
	"  --svg         one lane per hart, readable at any density: per pixel column,\n"
	"                the bar has the shares of the privileges in the traced time\n"
	"                (from Ownership messages: trTeContext), exceptions are marked\n"
	"                above it and interrupts below, as tall as their count (log\n"
	"                scale); a time axis with ticks and its unit (instructions,\n"
	"                timestamp ticks, or seconds when the sidecars give the\n"
	"                timebase); a legend (a self-contained SVG)\n"
	"\n";

static const char perf_usage[] =
	"usage: ntrace perf FILE (--elf FILE[@ADDR] | --raw FILE@ADDR)... [--listing | --profile |\n"
	"                   --json | --folded | --svg | --pcs OUT.pcs] [--out FILE] [--top N]\n"
	"                   [--objdump PROGRAM] [--max-errors N]\n"
	"\n"
	"Decodes a recording of tsbi-record (linux-trace/recorder: Linux perf with the\n"
	"tracesbi_trace PMU).  Each PERF_RECORD_AUX holds one N-Trace stream (a segment),\n"
	"decoded on its own, in record order, with the settings its attr.config gives\n"
	"(no codec options).  An --elf file that is position-independent (ET_DYN) is\n"
	"placed where the traced process's PERF_RECORD_MMAP2 of a file of the same base\n"
	"name put it; any other (vmlinux, a static program) at its own addresses.\n"
	"\n"
	"  --listing     (the default) per segment a line '# segment K: cpu C pid P tid T\n"
	"                time NS, B bytes[, truncated]', then its listing as 'decode\n"
	"                --listing' writes it\n"
	"  --profile     the profile of every segment together ('ntrace profile'), as\n"
	"                text tables; --json, --folded, --svg: as JSON, folded stacks,\n"
	"                flame graph\n"
	"  --pcs OUT     the decoded instructions of every segment as canonical .pcs\n"
	"                (what 'decode' writes), one segment after the other\n"
	"  --top N       rows of each profile table (default 20)\n"
	"  --max-errors N\n"
	"                error lines shown per segment (default 10, 0: all)\n"
	"\n"
	"A malformed recording is an error naming its byte (exit 1); so is any\n"
	"decoding error.\n"
	"\n";

static const char dump_usage[] =
	"usage: ntrace dump FILE.nex [--src-bits B | --tci CONTROL,FEATURES] [--ext-addr]\n"
	"                   [--xlen 32|64]\n"
	"\n"
	"Lists every byte (offset, value, MDO[5:0] and MSEO[1:0] bits) and the decoded\n"
	"fields of each message, as in Table 6 of the N-Trace specification: each\n"
	"field is shown on the byte where it ends, as NAME[MDO bits] = value.\n"
	"Without --src-bits or --tci the SRC field width is detected (the smallest\n"
	"width under which every message parses).  TSTAMP fields are recognised\n"
	"without options.\n"
	"Malformed bytes are shown and reported; the exit status is then 1.\n"
	"Other codec options are accepted (and ignored) so the encoder's can be reused.\n"
	"\n";

static const char stats_usage[] =
	"usage: ntrace stats FILE.nex [--elf FILE[@ADDR] | --raw FILE@ADDR]... [codec options]\n"
	"\n"
	"Prints the size, the number of messages per TCODE and, with program images,\n"
	"the number of decoded instructions and bits per instruction (decoding\n"
	"infers what it can, as 'ntrace decode' does).  Without --src-bits or --tci\n"
	"the SRC width is detected.\n"
	"Exit status 1 when a message is malformed or decoding reports an error.\n"
	"\n";

enum {
	OPT_ELF = 256, OPT_RAW, OPT_PCS, OPT_PCSEQ, OPT_OUT, OPT_MODE,
	OPT_CALLSTACK, OPT_IRMODE, OPT_REPEAT_HISTORY, OPT_REPEAT_BRANCH,
	OPT_SEQ_JUMP, OPT_EXT_ADDR, OPT_SYNC_PERIOD, OPT_SRC, OPT_SRC_BITS,
	OPT_TIMESTAMP, OPT_XLEN, OPT_ALL_OPT, OPT_FEED, OPT_ALL_JUMPS, OPT_TCI,
	OPT_TRACE_PRIV, OPT_TRACE_RANGE, OPT_WRAPPED, OPT_SYMBOLS, OPT_LISTING, OPT_OBJDUMP,
	OPT_EXPORT_PCSEQ, OPT_JSON, OPT_FOLDED, OPT_SVG, OPT_TOP, OPT_MAX_ERRORS, OPT_PROFILE,
	OPT_HELP,
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
	{ "all-jumps", no_argument, NULL, OPT_ALL_JUMPS },
	{ "tci", required_argument, NULL, OPT_TCI },
	{ "trace-priv", required_argument, NULL, OPT_TRACE_PRIV },
	{ "trace-range", required_argument, NULL, OPT_TRACE_RANGE },
	{ "wrapped", no_argument, NULL, OPT_WRAPPED },
	{ "symbols", no_argument, NULL, OPT_SYMBOLS },
	{ "listing", no_argument, NULL, OPT_LISTING },
	{ "objdump", required_argument, NULL, OPT_OBJDUMP },
	{ "export-pcseq", no_argument, NULL, OPT_EXPORT_PCSEQ },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "svg", no_argument, NULL, OPT_SVG },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

/* Which options a command accepts (bit per OPT_* - OPT_ELF). */
#define OPTBIT(o) (1ull << ((o) - OPT_ELF))
_Static_assert(OPT_HELP - OPT_ELF < 64, "OPTBIT needs one bit per option");
#define CODEC_OPTS (OPTBIT(OPT_MODE) | OPTBIT(OPT_CALLSTACK) | OPTBIT(OPT_IRMODE) | \
		    OPTBIT(OPT_REPEAT_HISTORY) | OPTBIT(OPT_REPEAT_BRANCH) | \
		    OPTBIT(OPT_SEQ_JUMP) | OPTBIT(OPT_EXT_ADDR) | OPTBIT(OPT_SYNC_PERIOD) | \
		    OPTBIT(OPT_SRC) | OPTBIT(OPT_SRC_BITS) | OPTBIT(OPT_TIMESTAMP) | \
		    OPTBIT(OPT_XLEN) | OPTBIT(OPT_ALL_OPT) | OPTBIT(OPT_ALL_JUMPS) | \
		    OPTBIT(OPT_TCI))
/* Codec options --tci sets (so they must come after it). */
#define TCI_SET_OPTS (CODEC_OPTS & ~(OPTBIT(OPT_XLEN) | OPTBIT(OPT_TCI)))
#define IMAGE_OPTS (OPTBIT(OPT_ELF) | OPTBIT(OPT_RAW))
/* Commands that read saved buffers: their sidecars apply, errors are capped. */
#define BUFFER_OPTS OPTBIT(OPT_MAX_ERRORS)

struct command {
	const char *name;
	const char *usage;
	unsigned long long accepted;    /* OPTBIT set */
	int positional;         /* number of positional arguments required; -1: 1 or more */
	int (*run)(struct cli_args *args);
	bool own_settings;      /* the input holds its settings (a perf recording): no sidecar */
};

static bool reads_buffers(const struct command *cmd)
{
	return (cmd->accepted & BUFFER_OPTS) && !cmd->own_settings;
}

static const struct command commands[] = {
	{ "encode", encode_usage, CODEC_OPTS | IMAGE_OPTS | OPTBIT(OPT_PCS) |
	  OPTBIT(OPT_PCSEQ) | OPTBIT(OPT_OUT) | OPTBIT(OPT_FEED) | OPTBIT(OPT_TRACE_PRIV) |
	  OPTBIT(OPT_TRACE_RANGE), 0, cli_encode, false },
	{ "decode", decode_usage, CODEC_OPTS | IMAGE_OPTS | BUFFER_OPTS | OPTBIT(OPT_OUT) |
	  OPTBIT(OPT_WRAPPED) | OPTBIT(OPT_SYMBOLS) | OPTBIT(OPT_LISTING) | OPTBIT(OPT_OBJDUMP) |
	  OPTBIT(OPT_EXPORT_PCSEQ), 1, cli_decode, false },
	{ "profile", profile_usage, CODEC_OPTS | IMAGE_OPTS | BUFFER_OPTS | OPTBIT(OPT_OUT) |
	  OPTBIT(OPT_WRAPPED) | OPTBIT(OPT_JSON) | OPTBIT(OPT_FOLDED) | OPTBIT(OPT_SVG) |
	  OPTBIT(OPT_TOP), 1, cli_profile, false },
	{ "timeline", timeline_usage, CODEC_OPTS | IMAGE_OPTS | BUFFER_OPTS | OPTBIT(OPT_OUT) |
	  OPTBIT(OPT_WRAPPED) | OPTBIT(OPT_SVG), -1, cli_timeline, false },
	{ "dump", dump_usage, CODEC_OPTS | BUFFER_OPTS, 1, cli_dump, false },
	{ "stats", stats_usage, CODEC_OPTS | IMAGE_OPTS | BUFFER_OPTS, 1, cli_stats, false },
	{ "perf", perf_usage, IMAGE_OPTS | BUFFER_OPTS | OPTBIT(OPT_OUT) | OPTBIT(OPT_PCS) |
	  OPTBIT(OPT_LISTING) | OPTBIT(OPT_OBJDUMP) | OPTBIT(OPT_PROFILE) | OPTBIT(OPT_JSON) |
	  OPTBIT(OPT_FOLDED) | OPTBIT(OPT_SVG) | OPTBIT(OPT_TOP), 1, cli_perf, true },
};

static const char buffer_options_help[] =
	"saved buffers:\n"
	"  FILE.nex.tci              read by itself when it is next to FILE.nex: the\n"
	"                            encoder's registers (as --tci, before every other\n"
	"                            option), whether the sink wrapped (--wrapped), the\n"
	"                            hart, where S-mode started (next-addr: places an\n"
	"                            --elf without @ADDR); make trace, trace-save.py\n"
	"                            and the trace suite write it.\n"
	"                            --tci or --all-opt given: not read\n"
	"  --max-errors N            error lines shown per input (default 10, 0: all);\n"
	"                            the others are counted\n";

static void print_usage(FILE *f, const struct command *cmd)
{
	fputs(cmd->usage, f);
	if (reads_buffers(cmd)) {
		fputs(buffer_options_help, f);
		fputc('\n', f);
	}
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
	const char *codec_opt;  /* first codec option --tci would override */
	bool tci;
};

/* One 32-bit register value: hex with 0x, or decimal. */
static int parse_reg(const char *s, size_t n, uint32_t *out)
{
	char buf[24];
	uint64_t v;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] == '0' && buf[1] >= '0' && buf[1] <= '9')
		return -1;      /* not octal */
	if (parse_uint(buf, UINT32_MAX, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* --tci CONTROL,FEATURES[,TSCONTROL] */
static int parse_tci(const struct command *cmd, const char *arg, struct cli_args *a)
{
	uint32_t reg[3] = { 0, 0, 0 };
	const char *p = arg;
	unsigned n = 0;
	struct nt_err err = { "" };

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (n == 3 || parse_reg(p, len, &reg[n]))
			return usage_error(cmd, "--tci needs CONTROL,FEATURES[,TSCONTROL]: 32-bit "
					   "values, hex with 0x or decimal, not '%s'", arg);
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (n < 2)
		return usage_error(cmd, "--tci needs CONTROL,FEATURES[,TSCONTROL]: 32-bit "
				   "values, hex with 0x or decimal, not '%s'", arg);
	if (nt_tool_config_from_tci(&a->cfg, reg[0], reg[1], reg[2], &err))
		return usage_error(cmd, "--tci: %s", err.msg);
	a->src_bits_given = true;       /* the SRC width is known */
	return 0;
}

/* --trace-priv U|S|US */
static int parse_priv_choice(const char *s, uint8_t *bits)
{
	*bits = 0;
	for (; *s; s++) {
		uint8_t bit = *s == 'U' || *s == 'u' ? 1u << TCI_PRIV_U
			    : *s == 'S' || *s == 's' ? 1u << TCI_PRIV_S : 0;

		if (!bit || (*bits & bit))
			return -1;
		*bits |= bit;
	}
	return *bits ? 0 : -1;
}

/* Hex address with optional 0x, at most 64 bits; *end past it. */
static int parse_hex_addr(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	int digits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++, digits++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0'
		      : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
		      : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;

		if (d < 0)
			break;
		if (v >> 60)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*end = s;
	*out = v;
	return digits ? 0 : -1;
}

/* --trace-range A-B */
static int parse_range(const char *s, uint64_t *start, uint64_t *end)
{
	const char *p;

	if (parse_hex_addr(s, &p, start) || *p != '-' || parse_hex_addr(p + 1, &p, end) || *p)
		return -1;
	return *start < *end ? 0 : -1;
}

static void apply_all_opt(struct nt_tool_config *cfg, const struct explicit_opts *set)
{
	cfg->repeat_history = true;
	cfg->seq_jump = true;
	cfg->return_set = true;
	/* Not ext_addr: it makes some messages a byte longer (an address
	 * whose top bit lands on a byte's top bit), and as a control bit it
	 * holds for the whole trace, so it cannot be chosen per message. */
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
		a->cfg.mode_set = true;
		return 0;
	case OPT_CALLSTACK:
		if (parse_uint(arg, NTRACE_MAX_CALL_STACK, &v))
			return usage_error(cmd, "--callstack needs a depth 0..32, not '%s'", arg);
		a->cfg.callstack = (unsigned)v;
		a->cfg.return_set = true;
		set->callstack = true;
		return 0;
	case OPT_IRMODE:
		if (parse_uint(arg, 3, &v))
			return usage_error(cmd, "--implicit-return-mode must be 0..3, not '%s'", arg);
		a->cfg.implicit_return_mode = (unsigned)v;
		a->cfg.return_set = true;
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
		a->cfg.sync_mode = 0;   /* replaces a --tci trTeInstSyncMode */
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
		if (strcmp(arg, "32") != 0 && strcmp(arg, "64") != 0)
			return usage_error(cmd, "--xlen must be 32 or 64, not '%s'", arg);
		a->cfg.xlen = arg[0] == '3' ? 32 : 64;
		a->xlen_given = true;
		return 0;
	case OPT_ALL_OPT:
		a->all_opt = true;
		return 0;
	case OPT_ALL_JUMPS:
		a->cfg.all_jumps = true;
		return 0;
	case OPT_TCI:
		if (set->tci)
			return usage_error(cmd, "%s", "give --tci once");
		if (set->codec_opt)
			return usage_error(cmd, "--%s before --tci: --tci sets every codec option, so "
					   "give the options that change one after it", set->codec_opt);
		set->tci = true;
		set->irmode = true;     /* --callstack after it changes only the depth */
		return parse_tci(cmd, arg, a);
	case OPT_TRACE_PRIV:
		if (parse_priv_choice(arg, &a->cfg.trace_priv))
			return usage_error(cmd, "--trace-priv must be U, S or US, not '%s'", arg);
		return 0;
	case OPT_TRACE_RANGE:
		if (parse_range(arg, &a->cfg.range_start, &a->cfg.range_end))
			return usage_error(cmd, "--trace-range needs A-B, hex addresses with A < B, "
					   "not '%s'", arg);
		a->cfg.trace_range = true;
		return 0;
	case OPT_WRAPPED:
		a->cfg.wrapped = true;
		return 0;
	case OPT_SYMBOLS:
		a->symbols = true;
		return 0;
	case OPT_LISTING:
		a->listing = true;
		return 0;
	case OPT_OBJDUMP:
		a->objdump = arg;
		return 0;
	case OPT_EXPORT_PCSEQ:
		a->export_pcseq = true;
		return 0;
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_FOLDED:
		a->folded = true;
		return 0;
	case OPT_SVG:
		a->svg = true;
		return 0;
	case OPT_PROFILE:
		a->profile = true;
		return 0;
	case OPT_TOP:
		if (parse_uint(arg, 1000000, &v) || v == 0)
			return usage_error(cmd, "--top needs a count 1..1000000, not '%s'", arg);
		a->top = (unsigned)v;
		return 0;
	case OPT_MAX_ERRORS:
		if (parse_uint(arg, ULONG_MAX, &v))
			return usage_error(cmd, "--max-errors needs a count (0: all), not '%s'", arg);
		a->cfg.max_errors = (unsigned long)v;
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

/* perf: images, and one output form (--pcs FILE is one, and its own file). */
static int check_perf_args(const struct command *cmd, const struct cli_args *a)
{
	if (a->elves.count + a->raws.count == 0)
		return usage_error(cmd, "%s", "needs program images (--elf or --raw)");
	if (a->listing + a->profile + a->json + a->folded + a->svg + (a->trace_path != NULL) > 1)
		return usage_error(cmd, "%s", "give one of --listing, --profile, --json, --folded, "
				   "--svg, --pcs FILE");
	if (a->trace_path && a->out_path)
		return usage_error(cmd, "%s", "--pcs FILE is the output: not with --out");
	if (!a->trace_path && a->elves.count == 0)
		return usage_error(cmd, "%s", "the listing and the profile need --elf files (symbols "
				   "and functions come from them); --raw images give --pcs FILE");
	return 0;
}

static int check_args(const struct command *cmd, const struct cli_args *a)
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
	if ((strcmp(cmd->name, "profile") == 0 || strcmp(cmd->name, "timeline") == 0) &&
	    a->elves.count == 0)
		return usage_error(cmd, "%s", "needs --elf files (functions come from their symbols)");
	if (strcmp(cmd->name, "decode") == 0 && a->elves.count + a->raws.count == 0)
		return usage_error(cmd, "%s", "needs program images (--elf or --raw)");
	if ((a->symbols || a->listing) && a->elves.count == 0)
		return usage_error(cmd, "%s needs --elf files (raw images have no symbols)",
				   a->symbols ? "--symbols" : "--listing");
	if (a->symbols + a->listing + a->export_pcseq > 1)
		return usage_error(cmd, "%s", "give one of --symbols, --listing, --export-pcseq");
	if (a->json + a->folded + a->svg > 1)
		return usage_error(cmd, "%s", "give one of --json, --folded, --svg");
	if (strcmp(cmd->name, "perf") == 0)
		return check_perf_args(cmd, a);
	return 0;
}

static void free_args(struct cli_args *a)
{
	free(a->elves.v);
	free(a->raws.v);
	free(a->inputs.v);
	for (size_t i = 0; a->in && i < a->inputs.count; i++)
		free(a->in[i].settings_path);
	free(a->in);
	memset(a, 0, sizeof(*a));
}

#define HELP_SHOWN (-1)

/* The command line into *a; tci (a sidecar's registers) counts as a --tci
 * given before every option.  check: check the options' consistency too
 * (not before the sidecars are read: one can give what --src needs).  0,
 * HELP_SHOWN, or the exit status of an error (printed). */
static int parse_command_line(const struct command *cmd, int argc, char **argv, const char *tci,
			      bool check, struct cli_args *a, struct explicit_opts *set)
{
	int rc;

	memset(a, 0, sizeof(*a));
	memset(set, 0, sizeof(*set));
	nt_tool_config_default(&a->cfg);
	if (tci && (rc = parse_option(cmd, OPT_TCI, tci, a, set)))
		return rc;
	optind = 0;             /* a full restart: the line is parsed once per sidecar */
	opterr = 0;
	for (;;) {
		int idx = 0;
		int opt = getopt_long(argc, argv, "h", long_options, &idx);
		if (opt == -1)
			break;
		if (opt == 'h' || opt == OPT_HELP) {
			print_usage(stdout, cmd);
			return HELP_SHOWN;
		}
		if (opt == '?' || opt == ':')
			return usage_error(cmd, "bad option or missing argument: '%s'",
					   argv[optind - 1]);
		if (!(cmd->accepted & OPTBIT(opt)))
			return usage_error(cmd, "option '--%s' does not apply to this command",
					   long_options[idx].name);
		rc = parse_option(cmd, opt, optarg, a, set);
		if (rc)
			return rc;
		if ((OPTBIT(opt) & TCI_SET_OPTS) && !set->codec_opt)
			set->codec_opt = long_options[idx].name;
	}
	if (set->tci && a->all_opt)
		return usage_error(cmd, "%s", "--all-opt and --tci cannot be combined");
	for (int i = optind; cmd->positional < 0 && i < argc; i++) {
		if (add_list(&a->inputs, argv[i])) {
			fprintf(stderr, "ntrace: out of memory\n");
			return 1;
		}
	}
	if (cmd->positional < 0 && argc == optind)
		return usage_error(cmd, "%s", "missing the N-Trace input files");
	if (cmd->positional >= 0 && argc - optind != cmd->positional)
		return argc - optind > cmd->positional
			? usage_error(cmd, "unexpected argument '%s'", argv[optind + cmd->positional])
			: usage_error(cmd, "%s", "missing the N-Trace input file");
	if (cmd->positional) {
		a->input_path = argv[optind];    /* the first one for -1 */
		if (cmd->positional > 0 && add_list(&a->inputs, a->input_path)) {
			fprintf(stderr, "ntrace: out of memory\n");
			return 1;
		}
	}
	if (a->all_opt)
		apply_all_opt(&a->cfg, set);
	/* 9.2: the stack depth alone turns on mode 3, the mode alone a full stack. */
	if (set->callstack && !set->irmode && a->cfg.callstack)
		a->cfg.implicit_return_mode = NTRACE_IMPLICIT_RETURN_FULL;
	if (set->callstack && a->cfg.callstack == 0)
		a->cfg.implicit_return_mode = 0;
	if (a->cfg.implicit_return_mode && a->cfg.callstack == 0)
		a->cfg.callstack = NTRACE_MAX_CALL_STACK;
	return check ? check_args(cmd, a) : 0;
}

/*
 * One input's settings: the command line's, or, when the buffer has a
 * sidecar and neither --tci nor --all-opt was given, the command line
 * parsed again after the sidecar's registers as a first --tci.
 */
static int input_settings(const struct command *cmd, int argc, char **argv,
			  const struct cli_args *a, const struct explicit_opts *set,
			  struct cli_input *in)
{
	struct nt_sidecar sc;
	struct nt_err err = { "" };
	struct nt_tool_config check = a->cfg;
	struct cli_args again;
	struct explicit_opts again_set;
	char tci[64];
	int found;

	in->cfg = a->cfg;
	in->src_bits_given = a->src_bits_given;
	in->hart = -1;
	if (set->tci)
		in->cfg.settings_from = "--tci";
	if (set->tci || a->all_opt || (found = nt_sidecar_read(in->path, &sc, &err)) == 0)
		return check_args(cmd, a);      /* the command line alone */
	if (found < 0 || nt_tool_config_from_tci(&check, sc.control, sc.features, sc.tscontrol,
						 &err)) {
		fprintf(stderr, "ntrace: %s%s%s\n", found < 0 ? "" : sc.path, found < 0 ? "" : ": ",
			err.msg);
		return 1;
	}
	snprintf(tci, sizeof(tci), "%#" PRIx32 ",%#" PRIx32 ",%#" PRIx32, sc.control, sc.features,
		 sc.tscontrol);
	int rc = parse_command_line(cmd, argc, argv, tci, true, &again, &again_set);

	if (rc == 0) {
		in->cfg = again.cfg;
		in->cfg.wrapped |= sc.wrapped;
		in->src_bits_given = true;
		in->hart = sc.hart;
		in->timebase_hz = sc.timebase_hz;
		in->tscontrol = sc.tscontrol;
		in->has_next_addr = sc.has_next_addr;
		in->next_addr = sc.next_addr;
		in->settings_path = strdup(sc.path);
		in->cfg.settings_from = in->settings_path;
		if (!in->settings_path) {
			fprintf(stderr, "ntrace: out of memory\n");
			rc = 1;
		}
	}
	free_args(&again);
	return rc;
}

static int run_command(const struct command *cmd, int argc, char **argv)
{
	struct cli_args a;
	struct explicit_opts set;
	int rc = parse_command_line(cmd, argc, argv, NULL, !reads_buffers(cmd), &a, &set);

	if (rc == 0 && reads_buffers(cmd)) {
		a.in = calloc(a.inputs.count, sizeof(*a.in));
		if (!a.in) {
			fprintf(stderr, "ntrace: out of memory\n");
			rc = 1;
		}
		for (size_t i = 0; rc == 0 && i < a.inputs.count; i++) {
			a.in[i].path = a.inputs.v[i];
			rc = input_settings(cmd, argc, argv, &a, &set, &a.in[i]);
			if (rc == 0 && a.in[i].has_next_addr && !a.has_next_addr) {
				a.has_next_addr = true;
				a.next_addr = a.in[i].next_addr;
			}
		}
		if (rc == 0) {  /* one input: its settings are the command's */
			a.cfg = a.in[0].cfg;
			a.src_bits_given = a.in[0].src_bits_given;
		}
	}
	if (rc == 0)
		rc = cmd->run(&a);
	free_args(&a);
	return rc == HELP_SHOWN ? 0 : rc;
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
