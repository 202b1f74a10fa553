# SPDX-License-Identifier: MIT
# ARM MPS2 AN505 (IoT Kit, SSE-200): Cortex-M33, single-precision FPU (hard float), TrustZone; the class of an
# nRF54, STM32U5 or RP2350. QEMU starts it Secure with the SAU off: we stay Secure (docs/boards.md).
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m33 -mfpu=fpv5-sp-d16 -mfloat-abi=hard
QEMU_MACHINE := mps2-an505
SYSTICK_HZ   := 20000000
ICOUNT_SHIFT := 7
