// SPDX-License-Identifier: BSD-2-Clause
/*
 * Symbol tables of ELF files for `decode --symbols`: each retired pc is
 * shown as the nearest function or label at or below it in its executable
 * section.  Every symbol and section index read from a file is checked
 * (libelf bounds the tables; names outside the string table are skipped),
 * so a damaged symbol table gives an error or fewer symbols, never a crash.
 */
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

void nt_symtab_init(struct nt_symtab *t)
{
	memset(t, 0, sizeof(*t));
}

void nt_symtab_free(struct nt_symtab *t)
{
	for (size_t i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
	free(t->v);
	nt_symtab_init(t);
}

/* Executable section a symbol is defined in: [*start, *end), or 0. */
static int exec_section(Elf *elf, size_t shndx, uint64_t *start, uint64_t *end)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
	    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR))
		return 0;
	if (sh.sh_addr + sh.sh_size < sh.sh_addr)
		return 0;
	*start = sh.sh_addr;
	*end = sh.sh_addr + sh.sh_size;
	return 1;
}

/* Assembler-internal names: RISC-V mapping symbols ("$x", "$d", "$xrv64i..")
 * and local labels (".L..."). */
static int internal_name(const char *name)
{
	return name[0] == '\0' || name[0] == '$' || strncmp(name, ".L", 2) == 0;
}

/* Functions before labels, global before local, then a symbol with a size
 * before one without: a linker-script alias (Linux's `__efistub_` names of
 * its functions) has none. */
#define RANK_FUNC   4
#define RANK_GLOBAL 2
#define RANK_SIZED  1

static uint8_t symbol_rank(const GElf_Sym *sym)
{
	unsigned bind = GELF_ST_BIND(sym->st_info);

	return (uint8_t)((GELF_ST_TYPE(sym->st_info) == STT_FUNC ? RANK_FUNC : 0) +
			 (bind != STB_LOCAL ? RANK_GLOBAL : 0) + (sym->st_size ? RANK_SIZED : 0));
}

static int add_symbol(struct nt_symtab *t, size_t *cap, const struct nt_symbol *s,
		      const char *name)
{
	char *copy = strdup(name);
	char **names = copy ? realloc(t->names, (t->nnames + 1) * sizeof(*names)) : NULL;

	if (!names) {
		free(copy);
		return -1;
	}
	t->names = names;
	t->names[t->nnames++] = copy;
	if (t->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct nt_symbol *v = realloc(t->v, ncap * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		*cap = ncap;
	}
	t->v[t->count] = *s;
	t->v[t->count].name = copy;
	t->count++;
	return 0;
}

/* A symbol at its load address too (--elf FILE@ADDR): same name, its
 * section moved with it.  Symbols of a section outside the load image are
 * left out (nt_images gives that an error). */
static int add_loaded_copy(struct nt_symtab *t, size_t *cap, const struct nt_load_map *map,
			   const struct nt_symbol *s, const char *sname)
{
	struct nt_symbol copy = *s;
	uint64_t sec;

	if (!nt_load_map_find(map, s->sec_start, s->sec_end - s->sec_start, &sec))
		return 0;
	copy.sec_start = sec;
	copy.sec_end = sec + (s->sec_end - s->sec_start);
	copy.addr = sec + (s->addr - s->sec_start);
	return add_symbol(t, cap, &copy, sname);
}

/* The symbols of one SHT_SYMTAB / SHT_DYNSYM section (map: also at their
 * load addresses; moved: only there). */
static int add_table(struct nt_symtab *t, size_t *cap, Elf *elf, Elf_Scn *scn,
		     const GElf_Shdr *sh, const struct nt_load_map *map, bool moved,
		     const char *name, struct nt_err *err)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n;

	if (!data || sh->sh_entsize == 0)
		return 0;
	n = data->d_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {        /* entry 0 is the null symbol */
		GElf_Sym sym;
		struct nt_symbol s = { 0 };
		unsigned type;
		const char *sname;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx >= SHN_LORESERVE)
			continue;
		sname = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!sname || internal_name(sname))
			continue;
		if (!exec_section(elf, sym.st_shndx, &s.sec_start, &s.sec_end) ||
		    sym.st_value < s.sec_start || sym.st_value >= s.sec_end)
			continue;
		s.addr = sym.st_value;
		s.rank = symbol_rank(&sym);
		if ((!moved && add_symbol(t, cap, &s, sname)) ||
		    (map && add_loaded_copy(t, cap, map, &s, sname))) {
			nt_err_set(err, "%s: out of memory for the symbol table", name);
			return -1;
		}
	}
	return 0;
}

static int by_address(const void *a, const void *b)
{
	const struct nt_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* spec: NULL, or where else the file's code is (--elf FILE@ADDR: there
 * too; moved: only there). */
static int load_symbols(struct nt_symtab *t, uint8_t *file, size_t len, const char *name,
			const struct nt_elf_spec *spec, struct nt_err *err)
{
	Elf_Scn *scn = NULL;
	size_t cap = t->count;
	struct nt_load_map map = { 0 };
	int rc = 0;

	Elf *elf = nt_elf_open(file, len, name, err);
	if (!elf)
		return -1;
	if (elf_kind(elf) != ELF_K_ELF) {
		nt_err_set(err, "%s: bad ELF header: %s", name, elf_errmsg(-1));
		elf_end(elf);
		return -1;
	}
	bool placed = spec && (spec->has_load || spec->moved);

	if (placed)
		rc = spec->moved ? nt_load_map_moved(elf, spec->bias, name, &map, err)
				 : nt_load_map_build(elf, spec->load, name, &map, err);
	while (rc == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			nt_err_set(err, "%s: section header: %s", name, elf_errmsg(-1));
			rc = -1;
		} else if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			rc = add_table(t, &cap, elf, scn, &sh, placed ? &map : NULL,
				       placed && spec->moved, name, err);
		}
	}
	nt_load_map_free(&map);
	elf_end(elf);
	if (t->count)
		qsort(t->v, t->count, sizeof(*t->v), by_address);
	return rc;
}

int nt_symtab_add_elf_buffer(struct nt_symtab *t, const uint8_t *buf, size_t len,
			     const char *name, struct nt_err *err)
{
	/* libelf may convert headers in place: give it a private copy. */
	uint8_t *copy = malloc(len ? len : 1);
	if (!copy) {
		nt_err_set(err, "%s: out of memory", name);
		return -1;
	}
	memcpy(copy, buf, len);
	int rc = load_symbols(t, copy, len, name, NULL, err);
	free(copy);
	return rc;
}

int nt_symtab_add_elf(struct nt_symtab *t, const char *path, struct nt_err *err)
{
	uint8_t *file;
	size_t len;

	if (nt_read_file(path, &file, &len, err))
		return -1;
	int rc = load_symbols(t, file, len, path, NULL, err);
	free(file);
	return rc;
}

int nt_symtab_add_elf_spec(struct nt_symtab *t, const struct nt_elf_spec *spec, struct nt_err *err)
{
	uint8_t *file;
	size_t len;

	if (nt_read_file(spec->path, &file, &len, err))
		return -1;
	int rc = load_symbols(t, file, len, spec->path, spec, err);
	free(file);
	return rc;
}

const struct nt_symbol *nt_symtab_lookup(const struct nt_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->count;

	while (lo < hi) {       /* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* the best one at that address comes first */
	while (lo > 1 && t->v[lo - 2].addr == t->v[lo - 1].addr)
		lo--;
	const struct nt_symbol *s = &t->v[lo - 1];
	/* sections do not overlap: a symbol below addr in another section
	 * means none of addr's section is */
	return addr >= s->sec_start && addr < s->sec_end ? s : NULL;
}

void nt_symtab_keep_functions(struct nt_symtab *t)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->count; i++)   /* below: a local label */
		if (t->v[i].rank >= RANK_GLOBAL)
			t->v[kept++] = t->v[i];
	t->count = kept;                        /* names stay owned by t */
}

int nt_listing_format_line(char *buf, size_t size, uint64_t pc, int event,
			   const struct nt_symtab *t)
{
	static const char *const marker[] = {
		[NT_EVENT_NONE] = "",
		[NT_EVENT_EXCEPTION] = " exc",
		[NT_EVENT_INTERRUPT] = " int",
	};
	const struct nt_symbol *s = nt_symtab_lookup(t, pc);

	if (event < NT_EVENT_NONE || event > NT_EVENT_INTERRUPT)
		event = NT_EVENT_NONE;
	if (!s)
		return snprintf(buf, size, "%" PRIx64 "%s  ?\n", pc, marker[event]);
	return snprintf(buf, size, "%" PRIx64 "%s  %s+0x%" PRIx64 "\n", pc, marker[event], s->name,
			pc - s->addr);
}
