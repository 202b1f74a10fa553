# SPDX-License-Identifier: MIT
# Netduino Plus 2 (STM32F405RG): Cortex-M4F at 168 MHz, hard float; the real chip's 1 MB of flash and
# 128 KB of SRAM, so the suite's scenes are the ones sized for a real part (test memory below 256 KB).
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard
QEMU_MACHINE := netduinoplus2
SYSTICK_HZ   := 168000000
# 168 MHz: 2^4 ns per instruction gives 2.7 SysTick ticks each (docs/boards.md: counting instructions)
ICOUNT_SHIFT := 4
