#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Linux's perf tool for the boot test's initramfs (scripts/build-linux.sh,
# which caches it by this script's checksum): tools/perf of the unpacked
# linux-source-6.1 tree, cross-built statically for riscv64 with its
# optional libraries off.  Without libelf, perf report names user code by
# its file and kernel code from /proc/kallsyms.  Only the perf binary: the
# rest of "all" (the dlfilter shared objects) cannot link -static.
#
#   build-perf.sh SRC_TREE OBJ_DIR OUT    (JOBS: parallel jobs, default 2)
set -euo pipefail
src=$1 obj=$2 out=$3
mkdir -p "$obj"
make -C "$src/tools/perf" O="$obj" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- \
    LDFLAGS=-static WERROR=0 NO_LIBELF=1 NO_LIBPERL=1 NO_LIBPYTHON=1 NO_SLANG=1 \
    NO_GTK2=1 NO_LIBUNWIND=1 NO_LIBDW_DWARF_UNWIND=1 NO_LIBNUMA=1 NO_LIBAUDIT=1 \
    NO_LIBCRYPTO=1 NO_LIBZSTD=1 NO_LIBCAP=1 NO_LIBBPF=1 NO_JVMTI=1 NO_SDT=1 NO_LZMA=1 \
    NO_ZLIB=1 NO_BACKTRACE=1 NO_LIBBABELTRACE=1 NO_DEMANGLE=1 NO_LIBTRACEEVENT=1 \
    -j"${JOBS:-2}" "$obj/perf"
riscv64-linux-gnu-strip -o "$out" "$obj/perf"
