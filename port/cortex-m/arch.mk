# SPDX-License-Identifier: MIT
# Cortex-M (ARMv6-M .. ARMv8.1-M): the GNU Arm toolchain with newlib-nano, QEMU's Arm machines.
# Read by the Makefile after boards/<b>/board.mk (which names this architecture); the ARCH_
# names are what every build, report and check needs from an architecture.
ARCH_PREFIX    := arm-none-eabi-
ARCH_DEPS      := gcc-arm-none-eabi libnewlib-arm-none-eabi
ARCH_QEMU_DEPS := qemu-system-arm
QEMU_SYSTEM    := qemu-system-arm
# the tests, port and demo code: the C library's headers come with the toolchain
ARCH_APPFLAGS  := -DCOPSE_SYSTICK_HZ=$(SYSTICK_HZ)u $(if $(ICOUNT_SHIFT),-DCOPSE_ICOUNT_SHIFT=$(ICOUNT_SHIFT))
ARCH_LDFLAGS   := -nostartfiles --specs=nano.specs
ARCH_LDLIBS    := -Wl,--start-group -lc -lm -lgcc -Wl,--end-group
# the C library's archives, whose functions the stack report costs (mk/stack.mk; "=": asked there)
ARCH_LIBC_FILES = $(foreach a,libc_nano.a libm.a,$(shell $(X_CC) $(BOARD_CFLAGS) -print-file-name=$(a)))
# tools/check-core: the run-time helpers of the Arm EABI the core may call
ARCH_HELPERS   := __aeabi_\w+|__gnu_\w+
# mk/fma.mk: fused multiply-adds (VFMA, VFMS, VFNMA, VFNMS: one rounding, not the C's two). The
# chained VMLA, VMLS, VNMLA and VNMLS round the product before the add, exactly as a VMUL then a
# VADD do, so GCC emits them even under -ffp-contract=off (copse__collide_sat_pre has six in
# every M4F build) and they change no byte: they are not looked for.
ARCH_FMA_INSN  := \bvf(ma|ms|nma|nms)\.f
