# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# make stack: the worst-case stack of every public function on Cortex-M4 (mps2-an386), from
# gcc's call graph of the library objects (-fcallgraph-info=su, see the board section), then
# checked at run time: examples/stack_probe paints the stack under QEMU and measures real
# calls. Both go into docs/stack.md.
#
#   make stack                       mps2-an386 -> docs/stack.md
#   make stack STACK_BOARD=microbit  another board -> $(B)/stack-microbit.md

STACK_BOARD ?= $(DEFAULT_BOARD)
STACK_DOC   ?= $(if $(filter $(STACK_BOARD),$(DEFAULT_BOARD)),docs/stack.md,$(B)/stack-$(STACK_BOARD).md)
STACK_DEPS  := python3 gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm

.PHONY: stack stack-report

stack:
	@$(ENSURE) $(STACK_DEPS)
	@$(MAKE) --no-print-directory BOARD=$(STACK_BOARD) stack-report

ifdef BOARD
STACK_SMALL     := $(if $(filter $(BOARD),microbit),1,0)
STACK_PROBE_SRC := examples/stack_probe/main.c examples/warehouse/scene.c
STACK_PROBE_OBJ := $(STACK_PROBE_SRC:%.c=$(X_OUT)/stack_probe/%.o)
STACK_CPU        = $(patsubst -mcpu=%,%,$(filter -mcpu=%,$(BOARD_CFLAGS)))
# the toolchain's own helpers (memset, __aeabi_dmul, ...) are costed from their disassembly
STACK_LIBS       = $(foreach f,$(shell $(X_CC) $(BOARD_CFLAGS) -print-libgcc-file-name) \
                     $(shell $(X_CC) $(BOARD_CFLAGS) -print-file-name=libc_nano.a) \
                     $(shell $(X_CC) $(BOARD_CFLAGS) -print-file-name=libm.a),--lib $(f))

$(STACK_PROBE_OBJ): $(X_OUT)/stack_probe/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (stack probe)"
	@$(X_CC) $(X_APPFLAGS) -DDEMO_SMALL=$(STACK_SMALL) -c $< -o $@

$(X_OUT)/stack_probe.elf: $(STACK_PROBE_OBJ) $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	@$(X_CC) $(X_LDFLAGS) -o $@ $^ $(X_LDLIBS)

stack-report: $(X_OUT)/libcopse.a $(X_OUT)/stack_probe.elf
	@mkdir -p $(dir $(STACK_DOC))
	@echo "== stack: $(BOARD) ($(STACK_CPU)), library at $(X_OPT)"
	@QEMU_TIMEOUT=120 tools/qemu-run $(BOARD) $(X_OUT)/stack_probe.elf > $(X_OUT)/stack_probe.out 2>&1 || \
	 { cat $(X_OUT)/stack_probe.out; echo "STACK PROBE FAILED on $(BOARD)"; exit 1; }
	@tools/stack-report $(X_LIB_OBJ:.o=.ci) $(STACK_LIBS) \
	  --title "Target: **$(STACK_CPU)** ($(BOARD)), arm-none-eabi-gcc $(shell $(X_CC) -dumpfullversion)." \
	  --flags "$(BOARD_CFLAGS) $(X_OPT) $(FP_FLAGS) -ffreestanding -ffunction-sections -fdata-sections" \
	  --measured $(X_OUT)/stack_probe.out \
	  --measured-note "examples/stack_probe on QEMU $(QEMU_MACHINE), SysTick off: the stack is painted \
	with \`cortex_m_paint_stack\`, one call runs on the warehouse scene of the demo (the build with the median and with the SAH split: the deeper counts), and \
	\`cortex_m_stack_used\` finds the lowest word it touched. A measurement covers the path that input \
	took (e.g. the sphere test never reaches the triangle/box test that the static figure counts)." \
	  -o $(STACK_DOC)
endif
