# SPDX-License-Identifier: MIT
# make bench        host benchmarks on ../shared/data meshes + instruction counts under QEMU
#                   -> docs/benchmarks.md (method: bench/method.md)
# make bench-peers  copse against Embree, Bullet and CGAL in one process -> docs/benchmarks-peers.md
#
# Knobs:  BENCH_OPT="-O3 -march=native"  flags for the library and the bench programs (default -O2)
#         BENCH_ARGS="--quick"           extra bench_host / peers arguments (see bench/bench_host.c)
#         BENCH_DOC=file                 where make bench writes (default docs/benchmarks.md)
# Everything is built under $(B)/bench; nothing here touches the test builds.

.PHONY: bench bench-peers bench-host-bin bench-fw-elf bench-peers-bin

BENCH_OPT       ?= -O2
BENCH_ARGS      ?=
BENCH_BOARDS    ?= mps2-an386 microbit
BENCH_DOC       ?= docs/benchmarks.md
BENCH_PEERS_DOC ?= docs/benchmarks-peers.md
# The second host build, for the flags comparison table.
BENCH_OPT_FAST  := -O3 -march=native

BENCH_DEPS      := gcc make python3 gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm libassimp-dev
BENCH_PEER_DEPS := g++ make python3 libassimp-dev libembree-dev libbullet-dev libcgal-dev

bench_empty :=
bench_space := $(bench_empty) $(bench_empty)
# A directory name per flag set: "-O3 -march=native" -> O3_marchnative
bench_tag = $(subst =,,$(subst -,,$(subst $(bench_space),_,$(strip $(1)))))

BENCH_OUT := $(B)/bench
BH_OUT    := $(BENCH_OUT)/host_$(call bench_tag,$(BENCH_OPT))
BH_CFLAGS := -std=c99 $(BENCH_OPT) -g $(WARN) $(FP_FLAGS) $(INC) -MMD -MP
BH_OBJ    := $(addprefix $(BH_OUT)/,bench/bench_host.o bench/bench_common.o bench/trav_stats.o bench/host_clock.o \
             tools/lib/mesh_load.o) $(LIB_SRC:%.c=$(BH_OUT)/%.o)

# ---- host programs --------------------------------------------------------------------------

bench-host-bin: $(BH_OUT)/bench_host

$(BH_OUT)/bench_host: $(BH_OBJ)
	@echo "  LD  $@"
	@gcc $(BENCH_OPT) -o $@ $^ -lassimp -lm

$(BH_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  bench $(BENCH_OPT) $<"
	@gcc $(BH_CFLAGS) -c $< -o $@

# Peers: C++17 against Embree 3, Bullet and CGAL; copse's objects come from the same $(BH_OUT).
# "=": pkg-config runs only when the peers are built, not on every make invocation.
BP_CXXFLAGS  = -std=c++17 $(BENCH_OPT) -g -Wall -Wextra -Iinclude -Ibench -Itools/lib \
               $(shell pkg-config --cflags bullet 2>/dev/null || echo -I/usr/include/bullet) -MMD -MP
BP_LIBS      = -lembree3 $(shell pkg-config --libs bullet 2>/dev/null || echo -lBulletCollision -lLinearMath) \
               -lassimp -lm
BP_OBJ      := $(BH_OUT)/bench/peers/peers.o $(addprefix $(BH_OUT)/,bench/bench_common.o tools/lib/mesh_load.o) \
               $(LIB_SRC:%.c=$(BH_OUT)/%.o)

bench-peers-bin: $(BH_OUT)/bench_peers

$(BH_OUT)/bench_peers: $(BP_OBJ)
	@echo "  LD  $@"
	@g++ $(BENCH_OPT) -o $@ $^ $(BP_LIBS)

$(BH_OUT)/bench/peers/%.o: bench/peers/%.cpp
	@mkdir -p $(dir $@)
	@echo "  CXX bench $(BENCH_OPT) $<"
	@g++ $(BP_CXXFLAGS) -c $< -o $@

# ---- board firmware: the Makefile's board rules (flags, port, link script), our own target ----
# Invoked as $(MAKE) BOARD=<b> B=$(B)/bench bench-fw-elf, so X_OUT is $(B)/bench/<b>.

ifdef BOARD
BF_OBJ := $(X_OUT)/bench/bench_fw.o $(X_OUT)/bench/bench_common.o $(X_PORT_SRC:%.c=$(X_OUT)/%.o)

bench-fw-elf: $(X_OUT)/bench_fw.elf

$(X_OUT)/bench_fw.elf: $(BF_OBJ) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(X_OUT)/bench_fw.map -o $@ $^ $(X_LDLIBS)
endif

# ---- make bench -----------------------------------------------------------------------------

bench:
	@$(ENSURE) $(BENCH_DEPS)
	@$(MAKE) --no-print-directory bench-host-bin
	@$(MAKE) --no-print-directory bench-host-bin BENCH_OPT="$(BENCH_OPT_FAST)"
	@for b in $(BENCH_BOARDS); do \
	    $(MAKE) --no-print-directory BOARD=$$b B=$(BENCH_OUT) bench-fw-elf || exit 1; done
	@start=$$(date +%s); \
	 echo "== bench: host, $(BENCH_OPT) (meshes from $(DATA))"; \
	 $(BH_OUT)/bench_host --data $(DATA) --kv $(BENCH_OUT)/host.kv $(BENCH_ARGS) > $(BENCH_OUT)/host.md || exit 1; \
	 echo "== bench: host, $(BENCH_OPT) and $(BENCH_OPT_FAST) taking turns (SAH, two meshes, flags table)"; \
	 for i in 1 2 3; do \
	    for o in $(call bench_tag,$(BENCH_OPT)) $(call bench_tag,$(BENCH_OPT_FAST)); do \
	       $(BENCH_OUT)/host_$$o/bench_host --data $(DATA) --mesh dungeon.obj --mesh stanford-bunny.obj \
	          --builder sah --no-brute --no-stats --sweep none $(BENCH_ARGS) \
	          --kv $(BENCH_OUT)/flags-$$o-$$i.kv > /dev/null 2>&1 || exit 1; \
	    done; \
	 done; \
	 for b in $(BENCH_BOARDS); do \
	    echo "== bench: $$b under QEMU -icount"; \
	    tools/qemu-run $$b $(BENCH_OUT)/$$b/bench_fw.elf --icount > $(BENCH_OUT)/fw-$$b.txt || exit 1; \
	 done; \
	 python3 bench/report.py --out $(BENCH_DOC) --method bench/method.md --host $(BENCH_OUT)/host.md \
	    --kv="$(BENCH_OPT)=$(foreach i,1 2 3,$(BENCH_OUT)/flags-$(call bench_tag,$(BENCH_OPT))-$(i).kv)" \
	    --kv="$(BENCH_OPT_FAST)=$(foreach i,1 2 3,$(BENCH_OUT)/flags-$(call bench_tag,$(BENCH_OPT_FAST))-$(i).kv)" \
	    $(foreach b,$(BENCH_BOARDS),--board $(b)=$(BENCH_OUT)/fw-$(b).txt) \
	    --flags="gcc $(BENCH_OPT) $(FP_FLAGS); boards: arm-none-eabi-gcc -O2 $(FP_FLAGS)" \
	    --command "make bench$(if $(BENCH_ARGS), BENCH_ARGS=\"$(BENCH_ARGS)\")" \
	    --seconds $$(( $$(date +%s) - start )) && \
	 echo "== bench: wrote $(BENCH_DOC) ($$(( $$(date +%s) - start )) s of measuring)"

# ---- make bench-peers -------------------------------------------------------------------------

bench-peers:
	@$(ENSURE) $(BENCH_PEER_DEPS)
	@$(MAKE) --no-print-directory bench-peers-bin
	@$(MAKE) --no-print-directory bench-peers-bin BENCH_OPT="$(BENCH_OPT_FAST)"
	@start=$$(date +%s); \
	 echo "== bench-peers: copse ($(BENCH_OPT)) vs Embree, Bullet, CGAL (meshes from $(DATA))"; \
	 $(BH_OUT)/bench_peers --data $(DATA) --kv $(BENCH_OUT)/peers.kv $(BENCH_ARGS) > $(BENCH_OUT)/peers.md \
	    || exit 1; \
	 echo "== bench-peers: copse again, built with $(BENCH_OPT_FAST)"; \
	 $(BENCH_OUT)/host_$(call bench_tag,$(BENCH_OPT_FAST))/bench_peers --data $(DATA) --copse-only \
	    --kv $(BENCH_OUT)/peers-fast.kv $(BENCH_ARGS) > /dev/null || exit 1; \
	 python3 bench/report.py --out $(BENCH_PEERS_DOC) --peers $(BENCH_OUT)/peers.md --notes bench/peers/notes.md \
	    --kv="$(BENCH_OPT)=$(BENCH_OUT)/peers.kv" --kv="$(BENCH_OPT_FAST)=$(BENCH_OUT)/peers-fast.kv" \
	    --flags="copse: gcc $(BENCH_OPT) $(FP_FLAGS); peers: g++ $(BENCH_OPT), Debian's prebuilt libraries" \
	    --command "make bench-peers$(if $(BENCH_ARGS), BENCH_ARGS=\"$(BENCH_ARGS)\")" \
	    --seconds $$(( $$(date +%s) - start )) && \
	 echo "== bench-peers: wrote $(BENCH_PEERS_DOC) ($$(( $$(date +%s) - start )) s of measuring)"
