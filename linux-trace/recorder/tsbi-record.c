// SPDX-License-Identifier: BSD-2-Clause
/*
 * tsbi-record: runs a program with tracesbi's trace PMU (tracesbi_trace, a
 * perf PMU with an AUX area) on it and saves what perf hands over: every
 * record of the data ring and, after each PERF_RECORD_AUX, the AUX bytes it
 * names (one N-Trace stream, from a sync message on).  `ntrace perf` decodes
 * the file on the host.
 *
 *   tsbi-record [-e TERMS] [-u|-k] [-f FILTERS] [-C CPU] [-m AUX_KB] -o FILE -- PROG ARGS...
 *
 * Only the perf_event_open(2) ABI: one event on the child (pid = child,
 * cpu = -1), enabled by its exec; the data ring and the AUX area are
 * mmap'ed and read as the ABI says (data_head/aux records, then
 * data_tail/aux_tail).  The file's layout: ../recording.h and README.md.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../recording.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the recording is little endian: the records are written as the kernel left them"
#endif

/* recording.h's numbers are the ABI's. */
_Static_assert(offsetof(struct perf_event_attr, config) == TSBIREC_ATTR_CONFIG, "attr.config");
_Static_assert(offsetof(struct perf_event_attr, sample_type) == TSBIREC_ATTR_SAMPLE_TYPE,
	       "attr.sample_type");
_Static_assert(offsetof(struct perf_event_attr, read_format) + 8 == TSBIREC_ATTR_FLAGS,
	       "attr flags");
_Static_assert(sizeof(struct perf_event_header) == TSBIREC_HEADER_BYTES, "perf_event_header");
_Static_assert((int)PERF_RECORD_MMAP == TSBIREC_MMAP && (int)PERF_RECORD_LOST == TSBIREC_LOST &&
	       (int)PERF_RECORD_COMM == TSBIREC_COMM && (int)PERF_RECORD_MMAP2 == TSBIREC_MMAP2 &&
	       (int)PERF_RECORD_AUX == TSBIREC_AUX && (int)PERF_RECORD_ITRACE_START == TSBIREC_ITRACE_START &&
	       (int)PERF_RECORD_LOST_SAMPLES == TSBIREC_LOST_SAMPLES && (int)PERF_RECORD_SAMPLE == TSBIREC_SAMPLE,
	       "record types");
_Static_assert(PERF_SAMPLE_TID == TSBIREC_SAMPLE_TID && PERF_SAMPLE_TIME == TSBIREC_SAMPLE_TIME &&
	       PERF_SAMPLE_CPU == TSBIREC_SAMPLE_CPU && PERF_SAMPLE_ID == TSBIREC_SAMPLE_ID &&
	       PERF_SAMPLE_STREAM_ID == TSBIREC_SAMPLE_STREAM_ID &&
	       PERF_SAMPLE_IDENTIFIER == TSBIREC_SAMPLE_IDENTIFIER, "sample types");
_Static_assert(PERF_AUX_FLAG_TRUNCATED == TSBIREC_AUX_TRUNCATED, "AUX flags");

#define EXIT_RECORDER   2
#define DATA_PAGES      64      /* the data ring after its control page: a power of two */
#define AUX_KB_DEFAULT  512
#define AUX_KB_MAX      (1024ul * 1024)
#define POLL_MS         100
#define PMU_DIR         "/sys/bus/event_source/devices/" TSBI_PMU_NAME
#define MAX_RECORD      65536   /* perf_event_header.size is a u16 */

static const char usage_text[] =
	"usage: tsbi-record [-e TERMS] [-u|-k] [-f FILTERS] [-C CPU] [-m AUX_KB] -o FILE -- PROG ARGS...\n"
	"\n"
	"Runs PROG with tracesbi's trace encoder on it (perf PMU " TSBI_PMU_NAME ") and\n"
	"writes every perf record and the N-Trace bytes of each AUX record to FILE,\n"
	"for 'ntrace perf FILE --elf PROG'.\n"
	"\n"
	"  -e TERMS   comma list of the PMU's format terms, NAME or NAME=VALUE\n"
	"             (" PMU_DIR "/format/: btm, ts, ctx, sync=M, ...)\n"
	"  -u         trace user space only (exclude_kernel)\n"
	"  -k         trace the kernel only (exclude_user); default both\n"
	"  -f FILTERS address filters, as perf's --filter: 'filter START/SIZE[@FILE]'\n"
	"             separated by ',' (at most the PMU's nr_addr_filters); only\n"
	"             instructions in one of the ranges are traced\n"
	"  -C CPU     run PROG on that CPU only\n"
	"  -m AUX_KB  AUX area size in KiB, a power of two pages (default 512)\n"
	"  -o FILE    the recording\n"
	"\n"
	"Exit status: PROG's (128 + N when signal N killed it), 2 on a recorder error.\n";

struct options {
	const char *terms;
	const char *filters;            /* -f: PERF_EVENT_IOC_SET_FILTER's string */
	bool user_only, kernel_only;
	int cpu;                        /* -1: wherever the scheduler runs it */
	unsigned long aux_kb;
	const char *out;
	char **argv;                    /* PROG ARGS... */
};

/* The CPUs' hart IDs for the file's header. */
struct cpus {
	uint32_t n;
	uint32_t hart[TSBIREC_MAX_CPUS];
};

struct recorder {
	int fd;
	struct perf_event_mmap_page *pg;
	void *base;                     /* control page + data ring */
	size_t base_len;
	const uint8_t *data;
	uint64_t data_size, data_tail;
	const uint8_t *aux;
	uint64_t aux_size;
	FILE *out;
	const char *out_path;
	bool write_failed;
	uint8_t rec[MAX_RECORD];
	uint64_t records, aux_records, aux_bytes, truncated, lost, lost_samples;
};

/* ---- messages ----------------------------------------------------------- */

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "tsbi-record: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(tsbi-record -h for the usage)\n");
	return -1;
}

/* A failed system call: its name and errno. */
static int sys_error(const char *call, const char *what)
{
	int e = errno;

	fprintf(stderr, "tsbi-record: %s%s%s: %s (errno %d)\n", call, what ? " " : "", what ? what : "",
		strerror(e), e);
	errno = e;
	return -1;
}

/* ---- command line ------------------------------------------------------- */

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

static bool power_of_two(unsigned long v)
{
	return v && !(v & (v - 1));
}

static int parse_options(int argc, char **argv, struct options *o)
{
	unsigned long v;
	int opt;

	*o = (struct options){ .cpu = -1, .aux_kb = AUX_KB_DEFAULT };
	while ((opt = getopt(argc, argv, "+e:ukf:C:m:o:h")) != -1) {
		switch (opt) {
		case 'e':
			o->terms = optarg;
			break;
		case 'u':
			o->user_only = true;
			break;
		case 'k':
			o->kernel_only = true;
			break;
		case 'f':
			o->filters = optarg;
			break;
		case 'C':
			if (parse_ulong(optarg, CPU_SETSIZE - 1, &v))
				return usage_error("-C needs a CPU number 0..1023, not '%s'", optarg);
			o->cpu = (int)v;
			break;
		case 'm':
			if (parse_ulong(optarg, AUX_KB_MAX, &v) || v == 0)
				return usage_error("-m needs the AUX area's size in KiB, not '%s'", optarg);
			o->aux_kb = v;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		default:
			return usage_error("%s", "bad option or missing argument");
		}
	}
	if (o->user_only && o->kernel_only)
		return usage_error("%s", "give -u or -k, not both (neither traces both)");
	if (!o->out)
		return usage_error("%s", "needs -o FILE");
	if (optind >= argc)
		return usage_error("%s", "needs the program to run: -- PROG ARGS...");
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || (o->aux_kb * 1024) % (unsigned long)page ||
	    !power_of_two(o->aux_kb * 1024 / (unsigned long)page)) {
		char kb[24];

		snprintf(kb, sizeof(kb), "%lu", o->aux_kb);
		return usage_error("-m %s: the AUX area must be a power of two pages (4 KiB pages: "
				   "4, 8, 16, ... KiB)", kb);
	}
	o->argv = argv + optind;
	return 0;
}

/* ---- the PMU (sysfs) ------------------------------------------------------ */

/* Its sysfs directory; TSBI_RECORD_PMU_DIR puts another in its place (tests). */
static const char *pmu_dir(void)
{
	const char *dir = getenv("TSBI_RECORD_PMU_DIR");

	return dir && *dir ? dir : PMU_DIR;
}

/* A small sysfs file, NUL-terminated, trailing newline removed; -1 with errno. */
static int read_small_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int pmu_type(uint32_t *type)
{
	char path[512], text[64];
	unsigned long v;

	snprintf(path, sizeof(path), "%s/type", pmu_dir());
	if (read_small_file(path, text, sizeof(text))) {
		if (errno == ENOENT) {
			fprintf(stderr, "tsbi-record: no " TSBI_PMU_NAME " PMU (is the module loaded?)\n");
			return -1;
		}
		return sys_error("read", path);
	}
	if (parse_ulong(text, UINT32_MAX, &v)) {
		fprintf(stderr, "tsbi-record: %s: '%s' is not a PMU type number\n", path, text);
		return -1;
	}
	*type = (uint32_t)v;
	return 0;
}

/* A format attribute: "config:N" or "config:N-M" (config1, config2 too). */
struct format_field {
	unsigned word;                  /* 0 config, 1 config1, 2 config2 */
	unsigned lo, hi;
};

static int parse_format(const char *text, struct format_field *f)
{
	static const char *const words[] = { "config:", "config1:", "config2:" };
	unsigned long lo, hi;
	char *end;

	for (f->word = 0; f->word < 3; f->word++)
		if (strncmp(text, words[f->word], strlen(words[f->word])) == 0)
			break;
	if (f->word == 3)
		return -1;
	text += strlen(words[f->word]);
	if (*text < '0' || *text > '9')
		return -1;
	lo = hi = strtoul(text, &end, 10);
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return -1;
		hi = strtoul(end + 1, &end, 10);
	}
	if (*end || lo > hi || hi > 63)
		return -1;
	f->lo = (unsigned)lo;
	f->hi = (unsigned)hi;
	return 0;
}

/* The names in the PMU's format directory ("a, b, c"), for an unknown term. */
static void list_terms(char *buf, size_t size)
{
	char path[512];
	struct dirent *e;
	size_t n = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/format", pmu_dir());
	DIR *d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL && n < size) {
		if (e->d_name[0] != '.')
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", e->d_name);
	}
	closedir(d);
}

static bool term_name_ok(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!(*name == '_' || (*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		      (*name >= '0' && *name <= '9')))
			return false;
	return true;
}

/* One term, NAME or NAME=VALUE, into attr's config words. */
static int apply_term(char *term, struct perf_event_attr *attr)
{
	char *eq = strchr(term, '=');
	char path[512], text[64];
	unsigned long value = 1;
	struct format_field f;

	if (eq) {
		*eq = '\0';
		if (parse_ulong(eq + 1, ULONG_MAX, &value))
			return usage_error("-e: the value of '%s' is not a number", term);
	}
	if (!term_name_ok(term))
		return usage_error("-e: '%s' is not a term name", term);
	snprintf(path, sizeof(path), "%s/format/%s", pmu_dir(), term);
	if (read_small_file(path, text, sizeof(text))) {
		if (errno != ENOENT)
			return sys_error("read", path);
		char terms[256];

		list_terms(terms, sizeof(terms));
		fprintf(stderr, "tsbi-record: -e: the PMU has no term '%s' (its terms: %s)\n", term,
			terms);
		return -1;
	}
	if (parse_format(text, &f)) {
		fprintf(stderr, "tsbi-record: %s: '%s' is not config:N or config:N-M\n", path, text);
		return -1;
	}
	unsigned width = f.hi - f.lo + 1;
	uint64_t mask = width == 64 ? UINT64_MAX : (1ull << width) - 1;
	if (value > mask) {
		fprintf(stderr, "tsbi-record: -e: %s=%lu does not fit in %s (%u bits)\n", term, value,
			text, width);
		return -1;
	}
	__u64 *word = f.word == 0 ? &attr->config : f.word == 1 ? &attr->config1 : &attr->config2;
	*word = (*word & ~(mask << f.lo)) | (uint64_t)value << f.lo;
	return 0;
}

static int apply_terms(const char *terms, struct perf_event_attr *attr)
{
	char *copy = strdup(terms), *save = NULL;
	int rc = 0;

	if (!copy)
		return sys_error("strdup", NULL);
	for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save))
		rc = apply_term(t, attr);
	free(copy);
	return rc;
}

/* The event: the PMU on the child alone, off until its exec, with the
 * sideband a decoder needs (mappings with file names, comm, switches,
 * task events), each record with pid/tid, time and CPU. */
static int build_attr(const struct options *o, uint32_t type, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	if (o->terms && apply_terms(o->terms, attr))
		return -1;
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	attr->inherit = 0;
	attr->sample_id_all = 1;
	attr->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	attr->comm = 1;
	attr->comm_exec = 1;
	attr->mmap = 1;
	attr->mmap2 = 1;
	attr->context_switch = 1;
	attr->task = 1;
	attr->exclude_kernel = o->user_only;
	attr->exclude_user = o->kernel_only;
	return 0;
}

/* ---- the header ----------------------------------------------------------- */

/* Each CPU's hart ID: "processor : N" then "hart : H" in /proc/cpuinfo. */
static void read_harts(struct cpus *c)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	char line[256];
	long cpu = -1;

	c->n = conf > 0 ? (uint32_t)(conf < TSBIREC_MAX_CPUS ? conf : TSBIREC_MAX_CPUS) : 1;
	for (uint32_t i = 0; i < TSBIREC_MAX_CPUS; i++)
		c->hart[i] = TSBIREC_HART_UNKNOWN;
	FILE *f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		unsigned long v;

		if (!colon)
			continue;
		char *key_end = colon;
		while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t'))
			key_end--;
		*key_end = '\0';
		char *val = colon + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		val[strcspn(val, "\n")] = '\0';
		if (parse_ulong(val, UINT32_MAX - 1, &v))
			continue;
		if (strcmp(line, "processor") == 0) {
			cpu = v < TSBIREC_MAX_CPUS ? (long)v : -1;
			if (cpu >= 0 && (uint32_t)cpu >= c->n)
				c->n = (uint32_t)cpu + 1;
		} else if (strcmp(line, "hart") == 0 && cpu >= 0) {
			c->hart[cpu] = (uint32_t)v;
		}
	}
	fclose(f);
}

static void put(struct recorder *r, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, r->out) != n && !r->write_failed) {
		r->write_failed = true;
		sys_error("write", r->out_path);
	}
}

static void put_u32(struct recorder *r, uint32_t v)
{
	put(r, &v, sizeof(v));
}

static void put_padding(struct recorder *r, uint64_t n)
{
	static const uint8_t zeros[TSBIREC_ALIGN];

	put(r, zeros, (size_t)((TSBIREC_ALIGN - n % TSBIREC_ALIGN) % TSBIREC_ALIGN));
}

static void write_header(struct recorder *r, const struct perf_event_attr *attr,
			 const struct cpus *c)
{
	uint64_t used = TSBIREC_OFF_ATTR + attr->size + 4 + 4ull * c->n;
	uint64_t size = (used + TSBIREC_ALIGN - 1) / TSBIREC_ALIGN * TSBIREC_ALIGN;

	put(r, TSBIREC_MAGIC, TSBIREC_MAGIC_LEN);
	put_u32(r, (uint32_t)size);
	put_u32(r, TSBIREC_VERSION);
	put_u32(r, attr->size);
	put(r, attr, attr->size);
	put_u32(r, c->n);
	put(r, c->hart, 4ull * c->n);
	put_padding(r, used);
}

/* ---- the rings -------------------------------------------------------------- */

/* The event is still disabled (enable_on_exec): filters set now apply
 * from the program's first instruction. */
static int set_filters(int fd, const char *filters)
{
	if (!filters || ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filters) == 0)
		return 0;
	sys_error("ioctl PERF_EVENT_IOC_SET_FILTER", filters);
	fprintf(stderr, "tsbi-record: -f takes 'filter START/SIZE' or 'filter START/SIZE@FILE' "
		"items separated by ','; see " PMU_DIR "/nr_addr_filters\n");
	return -1;
}

static int open_event(struct perf_event_attr *attr, pid_t child, const char *filters, int *fd)
{
	*fd = (int)syscall(SYS_perf_event_open, attr, child, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (*fd >= 0) {
		if (set_filters(*fd, filters) == 0)
			return 0;
		close(*fd);
		*fd = -1;
		return -1;
	}
	bool denied = errno == EACCES || errno == EPERM;

	sys_error("perf_event_open", NULL);
	if (denied && !attr->exclude_kernel)
		fprintf(stderr, "tsbi-record: tracing the kernel needs root or "
			"kernel.perf_event_paranoid <= 1; -u traces user space only\n");
	return -1;
}

/* The control page and data ring, then the AUX area after them. */
static int map_rings(struct recorder *r, unsigned long aux_kb)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char what[64];

	r->base_len = (1 + DATA_PAGES) * page;
	r->base = mmap(NULL, r->base_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return sys_error("mmap", "of the data ring");
	}
	r->pg = r->base;
	r->data = (const uint8_t *)r->base + (r->pg->data_offset ? r->pg->data_offset : page);
	r->data_size = r->pg->data_size ? r->pg->data_size : DATA_PAGES * page;
	r->aux_size = aux_kb * 1024;
	r->pg->aux_offset = r->base_len;
	r->pg->aux_size = r->aux_size;
	void *aux = mmap(NULL, r->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
			 (off_t)r->pg->aux_offset);
	if (aux == MAP_FAILED) {
		int e = errno;

		snprintf(what, sizeof(what), "of the AUX area (%lu KiB%s)", aux_kb,
			 e == EPERM ? ", over kernel.perf_event_mlock_kb?" : "");
		errno = e;
		return sys_error("mmap", what);
	}
	r->aux = aux;
	return 0;
}

static void unmap_rings(struct recorder *r)
{
	if (r->aux)
		munmap((void *)r->aux, r->aux_size);
	if (r->base)
		munmap(r->base, r->base_len);
	r->aux = NULL;
	r->base = NULL;
}

/* n bytes at position pos (free-running) of a ring of size bytes. */
static void ring_copy(const uint8_t *ring, uint64_t size, uint64_t pos, void *dst, size_t n)
{
	uint64_t off = pos % size;
	size_t first = n < size - off ? n : (size_t)(size - off);

	memcpy(dst, ring + off, first);
	memcpy((uint8_t *)dst + first, ring, n - first);
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A PERF_RECORD_AUX and the bytes it names, then the AUX area is free up
 * to their end. */
static int save_aux(struct recorder *r, const uint8_t *rec, size_t size)
{
	if (size < TSBIREC_AUX_BODY) {
		fprintf(stderr, "tsbi-record: a PERF_RECORD_AUX of %zu bytes: too short\n", size);
		return -1;
	}
	uint64_t offset = get_u64(rec + 8), len = get_u64(rec + 16), flags = get_u64(rec + 24);
	if (len > r->aux_size) {
		fprintf(stderr, "tsbi-record: a PERF_RECORD_AUX of %" PRIu64 " bytes, more than the AUX "
			"area (%" PRIu64 ")\n", len, r->aux_size);
		return -1;
	}
	put(r, rec, size);
	uint64_t off = offset % r->aux_size;
	uint64_t first = len < r->aux_size - off ? len : r->aux_size - off;
	put(r, r->aux + off, (size_t)first);
	put(r, r->aux, (size_t)(len - first));
	put_padding(r, len);
	/* Our reads of the bytes are done before the kernel may reuse them. */
	__atomic_store_n(&r->pg->aux_tail, offset + len, __ATOMIC_RELEASE);
	r->aux_records++;
	r->aux_bytes += len;
	r->truncated += (flags & TSBIREC_AUX_TRUNCATED) != 0;
	return 0;
}

static int save_record(struct recorder *r, const uint8_t *rec, size_t size, uint32_t type)
{
	r->records++;
	if (type == PERF_RECORD_AUX)
		return save_aux(r, rec, size);
	if (type == PERF_RECORD_LOST && size >= TSBIREC_LOST_BODY)
		r->lost += get_u64(rec + 16);
	if (type == PERF_RECORD_LOST_SAMPLES && size >= TSBIREC_LOST_SAMPLES_BODY)
		r->lost_samples += get_u64(rec + 8);
	put(r, rec, size);
	return 0;
}

/* Every record the kernel has finished, then data_tail past them. */
static int drain(struct recorder *r)
{
	uint64_t head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->data_tail;
	int rc = 0;

	while (rc == 0 && tail != head) {
		struct perf_event_header h;

		if (head - tail < sizeof(h) || head - tail > r->data_size) {
			fprintf(stderr, "tsbi-record: data ring: head %" PRIu64 ", tail %" PRIu64
				": not a whole record\n", head, tail);
			return -1;
		}
		ring_copy(r->data, r->data_size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail) {
			fprintf(stderr, "tsbi-record: data ring: a record of %u bytes at %" PRIu64
				" (%" PRIu64 " bytes written)\n", h.size, tail, head - tail);
			return -1;
		}
		ring_copy(r->data, r->data_size, tail, r->rec, h.size);
		rc = save_record(r, r->rec, h.size, h.type);
		tail += h.size;
	}
	/* Our reads of the records are done before the kernel may reuse them. */
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
	r->data_tail = tail;
	return rc || r->write_failed ? -1 : 0;
}

/* ---- the child -------------------------------------------------------------- */

/* Forks PROG, blocked until *go gets a byte (closed without one: it exits
 * 127), pinned to o->cpu first. */
static int spawn(const struct options *o, pid_t *child, int *go)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return sys_error("pipe2", NULL);
	*child = fork();
	if (*child < 0) {
		close(fds[0]);
		close(fds[1]);
		return sys_error("fork", NULL);
	}
	if (*child == 0) {
		char c;
		ssize_t n;

		close(fds[1]);
		do
			n = read(fds[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);
		if (o->cpu >= 0) {
			cpu_set_t set;
			char cpu[24];

			CPU_ZERO(&set);
			CPU_SET(o->cpu, &set);
			snprintf(cpu, sizeof(cpu), "(CPU %d)", o->cpu);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				sys_error("sched_setaffinity", cpu);
				_exit(127);
			}
		}
		execvp(o->argv[0], o->argv);
		sys_error("execvp", o->argv[0]);
		_exit(127);
	}
	close(fds[0]);
	*go = fds[1];
	return 0;
}

static int release_child(int go)
{
	ssize_t n;

	do
		n = write(go, "g", 1);
	while (n < 0 && errno == EINTR);
	close(go);
	return n == 1 ? 0 : sys_error("write", "to the child's start pipe");
}

static int reap(pid_t child, int *status)
{
	while (waitpid(child, status, 0) < 0)
		if (errno != EINTR)
			return sys_error("waitpid", NULL);
	return 0;
}

/* Copies records until the child has exited; *status is its wait status. */
static int follow(struct recorder *r, pid_t child, int *status)
{
	for (;;) {
		struct pollfd p = { .fd = r->fd, .events = POLLIN };

		if (poll(&p, 1, POLL_MS) < 0 && errno != EINTR)
			return sys_error("poll", NULL);
		if (drain(r))
			return -1;
		pid_t w = waitpid(child, status, WNOHANG);
		if (w == child)
			return 0;
		if (w < 0 && errno != EINTR)
			return sys_error("waitpid", NULL);
	}
}

/* ---- the recording ------------------------------------------------------------ */

static void summary(const struct recorder *r, int status)
{
	char how[64];

	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(status));
	else
		snprintf(how, sizeof(how), "exited with status %d", WEXITSTATUS(status));
	fprintf(stderr, "tsbi-record: %s: %" PRIu64 " records, %" PRIu64 " AUX records with %" PRIu64
		" bytes (%" PRIu64 " truncated), %" PRIu64 " records lost, %" PRIu64 " samples lost; "
		"the program %s\n", r->out_path, r->records, r->aux_records, r->aux_bytes, r->truncated,
		r->lost, r->lost_samples, how);
}

static int exit_status(int status)
{
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* Opens the event on the waiting child, writes the header, maps the rings,
 * lets the child run and copies until it has exited.  -1 on an error
 * (reported); the child is then released or let go, and reaped. */
static int record(struct recorder *r, const struct options *o, struct perf_event_attr *attr,
		  const struct cpus *c, pid_t child, int go, int *status)
{
	int rc = open_event(attr, child, o->filters, &r->fd);

	if (rc == 0) {
		write_header(r, attr, c);
		rc = map_rings(r, o->aux_kb);
	}
	if (rc) {
		close(go);              /* the child exits 127 without running PROG */
		reap(child, status);
	} else if (release_child(go) || follow(r, child, status)) {
		rc = -1;
		close(r->fd);           /* the program goes on untraced */
		r->fd = -1;
		reap(child, status);
	} else {
		if (ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0))
			rc = sys_error("ioctl", "PERF_EVENT_IOC_DISABLE");
		if (drain(r))
			rc = -1;
	}
	unmap_rings(r);
	if (r->fd >= 0)
		close(r->fd);
	return rc;
}

int main(int argc, char **argv)
{
	static struct cpus cpus;
	static struct recorder r = { .fd = -1 };
	struct perf_event_attr attr;
	struct options o;
	uint32_t type = 0;
	pid_t child = -1;
	int go = -1, status = 0;

	if (parse_options(argc, argv, &o) || pmu_type(&type) || build_attr(&o, type, &attr))
		return EXIT_RECORDER;
	read_harts(&cpus);
	r.out_path = o.out;
	r.out = fopen(o.out, "wbe");
	if (!r.out) {
		sys_error("fopen", o.out);
		return EXIT_RECORDER;
	}
	setvbuf(r.out, NULL, _IOFBF, 1 << 20);
	if (spawn(&o, &child, &go)) {
		fclose(r.out);
		unlink(o.out);
		return EXIT_RECORDER;
	}
	/* ^C goes to the program; the recorder saves what it traced. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	int rc = record(&r, &o, &attr, &cpus, child, go, &status);
	if (fclose(r.out) && !r.write_failed) {
		sys_error("close", o.out);
		rc = -1;
	}
	if (rc || r.write_failed) {
		unlink(o.out);
		fprintf(stderr, "tsbi-record: no recording written\n");
		return EXIT_RECORDER;
	}
	summary(&r, status);
	return exit_status(status);
}
