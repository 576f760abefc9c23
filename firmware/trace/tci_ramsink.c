// SPDX-License-Identifier: BSD-2-Clause
/*
 * The emulated RAM sink (see tci_ramsink.h and docs/TRACE.md).
 *
 * Choices where the TCI leaves room:
 *  - Both modes exist (trRamHasSRAM = trRamHasSMEM = 1); trRamMode resets
 *    to SRAM.  SRAM: Start fixed at 0, Limit at most the buffer size - 4
 *    (trimmable), RP and Data implemented.  SMEM: RP and Data are not
 *    ("Not implemented" in the typical SMEM configuration), so tools read
 *    the buffer from memory.
 *  - Start, Limit and WP are clamped to the S-mode RAM bounds on writes
 *    (WARL: writing 0 / all-ones reads back the lowest / highest legal
 *    value, as the TCI's range detection expects); an SMEM buffer that is
 *    not wholly S-mode RAM (a hole, firmware memory), or a WP outside
 *    [Start, Limit], is refused when trRamEnable is set: it stays 0.
 *  - Start/Limit/WP writes while the sink is enabled are ignored.
 *  - The sink stores whole messages only.  With stop-on-wrap, a message
 *    that does not fit is dropped (the encoder reports the overflow), the
 *    rest of the buffer is filled with idle bytes and WP wraps to Start, so
 *    the buffer read from WP on is complete.
 *  - Trace words are 32 bits: WP moves by bytes inside the sink, the
 *    register shows the last whole word; disabling pads the last word with
 *    idle bytes (N-Trace: MSEO = 11, "any number of idle bytes between
 *    messages").
 */
#include <string.h>
#include "firmware/trace/tci_ramsink.h"

#define RAM_IMPL (1u | 0u << 4 | TRCOMP_RAMSINK << 8 | TRRAM_HAS_SRAM | TRRAM_HAS_SMEM)
#define IDLE_BYTE 0xFFu
/* N-Trace: MSEO = 11 ends a message (and is the idle byte). */
#define MSEO_END 0x3u

void tci_ramsink_init(struct tci_ramsink *s, uint8_t *sram, uint32_t sram_size,
		      const struct tci_ramsink_env *env)
{
	*s = (struct tci_ramsink){ .sram = sram, .sram_size = sram_size, .env = env };
}

static bool smem(const struct tci_ramsink *s)
{
	return s->control & TRRAM_MODE_SMEM;
}

static uint64_t buffer_size(const struct tci_ramsink *s)
{
	return s->limit + TRRAM_ADDR_ALIGN - s->start;
}

static void store(struct tci_ramsink *s, uint64_t addr, const uint8_t *data, size_t len)
{
	if (smem(s))
		s->env->write(addr, data, len);
	else
		memcpy(s->sram + addr, data, len);
}

static void store_idle(struct tci_ramsink *s, uint64_t addr, size_t len)
{
	uint8_t idle[16];

	memset(idle, IDLE_BYTE, sizeof(idle));
	while (len) {
		size_t n = len < sizeof(idle) ? len : sizeof(idle);

		store(s, addr, idle, n);
		addr += n;
		len -= n;
	}
}

/* Write position advanced by n bytes; true when it wrapped to Start. */
static bool advance(struct tci_ramsink *s, uint64_t n)
{
	s->wp += n;
	if (s->wp != s->start + buffer_size(s))
		return false;
	s->wp = s->start;
	s->wrap = true;
	return true;
}

/* Bytes of the complete messages among the first `room` bytes. */
static size_t whole_messages(const uint8_t *data, size_t room)
{
	while (room && (data[room - 1] & MSEO_END) != MSEO_END)
		room--;
	return room;
}

int tci_ramsink_put(struct tci_ramsink *s, const uint8_t *data, size_t len)
{
	bool wrapped;

	if (!tci_ramsink_enabled(s))
		return -1;
	while (len) {
		uint64_t room = s->start + buffer_size(s) - s->wp;
		size_t n = len < room ? len : (size_t)room;

		if ((s->control & TRRAM_STOP_ON_WRAP) && len > room) {
			/* Full: keep whole messages, idle to the end, stop. */
			n = whole_messages(data, (size_t)room);
			store(s, s->wp, data, n);
			store_idle(s, s->wp + n, (size_t)room - n);
			advance(s, room);
			s->control &= ~TRRAM_ENABLE;
			return -1;
		}
		store(s, s->wp, data, n);
		wrapped = advance(s, n);
		data += n;
		len -= n;
		if ((s->control & TRRAM_STOP_ON_WRAP) && wrapped) {
			/* "Disable storing trace to RAM (trRamEnable -> 0) when
			 * the circular buffer gets full." */
			s->control &= ~TRRAM_ENABLE;
			return len ? -1 : 0;
		}
	}
	return 0;
}

/* Disabling flushes: the last trace word is completed with idle bytes. */
static void flush(struct tci_ramsink *s)
{
	size_t pad = (size_t)(-s->wp & (TRRAM_ADDR_ALIGN - 1));

	while (pad--) {
		uint8_t idle = IDLE_BYTE;

		store(s, s->wp, &idle, 1);
		advance(s, 1);
	}
}

static void mode_defaults(struct tci_ramsink *s)
{
	if (smem(s)) {
		s->start = s->limit = s->wp = s->env->addr_min;
	} else {
		s->start = 0;
		s->limit = s->sram_size - TRRAM_ADDR_ALIGN;
		s->wp = 0;
	}
	s->rp = 0;
	s->wrap = false;
}

/* The buffer trRamEnable = 1 would write: Start <= WP <= Limit, and in
 * SMEM mode all of it S-mode RAM. */
static bool buffer_ok(const struct tci_ramsink *s)
{
	if (s->start > s->limit || s->wp < s->start || s->wp > s->limit)
		return false;
	return !smem(s) || s->env->range_ok(s->start, buffer_size(s));
}

static uint32_t write_control(struct tci_ramsink *s, uint32_t val)
{
	bool was = tci_ramsink_enabled(s);

	if (!(val & TRRAM_ACTIVE)) {
		if (was)
			flush(s);
		s->control = 0;
		return was ? RAM_FX_DISABLED : 0;
	}
	if (!(s->control & TRRAM_ACTIVE)) {
		/* Release from reset: defaults (SRAM mode, whole buffer). */
		s->control = TRRAM_ACTIVE;
		mode_defaults(s);
		return 0;
	}
	if (was) {
		/* Enabled: only Enable and StopOnWrap can change. */
		s->control = (s->control & ~TRRAM_STOP_ON_WRAP) | (val & TRRAM_STOP_ON_WRAP);
		if (!(val & TRRAM_ENABLE)) {
			flush(s);
			s->control &= ~TRRAM_ENABLE;
			return RAM_FX_DISABLED;
		}
		return 0;
	}
	if ((val ^ s->control) & TRRAM_MODE_SMEM) {
		s->control ^= TRRAM_MODE_SMEM;
		mode_defaults(s);
	}
	s->control = (s->control & (TRRAM_ACTIVE | TRRAM_MODE_SMEM)) | (val & TRRAM_STOP_ON_WRAP);
	/* "Enabling trace CANNOT change any of trRamStart/Limit/WP/RP". */
	if ((val & TRRAM_ENABLE) && buffer_ok(s)) {
		s->control |= TRRAM_ENABLE;
		return RAM_FX_ENABLED;
	}
	return 0;
}

static uint64_t with_half(uint64_t v, bool high, uint32_t val)
{
	return high ? (v & 0xFFFFFFFFull) | (uint64_t)val << 32 : (v & ~0xFFFFFFFFull) | val;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	v &= ~(uint64_t)(TRRAM_ADDR_ALIGN - 1);
	return v < lo ? lo : v > hi ? hi : v;
}

/* Start, Limit, WP: SMEM values within the S-mode RAM bounds; SRAM: Start
 * is 0 and the others within the buffer. */
static void write_address(struct tci_ramsink *s, uint32_t off, uint32_t val)
{
	bool high = off & 4;
	uint64_t lo = smem(s) ? s->env->addr_min : 0;
	uint64_t hi = smem(s) ? s->env->addr_max : s->sram_size - TRRAM_ADDR_ALIGN;

	switch (off & ~4u) {
	case TRRAM_START_LOW:
		if (smem(s))
			s->start = clamp(with_half(s->start, high, val), lo, hi);
		break;
	case TRRAM_LIMIT_LOW:
		s->limit = clamp(with_half(s->limit, high, val), lo, hi);
		break;
	case TRRAM_WP_LOW:
		/* trRamWrap "is only set to 0 if trRamWPLow is written". */
		if (!high)
			s->wrap = val & TRRAM_WP_WRAP;
		/* SRAM: within the (possibly trimmed) buffer. */
		s->wp = clamp(with_half(s->wp, high, val), lo, smem(s) ? hi : s->limit);
		break;
	default:
		break;
	}
}

static uint32_t read_data(struct tci_ramsink *s)
{
	uint32_t w;

	if (smem(s))
		return 0;
	memcpy(&w, s->sram + s->rp, sizeof(w));
	/* "After a trace word read occurs while trRamRP = trRamLimit,
	 * trRamRP is set to trRamStart." */
	s->rp = s->rp >= s->limit ? s->start : s->rp + TRRAM_ADDR_ALIGN;
	return w;
}

static uint32_t half(uint64_t v, uint32_t off)
{
	return (uint32_t)(off & 4 ? v >> 32 : v);
}

uint32_t tci_ramsink_read(struct tci_ramsink *s, uint32_t off)
{
	bool empty = (s->wp & (TRRAM_ADDR_ALIGN - 1)) == 0;

	if (off == TRRAM_CONTROL)
		return s->control | (empty ? TRRAM_EMPTY : 0);
	if (off == TRRAM_IMPL)
		return RAM_IMPL;
	if (!(s->control & TRRAM_ACTIVE))
		return 0;
	switch (off) {
	case TRRAM_START_LOW:
	case TRRAM_START_HIGH:
		return half(s->start, off);
	case TRRAM_LIMIT_LOW:
	case TRRAM_LIMIT_HIGH:
		return half(s->limit, off);
	case TRRAM_WP_LOW:
		return (uint32_t)(s->wp & ~(uint64_t)(TRRAM_ADDR_ALIGN - 1)) | (s->wrap ? TRRAM_WP_WRAP : 0);
	case TRRAM_WP_HIGH:
		return half(s->wp, off);
	case TRRAM_RP_LOW:
	case TRRAM_RP_HIGH:
		return smem(s) ? 0 : half(s->rp, off);
	case TRRAM_DATA:
		return read_data(s);
	default:
		return 0;
	}
}

uint32_t tci_ramsink_write(struct tci_ramsink *s, uint32_t off, uint32_t val)
{
	if (off == TRRAM_CONTROL)
		return write_control(s, val);
	if (!(s->control & TRRAM_ACTIVE))
		return 0;
	switch (off) {
	case TRRAM_START_LOW:
	case TRRAM_START_HIGH:
	case TRRAM_LIMIT_LOW:
	case TRRAM_LIMIT_HIGH:
	case TRRAM_WP_LOW:
	case TRRAM_WP_HIGH:
		/* "After trace is enabled ... should NOT write any of
		 * trRamStart/Limit/WP": ignored while enabled. */
		if (!tci_ramsink_enabled(s))
			write_address(s, off, val);
		break;
	case TRRAM_RP_LOW:
		if (!smem(s))
			s->rp = clamp(val, 0, s->limit);
		break;
	default:
		/* trRamRPHigh (SRAM < 4 GiB), trRamData writes: not implemented. */
		break;
	}
	return 0;
}
