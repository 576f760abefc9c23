// SPDX-License-Identifier: BSD-2-Clause
/*
 * Disassembly for `decode --listing`: the text binutils' objdump prints for
 * each instruction of the --elf files, read once per file and looked up by
 * address.  objdump knows every extension the toolchain does (F, D, V, B,
 * Zc*, the privileged instructions, the pseudo-instructions people expect),
 * so the listing reads like `objdump -d` and this tool carries no second
 * instruction decoder to keep right (tools/ntrace/README.md, "Listing").
 */
#include <errno.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ntrace_tool.h"

extern char **environ;

void nt_disasm_init(struct nt_disasm *d)
{
	memset(d, 0, sizeof(*d));
}

void nt_disasm_free(struct nt_disasm *d)
{
	for (size_t i = 0; i < d->count; i++)
		free(d->v[i].text);
	free(d->v);
	nt_disasm_init(d);
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0'
	     : c >= 'a' && c <= 'f' ? c - 'a' + 10
	     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "   80000004:\tadd\tsp,sp,608 # 80005260 <x>": the address and the text
 * after the colon, tabs made single spaces; 0 when the line is not an
 * instruction (headers, symbol lines, "...").  The mnemonic gets a column
 * of its own so operands line up. */
static int parse_insn_line(const char *line, size_t len, uint64_t *addr, char *text, size_t size)
{
	size_t i = 0, digits = 0, o = 0;
	uint64_t a = 0;

	while (i < len && line[i] == ' ')
		i++;
	for (; i < len && hex_digit(line[i]) >= 0 && digits < 17; i++, digits++)
		a = a << 4 | (uint64_t)hex_digit(line[i]);
	if (digits == 0 || digits > 16 || i + 1 >= len || line[i] != ':' || line[i + 1] != '\t')
		return 0;
	i += 2;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	bool first_tab = true;
	for (; i < len && o + 1 < size; i++) {
		char c = line[i];

		if (c == '\t') {       /* mnemonic, tab, operands: operands in column 8 */
			size_t col = first_tab && o < 8 ? 8 : o + 1;

			while (o < col && o + 1 < size)
				text[o++] = ' ';
			first_tab = false;
			continue;
		}
		if (c < ' ' || c >= 127)
			c = '?';
		text[o++] = c;
	}
	while (o > 0 && text[o - 1] == ' ')
		o--;
	text[o] = '\0';
	*addr = a;
	return o > 0 && strcmp(text, "...") != 0;
}

static int add_line(struct nt_disasm *d, uint64_t addr, const char *text)
{
	if (d->count == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 1024;
		struct nt_disasm_line *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return -1;
		d->v = v;
		d->cap = cap;
	}
	char *copy = strdup(text);
	if (!copy)
		return -1;
	d->v[d->count].addr = addr;
	d->v[d->count].text = copy;
	d->count++;
	return 0;
}

static int by_address(const void *a, const void *b)
{
	const struct nt_disasm_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* objdump's text of an instruction of the load image: the addresses it
 * names with a symbol ("j ffffffff800010c8 <f>", "# ffffffff80001000 <x>")
 * are pc-relative targets, so at the load address they are load addresses
 * too; other numbers stay as objdump printed them. */
static void rewrite_targets(const char *in, const struct nt_load_map *map, char *out, size_t size)
{
	size_t o = 0, len = strlen(in);

	for (size_t i = 0; i < len && o + 1 < size;) {
		size_t j = i;
		uint64_t v = 0, l;

		if (i == 0 || in[i - 1] == ' ' || in[i - 1] == ',') {
			while (j < len && j - i < 16 && hex_digit(in[j]) >= 0)
				v = v << 4 | (uint64_t)hex_digit(in[j++]);
		}
		if (j > i && j + 1 < len && in[j] == ' ' && in[j + 1] == '<' &&
		    nt_load_map_find(map, v, 0, &l)) {
			int n = snprintf(out + o, size - o, "%" PRIx64, l);

			o = n < 0 || (size_t)n >= size - o ? size - 1 : o + (size_t)n;
			i = j;
			continue;
		}
		out[o++] = in[i++];
	}
	out[o] = '\0';
}

/* objdump's output; with a map, each instruction also at its load address
 * (moved: only there). */
static int add_objdump_text(struct nt_disasm *d, const char *text, size_t len,
			    const struct nt_load_map *map, bool moved, const char *name,
			    struct nt_err *err)
{
	const char *end = text + len;
	char insn[160] = { 0 }, loaded[200];   /* zeroed: the analyzer cannot see parse_insn_line end the text */

	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		uint64_t addr, laddr;

		if (parse_insn_line(p, n, &addr, insn, sizeof(insn))) {
			int bad = moved ? 0 : add_line(d, addr, insn);

			if (!bad && map && nt_load_map_find(map, addr, 1, &laddr)) {
				rewrite_targets(insn, map, loaded, sizeof(loaded));
				bad = add_line(d, laddr, loaded);
			}
			if (bad) {
				nt_err_set(err, "%s: out of memory for the disassembly", name);
				return -1;
			}
		}
		p += n + 1;
	}
	qsort(d->v, d->count, sizeof(*d->v), by_address);
	return 0;
}

int nt_disasm_add_objdump_text(struct nt_disasm *d, const char *text, size_t len,
			       const char *name, struct nt_err *err)
{
	return add_objdump_text(d, text, len, NULL, false, name, err);
}

/* Runs argv with stdout into a pipe; the whole output in *out. */
static int run_capture(char *const argv[], char **out, size_t *out_len, int *status)
{
	posix_spawn_file_actions_t fa;
	int fds[2];
	pid_t pid;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);

	if (!buf || pipe(fds)) {
		free(buf);
		return ENOMEM;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc) {
		close(fds[0]);
		free(buf);
		return rc;
	}
	for (;;) {
		if (len == cap) {
			char *nbuf = realloc(buf, cap * 2);

			if (!nbuf)
				break;
			buf = nbuf;
			cap *= 2;
		}
		ssize_t n = read(fds[0], buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	*out = buf;
	*out_len = len;
	return 0;
}

/* objdump to run: $NTRACE_OBJDUMP, else the first RISC-V one on PATH. */
static const char *const objdump_names[] = {
	"riscv64-unknown-elf-objdump", "riscv64-linux-gnu-objdump", "objdump",
};

/* objdump -d of path (see nt_disasm_add_elf), added with map (moved: only
 * at the map's addresses). */
static int add_elf(struct nt_disasm *d, const char *objdump, const char *path,
		   const struct nt_load_map *map, bool moved, struct nt_err *err)
{
	const char *env = getenv("NTRACE_OBJDUMP");
	const char *tool = objdump ? objdump : env && *env ? env : NULL;
	size_t tries = tool ? 1 : sizeof(objdump_names) / sizeof(objdump_names[0]);

	for (size_t i = 0; i < tries; i++) {
		char *argv[] = { (char *)(tool ? tool : objdump_names[i]), "-d", "--no-show-raw-insn",
				 "-w", (char *)path, NULL };
		char *out = NULL;
		size_t len = 0;
		int status = 0;
		int rc = run_capture(argv, &out, &len, &status);

		if (rc == ENOENT && !tool)
			continue;
		if (rc) {
			nt_err_set(err, "%s: cannot run %s: %s (give --objdump PROGRAM)", path,
				   argv[0], strerror(rc));
			return -1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			free(out);
			nt_err_set(err, "%s: %s -d failed (exit status %d)", path, argv[0],
				   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			return -1;
		}
		rc = add_objdump_text(d, out, len, map, moved, path, err);
		free(out);
		return rc;
	}
	nt_err_set(err, "%s: no objdump found (riscv64-unknown-elf-objdump, "
		   "riscv64-linux-gnu-objdump, objdump): give --objdump PROGRAM", path);
	return -1;
}

int nt_disasm_add_elf(struct nt_disasm *d, const char *objdump, const char *path,
		      struct nt_err *err)
{
	return add_elf(d, objdump, path, NULL, false, err);
}

int nt_disasm_add_elf_spec(struct nt_disasm *d, const char *objdump,
			   const struct nt_elf_spec *spec, struct nt_err *err)
{
	struct nt_load_map map;
	int rc;

	if (!spec->has_load && !spec->moved)
		return add_elf(d, objdump, spec->path, NULL, false, err);
	if (nt_load_map_read_spec(spec, &map, err))
		return -1;
	rc = add_elf(d, objdump, spec->path, &map, spec->moved, err);
	nt_load_map_free(&map);
	return rc;
}

const char *nt_disasm_lookup(const struct nt_disasm *d, uint64_t addr)
{
	size_t lo = 0, hi = d->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->count && d->v[lo].addr == addr ? d->v[lo].text : NULL;
}
