# SPDX-License-Identifier: MIT
# ARM MPS2 AN385: Cortex-M3, no FPU (soft float)
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m3 -mfloat-abi=soft
QEMU_MACHINE := mps2-an385
SYSTICK_HZ   := 25000000
ICOUNT_SHIFT := 7
