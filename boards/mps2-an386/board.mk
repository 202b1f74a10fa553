# SPDX-License-Identifier: MIT
# ARM MPS2 AN386: Cortex-M4F, single-precision FPU (hard float)
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard
QEMU_MACHINE := mps2-an386
SYSTICK_HZ   := 25000000
ICOUNT_SHIFT := 7
