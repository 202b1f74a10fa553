# SPDX-License-Identifier: MIT
# RISC-V RV32IMAFC on QEMU virt (single-precision FPU: hard float), the class of RV32 MCUs with an F extension
BOARD_ARCH   := riscv
BOARD_CFLAGS := -march=rv32imafc -mabi=ilp32f -misa-spec=2.2 -mcmodel=medany
QEMU_MACHINE := virt
ICOUNT_SHIFT := 0
# the fault self-check's address: 0x3FFFFFF0 is PCIe configuration space here (reads all ones)
UNMAPPED_ADDRESS := 0x00000000
