#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Debian packages tracesbi needs.  `deps.sh check` exits non-zero when one is
# missing; `deps.sh install` installs them (idempotent, needs root).
set -eu
PKGS="gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
qemu-system-misc opensbi u-boot-qemu gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
linux-source-6.1 libcmocka-dev libelf-dev device-tree-compiler gdb-multiarch
bc flex bison cpio xz-utils python3 clang libclang-rt-14-dev valgrind make gcc
cppcheck clang-tidy chromium u-boot-tools"
missing() {
    for p in $PKGS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
    done
}
case "${1:-check}" in
check)
    m=$(missing)
    [ -z "$m" ] && exit 0
    echo "missing packages:" $m >&2
    exit 1 ;;
install)
    m=$(missing)
    [ -z "$m" ] && exit 0
    SUDO=
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q --no-install-recommends $m ;;
*)
    echo "usage: $0 check|install" >&2; exit 2 ;;
esac
