# make bench-bsp   the BSP trees on the host: build time, nodes, bytes, depth, splits, and query
#                  throughput against brute force -> docs/benchmarks-bsp.md (bench/bench_bsp.c).
#                  `make bench` runs it first.

.PHONY: bench-bsp

BSPB_OUT    := $(B)/bench/bsp
BSPB_CFLAGS := -std=c99 -O2 -g $(WARN) $(FP_FLAGS) $(INC) -MMD -MP
BSPB_SRC    := bench/bench_bsp.c tools/lib/mesh_load.c $(LIB_SRC)
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

bench: bench-bsp
