# ---------------------------------------------------------------------------------------------
# make demo: the warehouse demo (examples/warehouse) as firmware under QEMU -icount and as a
# host program, with every answer line compared. Lines starting with '#' are machine-specific
# (board name, instruction counts or nanoseconds) and are left out of the comparison.
#
#   make demo                        mps2-an386 (Cortex-M4F), the full warehouse
#   make demo DEMO_BOARD=microbit    Cortex-M0 with 16 KB RAM: the small warehouse (DEMO_SMALL=1)
#   make demo CONFIG=asan-ubsan      the host side under ASan + UBSan
#
# The scene is also baked on the host: a small host program (examples/warehouse/host) writes it
# as binary STL, `copse bake` (mk/tool.mk) turns that into warehouse_tree.c/.h (the BVH blob and
# the mesh as const arrays), and both the firmware and the host program link them: the demo
# views that tree in flash and checks it against the one it builds at run time.
#
# `make BOARD=<b>` also builds $(B)/<b>/copse_demo.elf.

DEMO_BOARD        ?= $(DEFAULT_BOARD)
DEMO_SMALL_BOARDS := microbit
DEMO_SRC          := $(sort $(wildcard examples/warehouse/*.c))
DEMO_DEPS         := gcc make gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm libassimp-dev
DEMO_OUT          := $(B)/demo
# Leaf sizes of the baked trees: LEAF in examples/warehouse/main.c (the demo fails if they differ).
DEMO_LEAF_full    := 4
DEMO_LEAF_small   := 8
DEMO_GEN           = $(B)/demo-gen/$(1)
DEMO_TOOL         := $(H_OUT)/tool/copse

.PHONY: demo demo-compare demo-check

# Part of make test: the same comparison, its verdict as a log line for tools/summarize.
demo-check:
	@mkdir -p $(B)/logs
	@echo "== demo (mps2-an386 and host, answers compared)"
	@{ if $(MAKE) --no-print-directory BOARD=$(DEFAULT_BOARD) demo-compare > $(B)/logs/demo.out 2>&1; \
	   then echo "ok   demo: $$(tail -n 1 $(B)/logs/demo.out)"; echo "1 passed, 0 failed"; \
	   else cat $(B)/logs/demo.out; echo "FAIL demo"; echo "0 passed, 1 failed"; fi; echo "rc=0"; } \
	   > $(B)/logs/demo.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/demo.log; grep -q '^1 passed' $(B)/logs/demo.log

demo:
	@$(ENSURE) $(DEMO_DEPS)
	@$(MAKE) --no-print-directory BOARD=$(DEMO_BOARD) demo-compare

# Host builds of the demo, one per scene size (the library and port objects are the test build's),
# and per size the baking: scene -> STL -> copse bake -> warehouse_tree.c/.h.
DEMO_HOST_PORT := $(H_OUT)/port/common/print.o $(H_OUT)/port/host/port_host.o

# $(1): full or small, $(2): its DEMO_SMALL
define demo_variant
DEMO_HOST_$(1)_OBJ := $(DEMO_SRC:%.c=$(H_OUT)/demo-$(1)/%.o) $(H_OUT)/demo-$(1)/gen/warehouse_tree.o

$(H_OUT)/demo-$(1)/examples/warehouse/main.o: $(call DEMO_GEN,$(1))/warehouse_tree.h
$(DEMO_SRC:%.c=$(H_OUT)/demo-$(1)/%.o) $(H_OUT)/demo-$(1)/examples/warehouse/host/scene_stl.o: $(H_OUT)/demo-$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	@echo "  CC  $(CONFIG) $$< (demo, $(1) scene)"
	@$(H_CC) $(H_CFLAGS) -DDEMO_SMALL=$(2) -I$(call DEMO_GEN,$(1)) -c $$< -o $$@

$(H_OUT)/demo-$(1)/gen/warehouse_tree.o: $(call DEMO_GEN,$(1))/warehouse_tree.c
	@mkdir -p $$(dir $$@)
	@echo "  CC  $(CONFIG) $$< (baked by copse bake)"
	@$(H_CC) $(H_CFLAGS) -c $$< -o $$@

$(H_OUT)/demo-$(1)/scene_stl: $(H_OUT)/demo-$(1)/examples/warehouse/host/scene_stl.o \
		$(H_OUT)/demo-$(1)/examples/warehouse/scene.o
	@echo "  LD  $$@"
	@$(H_CC) $(H_SAN) -o $$@ $$^

$(call DEMO_GEN,$(1))/warehouse.stl: $(H_OUT)/demo-$(1)/scene_stl
	@mkdir -p $$(dir $$@)
	@$$< $$@

$(call DEMO_GEN,$(1))/warehouse_tree.c: $(call DEMO_GEN,$(1))/warehouse.stl $(DEMO_TOOL)
	@echo "  BAKE $$@ (copse bake --leaf $(DEMO_LEAF_$(1)))"
	@$(DEMO_TOOL) bake $$< --tree bvh --builder sah --leaf $(DEMO_LEAF_$(1)) --name warehouse_tree -q -o $$@
$(call DEMO_GEN,$(1))/warehouse_tree.h: $(call DEMO_GEN,$(1))/warehouse_tree.c

$(H_OUT)/demo-$(1)/copse_demo: $$(DEMO_HOST_$(1)_OBJ) $(DEMO_HOST_PORT) $(H_OUT)/libcopse.a
	@echo "  LD  $$@"
	@$(H_CC) $(H_SAN) -o $$@ $$^ -lm
endef
$(eval $(call demo_variant,full,0))
$(eval $(call demo_variant,small,1))

ifdef BOARD
DEMO_VARIANT  := $(if $(filter $(BOARD),$(DEMO_SMALL_BOARDS)),small,full)
DEMO_X_GEN    := $(call DEMO_GEN,$(DEMO_VARIANT))
DEMO_X_OBJ    := $(DEMO_SRC:%.c=$(X_OUT)/demo/%.o) $(X_OUT)/demo/gen/warehouse_tree.o
DEMO_HOST_BIN := $(H_OUT)/demo-$(DEMO_VARIANT)/copse_demo

board: $(X_OUT)/copse_demo.elf

$(X_OUT)/demo/examples/warehouse/main.o: $(DEMO_X_GEN)/warehouse_tree.h
$(DEMO_SRC:%.c=$(X_OUT)/demo/%.o): $(X_OUT)/demo/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (demo, $(DEMO_VARIANT) scene)"
	@$(X_CC) $(X_APPFLAGS) -DDEMO_SMALL=$(if $(filter small,$(DEMO_VARIANT)),1,0) -I$(DEMO_X_GEN) -c $< -o $@

$(X_OUT)/demo/gen/warehouse_tree.o: $(DEMO_X_GEN)/warehouse_tree.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (baked by copse bake)"
	@$(X_CC) $(X_APPFLAGS) -c $< -o $@

$(X_OUT)/copse_demo.elf: $(DEMO_X_OBJ) $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	@$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(X_OUT)/copse_demo.map -o $@ $^ $(X_LDLIBS)

# Run both, show the board's output, then insist that every answer line is the same.
demo-compare: $(X_OUT)/copse_demo.elf $(DEMO_HOST_BIN)
	@mkdir -p $(DEMO_OUT)
	@echo "== demo: examples/warehouse ($(DEMO_VARIANT) scene) on $(BOARD) under QEMU -icount"
	@QEMU_TIMEOUT=300 tools/qemu-run $(BOARD) $< --icount > $(DEMO_OUT)/$(BOARD).out 2>&1; rc=$$?; \
	 cat $(DEMO_OUT)/$(BOARD).out; \
	 if [ $$rc -ne 0 ]; then echo "DEMO FAILED: $(BOARD) exited with status $$rc"; exit 1; fi
	@echo "== the same program on the host ($(CONFIG)): its machine-specific lines"
	@$(DEMO_HOST_BIN) > $(DEMO_OUT)/host-$(DEMO_VARIANT).out 2>&1; rc=$$?; \
	 grep '^#' $(DEMO_OUT)/host-$(DEMO_VARIANT).out; \
	 if [ $$rc -ne 0 ]; then cat $(DEMO_OUT)/host-$(DEMO_VARIANT).out; \
	   echo "DEMO FAILED: the host run exited with status $$rc"; exit 1; fi
	@grep -v '^#' $(DEMO_OUT)/$(BOARD).out > $(DEMO_OUT)/$(BOARD).answers; \
	 grep -v '^#' $(DEMO_OUT)/host-$(DEMO_VARIANT).out > $(DEMO_OUT)/host-$(DEMO_VARIANT).answers; \
	 n=$$(grep -c . $(DEMO_OUT)/$(BOARD).answers); \
	 if [ "$$n" -lt 10 ] || ! grep -q '^verdict' $(DEMO_OUT)/$(BOARD).answers; then \
	   echo "DEMO FAILED: the $(BOARD) run stopped early ($$n answer lines)"; exit 1; fi; \
	 if diff -u --label "$(BOARD)" --label "host" $(DEMO_OUT)/$(BOARD).answers \
	      $(DEMO_OUT)/host-$(DEMO_VARIANT).answers > $(DEMO_OUT)/answers.diff; then \
	   echo "demo: OK: $(BOARD) and the host give the same $$n answer lines"; \
	 else \
	   echo "DEMO FAILED: $(BOARD) and the host disagree ('-' $(BOARD), '+' host):"; \
	   cat $(DEMO_OUT)/answers.diff; exit 1; \
	 fi
endif
