#!/usr/bin/env bash
# Builds the minimal Linux kernel of the boot test (build/linux/Image) from
# Debian's linux-source-6.1 tarball, with tests/linux/init.c as the only
# program of a built-in initramfs.
#
# Caching, so that repeated runs take a second:
#   build/linux/src/.unpacked   checksum of the tarball the tree came from;
#                               a different tarball means unpack again.
#   build/linux/obj/.configured checksum of tarball + config fragments; a
#                               change means configure again from tinyconfig.
#   build/linux/Image.key       checksum of everything the Image depends on
#                               (tarball, fragment, init source, this script,
#                               compilers); when it matches, nothing is run.
# A change to the init source alone only rebuilds the initramfs and relinks.
#
# Environment: BUILD (default build), JOBS (default 2), TARBALL, FRAGMENT.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
JOBS=${JOBS:-2}
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
FRAGMENT=${FRAGMENT:-tests/linux/tracesbi.config}
INIT_SRC=tests/linux/init.c
CROSS_LINUX=riscv64-linux-gnu-

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

for f in "$TARBALL" "$FRAGMENT" "$INIT_SRC"; do
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

image_key=$( {
    echo "$tarball_sum"
    sum_of "$FRAGMENT" "$INIT_SRC" "$0"
    ${CROSS_LINUX}gcc --version | head -n1
} | sha256sum | cut -d' ' -f1)
if [ -f "$dir/Image" ] && [ -f "$dir/Image.key" ] && [ "$(cat "$dir/Image.key")" = "$image_key" ]; then
    log "kernel up to date ($BUILD/linux/Image)"
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

# 2. Init program and the initramfs list (gen_init_cpio format, see
#    Documentation/filesystems/ramfs-rootfs-initramfs.rst).
mkdir -p "$initramfs_dir"
${CROSS_LINUX}gcc -std=gnu11 -static -O2 -Wall -Wextra -Werror -pthread \
    -o "$initramfs_dir/init" "$INIT_SRC"
cat >"$initramfs_dir/list.new" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $initramfs_dir/init 0755 0 0
EOF
# Rewrite the list only when it changed, so kbuild does not redo the cpio.
cmp -s "$initramfs_dir/list.new" "$initramfs_dir/list" ||
    mv "$initramfs_dir/list.new" "$initramfs_dir/list"
rm -f "$initramfs_dir/list.new"
cat >"$dir/initramfs.config" <<EOF
CONFIG_INITRAMFS_SOURCE="$initramfs_dir/list"
EOF

# 3. Configuration: tinyconfig + fragments, then check nothing was dropped.
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

# 4. Kernel.
log "building Image (-j$JOBS, log in $BUILD/linux/build.log)"
if ! kmake Image >"$dir/build.log" 2>&1; then
    tail -n 40 "$dir/build.log" >&2
    log "error: kernel build failed"
    exit 1
fi
cp "$obj/arch/riscv/boot/Image" "$dir/Image"
echo "$image_key" >"$dir/Image.key"
log "built $BUILD/linux/Image in $(( $(date +%s) - start )) s"
