#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The firmware with its next stage in one image, as OpenSBI's fw_payload:
#
#   scripts/fw-payload.sh OUT.bin FIRMWARE.bin PAYLOAD OFFSET
#
# FIRMWARE.bin, zeros up to OFFSET, then PAYLOAD (a raw image: Linux's
# Image, U-Boot's u-boot.bin, a test kernel's objcopy -O binary).  OFFSET
# is where the firmware enters the next stage when no loader names one
# (FW_DEFAULT_NEXT - _fw_start, firmware/boot/init.c): load OUT.bin at the
# firmware's address (QEMU -bios OUT.bin, no -kernel) and it boots PAYLOAD.
set -eu
out=${1:?usage: $0 OUT.bin FIRMWARE.bin PAYLOAD OFFSET}
fw=${2:?firmware binary}
payload=${3:?payload image}
offset=$((${4:?offset}))

for f in "$fw" "$payload"; do
    [ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 1; }
done
case "$(head -c 4 "$payload" | od -An -tx1 | tr -d ' ')" in
7f454c46) echo "$0: $payload is an ELF file: give its raw image (objcopy -O binary)" >&2; exit 1 ;;
esac
fw_size=$(stat -c %s "$fw")
if [ "$fw_size" -gt "$offset" ]; then
    echo "$0: $fw is $fw_size bytes, past the payload's offset $offset" >&2
    exit 1
fi
mkdir -p "$(dirname "$out")"
cp "$fw" "$out.tmp"
truncate -s "$offset" "$out.tmp"
cat "$payload" >>"$out.tmp"
mv "$out.tmp" "$out"
