# SPDX-License-Identifier: MIT
# RISC-V RV32IMAFC on QEMU virt (single-precision FPU: hard float), the class of RV32 MCUs with an F extension
BOARD_ARCH   := riscv
BOARD_CFLAGS := -march=rv32imafc -mabi=ilp32f -misa-spec=2.2 -mcmodel=medany
QEMU_MACHINE := virt
ICOUNT_SHIFT := 0
# the fault self-check's address: 0x3FFFFFF0 is PCIe configuration space here (reads all ones)
UNMAPPED_ADDRESS := 0x00000000
# The tests' double arithmetic is libgcc's, which writes fflags: under QEMU each write ends a
# translation block, so the robot oracle's scene is the small one here (tests/test_robot_check.c),
# and the suites run one image per part (tests/suites.h), each under the CPU time limit.
BOARD_APPFLAGS := -DCOPSE_TEST_SLOW_DOUBLE
TEST_PARTS   := 1 2 3 4 5 6 7 8 9 10 11
