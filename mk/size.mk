# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# make size: flash and RAM of each library module (src/<module>) on every board (build-only ones
# too), compiled freestanding at -Os and at -O2, from each architecture's <prefix>size -> docs/size.md. Also what the demo
# firmware keeps of the library after --gc-sections. Review the diff of docs/size.md to see
# growth.

SIZE_OPTS := -Os -O2
# boards whose demo firmware is measured too (what --gc-sections keeps of the library)
SIZE_LINKED_BOARDS := $(DEFAULT_BOARD) microbit
SIZE_DOC  ?= docs/size.md
SIZE_DEPS := python3 $(sort $(shell sed -n 's/^ARCH_DEPS *:= *//p' port/*/arch.mk))

.PHONY: size

# Each (board, level) is the board section's own library build, in $(B)/size<level>/<board>/.
size:
	@$(ENSURE) $(SIZE_DEPS)
	@for b in $(ALL_BOARDS); do for o in $(SIZE_OPTS); do \
	   $(MAKE) --no-print-directory BOARD=$$b X_OPT=$$o B=$(B)/size$$o $(B)/size$$o/$$b/libcopse.a \
	     > /dev/null || exit 1; \
	 done; done
	@for b in $(SIZE_LINKED_BOARDS); do \
	   $(MAKE) --no-print-directory BOARD=$$b $(B)/$$b/copse_demo.elf > /dev/null || exit 1; done
	@mkdir -p $(dir $(SIZE_DOC))
	@echo "== size: library per module (bytes), every board, $(SIZE_OPTS)"
	@tools/size-report $(foreach b,$(ALL_BOARDS),$(foreach o,$(SIZE_OPTS),--entry $(b):$(o):$(B)/size$(o)/$(b)/lib)) \
	  --top $(DEFAULT_BOARD):-Os --top $(DEFAULT_BOARD):-O2 \
	  $(foreach b,$(SIZE_LINKED_BOARDS),--map $(b):$(B)/$(b)/copse_demo.map:$(B)/$(b)/copse_demo.elf) \
	  --note "arm-none-eabi-gcc $$(arm-none-eabi-gcc -dumpfullversion), riscv64-unknown-elf-gcc $$(riscv64-unknown-elf-gcc -dumpfullversion), freestanding: \
	\`<board flags> <opt> $(FP_FLAGS) -ffreestanding -nostdinc -ffunction-sections -fdata-sections\`." \
	  -o $(SIZE_DOC)
	@echo "== size: what one call links (collision queries, poses and robots, mps2-an386 -Os)"
	@{ echo; echo "## What one call links: collision queries, poses and robots (mps2-an386, -Os)"; echo; \
	   echo "A firmware that keeps only that function (its address; \`--gc-sections\` drops the rest),"; \
	   echo "linked against the -Os library: the bytes of libcopse.a and of the toolchain's libraries it"; \
	   echo "brings in, from the map (tools/size-per-call). docs/design.md's budget is 2 KB per query with"; \
	   echo "its view, 4 KB per builder: docs/collide.md says where and why the collision queries exceed it;"; \
	   echo "a robot check calls them (docs/benchmarks-robot.md: a whole Panda firmware's library is 66 KB)."; \
	   echo; } >> $(SIZE_DOC)
	@tools/size-per-call --lib $(B)/size-Os/$(DEFAULT_BOARD)/libcopse.a \
	  --cflags "$$(sed -n 's/^BOARD_CFLAGS *:= *//p' boards/$(DEFAULT_BOARD)/board.mk)" \
	  --header include/copse/collide.h --header include/copse/geom.h --header include/copse/robot.h \
	  --match '^copse_(bvh_(any|overlap|visit)_(capsule|obb|triangle|convex|sphere|bvh)|distance|octree_(any|overlap|visit)_(obb|triangle|convex|sphere|capsule|bvh)|sweep|pose|obb|robot_(build|fk|view|collides|contacts|distances|motion))' \
	  >> $(SIZE_DOC) || exit 1
