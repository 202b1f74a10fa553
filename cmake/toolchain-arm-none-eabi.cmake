# SPDX-License-Identifier: MIT
# Cross toolchain for Arm Cortex-M with the GNU Arm toolchain (arm-none-eabi-gcc + newlib):
#   cmake -B build-fw -DCMAKE_TOOLCHAIN_FILE=<copse>/cmake/toolchain-arm-none-eabi.cmake \
#         -DCOPSE_CPU_FLAGS="-mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
# COPSE_CPU_FLAGS picks the core (default: Cortex-M4F, boards/mps2-an386/board.mk); use the
# BOARD_CFLAGS of boards/<b>/board.mk or your part's flags. They go to the compiler and the
# linker, so the library, your firmware and the C library agree on the float ABI.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(COPSE_CPU_FLAGS "-mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard"
    CACHE STRING "CPU flags for compiler and linker (boards/<b>/board.mk: BOARD_CFLAGS)")
# try_compile projects see the same flags.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES COPSE_CPU_FLAGS)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar CACHE FILEPATH "")
set(CMAKE_RANLIB arm-none-eabi-ranlib CACHE FILEPATH "")
# No OS to run a test program on: check the compiler by building a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_FLAGS_INIT "${COPSE_CPU_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${COPSE_CPU_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${COPSE_CPU_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${COPSE_CPU_FLAGS}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
