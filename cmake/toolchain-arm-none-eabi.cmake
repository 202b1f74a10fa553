# SPDX-License-Identifier: MIT
# Cross toolchain for Arm Cortex-M with the GNU Arm toolchain (arm-none-eabi-gcc + newlib):
#   cmake -B build-fw -DCMAKE_TOOLCHAIN_FILE=<copse>/cmake/toolchain-arm-none-eabi.cmake \
#         -DCOPSE_CPU_FLAGS="-mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
# COPSE_CPU_FLAGS picks the core (default: Cortex-M4F, boards/mps2-an386/board.mk); use the
# BOARD_CFLAGS of boards/<b>/board.mk or your part's flags. They go to the compiler and the
# linker, so the library, your firmware and the C library agree on the float ABI.
set(CMAKE_SYSTEM_PROCESSOR arm)
set(COPSE_TOOL_PREFIX arm-none-eabi-)
set(COPSE_CPU_FLAGS_DEFAULT "-mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard")
include("${CMAKE_CURRENT_LIST_DIR}/toolchain-common.cmake")
