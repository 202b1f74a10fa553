# SPDX-License-Identifier: MIT
# Cross toolchain for RV32 with Debian's bare RISC-V toolchain (riscv64-unknown-elf-gcc, multilib)
# and picolibc (picolibc-riscv64-unknown-elf):
#   cmake -B build-fw -DCMAKE_TOOLCHAIN_FILE=<copse>/cmake/toolchain-riscv64-unknown-elf.cmake \
#         -DCOPSE_CPU_FLAGS="-march=rv32imafc -mabi=ilp32f -misa-spec=2.2 -mcmodel=medany"
# COPSE_CPU_FLAGS picks the core (default: RV32IMAC, boards/rv32imac/board.mk); use the BOARD_CFLAGS
# of boards/<b>/board.mk or your part's flags. They go to the compiler and the linker, so the
# library, your firmware and the C library's multilib agree on the ABI. copse itself needs no C
# library header; your firmware's code gets picolibc's with --specs=picolibc.specs.
set(CMAKE_SYSTEM_PROCESSOR riscv)
set(COPSE_TOOL_PREFIX riscv64-unknown-elf-)
set(COPSE_CPU_FLAGS_DEFAULT "-march=rv32imac -mabi=ilp32 -misa-spec=2.2 -mcmodel=medany")
set(COPSE_LIBC_FLAGS "--specs=picolibc.specs")
include("${CMAKE_CURRENT_LIST_DIR}/toolchain-common.cmake")
