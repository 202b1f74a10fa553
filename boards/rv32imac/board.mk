# SPDX-License-Identifier: MIT
# RISC-V RV32IMAC on QEMU virt (no FPU: soft float), the class of an ESP32-C3, a GD32VF103 or an RP2350's Hazard3
BOARD_ARCH   := riscv
BOARD_CFLAGS := -march=rv32imac -mabi=ilp32 -misa-spec=2.2 -mcmodel=medany
QEMU_MACHINE := virt
# minstret counts instructions under -icount shift=0 (docs/boards.md: counting instructions)
ICOUNT_SHIFT := 0
# the fault self-check's address: 0x3FFFFFF0 is PCIe configuration space here (reads all ones)
UNMAPPED_ADDRESS := 0x00000000
