# SPDX-License-Identifier: MIT
# make bench-bsp   the BSP trees: on the host, build time, nodes, bytes, depth, splits and query
#                  throughput against brute force (bench/bench_bsp.c); on the boards, instruction
#                  counts under QEMU -icount (bench/bench_bsp_fw.c) -> docs/benchmarks-bsp.md.
#                  `make bench` runs it first.

.PHONY: bench-bsp bench-bsp-boards

BSPB_OUT    := $(B)/bench/bsp
BSPB_CFLAGS := -std=c99 -O2 -g $(WARN) $(FP_FLAGS) $(INC) -MMD -MP
BSPB_SRC    := bench/bench_bsp.c bench/bench_bsp_common.c bench/host_clock.c tools/lib/mesh_load.c $(LIB_SRC)
BSPB_OBJ    := $(BSPB_SRC:%.c=$(BSPB_OUT)/%.o)
BSPB_DOC    ?= docs/benchmarks-bsp.md

$(BSPB_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  bench-bsp $<"
	@gcc $(BSPB_CFLAGS) -c $< -o $@

$(BSPB_OUT)/bench_bsp: $(BSPB_OBJ)
	@echo "  LD  $@"
	@gcc -O2 -o $@ $^ -lassimp -lm

bench-bsp:
	@$(ENSURE) gcc make libassimp-dev
	@$(MAKE) --no-print-directory $(BSPB_OUT)/bench_bsp
	@echo "== bench-bsp: host (meshes from $(DATA))"
	@$(BSPB_OUT)/bench_bsp --data $(DATA) --out $(BSPB_DOC) && echo "== bench-bsp: wrote $(BSPB_DOC)"
	@$(MAKE) --no-print-directory bench-bsp-boards

bench: bench-bsp

# ---- the boards: bench/bench_bsp_fw.c under QEMU -icount (exact instruction counts) ----------
BSPB_BOARDS ?= mps2-an386 microbit

ifdef BOARD
BSPF_OBJ := $(X_OUT)/bench/bench_bsp_fw.o $(X_OUT)/bench/bench_bsp_common.o $(X_PORT_SRC:%.c=$(X_OUT)/%.o)

.PHONY: bench-bsp-fw-elf
bench-bsp-fw-elf: $(X_OUT)/bench_bsp_fw.elf

$(X_OUT)/bench_bsp_fw.elf: $(BSPF_OBJ) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -o $@ $^ $(X_LDLIBS)
endif

bench-bsp-boards:
	@$(ENSURE) gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
	@for b in $(BSPB_BOARDS); do \
	    $(MAKE) --no-print-directory BOARD=$$b B=$(B)/bench bench-bsp-fw-elf || exit 1; \
	    echo "== bench-bsp: $$b under QEMU -icount"; \
	    tools/qemu-run $$b $(B)/bench/$$b/bench_bsp_fw.elf --icount > $(BSPB_OUT)/fw-$$b.txt || exit 1; \
	 done
	@{ echo; echo "## On the boards: instructions under QEMU -icount"; echo; \
	   echo "Exact guest instruction counts (docs/boards.md: counting instructions), the same on every run; generated scenes sized to the"; \
	   echo "board's RAM (\`bench/bench_bsp_fw.c\`); 32 queries per family, brute force over every brush or box."; \
	   echo "Bytes: the tree; peak: the build's arena."; echo; \
	   echo "| board | scene | build (insn) | bytes | peak | nodes | depth |"; echo "|---|---|---|---|---|---|---|"; \
	   cat $(foreach b,$(BSPB_BOARDS),$(BSPB_OUT)/fw-$(b).txt) | sed -n 's/^B| /| /p'; echo; \
	   echo "| board | scene | query | tree (insn/query) | brute force (insn/query) | speed-up | agree |"; \
	   echo "|---|---|---|---|---|---|---|"; \
	   cat $(foreach b,$(BSPB_BOARDS),$(BSPB_OUT)/fw-$(b).txt) | sed -n 's/^Q| /| /p'; } >> $(BSPB_DOC)
	@echo "== bench-bsp: boards appended to $(BSPB_DOC)"
