// SPDX-License-Identifier: BSD-2-Clause
/*
 * The second mapping of an ELF (`--elf FILE@ADDR`): where its code is when
 * a loader placed the file's load image at ADDR.
 *
 * A PT_LOAD segment's p_paddr is its load address (ELF gABI, "Program
 * Header": "the segment's physical address"); `objcopy -O binary` lays the
 * segments out by it, the lowest p_paddr at the first byte.  A kernel like
 * Linux runs from that image before its MMU is on, at the address the
 * boot loader put the image (QEMU virt: 0x80200000), and from its virtual
 * addresses after: the same code at two addresses.  Its vmlinux says the
 * layout (Linux riscv: p_paddr = p_vaddr - KERNEL_LINK_ADDR, so 0 for the
 * first byte) but not where the loader put it: that is ADDR.  Byte v of a
 * segment is then at ADDR + (p_paddr - lowest p_paddr) + (v - p_vaddr).
 */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"

int nt_parse_address(const char *s, uint64_t *out)
{
	if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

int nt_elf_spec_parse(const char *arg, struct nt_elf_spec *spec, struct nt_err *err)
{
	const char *at = strrchr(arg, '@');
	uint64_t addr;
	size_t n = strlen(arg);

	memset(spec, 0, sizeof(*spec));
	if (at && at != arg && nt_parse_address(at + 1, &addr) == 0) {
		n = (size_t)(at - arg);
		spec->has_load = true;
		spec->load = addr;
	}
	spec->path = malloc(n + 1);
	if (!spec->path) {
		nt_err_set(err, "%s: out of memory", arg);
		return -1;
	}
	memcpy(spec->path, arg, n);
	spec->path[n] = '\0';
	return 0;
}

void nt_elf_spec_free(struct nt_elf_spec *spec)
{
	free(spec->path);
	spec->path = NULL;
}

void nt_load_map_free(struct nt_load_map *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

int nt_load_map_build(struct Elf *elf, uint64_t addr, const char *name, struct nt_load_map *m,
		      struct nt_err *err)
{
	size_t phnum = 0;
	uint64_t paddr_lo = UINT64_MAX;

	memset(m, 0, sizeof(*m));
	if (elf_getphdrnum(elf, &phnum) != 0) {
		nt_err_set(err, "%s: bad program header table: %s", name, elf_errmsg(-1));
		return -1;
	}
	m->v = calloc(phnum ? phnum : 1, sizeof(*m->v));
	if (!m->v) {
		nt_err_set(err, "%s: out of memory", name);
		return -1;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			nt_err_set(err, "%s: program header %zu: %s", name, i, elf_errmsg(-1));
			nt_load_map_free(m);
			return -1;
		}
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (ph.p_vaddr + ph.p_memsz < ph.p_vaddr || ph.p_paddr + ph.p_memsz < ph.p_paddr) {
			nt_err_set(err, "%s: program header %zu: segment wraps past the end of the address space",
				   name, i);
			nt_load_map_free(m);
			return -1;
		}
		m->v[m->count++] = (struct nt_load_seg){ ph.p_vaddr, ph.p_memsz, ph.p_paddr };
		if (ph.p_paddr < paddr_lo)
			paddr_lo = ph.p_paddr;
	}
	if (m->count == 0) {
		nt_err_set(err, "%s@0x%" PRIx64 ": no PT_LOAD segment: the file has no load image", name,
			   addr);
		nt_load_map_free(m);
		return -1;
	}
	for (size_t i = 0; i < m->count; i++) {
		struct nt_load_seg *s = &m->v[i];

		s->laddr = addr + (s->laddr - paddr_lo);
		if (s->laddr < addr || s->laddr + s->size < s->laddr) {
			nt_err_set(err, "%s@0x%" PRIx64 ": the load image wraps past the end of the address space",
				   name, addr);
			nt_load_map_free(m);
			return -1;
		}
	}
	return 0;
}

int nt_load_map_read(const char *path, uint64_t addr, struct nt_load_map *m, struct nt_err *err)
{
	uint8_t *file;
	size_t len;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (nt_read_file(path, &file, &len, err))
		return -1;
	Elf *elf = nt_elf_open(file, len, path, err);
	if (elf) {
		if (elf_kind(elf) != ELF_K_ELF)
			nt_err_set(err, "%s: bad ELF header: %s", path, elf_errmsg(-1));
		else
			rc = nt_load_map_build(elf, addr, path, m, err);
		elf_end(elf);
	}
	free(file);
	return rc;
}

int nt_load_map_moved(struct Elf *elf, uint64_t bias, const char *name, struct nt_load_map *m,
		      struct nt_err *err)
{
	/* The same segments at p_vaddr, each then moved by the bias. */
	if (nt_load_map_build(elf, 0, name, m, err))
		return -1;
	for (size_t i = 0; i < m->count; i++) {
		struct nt_load_seg *s = &m->v[i];

		s->laddr = s->vaddr + bias;
		if (s->laddr + s->size < s->laddr) {
			nt_err_set(err, "%s+0x%" PRIx64 ": a segment moved by the bias wraps past the end "
				   "of the address space", name, bias);
			nt_load_map_free(m);
			return -1;
		}
	}
	return 0;
}

int nt_load_map_read_spec(const struct nt_elf_spec *spec, struct nt_load_map *m, struct nt_err *err)
{
	uint8_t *file;
	size_t len;
	int rc = -1;

	if (!spec->moved)
		return nt_load_map_read(spec->path, spec->load, m, err);
	memset(m, 0, sizeof(*m));
	if (nt_read_file(spec->path, &file, &len, err))
		return -1;
	Elf *elf = nt_elf_open(file, len, spec->path, err);
	if (elf) {
		if (elf_kind(elf) != ELF_K_ELF)
			nt_err_set(err, "%s: bad ELF header: %s", spec->path, elf_errmsg(-1));
		else
			rc = nt_load_map_moved(elf, spec->bias, spec->path, m, err);
		elf_end(elf);
	}
	free(file);
	return rc;
}

bool nt_load_map_find(const struct nt_load_map *m, uint64_t vaddr, uint64_t size, uint64_t *laddr)
{
	for (size_t i = 0; i < m->count; i++) {
		const struct nt_load_seg *s = &m->v[i];
		uint64_t off = vaddr - s->vaddr;

		/* size 0: an address, the segment's end included (_end) */
		if (vaddr >= s->vaddr && off <= s->size && size <= s->size - off) {
			*laddr = s->laddr + off;
			return true;
		}
	}
	return false;
}

/* The entry point's offset in the load image (from the lowest p_paddr):
 * 0 and *off, or -1 when no PT_LOAD segment holds it. */
static int entry_offset(Elf *elf, uint64_t *off)
{
	GElf_Ehdr eh;
	struct nt_load_map map;
	struct nt_err err;
	uint64_t at;
	int rc = -1;

	if (!gelf_getehdr(elf, &eh) || nt_load_map_build(elf, 0, "", &map, &err))
		return -1;
	if (nt_load_map_find(&map, eh.e_entry, 1, &at)) {
		*off = at;
		rc = 0;
	}
	nt_load_map_free(&map);
	return rc;
}

int nt_elf_spec_place_at_entry(struct nt_elf_spec *spec, uint64_t next_addr, struct nt_err *err)
{
	uint64_t paddr, vaddr, off;
	uint8_t *file;
	size_t len;

	if (!nt_elf_load_differs(spec->path, &paddr, &vaddr))
		return 0;
	if (nt_read_file(spec->path, &file, &len, err))
		return -1;
	Elf *elf = nt_elf_open(file, len, spec->path, err);
	if (!elf) {
		free(file);
		return -1;
	}
	if (entry_offset(elf, &off) == 0 && off <= next_addr) {
		spec->has_load = true;
		spec->load = next_addr - off;
	}
	elf_end(elf);
	free(file);
	return 0;
}

int nt_elf_load_differs(const char *path, uint64_t *paddr, uint64_t *vaddr)
{
	struct nt_err err;
	uint8_t *file;
	size_t len, phnum = 0;
	int rc = 0;

	if (nt_read_file(path, &file, &len, &err))
		return 0;
	Elf *elf = nt_elf_open(file, len, path, &err);
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &phnum) == 0) {
		for (size_t i = 0; i < phnum && !rc; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
			    ph.p_memsz && ph.p_paddr != ph.p_vaddr) {
				*paddr = ph.p_paddr;
				*vaddr = ph.p_vaddr;
				rc = 1;
			}
		}
	}
	if (elf)
		elf_end(elf);
	free(file);
	return rc;
}
