# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# make demo: two demos, each as firmware under QEMU -icount and as a host program, with every
# answer line compared. Lines starting with '#' are machine-specific (board name, instruction
# counts or nanoseconds) and are left out of the comparison.
#
#   warehouse  (examples/warehouse) a robot in a procedural warehouse: BVH build, lidar rays,
#              body spheres, nearest obstacles; the scene also baked on the host (below)
#   arm        (examples/arm_cell) a 6-joint arm with a gripper sweeping through a cluttered
#              cell: copse_robot_* (forward kinematics, collisions, contacts, distances,
#              discrete and certified motions), every link and obstacle generated in code
#
#   make demo                        mps2-an386 (Cortex-M4F), the full warehouse and cell
#   make demo DEMO_BOARD=microbit    Cortex-M0 with 16 KB RAM: the small ones (DEMO_SMALL=1)
#   make demo DEMO_BOARD=<b>         any board: the demos its board.mk lists (DEMOS), its scene
#                                    size (DEMO_SCENE := small where RAM is short)
#   make demo CONFIG=asan-ubsan      the host side under ASan + UBSan
#   make demo BOARD=<b>              the same as DEMO_BOARD=<b>
#   make demo-table                  the warehouse on every QEMU board: instructions per lidar ray,
#                                    body-sphere check and nearest query, as the README's table
#
# make test runs demo-check: on every QEMU board, each demo that fits it, against the host.
#
# The warehouse scene is also baked on the host: a small host program (examples/warehouse/host)
# writes it as binary STL, `copse bake` (mk/tool.mk) turns that into warehouse_tree.c/.h (the
# BVH blob and the mesh as const arrays), and both the firmware and the host program link them:
# the demo views that tree in flash and checks it against the one it builds at run time.
#
# `make BOARD=<b>` also builds $(B)/<b>/copse_demo.elf and $(B)/<b>/copse_arm.elf.

DEMO_BOARD        ?= $(or $(BOARD),$(DEFAULT_BOARD))
DEMO_SRC          := $(sort $(wildcard examples/warehouse/*.c))
ARM_SRC           := $(sort $(wildcard examples/arm_cell/*.c))
DEMO_DEPS         := gcc g++ make gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm libassimp-dev liburdfdom-dev
DEMO_OUT          := $(B)/demo
# Leaf sizes of the baked trees: LEAF in examples/warehouse/main.c (the demo fails if they differ).
DEMO_LEAF_full    := 4
DEMO_LEAF_small   := 8
DEMO_GEN           = $(B)/demo-gen/$(1)
DEMO_TOOL         := $(H_OUT)/tool/copse

.PHONY: demo demo-compare demo-compare-warehouse demo-compare-arm demo-check demo-run demo-table

# Part of make test: the same comparisons on every QEMU board, one log per board.
demo-check:
	@mkdir -p $(B)/logs
	@echo "== demo (each board's demos and the host, answers compared: $(BOARDS))"
	@for b in $(BOARDS); do $(MAKE) --no-print-directory BOARD=$$b demo-run || true; done

demo:
	@$(ENSURE) $(DEMO_DEPS) $(ARCH_ALL_DEPS)
	@$(MAKE) --no-print-directory BOARD=$(DEMO_BOARD) demo-compare

# The warehouse's cost lines on every QEMU board that runs it (the "#   lidar ray ... N" lines of
# its output, QEMU -icount: exact instruction counts), one Markdown row per board.
DEMO_TABLE_BOARDS = $(foreach b,$(BOARDS),$(if $(filter warehouse,$(or $(shell sed -n 's/^DEMOS *:= *//p' \
                      boards/$(b)/board.mk),warehouse)),$(b)))
demo-table:
	@$(ENSURE) $(DEMO_DEPS) $(ARCH_ALL_DEPS)
	@for b in $(DEMO_TABLE_BOARDS); do $(MAKE) --no-print-directory -s BOARD=$$b demo-compare-warehouse \
	   > $(DEMO_OUT)/table-$$b.log 2>&1 || { cat $(DEMO_OUT)/table-$$b.log; exit 1; }; done
	@echo "| board | CPU | float | scene | lidar ray | body sphere | nearest |"
	@echo "|---|---|---|---|---:|---:|---:|"
	@for b in $(DEMO_TABLE_BOARDS); do \
	   f=$$(sed -n 's/^BOARD_CFLAGS *:= *//p' boards/$$b/board.mk); \
	   cpu=$$(echo "$$f" | tr ' ' '\n' | sed -n 's/^-mcpu=//p; s/^-march=//p'); \
	   fl=$$(case "$$f" in *float-abi=hard*|*abi=ilp32f*|*abi=ilp32d*) echo hard;; *) echo soft;; esac); \
	   sc=$$(sed -n 's/^DEMO_SCENE *:= *//p' boards/$$b/board.mk); \
	   awk -v b=$$b -v c="$$cpu" -v fl=$$fl -v sc=$${sc:-full} \
	     '/^#   lidar ray/ {r=$$4} /^#   sphere check/ {s=$$4} /^#   nearest/ {n=$$3} \
	      END {printf "| `%s` | %s | %s | %s | %s | %s | %s |\n", b, c, fl, sc, r, s, n}' \
	     $(DEMO_OUT)/warehouse-$$b.out; done

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
	$(Q)$(H_CC) $(H_CFLAGS) -DDEMO_SMALL=$(2) -I$(call DEMO_GEN,$(1)) -c $$< -o $$@

$(H_OUT)/demo-$(1)/gen/warehouse_tree.o: $(call DEMO_GEN,$(1))/warehouse_tree.c
	@mkdir -p $$(dir $$@)
	@echo "  CC  $(CONFIG) $$< (baked by copse bake)"
	$(Q)$(H_CC) $(H_CFLAGS) -c $$< -o $$@

$(H_OUT)/demo-$(1)/scene_stl: $(H_OUT)/demo-$(1)/examples/warehouse/host/scene_stl.o \
		$(H_OUT)/demo-$(1)/examples/warehouse/scene.o
	@echo "  LD  $$@"
	$(Q)$(H_CC) $(H_SAN) -o $$@ $$^

$(call DEMO_GEN,$(1))/warehouse.stl: $(H_OUT)/demo-$(1)/scene_stl
	@mkdir -p $$(dir $$@)
	@$$< $$@

$(call DEMO_GEN,$(1))/warehouse_tree.c: $(call DEMO_GEN,$(1))/warehouse.stl $(DEMO_TOOL)
	@echo "  BAKE $$@ (copse bake --leaf $(DEMO_LEAF_$(1)))"
	@$(DEMO_TOOL) bake $$< --tree bvh --builder sah --leaf $(DEMO_LEAF_$(1)) --name warehouse_tree -q -o $$@
$(call DEMO_GEN,$(1))/warehouse_tree.h: $(call DEMO_GEN,$(1))/warehouse_tree.c

$(H_OUT)/demo-$(1)/copse_demo: $$(DEMO_HOST_$(1)_OBJ) $(DEMO_HOST_PORT) $(H_OUT)/libcopse.a
	@echo "  LD  $$@"
	$(Q)$(H_CC) $(H_SAN) -o $$@ $$^ -lm

# the arm: no data, nothing baked
$(ARM_SRC:%.c=$(H_OUT)/demo-$(1)/%.o): $(H_OUT)/demo-$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	@echo "  CC  $(CONFIG) $$< (arm demo, $(1) cell)"
	$(Q)$(H_CC) $(H_CFLAGS) -DDEMO_SMALL=$(2) -c $$< -o $$@

$(H_OUT)/demo-$(1)/copse_arm: $(ARM_SRC:%.c=$(H_OUT)/demo-$(1)/%.o) $(DEMO_HOST_PORT) $(H_OUT)/libcopse.a
	@echo "  LD  $$@"
	$(Q)$(H_CC) $(H_SAN) -o $$@ $$^ -lm
endef
$(eval $(call demo_variant,full,0))
$(eval $(call demo_variant,small,1))

ifdef BOARD
# boards/<b>/board.mk: DEMOS (which demos fit: warehouse arm), DEMO_SCENE (full or small)
DEMOS         ?= warehouse arm
DEMO_VARIANT  := $(if $(filter small,$(DEMO_SCENE)),small,full)
DEMO_X_GEN    := $(call DEMO_GEN,$(DEMO_VARIANT))
DEMO_X_OBJ    := $(DEMO_SRC:%.c=$(X_OUT)/demo/%.o) $(X_OUT)/demo/gen/warehouse_tree.o
DEMO_HOST_BIN := $(H_OUT)/demo-$(DEMO_VARIANT)/copse_demo
ARM_HOST_BIN  := $(H_OUT)/demo-$(DEMO_VARIANT)/copse_arm
DEMO_SMALL_X  := $(if $(filter small,$(DEMO_VARIANT)),1,0)

DEMO_ELF_warehouse := copse_demo.elf
DEMO_ELF_arm       := copse_arm.elf
X_DEMO_ELFS   := $(foreach d,$(DEMOS),$(X_OUT)/$(DEMO_ELF_$(d)))

board: $(X_DEMO_ELFS)

$(X_OUT)/demo/examples/warehouse/main.o: $(DEMO_X_GEN)/warehouse_tree.h
$(DEMO_SRC:%.c=$(X_OUT)/demo/%.o): $(X_OUT)/demo/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (demo, $(DEMO_VARIANT) scene)"
	$(Q)$(X_CC) $(X_APPFLAGS) -DDEMO_SMALL=$(DEMO_SMALL_X) -I$(DEMO_X_GEN) -c $< -o $@

$(X_OUT)/demo/gen/warehouse_tree.o: $(DEMO_X_GEN)/warehouse_tree.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (baked by copse bake)"
	$(Q)$(X_CC) $(X_APPFLAGS) -c $< -o $@

$(X_OUT)/copse_demo.elf: $(DEMO_X_OBJ) $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(X_OUT)/copse_demo.map -o $@ $^ $(X_LDLIBS)

$(ARM_SRC:%.c=$(X_OUT)/demo/%.o): $(X_OUT)/demo/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (arm demo, $(DEMO_VARIANT) cell)"
	$(Q)$(X_CC) $(X_APPFLAGS) -DDEMO_SMALL=$(DEMO_SMALL_X) -c $< -o $@

$(X_OUT)/copse_arm.elf: $(ARM_SRC:%.c=$(X_OUT)/demo/%.o) $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(X_OUT)/copse_arm.map -o $@ $^ $(X_LDLIBS)

# Run a demo on the board and on the host, show the board's output, then insist that every
# answer line is the same. $(1): its name, $(2): the firmware, $(3): the host program, $(4): what.
define demo_compare
	@mkdir -p $(DEMO_OUT)
	@echo "== demo: $(4) ($(DEMO_VARIANT)) on $(BOARD) under QEMU -icount"
	@QEMU_TIMEOUT=300 tools/qemu-run $(BOARD) $(2) --icount > $(DEMO_OUT)/$(1)-$(BOARD).out 2>&1; rc=$$?; \
	 cat $(DEMO_OUT)/$(1)-$(BOARD).out; \
	 if [ $$rc -ne 0 ]; then echo "DEMO FAILED: $(1) on $(BOARD) exited with status $$rc"; exit 1; fi
	@echo "== the same program on the host ($(CONFIG)): its machine-specific lines"
	@$(3) > $(DEMO_OUT)/$(1)-host-$(DEMO_VARIANT).out 2>&1; rc=$$?; \
	 grep '^#' $(DEMO_OUT)/$(1)-host-$(DEMO_VARIANT).out; \
	 if [ $$rc -ne 0 ]; then cat $(DEMO_OUT)/$(1)-host-$(DEMO_VARIANT).out; \
	   echo "DEMO FAILED: $(1): the host run exited with status $$rc"; exit 1; fi
	@a=$(DEMO_OUT)/$(1)-$(BOARD).answers; h=$(DEMO_OUT)/$(1)-host-$(DEMO_VARIANT).answers; \
	 grep -v '^#' $(DEMO_OUT)/$(1)-$(BOARD).out > $$a; grep -v '^#' $(DEMO_OUT)/$(1)-host-$(DEMO_VARIANT).out > $$h; \
	 n=$$(grep -c . $$a); \
	 if [ "$$n" -lt 10 ] || ! grep -q '^verdict' $$a; then \
	   echo "DEMO FAILED: the $(1) run on $(BOARD) stopped early ($$n answer lines)"; exit 1; fi; \
	 if diff -u --label "$(BOARD)" --label "host" $$a $$h > $(DEMO_OUT)/$(1).diff; then \
	   echo "demo $(1): OK: $(BOARD) and the host give the same $$n answer lines"; \
	 else \
	   echo "DEMO FAILED: $(1): $(BOARD) and the host disagree ('-' $(BOARD), '+' host):"; \
	   cat $(DEMO_OUT)/$(1).diff; exit 1; \
	 fi
endef

demo-compare-warehouse: $(X_OUT)/copse_demo.elf $(DEMO_HOST_BIN)
	$(call demo_compare,warehouse,$(X_OUT)/copse_demo.elf,$(DEMO_HOST_BIN),examples/warehouse)

demo-compare-arm: $(X_OUT)/copse_arm.elf $(ARM_HOST_BIN)
	$(call demo_compare,arm,$(X_OUT)/copse_arm.elf,$(ARM_HOST_BIN),examples/arm_cell)

# The board's demos; each runs even when another failed, and the target fails if any did.
demo-compare:
	@r=0; for d in $(DEMOS); do $(MAKE) --no-print-directory demo-compare-$$d || r=1; done; exit $$r

# make test's part (demo-check): each demo a verdict, as log lines for tools/summarize.
demo-run:
	@mkdir -p $(B)/logs
	@{ p=0; f=0; for d in $(DEMOS); do \
	     if $(MAKE) --no-print-directory demo-compare-$$d > $(B)/logs/demo-$$d-$(BOARD).out 2>&1; \
	     then echo "ok   $$(tail -n 1 $(B)/logs/demo-$$d-$(BOARD).out)"; p=$$((p + 1)); \
	     else cat $(B)/logs/demo-$$d-$(BOARD).out; echo "FAIL demo $$d on $(BOARD)"; f=$$((f + 1)); fi; done; \
	   [ -z "$(DEMOS)" ] && echo "info no demo fits $(BOARD) (boards/$(BOARD)/board.mk: DEMOS)"; \
	   echo "$$p passed, $$f failed"; echo "rc=0"; } > $(B)/logs/demo-$(BOARD).log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/demo-$(BOARD).log; grep -q ' 0 failed$$' $(B)/logs/demo-$(BOARD).log
endif
