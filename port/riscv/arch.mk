# SPDX-License-Identifier: MIT
# RISC-V (RV32): Debian's bare riscv64-unknown-elf toolchain (multilib, rv32 included), which has
# no C library of its own, with Debian's picolibc; QEMU's riscv32 machines (docs/boards.md).
# Read by the Makefile after boards/<b>/board.mk; the ARCH_ names are port/cortex-m/arch.mk's.
ARCH_PREFIX    := riscv64-unknown-elf-
ARCH_DEPS      := gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
ARCH_QEMU_DEPS := qemu-system-misc
QEMU_SYSTEM    := qemu-system-riscv32
# no firmware: QEMU jumps straight to the ELF's entry (OpenSBI is not installed, nor wanted)
QEMU_FLAGS     := -bios none
# the tests, port and demo code see picolibc's headers; the core sees none (the Makefile's -nostdinc)
ARCH_APPFLAGS  := --specs=picolibc.specs
# our start-up and link script, not picolibc's crt0 and picolibc.ld
ARCH_LDFLAGS   := --specs=picolibc.specs -nostartfiles
ARCH_LDLIBS    := -Wl,--start-group -lc -lm -lgcc -Wl,--end-group
# picolibc's archives for the board's multilib (mk/stack.mk; "=": asked there)
ARCH_LIBC_FILES = $(addprefix /usr/lib/picolibc/riscv64-unknown-elf/lib/$(shell $(X_CC) $(BOARD_CFLAGS) \
                    -print-multi-directory)/,libc.a libm.a)
# tools/check-core: the out-of-line prologues of -msave-restore (libgcc's generic helpers are allowed anyway)
ARCH_HELPERS   := __riscv_(save|restore)_\d+
# mk/fma.mk: fused multiply-adds (F and D extensions)
ARCH_FMA_INSN  := \bf(n)?m(add|sub)\.[sd]
