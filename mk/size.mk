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
SIZE_DEPS := python3 g++ libassimp-dev liburdfdom-dev $(sort $(shell sed -n 's/^ARCH_DEPS *:= *//p' port/*/arch.mk))

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
	@$(MAKE) --no-print-directory size-fw

# ---------------------------------------------------------------------------------------------
# The size firmwares (examples/size): one minimal firmware per row of issue 12's table, each
# linked with --gc-sections against the board's -Os library; flash of copse's own functions,
# toolchain helpers, software double, worst-case stack, against examples/size/budgets.
#   make size                 every board, into docs/size.md
#   make size-check           part of make test: the budgets on $(DEFAULT_BOARD), and no software
#                             double in any firmware on $(SIZE_FW_BOARDS)
SIZE_FW_BUDGETS := examples/size/budgets
SIZE_FW_BOARDS  := $(DEFAULT_BOARD) microbit
SIZE_FW_OUT     := $(B)/size-fw

.PHONY: size-fw size-fw-rows size-check

ifdef BOARD
# one board's rows, against the -Os library in $(X_OUT) (call with B=$(B)/size-Os X_OPT=-Os)
size-fw-rows: $(X_OUT)/libcopse.a
	@mkdir -p $(dir $(SIZE_FW_TSV))
	@tools/size-firmware measure --board $(BOARD) --prefix $(ARCH_PREFIX) \
	  --cflags "$(BOARD_CFLAGS)" --appflags "$(ARCH_APPFLAGS) $(FP_FLAGS)" --ldflags "$(ARCH_LDFLAGS)" --ldlibs "$(ARCH_LDLIBS)" \
	  --copse $(X_OUT)/libcopse.a --ci-dir $(X_OUT)/lib $(STACK_LIBS) --budgets $(SIZE_FW_BUDGETS) -o $(SIZE_FW_TSV)
endif

# $(1): the boards
size_fw_measure = for b in $(1); do \
	   $(MAKE) --no-print-directory BOARD=$$b X_OPT=-Os B=$(B)/size-Os SIZE_FW_TSV=$(abspath $(SIZE_FW_OUT))/$$b.tsv \
	     size-fw-rows > $(SIZE_FW_OUT)/$$b.out 2>&1 || { cat $(SIZE_FW_OUT)/$$b.out; exit 1; }; done

size-fw:
	@mkdir -p $(SIZE_FW_OUT)
	@$(call size_fw_measure,$(ALL_BOARDS))
	@{ echo; echo "## Minimal firmwares: what a firmware pays for one query (examples/size)"; echo; \
	   echo "One firmware per row of issue 12's table, each a \`main\` that calls only what its row names"; \
	   echo "(examples/size/*.c), linked at -Os with \`--gc-sections\` against the board's -Os library: **copse flash**"; \
	   echo "is the bytes of the library's own functions in the map (text, rodata, data), **toolchain helpers** those"; \
	   echo "of libgcc and the C library (memcpy, memset, software float), **stack** the worst case of"; \
	   echo "tools/stack-report for the largest query and for the largest view or build the firmware calls."; \
	   echo "Goals and today's ceilings: examples/size/budgets (\`make test\` fails above a ceiling on"; \
	   echo "$(DEFAULT_BOARD), or when any firmware on $(SIZE_FW_BOARDS) links a software double helper)."; \
	 } >> $(SIZE_DOC)
	@tools/size-firmware report $(foreach b,$(ALL_BOARDS),$(SIZE_FW_OUT)/$(b).tsv) --budgets $(SIZE_FW_BUDGETS) \
	  -o $(SIZE_FW_OUT)/report.md > /dev/null && cat $(SIZE_FW_OUT)/report.md >> $(SIZE_DOC)

size-check:
	@mkdir -p $(SIZE_FW_OUT) $(B)/logs
	@echo "== size: the minimal firmwares against examples/size/budgets ($(SIZE_FW_BOARDS))"
	@{ ( $(call size_fw_measure,$(SIZE_FW_BOARDS)) ) && \
	   tools/size-firmware report $(foreach b,$(SIZE_FW_BOARDS),$(SIZE_FW_OUT)/$(b).tsv) --budgets $(SIZE_FW_BUDGETS) \
	     --check $(DEFAULT_BOARD); echo "rc=$$?"; } > $(B)/logs/size.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/size.log; grep -q '^rc=0$$' $(B)/logs/size.log
