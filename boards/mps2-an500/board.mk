# SPDX-License-Identifier: MIT
# ARM MPS2 AN500: Cortex-M7, double-precision FPU (hard float)
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard
QEMU_MACHINE := mps2-an500
SYSTICK_HZ   := 25000000
ICOUNT_SHIFT := 7
