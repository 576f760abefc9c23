// SPDX-License-Identifier: BSD-2-Clause
/*
 * Memory images for instruction classification: executable segments of ELF
 * files (read with libelf) and raw memory dumps placed at an address.
 * Every offset and size read from a file is checked against the file length
 * before use, so truncated or garbage files give an error, never a crash.
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

void nt_images_init(struct nt_image_set *set)
{
	memset(set, 0, sizeof(*set));
}

void nt_images_free(struct nt_image_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		free(set->images[i].bytes);
		free(set->images[i].origin);
	}
	free(set->images);
	nt_images_init(set);
}

static int images_overlap(const struct nt_image *a, uint64_t base, uint64_t size)
{
	return base < a->base + a->size && a->base < base + size;
}

int nt_images_add_bytes(struct nt_image_set *set, const uint8_t *bytes,
			size_t len, uint64_t base, const char *origin,
			struct nt_err *err)
{
	if (len == 0)
		return 0;
	if (base + len - 1 < base) {
		nt_err_set(err, "%s: image at 0x%" PRIx64 " of %zu bytes wraps past the end of the address space",
			   origin, base, len);
		return -1;
	}
	size_t pos = 0;
	while (pos < set->count && set->images[pos].base < base)
		pos++;
	for (size_t i = 0; i < set->count; i++) {
		if (images_overlap(&set->images[i], base, len)) {
			nt_err_set(err, "%s: bytes 0x%" PRIx64 "..0x%" PRIx64 " overlap %s (0x%" PRIx64 "..0x%" PRIx64 ")",
				   origin, base, base + len - 1, set->images[i].origin,
				   set->images[i].base,
				   set->images[i].base + set->images[i].size - 1);
			return -1;
		}
	}
	struct nt_image img = { .base = base, .size = len };
	img.bytes = malloc(len);
	img.origin = strdup(origin);
	struct nt_image *grown = realloc(set->images, (set->count + 1) * sizeof(*grown));
	if (!img.bytes || !img.origin || !grown) {
		free(img.bytes);
		free(img.origin);
		if (grown)
			set->images = grown;
		nt_err_set(err, "%s: out of memory", origin);
		return -1;
	}
	memcpy(img.bytes, bytes, len);
	set->images = grown;
	memmove(&set->images[pos + 1], &set->images[pos],
		(set->count - pos) * sizeof(*grown));
	set->images[pos] = img;
	set->count++;
	set->last_hit = 0;
	return 0;
}

const uint8_t *nt_images_lookup(struct nt_image_set *set, uint64_t addr,
				uint64_t *avail)
{
	if (set->count == 0)
		return NULL;
	const struct nt_image *img = &set->images[set->last_hit];
	if (addr - img->base >= img->size) {
		size_t lo = 0, hi = set->count;
		while (lo < hi) {       /* first image with base > addr */
			size_t mid = lo + (hi - lo) / 2;
			if (set->images[mid].base <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0)
			return NULL;
		img = &set->images[lo - 1];
		if (addr - img->base >= img->size)
			return NULL;
		set->last_hit = lo - 1;
	}
	*avail = img->size - (addr - img->base);
	return img->bytes + (addr - img->base);
}

int nt_images_read(struct nt_image_set *set, uint64_t addr, void *dst, size_t len)
{
	uint64_t avail = 0;
	const uint8_t *p = nt_images_lookup(set, addr, &avail);
	if (!p || avail < len)
		return -1;
	memcpy(dst, p, len);
	return 0;
}

int nt_read_file(const char *path, uint8_t **buf, size_t *len,
		 struct nt_err *err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		nt_err_set(err, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *data = malloc(cap);
	while (data) {
		size_t got = fread(data + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		uint8_t *bigger = realloc(data, cap * 2);
		if (!bigger) {
			free(data);
			data = NULL;
			break;
		}
		data = bigger;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!data || bad) {
		free(data);
		nt_err_set(err, "%s: %s", path, bad ? "read error" : "out of memory");
		return -1;
	}
	*buf = data;
	*len = n;
	return 0;
}

/* ---- ELF -------------------------------------------------------------- */

static int elf_range_ok(uint64_t off, uint64_t size, size_t file_len)
{
	return off <= file_len && size <= file_len - off;
}

/* A section's or segment's bytes at its virtual address, or with a load
 * map at its load address (loadmap.c). */
static int add_elf_chunk(struct nt_image_set *set, const uint8_t *file,
			 size_t file_len, uint64_t off, uint64_t size,
			 uint64_t addr, const struct nt_load_map *map,
			 const char *name, const char *what,
			 size_t index, struct nt_err *err)
{
	if (!elf_range_ok(off, size, file_len)) {
		nt_err_set(err, "%s: %s %zu: bytes 0x%" PRIx64 "+0x%" PRIx64 " lie outside the file (%zu bytes): truncated ELF?",
			   name, what, index, off, size, file_len);
		return -1;
	}
	if (map && !nt_load_map_find(map, addr, size, &addr)) {
		nt_err_set(err, "%s: %s %zu at 0x%" PRIx64 " is in no PT_LOAD segment: it has no load address",
			   name, what, index, addr);
		return -1;
	}
	return nt_images_add_bytes(set, file + off, size, addr, name, err);
}

static int add_elf_segments(struct nt_image_set *set, Elf *elf,
			    const uint8_t *file, size_t len, size_t phnum,
			    const struct nt_load_map *map, const char *name,
			    struct nt_err *err)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			nt_err_set(err, "%s: program header %zu: %s", name, i, elf_errmsg(-1));
			return -1;
		}
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || ph.p_filesz == 0)
			continue;
		if (add_elf_chunk(set, file, len, ph.p_offset, ph.p_filesz,
				  ph.p_vaddr, map, name, "segment", i, err))
			return -1;
	}
	return 0;
}

static int add_elf_sections(struct nt_image_set *set, Elf *elf,
			    const uint8_t *file, size_t len,
			    const struct nt_load_map *map, const char *name,
			    struct nt_err *err)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh)) {
			nt_err_set(err, "%s: section header: %s", name, elf_errmsg(-1));
			return -1;
		}
		if (sh.sh_type != SHT_PROGBITS ||
		    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		if (add_elf_chunk(set, file, len, sh.sh_offset, sh.sh_size,
				  sh.sh_addr, map, name, "section", elf_ndxscn(scn), err))
			return -1;
	}
	return 0;
}

Elf *nt_elf_open(uint8_t *file, size_t len, const char *name, struct nt_err *err)
{
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		nt_err_set(err, "%s: libelf initialisation failed", name);
		return NULL;
	}
	if (len < EI_NIDENT || memcmp(file, ELFMAG, SELFMAG) != 0) {
		nt_err_set(err, "%s: not an ELF file (bad magic at byte 0)", name);
		return NULL;
	}
	elf = elf_memory((char *)file, len);
	if (!elf)
		nt_err_set(err, "%s: %s", name, elf_errmsg(-1));
	return elf;
}

/* The executable code of the ELF at its virtual addresses, or with a map
 * at its load addresses. */
static int add_elf_code(struct nt_image_set *set, Elf *elf, const uint8_t *file, size_t len,
			size_t phnum, const struct nt_load_map *map, const char *name,
			struct nt_err *err)
{
	/* Executable sections are exact (segments also map the ELF headers
	 * and padding); stripped files only have segments. */
	size_t before = set->count;
	int rc = add_elf_sections(set, elf, file, len, map, name, err);

	if (rc == 0 && set->count == before)
		rc = add_elf_segments(set, elf, file, len, phnum, map, name, err);
	if (rc == 0 && set->count == before) {
		nt_err_set(err, "%s: no executable code (no loadable executable segment or section)", name);
		rc = -1;
	}
	return rc;
}

/* The code of a spec that is not (only) at its virtual addresses: at its
 * load addresses (has_load, image "FILE@ADDR") or moved (image
 * "FILE+BIAS"). */
static int add_placed_code(struct nt_image_set *set, Elf *elf, const uint8_t *file, size_t len,
			   size_t phnum, const char *name, const struct nt_elf_spec *spec,
			   struct nt_err *err)
{
	struct nt_load_map map;
	char placed[512];
	int rc;

	if (spec->moved) {
		snprintf(placed, sizeof(placed), "%s+0x%" PRIx64, name, spec->bias);
		rc = nt_load_map_moved(elf, spec->bias, name, &map, err);
	} else {
		snprintf(placed, sizeof(placed), "%s@0x%" PRIx64, name, spec->load);
		rc = nt_load_map_build(elf, spec->load, name, &map, err);
	}
	if (rc == 0)
		rc = add_elf_code(set, elf, file, len, phnum, &map, placed, err);
	nt_load_map_free(&map);
	return rc;
}

/* spec: NULL, or where else the file's code is (--elf FILE@ADDR: there too;
 * moved: only there). */
static int load_elf(struct nt_image_set *set, uint8_t *file, size_t len,
		    const char *name, const struct nt_elf_spec *spec, struct nt_err *err)
{
	Elf *elf = nt_elf_open(file, len, name, err);
	if (!elf)
		return -1;
	int rc = -1;
	GElf_Ehdr eh;
	size_t phnum = 0;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		nt_err_set(err, "%s: bad ELF header: %s", name, elf_errmsg(-1));
	} else if (eh.e_machine != EM_RISCV) {
		nt_err_set(err, "%s: not a RISC-V ELF (e_machine %u)", name, eh.e_machine);
	} else if (elf_getphdrnum(elf, &phnum) != 0) {
		nt_err_set(err, "%s: bad program header table: %s", name, elf_errmsg(-1));
	} else {
		rc = spec && spec->moved ? 0 : add_elf_code(set, elf, file, len, phnum, NULL, name, err);
		if (rc == 0 && spec && (spec->has_load || spec->moved))
			rc = add_placed_code(set, elf, file, len, phnum, name, spec, err);
		if (rc == 0 && set->elf_class == 0)
			set->elf_class = gelf_getclass(elf) == ELFCLASS32 ? 32 : 64;
	}
	elf_end(elf);
	return rc;
}

int nt_images_add_elf_buffer(struct nt_image_set *set, const uint8_t *buf,
			     size_t len, const char *name, struct nt_err *err)
{
	/* libelf may convert headers in place: give it a private copy. */
	uint8_t *copy = malloc(len ? len : 1);
	if (!copy) {
		nt_err_set(err, "%s: out of memory", name);
		return -1;
	}
	memcpy(copy, buf, len);
	int rc = load_elf(set, copy, len, name, NULL, err);
	free(copy);
	return rc;
}

int nt_images_add_elf(struct nt_image_set *set, const char *path,
		      struct nt_err *err)
{
	uint8_t *file;
	size_t len;
	if (nt_read_file(path, &file, &len, err))
		return -1;
	int rc = load_elf(set, file, len, path, NULL, err);
	free(file);
	return rc;
}

int nt_images_add_elf_spec(struct nt_image_set *set, const struct nt_elf_spec *spec,
			   struct nt_err *err)
{
	uint8_t *file;
	size_t len;
	if (nt_read_file(spec->path, &file, &len, err))
		return -1;
	int rc = load_elf(set, file, len, spec->path, spec, err);
	free(file);
	return rc;
}

/* ---- Raw images --------------------------------------------------------- */

int nt_images_add_raw(struct nt_image_set *set, const char *spec,
		      struct nt_err *err)
{
	const char *at = strrchr(spec, '@');
	uint64_t base;
	if (!at || at == spec || nt_parse_address(at + 1, &base)) {
		nt_err_set(err, "%s: raw image must be given as FILE@ADDR (ADDR hex with 0x, or decimal)", spec);
		return -1;
	}
	size_t name_len = (size_t)(at - spec);
	char *path = malloc(name_len + 1);
	if (!path) {
		nt_err_set(err, "%s: out of memory", spec);
		return -1;
	}
	memcpy(path, spec, name_len);
	path[name_len] = '\0';
	uint8_t *file;
	size_t len;
	int rc = nt_read_file(path, &file, &len, err);
	if (rc == 0) {
		if (len == 0) {
			nt_err_set(err, "%s: raw image is empty", path);
			rc = -1;
		} else {
			rc = nt_images_add_bytes(set, file, len, base, spec, err);
		}
		free(file);
	}
	free(path);
	return rc;
}
