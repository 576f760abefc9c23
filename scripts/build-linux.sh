#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Builds the minimal Linux kernel of the boot test (build/linux/Image) from
# Debian's linux-source-6.1 tarball, with a built-in initramfs holding
# tests/linux/init.c (+ perf_tool.c) as /init, the perf checks' workload
# tests/linux/tsbi-spin.c and Linux's own perf tool (tools/perf of the same
# tree, cross-built statically with its optional libraries off) as
# /bin/perf.
#
# Caching, so that repeated runs take a second:
#   build/linux/src/.unpacked   checksum of the tarball the tree came from;
#                               a different tarball means unpack again.
#   build/linux/obj/.configured checksum of tarball + config fragments; a
#                               change means configure again from tinyconfig.
#   build/linux/Image.key       checksum of everything the Image depends on
#                               (tarball, fragment, init and workload
#                               sources, this script, compilers); when it
#                               matches, nothing is run.
#   $CACHE/Image-KEY, $CACHE/vmlinux-KEY, $CACHE/init-KEY, $CACHE/perf-KEY
#                               the same Image (and build/linux/vmlinux, its
#                               ELF with symbols, and initramfs/init, the
#                               /init it holds) and perf binary outside the
#                               clone (CACHE: $TRACESBI_CACHE, default
#                               ~/.cache/tracesbi/linux; TRACESBI_CACHE=none
#                               turns it off), so a fresh clone on the same
#                               machine copies them instead of building;
#                               the newest 3 of each are kept (also
#                               tracecpio-KEY and traced-KEY, below).
# A change to the init sources alone only rebuilds the initramfs and relinks.
#
# build/linux/trace-perf.cpio (cached as $CACHE/tracecpio-KEY): what the
# perf trace tests (tests/linux/trace-perf-test.py) add to the system as a
# second initramfs (QEMU -initrd): /lib/tracesbi_trace.ko (linux-trace/
# driver, built against this tree), /bin/tsbi-record (linux-trace/
# recorder) and /bin/tsbi-traced (tests/linux/tsbi-traced.c, the traced
# program, linked at 0x2000000000), and /bin/tsbi-pingpong
# (tests/linux/tsbi-pingpong.c, the context-switch workload of init's
# trace-bench mode, tests/linux/trace_bench.c).  Its key is the Image's and
# its sources.
#
# Environment: BUILD (default build), JOBS (default 2), TARBALL, FRAGMENT,
# TRACESBI_CACHE.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
FRAGMENT=${FRAGMENT:-tests/linux/tracesbi.config}
INIT_SRCS="tests/linux/init.c tests/linux/perf_tool.c tests/linux/trace_perf.c tests/linux/trace_bench.c"
INIT_HDRS=tests/linux/init.h
SPIN_SRC=tests/linux/tsbi-spin.c
TRACED_SRC=tests/linux/tsbi-traced.c
PINGPONG_SRC=tests/linux/tsbi-pingpong.c
# (step 6 fails on a clone without linux-trace/, not this listing)
TRACE_SRCS="$(find linux-trace -type f \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) 2>/dev/null | sort; true) $TRACED_SRC $PINGPONG_SRC"
CROSS_LINUX=riscv64-linux-gnu-
CACHE=${TRACESBI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracesbi/linux}
[ "$CACHE" = none ] && CACHE=

mkdir -p "$BUILD/linux"
# Absolute paths: the kernel's make runs in other directories.
dir=$(cd "$BUILD/linux" && pwd)
src=$dir/src
obj=$dir/obj
initramfs_dir=$dir/initramfs

# One build at a time: two suites may ask for the kernel concurrently.
exec 9>"$dir/.lock"
flock 9

log() { echo "build-linux: $*" >&2; }
sum_of() { cat "$@" | sha256sum | cut -d' ' -f1; }

for f in "$TARBALL" "$FRAGMENT" $INIT_SRCS $INIT_HDRS "$SPIN_SRC"; do
    [ -r "$f" ] || { log "error: cannot read $f"; exit 1; }
done
FRAGMENT=$(realpath "$FRAGMENT")

# The tarball is 130 MB; hash it once per size+mtime, not on every run.
tarball_id=$(stat -c '%s %Y' "$TARBALL")
if [ -f "$dir/.tarball-sum" ] && [ "$(head -n1 "$dir/.tarball-sum")" = "$tarball_id" ]; then
    tarball_sum=$(sed -n 2p "$dir/.tarball-sum")
else
    tarball_sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
    printf '%s\n%s\n' "$tarball_id" "$tarball_sum" >"$dir/.tarball-sum"
fi

compiler_id=$(${CROSS_LINUX}gcc --version | head -n1)
perf_key=$( { echo "$tarball_sum"; sum_of scripts/build-perf.sh; echo "$compiler_id"; } | sha256sum | cut -d' ' -f1)
image_key=$( {
    echo "$tarball_sum"
    sum_of "$FRAGMENT" $INIT_SRCS $INIT_HDRS "$SPIN_SRC" "$0" scripts/build-perf.sh
    echo "$compiler_id"
} | sha256sum | cut -d' ' -f1)
# shellcheck disable=SC2086 # TRACE_SRCS is a list of files
trace_key=$( { echo "$image_key"; sum_of $TRACE_SRCS; } | sha256sum | cut -d' ' -f1)
up_to_date() { [ -f "$dir/$1" ] && [ -f "$dir/$1.key" ] && [ "$(cat "$dir/$1.key")" = "$2" ]; }
if up_to_date Image "$image_key" && up_to_date trace-perf.cpio "$trace_key"; then
    log "kernel up to date ($BUILD/linux/Image)"
    exit 0
fi

# Keeps the newest 3 files of the cache matching a prefix.
prune_cache() {
    # shellcheck disable=SC2012 # cache file names have no odd characters
    ls -t "$CACHE/$1"-* 2>/dev/null | tail -n +4 | xargs -r rm -f
}
# Stores a built file in the cache (atomically: a concurrent reader sees
# the old file or the whole new one).
cache_store() {
    [ -n "$CACHE" ] || return 0
    mkdir -p "$CACHE" && cp "$1" "$CACHE/$2.tmp.$$" && mv "$CACHE/$2.tmp.$$" "$CACHE/$2" &&
        prune_cache "${2%%-*}" || log "note: could not store $2 in $CACHE"
}
# (init too: decoding a traced boot's user space needs the very ELF that
# the Image holds.)
if [ -n "$CACHE" ] && [ -f "$CACHE/Image-$image_key" ] && [ -f "$CACHE/vmlinux-$image_key" ] &&
    [ -f "$CACHE/init-$image_key" ] && [ -f "$CACHE/tracecpio-$trace_key" ] &&
    [ -f "$CACHE/traced-$trace_key" ]; then
    cp "$CACHE/Image-$image_key" "$dir/Image"
    cp "$CACHE/vmlinux-$image_key" "$dir/vmlinux"
    mkdir -p "$initramfs_dir"
    cp "$CACHE/init-$image_key" "$initramfs_dir/init"
    cp "$CACHE/tracecpio-$trace_key" "$dir/trace-perf.cpio"
    mkdir -p "$dir/trace-perf"
    cp "$CACHE/traced-$trace_key" "$dir/trace-perf/tsbi-traced"
    echo "$image_key" >"$dir/Image.key"
    echo "$trace_key" >"$dir/trace-perf.cpio.key"
    log "kernel copied from the cache ($CACHE/Image-$image_key, vmlinux and init)"
    exit 0
fi
start=$(date +%s)

# 1. Source tree.
if [ ! -f "$src/.unpacked" ] || [ "$(cat "$src/.unpacked")" != "$tarball_sum" ]; then
    log "unpacking $TARBALL"
    rm -rf "$src" "$obj"
    mkdir -p "$src"
    tar -xJf "$TARBALL" -C "$src" --strip-components=1
    echo "$tarball_sum" >"$src/.unpacked"
fi

kmake() {
    make -C "$src" O="$obj" ARCH=riscv CROSS_COMPILE=$CROSS_LINUX -j"$JOBS" "$@"
}

# 2. Linux's perf tool (scripts/build-perf.sh, cached by its own inputs).
perf_bin=$initramfs_dir/perf
mkdir -p "$initramfs_dir"
if [ -n "$CACHE" ] && [ -f "$CACHE/perf-$perf_key" ]; then
    cp "$CACHE/perf-$perf_key" "$perf_bin"
    log "perf tool copied from the cache"
elif [ ! -f "$perf_bin" ] || [ "$(cat "$perf_bin.key" 2>/dev/null)" != "$perf_key" ]; then
    log "building Linux's perf tool (log in $BUILD/linux/perf-build.log)"
    if ! JOBS=$JOBS scripts/build-perf.sh "$src" "$dir/perf-obj" "$perf_bin" >"$dir/perf-build.log" 2>&1; then
        tail -n 30 "$dir/perf-build.log" >&2
        log "error: perf tool build failed"
        exit 1
    fi
    echo "$perf_key" >"$perf_bin.key"
    cache_store "$perf_bin" "perf-$perf_key"
fi

# 3. Init program, workload and the initramfs list (gen_init_cpio format,
#    see Documentation/filesystems/ramfs-rootfs-initramfs.rst).
# shellcheck disable=SC2086 # INIT_SRCS is a list of files
${CROSS_LINUX}gcc -std=gnu11 -static -O2 -Wall -Wextra -Werror -pthread \
    -o "$initramfs_dir/init" $INIT_SRCS
${CROSS_LINUX}gcc -std=gnu11 -static -O2 -Wall -Wextra -Werror \
    -o "$initramfs_dir/tsbi-spin" "$SPIN_SRC"
cat >"$initramfs_dir/list.new" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
dir /tmp 1777 0 0
dir /bin 0755 0 0
file /init $initramfs_dir/init 0755 0 0
file /bin/tsbi-spin $initramfs_dir/tsbi-spin 0755 0 0
file /bin/perf $perf_bin 0755 0 0
EOF
# Rewrite the list only when it changed, so kbuild does not redo the cpio.
cmp -s "$initramfs_dir/list.new" "$initramfs_dir/list" ||
    mv "$initramfs_dir/list.new" "$initramfs_dir/list"
rm -f "$initramfs_dir/list.new"
cat >"$dir/initramfs.config" <<EOF
CONFIG_INITRAMFS_SOURCE="$initramfs_dir/list"
EOF

# 4. Configuration: tinyconfig + fragments, then check nothing was dropped.
config_key=$(sum_of "$FRAGMENT" "$dir/initramfs.config" | sed "s/^/$tarball_sum /")
if [ ! -f "$obj/.configured" ] || [ "$(cat "$obj/.configured")" != "$config_key" ]; then
    log "configuring (tinyconfig + $FRAGMENT)"
    mkdir -p "$obj"
    rm -f "$obj/.configured"
    kmake tinyconfig >"$dir/config.log" 2>&1 || { cat "$dir/config.log" >&2; exit 1; }
    (cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
        "$obj/.config" "$FRAGMENT" "$dir/initramfs.config") >>"$dir/config.log" 2>&1 ||
        { cat "$dir/config.log" >&2; exit 1; }
    kmake olddefconfig >>"$dir/config.log" 2>&1 || { cat "$dir/config.log" >&2; exit 1; }

    dropped=0
    while IFS= read -r line; do
        case "$line" in
        CONFIG_*=*)
            grep -qxF -- "$line" "$obj/.config" || {
                sym=${line%%=*}
                got=$(grep -E "^(# )?$sym[= ]" "$obj/.config" || echo "absent")
                log "error: $FRAGMENT wants '$line' but the configured kernel has '$got'"
                dropped=1
            } ;;
        "# CONFIG_"*" is not set")
            sym=${line#\# }
            sym=${sym%% *}
            ! grep -q "^$sym=" "$obj/.config" || {
                log "error: $FRAGMENT wants $sym unset but the configured kernel has '$(grep "^$sym=" "$obj/.config")'"
                dropped=1
            } ;;
        esac
    done < <(cat "$FRAGMENT" "$dir/initramfs.config")
    [ "$dropped" -eq 0 ] || { log "error: config fragment not applied (see above)"; exit 1; }
    echo "$config_key" >"$obj/.configured"
fi

# 5. Kernel.
log "building Image (-j$JOBS, log in $BUILD/linux/build.log)"
if ! kmake Image >"$dir/build.log" 2>&1; then
    tail -n 40 "$dir/build.log" >&2
    log "error: kernel build failed"
    exit 1
fi
cp "$obj/arch/riscv/boot/Image" "$dir/Image"
# The same kernel as an ELF with its symbols, for decoding its traces.
cp "$obj/vmlinux" "$dir/vmlinux"
echo "$image_key" >"$dir/Image.key"
cache_store "$dir/Image" "Image-$image_key"
cache_store "$dir/vmlinux" "vmlinux-$image_key"
cache_store "$initramfs_dir/init" "init-$image_key"

# 6. The perf trace tests' initramfs (see the top).  The module is built in
#    a copy of the folders it needs (its Kbuild includes lib/tci), so the
#    clone stays clean; `make modules` first writes this tree's
#    Module.symvers, which an external module links against.
tdir=$dir/trace-perf
rm -rf "$tdir"
mkdir -p "$tdir/linux-trace" "$tdir/lib"
cp -r linux-trace/driver "$tdir/linux-trace/driver"
cp -r lib/tci "$tdir/lib/tci"
if ! { kmake modules && kmake M="$tdir/linux-trace/driver" W=1 modules; } >"$dir/trace-module.log" 2>&1 ||
    grep -v '^make\[[0-9]*\]: warning: -j' "$dir/trace-module.log" | grep -q 'warning:'; then
    tail -n 30 "$dir/trace-module.log" >&2
    log "error: the trace PMU module did not build cleanly (log in $BUILD/linux/trace-module.log)"
    exit 1
fi
${CROSS_LINUX}gcc -std=gnu11 -static -O2 -Wall -Wextra -Werror -Ilinux-trace \
    -o "$tdir/tsbi-record" linux-trace/recorder/*.c
${CROSS_LINUX}gcc -std=gnu11 -static -nostdlib -ffreestanding -fno-tree-loop-distribute-patterns \
    -fno-pie -no-pie -mcmodel=medany -O2 -Wall -Wextra -Werror -Wl,-Ttext-segment=0x2000000000 \
    -o "$tdir/tsbi-traced" "$TRACED_SRC"
${CROSS_LINUX}gcc -std=gnu11 -static -O2 -Wall -Wextra -Werror \
    -o "$tdir/tsbi-pingpong" "$PINGPONG_SRC"
printf '%s\n' "dir /lib 0755 0 0" \
    "file /lib/tracesbi_trace.ko $tdir/linux-trace/driver/tracesbi_trace.ko 0644 0 0" \
    "file /bin/tsbi-record $tdir/tsbi-record 0755 0 0" \
    "file /bin/tsbi-traced $tdir/tsbi-traced 0755 0 0" \
    "file /bin/tsbi-pingpong $tdir/tsbi-pingpong 0755 0 0" >"$tdir/list"
"$obj/usr/gen_init_cpio" "$tdir/list" >"$dir/trace-perf.cpio"
echo "$trace_key" >"$dir/trace-perf.cpio.key"
cache_store "$dir/trace-perf.cpio" "tracecpio-$trace_key"
# (the host decodes and logs tsbi-traced with its ELF: cached with the cpio)
cache_store "$tdir/tsbi-traced" "traced-$trace_key"
log "built $BUILD/linux/Image in $(( $(date +%s) - start )) s"
