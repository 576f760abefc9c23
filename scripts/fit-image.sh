#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A U-Boot SPL FIT image with tracesbi where OpenSBI's fw_dynamic goes:
#
#   scripts/fit-image.sh OUT.itb FIRMWARE.bin BOARD.dtb [UBOOT.bin]
#
# Images (the layout U-Boot SPL's RISC-V boot flow loads, doc/usage/fit):
#   firmware-1  tracesbi.bin, type firmware, os "opensbi": SPL loads it at
#               0x80000000 and enters it in M-mode with a0 = hartid,
#               a1 = the FDT, a2 = a fw_dynamic info block naming the next
#               stage (tracesbi reads that block as OpenSBI's fw_dynamic
#               does).
#   uboot-1     U-Boot proper (optional: UBOOT.bin), a loadable at
#               0x80200000, the S-mode stage tracesbi jumps to.
#   fdt-1       the board's DTB, which SPL passes on in a1.
# Then `dumpimage -l` lists the image into OUT.itb.txt, and the listing is
# checked: each image with its type, load and entry address.
#
# The addresses are where the firmware is linked (_fw_start of FW_ELF,
# FIRMWARE.bin's ELF by default) and 2 MiB above it; first
# tools/board-check (BOARD_CHECK, build/tools/board-check) refuses a board
# the firmware cannot serve there: no hart with S-mode, or no RAM at
# those addresses.
set -eu
out=${1:?usage: $0 OUT.itb FIRMWARE.bin BOARD.dtb [UBOOT.bin]}
fw=${2:?firmware binary}
dtb=${3:?board DTB}
uboot=${4:-}
FW_ELF=${FW_ELF:-${fw%.bin}.elf}
BOARD_CHECK=${BOARD_CHECK:-build/tools/board-check}

for f in "$fw" "$dtb" "$FW_ELF" "$BOARD_CHECK" ${uboot:+"$uboot"}; do
    [ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 1; }
done
fw_start=$(nm "$FW_ELF" | awk '$3 == "_fw_start" { print $1 }')
[ -n "$fw_start" ] || { echo "$0: $FW_ELF: no _fw_start symbol" >&2; exit 1; }
FW_ADDR=$(printf '0x%08x' $((16#$fw_start)))
UBOOT_ADDR=$(printf '0x%08x' $((16#$fw_start + 0x200000)))
if ! report=$("$BOARD_CHECK" --fw-base "$FW_ADDR" "$dtb"); then
    echo "$report" | grep 'cannot serve' >&2 || echo "$report" >&2
    echo "$0: no image for $(basename "$dtb" .dtb)" >&2
    exit 1
fi
its=${out%.itb}.its
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

# One image node: name description file type os address.
image_node() {
    cat <<ITS
		$1 {
			description = "$2";
			data = /incbin/("$(abs "$3")");
			type = "$4";
			os = "$5";
			arch = "riscv";
			compression = "none";
			load = <$6>;
			entry = <$6>;
		};
ITS
}

mkdir -p "$(dirname "$out")"
cat > "$its" <<ITS
/dts-v1/;

/ {
	description = "tracesbi firmware for $(basename "$dtb" .dtb)";
	#address-cells = <1>;

	images {
$(image_node firmware-1 tracesbi "$fw" firmware opensbi "$FW_ADDR")
$( [ -z "$uboot" ] || image_node uboot-1 "U-Boot proper (S-mode)" "$uboot" standalone u-boot "$UBOOT_ADDR")
		fdt-1 {
			description = "$(basename "$dtb")";
			data = /incbin/("$(abs "$dtb")");
			type = "flat_dt";
			arch = "riscv";
			compression = "none";
		};
	};

	configurations {
		default = "conf-1";
		conf-1 {
			description = "tracesbi$( [ -n "$uboot" ] && echo " + U-Boot")";
			firmware = "firmware-1";
$( [ -n "$uboot" ] && printf '\t\t\tloadables = "uboot-1";\n')
			fdt = "fdt-1";
		};
	};
};
ITS
mkimage -f "$its" "$out" >/dev/null
dumpimage -l "$out" > "$out.txt"

# The listing, image by image: "Image N (name)" then its fields.
field() {   # image-name field -> value
    awk -v img="$1" -v f="$2" '
        /^ (Image|Configuration) [0-9]+ \(/ { cur = $3; gsub(/[()]/, "", cur) }
        cur == img && index($0, f ":") { sub(/^[^:]*: */, ""); print; exit }' "$out.txt"
}
name=fit/$(basename "$out" .itb)
check() {   # what got expected
    if [ "$2" = "$3" ]; then echo "PASS: $name/$1"; else echo "FAIL: $name/$1: dumpimage lists '$2', expected '$3'"; bad=1; fi
}
bad=0
check firmware-type "$(field firmware-1 Type)" "Firmware"
check firmware-uncompressed "$(field firmware-1 Compression)" "uncompressed"
check firmware-os "$(field firmware-1 OS)" "RISC-V OpenSBI"
check firmware-load "$(field firmware-1 'Load Address')" "$FW_ADDR"
# dumpimage shows no entry point for a firmware image: read it from the FIT.
check firmware-entry "0x$(fdtget -t x "$out" /images/firmware-1 entry)" "$FW_ADDR"
check firmware-size "$(field firmware-1 'Data Size' | cut -d' ' -f1)" "$(stat -c %s "$fw")"
check fdt-type "$(field fdt-1 Type)" "Flat Device Tree"
check fdt-size "$(field fdt-1 'Data Size' | cut -d' ' -f1)" "$(stat -c %s "$dtb")"
if [ -n "$uboot" ]; then
    check uboot-type "$(field uboot-1 Type)" "Standalone Program"
    check uboot-load "$(field uboot-1 'Load Address')" "$UBOOT_ADDR"
fi
check default-config "$(sed -n 's/^ Default Configuration: *//p' "$out.txt" | tr -d "'")" "conf-1"
check config-firmware "$(field conf-1 Firmware)" "firmware-1"
check config-fdt "$(field conf-1 FDT)" "fdt-1"
[ -z "$uboot" ] || check config-loadables "$(field conf-1 Loadables)" "uboot-1"
exit $bad
