// SPDX-License-Identifier: BSD-2-Clause
/*
 * tsbi-record's recordings (linux-trace/recording.h): the file parsed with
 * every size and offset checked, the decoder's settings from attr.config,
 * where the traced process's files were mapped (PERF_RECORD_MMAP2), and
 * the decode of each AUX record's N-Trace stream (a segment) through the
 * tool's decode paths.
 */
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ntrace_tool.h"
#include "recording.h"
#include "tci_spec.h"

/* Linux riscv64's page: the unit of a mapping's offset. */
#define LINUX_PAGE 4096u
/* The highest record type with a sample_id trailer we know of
 * (PERF_RECORD_AUX_OUTPUT_HW_ID, Linux 5.16). */
#define LAST_KNOWN_TYPE 21

/* ---- reading the file ------------------------------------------------------ */

struct reader {
	const uint8_t *buf;
	size_t len;
	const char *name;
	struct nt_err *err;
};

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* "name: byte N: what": -1. */
static int bad(const struct reader *rd, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const struct reader *rd, size_t at, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	nt_err_set(rd->err, "%s: byte %zu: %s", rd->name, at, what);
	return -1;
}

/* n bytes at `at`, or the error that the file ends inside `what`. */
static int need(const struct reader *rd, size_t at, uint64_t n, const char *what)
{
	size_t left = at <= rd->len ? rd->len - at : 0;

	if (n <= left)
		return 0;
	return bad(rd, at, "the file ends inside %s (%" PRIu64 " bytes needed, %zu left)", what, n,
		   left);
}

static uint64_t align_up(uint64_t v)
{
	return (v + TSBIREC_ALIGN - 1) / TSBIREC_ALIGN * TSBIREC_ALIGN;
}

/* ---- the header -------------------------------------------------------------- */

static int check_attr(const struct reader *rd, struct nt_perf_recording *r)
{
	const uint8_t *a = rd->buf + TSBIREC_OFF_ATTR;
	uint32_t size = le32(a + TSBIREC_ATTR_SIZE);
	uint64_t sync;

	r->attr_type = le32(a + TSBIREC_ATTR_TYPE);
	r->config = le64(a + TSBIREC_ATTR_CONFIG);
	r->sample_type = le64(a + TSBIREC_ATTR_SAMPLE_TYPE);
	r->attr_flags = le64(a + TSBIREC_ATTR_FLAGS);
	if (size != r->attr_size)
		return bad(rd, TSBIREC_OFF_ATTR + TSBIREC_ATTR_SIZE, "attr.size %" PRIu32 " is not the "
			   "header's attr size %" PRIu32, size, r->attr_size);
	if (r->config & ~TSBI_CFG_KNOWN)
		return bad(rd, TSBIREC_OFF_ATTR + TSBIREC_ATTR_CONFIG, "attr.config 0x%" PRIx64 ": bits "
			   "0x%" PRIx64 " are none of the " TSBI_PMU_NAME " format terms this reader "
			   "knows (linux-trace/recording.h)", r->config, r->config & ~(uint64_t)TSBI_CFG_KNOWN);
	sync = (r->config & TSBI_CFG_SYNC_MASK) >> TSBI_CFG_SYNC_SHIFT;
	if (sync > 3)
		return bad(rd, TSBIREC_OFF_ATTR + TSBIREC_ATTR_CONFIG, "attr.config 0x%" PRIx64 ": sync "
			   "%" PRIu64 ", but trTeInstSyncMode is 0..3", r->config, sync);
	if ((r->sample_type & TSBIREC_SAMPLE_NEEDED) != TSBIREC_SAMPLE_NEEDED)
		return bad(rd, TSBIREC_OFF_ATTR + TSBIREC_ATTR_SAMPLE_TYPE, "attr.sample_type 0x%" PRIx64
			   " lacks PERF_SAMPLE_TID, TIME or CPU: the records would not say whose, "
			   "when and where", r->sample_type);
	if (!(r->attr_flags & TSBIREC_FLAG_SAMPLE_ID_ALL))
		return bad(rd, TSBIREC_OFF_ATTR + TSBIREC_ATTR_FLAGS, "attr flags 0x%" PRIx64 ": "
			   "sample_id_all is off: the records would not say whose, when and where",
			   r->attr_flags);
	return 0;
}

static int parse_header(const struct reader *rd, struct nt_perf_recording *r, size_t *end)
{
	uint32_t header_size, version;
	size_t cpus_at, harts_at;
	uint64_t used;

	if (need(rd, 0, TSBIREC_MAGIC_LEN, "the magic"))
		return -1;
	if (memcmp(rd->buf, TSBIREC_MAGIC, TSBIREC_MAGIC_LEN) != 0)
		return bad(rd, 0, "bad magic: not a tsbi-record recording (\"" TSBIREC_MAGIC "\")");
	if (need(rd, TSBIREC_OFF_HEADER_SIZE, 4, "the header size") ||
	    need(rd, TSBIREC_OFF_VERSION, 4, "the version") ||
	    need(rd, TSBIREC_OFF_ATTR_SIZE, 4, "the attr size"))
		return -1;
	header_size = le32(rd->buf + TSBIREC_OFF_HEADER_SIZE);
	version = le32(rd->buf + TSBIREC_OFF_VERSION);
	r->attr_size = le32(rd->buf + TSBIREC_OFF_ATTR_SIZE);
	if (version != TSBIREC_VERSION)
		return bad(rd, TSBIREC_OFF_VERSION, "version %" PRIu32 ": this reader knows version %u",
			   version, TSBIREC_VERSION);
	if (r->attr_size < TSBIREC_ATTR_MIN || r->attr_size > TSBIREC_ATTR_MAX)
		return bad(rd, TSBIREC_OFF_ATTR_SIZE, "attr size %" PRIu32 ": not %u..%u", r->attr_size,
			   TSBIREC_ATTR_MIN, TSBIREC_ATTR_MAX);
	if (need(rd, TSBIREC_OFF_ATTR, r->attr_size, "the perf_event_attr") || check_attr(rd, r))
		return -1;
	cpus_at = TSBIREC_OFF_ATTR + r->attr_size;
	if (need(rd, cpus_at, 4, "the number of CPUs"))
		return -1;
	r->ncpus = le32(rd->buf + cpus_at);
	if (r->ncpus == 0 || r->ncpus > TSBIREC_MAX_CPUS)
		return bad(rd, cpus_at, "%" PRIu32 " CPUs: not 1..%u", r->ncpus, TSBIREC_MAX_CPUS);
	harts_at = cpus_at + 4;
	if (need(rd, harts_at, 4ull * r->ncpus, "the CPUs' hart IDs"))
		return -1;
	used = harts_at + 4ull * r->ncpus;
	if (header_size != align_up(used))
		return bad(rd, TSBIREC_OFF_HEADER_SIZE, "header size %" PRIu32 ", but its attr and %" PRIu32
			   " CPUs make it %" PRIu64, header_size, r->ncpus, align_up(used));
	if (need(rd, used, header_size - used, "the header's padding"))
		return -1;
	r->hart = calloc(r->ncpus, sizeof(*r->hart));
	if (!r->hart) {
		nt_err_set(rd->err, "%s: out of memory", rd->name);
		return -1;
	}
	for (uint32_t i = 0; i < r->ncpus; i++)
		r->hart[i] = le32(rd->buf + harts_at + 4ull * i);
	*end = header_size;
	return 0;
}

/* ---- records ------------------------------------------------------------------- */

/* Bytes of struct sample_id for the attr's sample_type. */
static unsigned sample_id_size(uint64_t sample_type)
{
	static const uint64_t fields[] = { TSBIREC_SAMPLE_TID, TSBIREC_SAMPLE_TIME, TSBIREC_SAMPLE_ID,
					   TSBIREC_SAMPLE_STREAM_ID, TSBIREC_SAMPLE_CPU,
					   TSBIREC_SAMPLE_IDENTIFIER };
	unsigned n = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		n += sample_type & fields[i] ? 8 : 0;
	return n;
}

static void parse_sample_id(const uint8_t *p, uint64_t sample_type, struct nt_perf_id *id)
{
	if (sample_type & TSBIREC_SAMPLE_TID) {
		id->pid = le32(p);
		id->tid = le32(p + 4);
		p += 8;
	}
	if (sample_type & TSBIREC_SAMPLE_TIME) {
		id->time = le64(p);
		p += 8;
	}
	p += sample_type & TSBIREC_SAMPLE_ID ? 8 : 0;
	p += sample_type & TSBIREC_SAMPLE_STREAM_ID ? 8 : 0;
	if (sample_type & TSBIREC_SAMPLE_CPU)
		id->cpu = le32(p);
}

static const char *type_name(uint32_t type)
{
	switch (type) {
	case TSBIREC_MMAP: return "PERF_RECORD_MMAP";
	case TSBIREC_LOST: return "PERF_RECORD_LOST";
	case TSBIREC_COMM: return "PERF_RECORD_COMM";
	case TSBIREC_MMAP2: return "PERF_RECORD_MMAP2";
	case TSBIREC_AUX: return "PERF_RECORD_AUX";
	case TSBIREC_ITRACE_START: return "PERF_RECORD_ITRACE_START";
	case TSBIREC_LOST_SAMPLES: return "PERF_RECORD_LOST_SAMPLES";
	default: return "record";
	}
}

/* Each record type's own fields after its header (bytes), and where its
 * name starts (0: none); other types have none. */
static const struct {
	uint32_t type;
	uint8_t body, name_at;
} layouts[] = {
	{ TSBIREC_MMAP, TSBIREC_MMAP_NAME - 8, TSBIREC_MMAP_NAME },
	{ TSBIREC_COMM, TSBIREC_COMM_NAME - 8, TSBIREC_COMM_NAME },
	{ TSBIREC_MMAP2, TSBIREC_MMAP2_NAME - 8, TSBIREC_MMAP2_NAME },
	{ TSBIREC_LOST, TSBIREC_LOST_BODY - 8, 0 },
	{ TSBIREC_AUX, TSBIREC_AUX_BODY - 8, 0 },
	{ TSBIREC_ITRACE_START, TSBIREC_ITRACE_START_BODY - 8, 0 },
	{ TSBIREC_LOST_SAMPLES, TSBIREC_LOST_SAMPLES_BODY - 8, 0 },
	{ TSBIREC_EXIT, 24, 0 },        /* pid, ppid, tid, ptid, time */
	{ TSBIREC_FORK, 24, 0 },
	{ 5, 24, 0 },                   /* THROTTLE, UNTHROTTLE: time, id, stream_id */
	{ 6, 24, 0 },
};

static unsigned fixed_body(uint32_t type, unsigned *name_at)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		if (layouts[i].type == type) {
			*name_at = layouts[i].name_at;
			return layouts[i].body;
		}
	}
	*name_at = 0;
	return 0;
}

/* The fields of the record at rec->offset (its size already checked
 * against the file). */
static int parse_fields(const struct reader *rd, const struct nt_perf_recording *r,
			struct nt_perf_record *rec)
{
	const uint8_t *p = rd->buf + rec->offset;
	unsigned id_size = sample_id_size(r->sample_type), name_at;
	unsigned body = fixed_body(rec->type, &name_at);

	if (rec->type == TSBIREC_SAMPLE || rec->type == 0 || rec->type > LAST_KNOWN_TYPE)
		return 0;       /* no sample_id trailer (SAMPLE), or unknown: skipped */
	if (rec->size < 8u + body + id_size + (name_at ? 1 : 0))
		return bad(rd, rec->offset, "a %s of %u bytes: too short for its fields and sample_id "
			   "(%u bytes at least)", type_name(rec->type), rec->size,
			   8u + body + id_size + (name_at ? 1 : 0));
	rec->has_id = true;
	parse_sample_id(p + rec->size - id_size, r->sample_type, &rec->id);
	if (name_at) {
		const char *name = (const char *)p + name_at;

		if (!memchr(name, '\0', rec->size - id_size - name_at))
			return bad(rd, rec->offset + name_at, "the name in the %s at byte %zu has no "
				   "terminating NUL", type_name(rec->type), rec->offset);
		rec->name = name;
	}
	switch (rec->type) {
	case TSBIREC_MMAP:
	case TSBIREC_MMAP2:
		rec->pid = le32(p + 8);
		rec->tid = le32(p + 12);
		rec->addr = le64(p + 16);
		rec->len = le64(p + 24);
		rec->pgoff = le64(p + 32);
		if (rec->type == TSBIREC_MMAP2)
			rec->prot = le32(p + TSBIREC_MMAP2_PROT);
		else
			rec->prot = rec->misc & TSBIREC_MISC_MMAP_DATA ? 0 : TSBIREC_PROT_EXEC;
		break;
	case TSBIREC_COMM:
	case TSBIREC_ITRACE_START:
		rec->pid = le32(p + 8);
		rec->tid = le32(p + 12);
		break;
	case TSBIREC_AUX:
		rec->aux_offset = le64(p + 8);
		rec->aux_flags = le64(p + 24);
		break;
	case TSBIREC_LOST:
		rec->lost = le64(p + 16);
		break;
	case TSBIREC_LOST_SAMPLES:
		rec->lost = le64(p + 8);
		break;
	default:
		break;
	}
	return 0;
}

/* The AUX bytes after the record at rec (which ends at *pos), and their padding. */
static int take_aux(const struct reader *rd, struct nt_perf_record *rec, size_t *pos)
{
	uint64_t n = le64(rd->buf + rec->offset + 16);
	size_t left = rd->len - *pos;

	if (n > left)
		return bad(rd, *pos, "the %" PRIu64 " AUX bytes of the PERF_RECORD_AUX at byte %zu run "
			   "past the end of the file (%zu bytes left)", n, rec->offset, left);
	if (align_up(n) > left)
		return bad(rd, *pos + (size_t)n, "the file ends inside the padding after the AUX bytes "
			   "of the PERF_RECORD_AUX at byte %zu", rec->offset);
	rec->aux = rd->buf + *pos;
	rec->aux_size = (size_t)n;
	rec->aux_at = *pos;
	*pos += (size_t)align_up(n);
	return 0;
}

static struct nt_perf_record *push_record(struct nt_perf_recording *r)
{
	if (r->count == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct nt_perf_record *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	memset(&r->v[r->count], 0, sizeof(r->v[0]));
	return &r->v[r->count++];
}

static void count_record(struct nt_perf_recording *r, const struct nt_perf_record *rec)
{
	if (rec->type == TSBIREC_AUX) {
		r->segments++;
		r->aux_bytes += rec->aux_size;
		r->truncated += (rec->aux_flags & TSBIREC_AUX_TRUNCATED) != 0;
	} else if (rec->type == TSBIREC_LOST) {
		r->lost += rec->lost;
	} else if (rec->type == TSBIREC_LOST_SAMPLES) {
		r->lost_samples += rec->lost;
	}
}

static int parse_records(const struct reader *rd, struct nt_perf_recording *r, size_t pos)
{
	while (pos < rd->len) {
		struct nt_perf_record *rec;

		if (need(rd, pos, TSBIREC_HEADER_BYTES, "a record's header"))
			return -1;
		uint32_t type = le32(rd->buf + pos);
		uint16_t size = le16(rd->buf + pos + 6);

		if (size < TSBIREC_HEADER_BYTES)
			return bad(rd, pos, "a record (type %" PRIu32 ") of size %u: smaller than its "
				   "8-byte header", type, size);
		if (size % TSBIREC_ALIGN)
			return bad(rd, pos, "a record (type %" PRIu32 ") of size %u: not a multiple of 8",
				   type, size);
		if (size > rd->len - pos)
			return bad(rd, pos, "a %s of %u bytes runs past the end of the file (%zu bytes "
				   "left)", type_name(type), size, rd->len - pos);
		rec = push_record(r);
		if (!rec) {
			nt_err_set(rd->err, "%s: out of memory for the records", rd->name);
			return -1;
		}
		*rec = (struct nt_perf_record){ .offset = pos, .type = type,
						.misc = le16(rd->buf + pos + 4), .size = size };
		if (parse_fields(rd, r, rec))
			return -1;
		pos += size;
		if (type == TSBIREC_AUX && take_aux(rd, rec, &pos))
			return -1;
		count_record(r, rec);
	}
	return 0;
}

int nt_perf_parse(const uint8_t *buf, size_t len, const char *name, struct nt_perf_recording *r,
		  struct nt_err *err)
{
	struct reader rd = { buf, len, name, err };
	size_t pos = 0;

	memset(r, 0, sizeof(*r));
	if (parse_header(&rd, r, &pos) || parse_records(&rd, r, pos)) {
		nt_perf_free(r);
		return -1;
	}
	return 0;
}

void nt_perf_free(struct nt_perf_recording *r)
{
	free(r->hart);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* ---- settings ------------------------------------------------------------------ */

int nt_perf_config(const struct nt_perf_recording *r, struct nt_tool_config *cfg,
		   struct nt_err *err)
{
	uint64_t c = r->config;
	uint32_t mode = c & TSBI_CFG_BTM ? TRTE_INST_MODE_BASELINE : TRTE_INST_MODE_OPTIMIZED;
	uint32_t control = TRTE_ACTIVE | TRTE_ENABLE | TRTE_INST_TRACING |
			   mode << TRTE_INST_MODE_SHIFT | TRTE_INHIBIT_SRC |
			   (c & TSBI_CFG_CTX ? TRTE_CONTEXT : 0) |
			   (uint32_t)((c & TSBI_CFG_SYNC_MASK) >> TSBI_CFG_SYNC_SHIFT) << TRTE_INST_SYNC_MODE_SHIFT |
			   (uint32_t)((c & TSBI_CFG_SYNCMAX_MASK) >> TSBI_CFG_SYNCMAX_SHIFT) << TRTE_INST_SYNC_MAX_SHIFT |
			   TRTE_FORMAT_NTRACE << TRTE_FORMAT_SHIFT;
	/* ImplicitReturnMode 3, the firmware's default (docs/TRACE.md) */
	uint32_t features = 3u << TRTE_INST_IMPLICIT_RETURN_MODE_SHIFT |
			    (c & TSBI_CFG_SEQJUMP ? TRTE_INST_EN_SEQUENTIAL_JUMP : 0) |
			    (c & TSBI_CFG_IMPLICITRET ? TRTE_INST_EN_IMPLICIT_RETURN : 0) |
			    (c & TSBI_CFG_REPEAT ? TRTE_INST_EN_REPEATED_HISTORY : 0) |
			    (c & TSBI_CFG_ALLJUMPS ? TRTE_INST_EN_ALL_JUMPS : 0) |
			    (c & TSBI_CFG_EXTADDR ? TRTE_INST_EXTEND_ADDR_MSB : 0);
	uint32_t tscontrol = c & TSBI_CFG_TS ? TRTS_ACTIVE | TRTS_COUNT | TRTS_ENABLE |
					       TRTS_MODE_INTERNAL_SYSTEM << TRTS_MODE_SHIFT : 0;

	if (nt_tool_config_from_tci(cfg, control, features, tscontrol, err))
		return -1;
	cfg->xlen = 64;
	cfg->settings_from = "the recording's attr.config";
	cfg->settings_remedy = "the PMU's format terms and linux-trace/recording.h must agree";
	return 0;
}

bool nt_perf_traced_pid(const struct nt_perf_recording *r, uint32_t *pid)
{
	for (size_t i = 0; i < r->count; i++) {
		if (r->v[i].type == TSBIREC_ITRACE_START) {
			*pid = r->v[i].pid;
			return true;
		}
	}
	for (size_t i = 0; i < r->count; i++) {
		if (r->v[i].type == TSBIREC_AUX && r->v[i].has_id) {
			*pid = r->v[i].id.pid;
			return true;
		}
	}
	return false;
}

/* ---- where the files were -------------------------------------------------- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static bool exec_mapping(const struct nt_perf_record *rec, uint32_t pid)
{
	return (rec->type == TSBIREC_MMAP || rec->type == TSBIREC_MMAP2) && rec->pid == pid &&
	       (rec->prot & TSBIREC_PROT_EXEC) && rec->name;
}

/* The process's executable mappings' base names, "a, b, c", for an error. */
static void mapped_names(const struct nt_perf_recording *r, uint32_t pid, char *buf, size_t size)
{
	size_t n = 0, shown = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->count && n < size && shown < 8; i++) {
		if (!exec_mapping(&r->v[i], pid))
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", base_name(r->v[i].name));
		shown++;
	}
	if (!buf[0])
		snprintf(buf, size, "none");
}

/* The bias of the mapping rec of elf: 0, or -1 when no PT_LOAD starts in its page. */
static int mapping_bias(Elf *elf, const struct nt_perf_record *rec, uint64_t *bias)
{
	size_t phnum = 0;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return -1;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if ((ph.p_offset & ~(uint64_t)(LINUX_PAGE - 1)) == rec->pgoff) {
			*bias = rec->addr - (ph.p_vaddr & ~(uint64_t)(LINUX_PAGE - 1));
			return 0;
		}
	}
	return -1;
}

/* An ET_DYN file: moved by the bias of pid's first executable mapping of a
 * file of its base name. */
static int place_dyn(const struct nt_perf_recording *r, uint32_t pid, struct nt_elf_spec *spec,
		     Elf *elf, const char *name, struct nt_err *err)
{
	const char *base = base_name(spec->path);
	char names[256];

	for (size_t i = 0; i < r->count; i++) {
		const struct nt_perf_record *rec = &r->v[i];

		if (!exec_mapping(rec, pid) || strcmp(base_name(rec->name), base) != 0)
			continue;
		if (mapping_bias(elf, rec, &spec->bias)) {
			nt_err_set(err, "%s: the %s at byte %zu of %s maps %s from file offset 0x%" PRIx64
				   ", where none of its PT_LOAD segments starts: is it the file that "
				   "ran?", spec->path, type_name(rec->type), rec->offset, name, rec->name,
				   rec->pgoff);
			return -1;
		}
		spec->moved = true;
		return 0;
	}
	mapped_names(r, pid, names, sizeof(names));
	nt_err_set(err, "%s: position-independent (ET_DYN), and no executable PERF_RECORD_MMAP2 of "
		   "pid %" PRIu32 " in %s maps a file named %s (the process's: %s): cannot place it",
		   spec->path, pid, name, base, names);
	return -1;
}

int nt_perf_place_elf(const struct nt_perf_recording *r, uint32_t pid, struct nt_elf_spec *spec,
		      const char *name, struct nt_err *err)
{
	uint8_t *file;
	size_t len;
	GElf_Ehdr eh;
	int rc = 0;

	if (spec->has_load)
		return 0;       /* --elf FILE@ADDR: placed as asked */
	if (nt_read_file(spec->path, &file, &len, err))
		return -1;
	Elf *elf = nt_elf_open(file, len, spec->path, err);
	if (!elf) {
		free(file);
		return -1;
	}
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		nt_err_set(err, "%s: bad ELF header: %s", spec->path, elf_errmsg(-1));
		rc = -1;
	} else if (eh.e_type == ET_DYN) {
		rc = place_dyn(r, pid, spec, elf, name, err);
	}
	elf_end(elf);
	free(file);
	return rc;
}

/* ---- segments -------------------------------------------------------------------- */

int nt_perf_segment_header(char *buf, size_t size, size_t k, const struct nt_perf_record *aux)
{
	uint64_t f = aux->aux_flags;

	return snprintf(buf, size, "# segment %zu: cpu %" PRIu32 " pid %" PRIu32 " tid %" PRIu32
			" time %" PRIu64 ", %zu bytes%s%s%s%s\n", k, aux->id.cpu, aux->id.pid,
			aux->id.tid, aux->id.time, aux->aux_size,
			f & TSBIREC_AUX_TRUNCATED ? ", truncated" : "",
			f & TSBIREC_AUX_PARTIAL ? ", partial" : "",
			f & TSBIREC_AUX_COLLISION ? ", collision" : "",
			f & TSBIREC_AUX_OVERWRITE ? ", overwrite" : "");
}

static long decode_segment(const struct nt_tool_config *cfg, struct nt_image_set *images,
			   const struct nt_perf_output *out, const struct nt_perf_record *aux,
			   const char *name, FILE *diag, struct nt_err *err)
{
	if (aux->aux_size == 0)
		return 0;       /* nothing was traced before it was handed over */
	if (out->pcs)
		return nt_decode_to_text(cfg, images, aux->aux, aux->aux_size, out->pcs, NULL, name,
					 diag, err);
	if (out->visit)
		return nt_decode_visit(cfg, images, aux->aux, aux->aux_size, out->visit, NULL, name,
				       diag, err);
	return nt_decode_stream(cfg, images, aux->aux, aux->aux_size, NULL, NULL, name, diag, err);
}

static void report_lost(const struct nt_perf_record *rec, const char *name, FILE *diag)
{
	if (!diag)
		return;
	if (rec->type == TSBIREC_LOST)
		fprintf(diag, "%s: byte %zu: PERF_RECORD_LOST: %" PRIu64 " records lost (the data ring "
			"was full): segments may be missing\n", name, rec->offset, rec->lost);
	else
		fprintf(diag, "%s: byte %zu: PERF_RECORD_LOST_SAMPLES: %" PRIu64 " samples lost\n",
			name, rec->offset, rec->lost);
}

long nt_perf_decode(const struct nt_perf_recording *r, const struct nt_tool_config *cfg,
		    struct nt_image_set *images, const struct nt_perf_output *out, const char *name,
		    FILE *diag, struct nt_err *err)
{
	long errors = 0;
	size_t k = 0;

	for (size_t i = 0; i < r->count; i++) {
		const struct nt_perf_record *rec = &r->v[i];
		char seg_name[512];

		if (rec->type == TSBIREC_LOST || rec->type == TSBIREC_LOST_SAMPLES) {
			report_lost(rec, name, diag);
			if (out->lost)
				out->lost(out->ctx, rec);
			continue;
		}
		if (rec->type != TSBIREC_AUX)
			continue;
		snprintf(seg_name, sizeof(seg_name), "%s: segment %zu", name, k);
		if (out->begin)
			out->begin(out->ctx, k, rec);
		long e = decode_segment(cfg, images, out, rec, seg_name, diag, err);
		if (e < 0)
			return -1;
		errors += e;
		if (out->end)
			out->end(out->ctx, k, rec);
		k++;
	}
	return errors;
}
