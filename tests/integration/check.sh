#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh WORKDIR: every way of taking copse into a project (docs/integration.md), each built
# from scratch in WORKDIR and each one a line "ok   ..." or "FAIL ..."; then "N passed, M failed".
# Run by `make integration-check` (mk/integration.mk), which sets MAKE and B. Exit status: failures.
#   cmake-install    CMake configure, build and install of every module to a prefix
#   module-deps      each module's undefined symbols are defined by the modules CMake links it to
#   find-package     tests/integration/consumer by find_package(copse) against that prefix
#   pkg-config-cmake the consumer by `pkg-config --cflags --libs copse` from that prefix
#   make-install     `make install PREFIX=...` (no CMake), the consumer by pkg-config from it
#   add-subdirectory the consumer with copse's source tree by add_subdirectory
#   cross-firmware   examples/quickstart as firmware for mps2-an386 by CMake and the cross
#                    toolchain file, linking copse::bvh alone, run under QEMU, output compared
#   cross-firmware-riscv  the same for rv32imac (cmake/toolchain-riscv64-unknown-elf.cmake, picolibc)
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
w=$1
case $w in /*) ;; *) w=$root/$w ;; esac
MAKE=${MAKE:-make}
B=${B:-build}
jobs=$(nproc 2>/dev/null || echo 2)
consumer=$root/tests/integration/consumer
rm -rf "$w" && mkdir -p "$w" || exit 2
pass=0
fail=0

# step NAME WHAT COMMAND...: run COMMAND with its output in $w/NAME.out; on failure show its tail.
step() {
    name=$1 what=$2
    shift 2
    if "$@" > "$w/$name.out" 2>&1; then
        echo "ok   $name: $what"
        pass=$((pass + 1))
    else
        echo "FAIL $name: $what"
        tail -n 25 "$w/$name.out" | sed 's/^/     /'
        fail=$((fail + 1))
    fi
}

# The consumer's program must exit 0 and say what it found.
run_consumer() {
    "$1" && "$1" | grep -q '^consumer: hit triangle 1 at t=0.5, miss ok$'
}

cmake_install() {
    cmake -S "$root" -B "$w/cmake-build" -DCMAKE_INSTALL_PREFIX="$w/prefix-cmake" &&
        cmake --build "$w/cmake-build" -j "$jobs" &&
        cmake --install "$w/cmake-build" &&
        for f in include/copse/copse.h lib/libcopse_bvh.a lib/libcopse_robot.a lib/cmake/copse/copseConfig.cmake \
            lib/cmake/copse/copseConfigVersion.cmake lib/pkgconfig/copse.pc; do
            [ -f "$w/prefix-cmake/$f" ] || { echo "not installed: $f"; exit 1; }
        done
}

# For each module: the symbols it leaves undefined that another module defines must come from
# the modules it links (directly or through them), as listed in copse-modules.txt by CMake.
module_deps() {
    t=$w/cmake-build/copse-modules.txt
    [ -f "$t" ] || { echo "no $t"; return 1; }
    for m in $(cut -d: -f1 "$t"); do
        nm -g --defined-only "$w/cmake-build/libcopse_$m.a" | awk -v m="$m" 'NF == 3 { print $3, m }'
    done | sort -u > "$w/defs.txt"
    bad=0
    for m in $(cut -d: -f1 "$t"); do
        # the closure of the declared dependencies
        have=" $m " todo=$(sed -n "s/^$m://p" "$t")
        while [ -n "$(echo $todo)" ]; do
            set -- $todo
            d=$1
            shift
            todo=$*
            case $have in *" $d "*) continue ;; esac
            have="$have$d "
            todo="$todo $(sed -n "s/^$d://p" "$t")"
        done
        need=$(nm -u "$w/cmake-build/libcopse_$m.a" | awk 'NF == 2 { print $2 }' | sort -u | join - "$w/defs.txt" |
            awk -v m="$m" '$2 != m { print $2 }' | sort -u)
        for d in $need; do
            case $have in *" $d "*) ;; *) echo "$m calls into $d but does not link it"; bad=1 ;; esac
        done
        echo "$m: needs $(echo $need) | links$have"
    done
    return $bad
}

consumer_cmake() { # DIR ARGS...: configure and build the consumer, then run it
    d=$1
    shift
    cmake -S "$consumer" -B "$d" "$@" && cmake --build "$d" --target consumer -j "$jobs" && run_consumer "$d/consumer"
}

consumer_pc() { # PREFIX OUT: build main.c with pkg-config's flags for PREFIX's copse.pc
    flags=$(PKG_CONFIG_PATH="$1/lib/pkgconfig" pkg-config --cflags --libs copse) || return 1
    echo "pkg-config: $flags"
    # shellcheck disable=SC2086
    cc -std=c99 -Wall -Wextra -Werror -o "$2" "$consumer/main.c" $flags && run_consumer "$2"
}

make_install() {
    $MAKE --no-print-directory B="$B" install PREFIX="$w/prefix-make" &&
        [ -f "$w/prefix-make/lib/libcopse.a" ] && [ -f "$w/prefix-make/include/copse/bvh.h" ] &&
        consumer_pc "$w/prefix-make" "$w/consumer-make-pc"
}

cross_firmware() { # BOARD TOOLCHAIN: the board's default CPU flags are the toolchain file's
    board=$1
    fw=$w/firmware-$board
    cmake -S "$root/tests/integration/firmware" -B "$fw" -DCOPSE_BOARD="$board" \
        -DCMAKE_TOOLCHAIN_FILE="$root/cmake/$2" &&
        cmake --build "$fw" -j "$jobs" || return 1
    # copse::bvh alone: no other module's library is linked in
    libs=$(grep -o 'libcopse_[a-z]*\.a' "$fw/quickstart.map" | sort -u | tr '\n' ' ')
    echo "linked: $libs"
    [ "$libs" = "libcopse_blob.a libcopse_bvh.a libcopse_core.a libcopse_geom.a " ] || { echo "unexpected libraries"; return 1; }
    QEMU_TIMEOUT=60 tools/qemu-run $board "$fw/quickstart.elf" > "$fw/out.txt" 2>&1
    rc=$?
    cat "$fw/out.txt"
    [ $rc -eq 0 ] && diff -u examples/quickstart/expected.txt "$fw/out.txt"
}

step cmake-install "CMake configure, build, install to a prefix" cmake_install
step module-deps "each module links every module whose symbols it uses" module_deps
step find-package "consumer by find_package(copse) from the CMake install" \
    consumer_cmake "$w/consumer-find" -DCMAKE_PREFIX_PATH="$w/prefix-cmake"
step pkg-config-cmake "consumer by pkg-config from the CMake install" consumer_pc "$w/prefix-cmake" "$w/consumer-cmake-pc"
step make-install "make install PREFIX=... and the consumer by pkg-config from it" make_install
step add-subdirectory "consumer by add_subdirectory of the source tree" \
    consumer_cmake "$w/consumer-sub" -DCOPSE_SOURCE_DIR="$root"
step cross-firmware "examples/quickstart by CMake for mps2-an386 (copse::bvh alone) under QEMU, output as expected.txt" \
    cross_firmware mps2-an386 toolchain-arm-none-eabi.cmake
step cross-firmware-riscv "examples/quickstart by CMake for rv32imac (copse::bvh alone, picolibc) under QEMU, output as expected.txt" \
    cross_firmware rv32imac toolchain-riscv64-unknown-elf.cmake
echo "$pass passed, $fail failed"
exit $fail
