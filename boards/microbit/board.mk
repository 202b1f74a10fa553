# SPDX-License-Identifier: MIT
# BBC micro:bit (nRF51822): Cortex-M0, 256 KB flash, 16 KB RAM
BOARD_ARCH   := cortex-m
BOARD_CFLAGS := -mthumb -mcpu=cortex-m0 -mfloat-abi=soft
QEMU_MACHINE := microbit
SYSTICK_HZ   := 16000000
ICOUNT_SHIFT := 7
# 256 KB of flash: the tests are built for size ...
X_APP_OPT    := -Os
# ... and even so, one image no longer fits: one per part of tests/suites.h.
TEST_PARTS   := 1 2 3 4 5 6 7 8 9 10 11
# 16 KB of RAM: the demos' small scene and cell (DEMO_SMALL=1)
DEMO_SCENE   := small
