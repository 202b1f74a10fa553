# SPDX-License-Identifier: MIT
# ARM MPS3 AN547 (SSE-300): Cortex-M55 with its FPU (single and double precision) and the M-profile vector
# extension (Helium), hard float. QEMU starts it Secure (VTOR_S = 0): code in the ITCM, data in the DTCM.
BOARD_ARCH   := cortex-m
# -fno-if-conversion2: GCC 12.2 predicates a VFP convert in an IT block (`vcvtne.f32.u32`, at -Os in
# src/robot/robot_motion.c) that binutils 2.40 reads as an MVE instruction and refuses
BOARD_CFLAGS := -mthumb -mcpu=cortex-m55 -mfloat-abi=hard -fno-if-conversion2
QEMU_MACHINE := mps3-an547
SYSTICK_HZ   := 32000000
ICOUNT_SHIFT := 7
# 512 KB of ITCM: one test image per part of tests/suites.h, as on the micro:bit.
TEST_PARTS   := 1 2 3 4 5 6 7 8 9 10 11
