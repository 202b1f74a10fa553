# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# make bench-robot-fw: the robot checks on the boards under QEMU -icount (bench/robot_fw.c): the
# Panda baked by `copse robot bake ... -o robot_panda.c` and the table and box of
# bench/robot_scene.c baked by `copse bake ... -o robot_world.c`, both const arrays viewed in
# flash. Instructions per configuration, stack, flash and RAM by owner from the link map
# (bench/robot_fw_map.py); the same program on the host gives the same answer lines.
# make bench-robot writes the result into docs/benchmarks-robot.md; this target prints it.
#   ROBOT_FW_BOARDS   boards to measure (default: Cortex-M7 mps2-an500 and Cortex-M4F mps2-an386)

ROBOT_FW_BOARDS ?= mps2-an500 mps2-an386
RF_GEN          ?= $(B)/bench/robot-gen
RF_TOOL         ?= $(H_OUT)/tool/copse
RF_OUT          := $(B)/bench

.PHONY: bench-robot-fw bench-robot-fw-md robot-fw-elf robot-fw-gen

# ---- the bakes (host side) ----------------------------------------------------------------
$(H_OUT)/robot-fw/robot_world_stl: $(H_OUT)/robot-fw/bench/robot_world_stl.o $(H_OUT)/robot-fw/bench/robot_scene.o
	@echo "  LD  $@"
	$(Q)$(H_CC) $(H_SAN) -o $@ $^

$(H_OUT)/robot-fw/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $<"
	$(Q)$(H_CC) $(H_CFLAGS) -I$(RF_GEN) -Ibench -c $< -o $@

$(RF_GEN)/robot_world.stl: $(H_OUT)/robot-fw/robot_world_stl
	@mkdir -p $(dir $@)
	@$< $@

$(RF_GEN)/robot_world.c: $(RF_GEN)/robot_world.stl $(RF_TOOL)
	@echo "  BAKE $@ (copse bake, SAH, leaves of 4)"
	@$(RF_TOOL) bake $< --tree bvh --builder sah --leaf 4 --name robot_world -q -o $@
$(RF_GEN)/robot_world.h: $(RF_GEN)/robot_world.c

$(RF_GEN)/robot_panda.c: $(BR_URDF_panda) $(RF_TOOL)
	@mkdir -p $(dir $@)
	@echo "  BAKE $@ (copse robot bake $(ROBOT_SHAPES))"
	@$(RF_TOOL) robot bake $(BR_URDF_panda) $(BR_ALLOW_panda) $(ROBOT_SHAPES) --name robot_panda -q -o $@
$(RF_GEN)/robot_panda.h: $(RF_GEN)/robot_panda.c

robot-fw-gen: $(RF_GEN)/robot_world.c $(RF_GEN)/robot_panda.c

# ---- the same program on the host (answers compared with the boards') -----------------------
RF_HOST_OBJ := $(addprefix $(H_OUT)/robot-fw/,bench/robot_fw.o bench/bench_common.o gen/robot_panda.o gen/robot_world.o) \
               $(H_OUT)/port/common/print.o $(H_OUT)/port/host/port_host.o

$(H_OUT)/robot-fw/bench/robot_fw.o: $(RF_GEN)/robot_panda.h $(RF_GEN)/robot_world.h
$(H_OUT)/robot-fw/gen/%.o: $(RF_GEN)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $< (baked)"
	$(Q)$(H_CC) $(H_CFLAGS) -c $< -o $@

$(H_OUT)/robot-fw/robot_fw: $(RF_HOST_OBJ) $(H_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(H_CC) $(H_SAN) -o $@ $^ -lm

# ---- the firmware (make BOARD=<b> B=$(B)/bench RF_GEN=... robot-fw-elf) ----------------------
ifdef BOARD
RF_X_OBJ := $(X_OUT)/robot-fw/robot_fw.o $(X_OUT)/bench/bench_common.o $(X_OUT)/robot-fw/robot_panda.o \
            $(X_OUT)/robot-fw/robot_world.o $(X_PORT_SRC:%.c=$(X_OUT)/%.o)

robot-fw-elf: $(X_OUT)/robot_fw.elf

$(X_OUT)/robot-fw/robot_fw.o: bench/robot_fw.c $(RF_GEN)/robot_panda.h $(RF_GEN)/robot_world.h
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $<"
	$(Q)$(X_CC) $(X_APPFLAGS) -Ibench -I$(RF_GEN) -c $< -o $@

$(X_OUT)/robot-fw/%.o: $(RF_GEN)/%.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (baked)"
	$(Q)$(X_CC) $(X_APPFLAGS) -c $< -o $@

$(X_OUT)/robot_fw.elf: $(RF_X_OBJ) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(X_OUT)/robot_fw.map -o $@ $^ $(X_LDLIBS)
endif

# ---- run and report -------------------------------------------------------------------------
bench-robot-fw-md:
	@$(ENSURE) gcc make python3 libassimp-dev gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
	@$(MAKE) --no-print-directory robot-fw-gen $(H_OUT)/robot-fw/robot_fw
	@for b in $(ROBOT_FW_BOARDS); do \
	    $(MAKE) --no-print-directory BOARD=$$b B=$(RF_OUT) RF_GEN=$(RF_GEN) RF_TOOL=$(RF_TOOL) robot-fw-elf || exit 1; done
	@for b in $(ROBOT_FW_BOARDS); do \
	    echo "== bench-robot-fw: $$b under QEMU -icount"; \
	    tools/qemu-run $$b $(RF_OUT)/$$b/robot_fw.elf --icount > $(RF_OUT)/robot-fw-$$b.txt || \
	      { cat $(RF_OUT)/robot-fw-$$b.txt; exit 1; }; \
	    python3 bench/robot_fw_map.py $(RF_OUT)/$$b/robot_fw.map > $(RF_OUT)/robot-fw-$$b.size || exit 1; \
	 done
	@$(H_OUT)/robot-fw/robot_fw > $(RF_OUT)/robot-fw-host.txt || { cat $(RF_OUT)/robot-fw-host.txt; exit 1; }
	@python3 bench/robot_fw_report.py $(RF_OUT) host $(ROBOT_FW_BOARDS) > $(RF_OUT)/robot-fw.md

bench-robot-fw: bench-robot-fw-md
	@cat $(RF_OUT)/robot-fw.md
