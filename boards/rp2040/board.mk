# SPDX-License-Identifier: MIT
# Raspberry Pi RP2040 (Pico): Cortex-M0+, 2 MB of QSPI flash, 264 KB of SRAM. Build-only: QEMU 7.2
# has no RP2040 machine, so make test builds and links its images (no QEMU_MACHINE) but runs none.
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m0plus -mfloat-abi=soft
SYSTICK_HZ   := 125000000
