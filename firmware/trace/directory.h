/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The trace directory: a fixed-layout record in firmware memory that tells
 * a debugger or QEMU's monitor where every hart's emulated encoder and RAM
 * sink are, and where in them the values a decoder needs live, so that a
 * person can save any buffer, wrapped or not, while the machine runs
 * (docs/TRACE.md "Saving the buffers at any time"; scripts/trace-save.py).
 * The banner prints its address; the firmware ELF names it
 * `trace_directory`.
 */
#ifndef TRACE_DIRECTORY_H
#define TRACE_DIRECTORY_H

#include <stdint.h>
#include "firmware/core/hart.h"

#define TRACE_DIRECTORY_MAGIC   "TSBITRC"   /* 8 bytes with its NUL */
#define TRACE_DIRECTORY_VERSION 2

/*
 * Version 2, little-endian (version 1 had no next_addr: hart[] was at byte
 * 56).  Offsets are into the live structures the
 * per-hart addresses point at; the sizes are fixed: te_* fields uint32,
 * ram_control uint32, ram_start/limit/wp uint64, ram_wrap one byte (0/1),
 * ram_sram a uint64 address.  A sink in SMEM mode (trRamControl &
 * ram_mode_smem) writes [start, limit + 4) of physical memory and wp is a
 * physical address; in SRAM mode its buffer is the ram_sram address and
 * start, limit and wp are offsets into it.  The bytes from wp on (a
 * wrapped sink) are the oldest.
 */
struct trace_directory_hart {
	uint64_t hartid;
	uint64_t encoder;        /* address of its struct tci_encoder */
	uint64_t sink;           /* address of its struct tci_ramsink  */
};

struct trace_directory {
	char magic[8];
	uint32_t version;
	uint32_t harts;          /* entries of hart[] in use */
	uint64_t timebase_hz;    /* of trTsControl's timestamps (ts) */
	uint16_t te_control, te_features, te_tscontrol, te_ingress;
	uint16_t ram_control, ram_start, ram_limit, ram_wp, ram_wrap, ram_sram;
	uint32_t ram_mode_smem;
	uint32_t te_tscontrol_or; /* what trTsControl reads as besides the stored
				     bits (trTsWidth) */
	uint32_t reserved;       /* 0 */
	uint64_t next_addr;      /* where the boot hart entered S-mode (the
				    banner's "Next"): a kernel's load address
				    under QEMU -kernel, so a decoder can place
				    vmlinux's load image (tools/ntrace) */
	struct trace_directory_hart hart[MAX_HARTS];   /* at byte 64 */
};

extern struct trace_directory trace_directory;

/* Fill it in once the harts' trace state exists (trace_cold_init). */
void trace_directory_init(void);

#endif
