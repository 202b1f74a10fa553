# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# make stack: the worst-case stack of every public function on Cortex-M4 (mps2-an386; any board
# with STACK_BOARD=<b>, RISC-V too), from
# gcc's call graph of the library objects (-fcallgraph-info=su, see the board section), then
# checked at run time: examples/stack_probe paints the stack under QEMU and measures real
# calls. Both go into docs/stack.md.
#
#   make stack                       mps2-an386 -> docs/stack.md
#   make stack STACK_BOARD=microbit  another board -> $(B)/stack-microbit.md

STACK_BOARD ?= $(DEFAULT_BOARD)
STACK_DOC   ?= $(if $(filter $(STACK_BOARD),$(DEFAULT_BOARD)),docs/stack.md,$(B)/stack-$(STACK_BOARD).md)
STACK_DEPS  := python3 $(ARCH_ALL_DEPS)

.PHONY: stack stack-report

stack:
	@$(ENSURE) $(STACK_DEPS)
	@$(MAKE) --no-print-directory BOARD=$(STACK_BOARD) stack-report

ifdef BOARD
STACK_SMALL     := $(if $(filter small,$(DEMO_SCENE)),1,0)
STACK_PROBE_SRC := examples/stack_probe/main.c examples/warehouse/scene.c
STACK_PROBE_OBJ := $(STACK_PROBE_SRC:%.c=$(X_OUT)/stack_probe/%.o)
STACK_CPU        = $(patsubst -mcpu=%,%,$(patsubst -march=%,%,$(filter -mcpu=% -march=%,$(BOARD_CFLAGS))))
# the toolchain's own helpers (memset, __aeabi_dmul, ...) are costed from their disassembly
STACK_LIBS       = $(foreach f,$(shell $(X_CC) $(BOARD_CFLAGS) -print-libgcc-file-name) $(ARCH_LIBC_FILES),--lib $(f))

$(STACK_PROBE_OBJ): $(X_OUT)/stack_probe/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (stack probe)"
	$(Q)$(X_CC) $(X_APPFLAGS) -DDEMO_SMALL=$(STACK_SMALL) -c $< -o $@

$(X_OUT)/stack_probe.elf: $(STACK_PROBE_OBJ) $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -o $@ $^ $(X_LDLIBS)

stack-report: $(X_OUT)/libcopse.a $(X_OUT)/stack_probe.elf
	@mkdir -p $(dir $(STACK_DOC))
	@echo "== stack: $(BOARD) ($(STACK_CPU)), library at $(X_OPT)"
	@QEMU_TIMEOUT=120 tools/qemu-run $(BOARD) $(X_OUT)/stack_probe.elf > $(X_OUT)/stack_probe.out 2>&1 || \
	 { cat $(X_OUT)/stack_probe.out; echo "STACK PROBE FAILED on $(BOARD)"; exit 1; }
	@tools/stack-report $(X_LIB_OBJ:.o=.ci) $(STACK_LIBS) --tool-prefix $(ARCH_PREFIX) \
	  --title "Target: **$(STACK_CPU)** ($(BOARD)), $(X_CC) $(shell $(X_CC) -dumpfullversion)." \
	  --flags "$(BOARD_CFLAGS) $(X_OPT) $(FP_FLAGS) -ffreestanding -nostdinc -ffunction-sections -fdata-sections" \
	  --measured $(X_OUT)/stack_probe.out \
	  --measured-note "examples/stack_probe on QEMU $(QEMU_MACHINE), SysTick off: the stack is painted \
	with \`copse_port_stack_paint\`, one call runs on the warehouse scene of the demo (the build with the median and with the SAH split: the deeper counts), and \
	\`copse_port_stack_used\` finds the lowest word it touched. A measurement covers the path that input \
	took (e.g. the sphere test never reaches the triangle/box test that the static figure counts)." \
	  -o $(STACK_DOC)
endif
