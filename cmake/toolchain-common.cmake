# SPDX-License-Identifier: MIT
# What the cross toolchain files share (cmake/toolchain-<triple>.cmake set COPSE_TOOL_PREFIX,
# COPSE_CPU_FLAGS_DEFAULT, CMAKE_SYSTEM_PROCESSOR and, where the C library needs it on the
# compiler's command line, COPSE_LIBC_FLAGS, then include this file).
set(CMAKE_SYSTEM_NAME Generic)

set(COPSE_CPU_FLAGS "${COPSE_CPU_FLAGS_DEFAULT}"
    CACHE STRING "CPU flags for compiler and linker (boards/<b>/board.mk: BOARD_CFLAGS)")
# try_compile projects see the same flags.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES COPSE_CPU_FLAGS)

set(CMAKE_C_COMPILER ${COPSE_TOOL_PREFIX}gcc)
set(CMAKE_CXX_COMPILER ${COPSE_TOOL_PREFIX}g++)
set(CMAKE_ASM_COMPILER ${COPSE_TOOL_PREFIX}gcc)
set(CMAKE_AR ${COPSE_TOOL_PREFIX}ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${COPSE_TOOL_PREFIX}ranlib CACHE FILEPATH "")
# No OS to run a test program on: check the compiler by building a static library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# The C flags reach the link too (a --specs given twice would be refused there).
set(CMAKE_C_FLAGS_INIT "${COPSE_CPU_FLAGS} ${COPSE_LIBC_FLAGS}")
set(CMAKE_CXX_FLAGS_INIT "${COPSE_CPU_FLAGS} ${COPSE_LIBC_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${COPSE_CPU_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${COPSE_CPU_FLAGS}")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
