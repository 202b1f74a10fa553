# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# libFuzzer targets (tests/fuzz/, docs/fuzz.md), clang with address and undefined sanitizers.
#   make fuzz               each target for FUZZ_SECONDS (default 60), from its corpus; new
#                           inputs go to build/fuzz/work-<target>, crashes to build/fuzz/crash-<target>/
#   make fuzz-smoke         (part of make test) each target over its corpus, the inputs of its past
#                           findings (tests/fuzz/findings/<target>/, kept as they were found), the
#                           inputs its CPU-hour campaigns added (tests/fuzz/campaign/<target>/, a set
#                           cover of their edges: docs/fuzz.md) and FUZZ_RUNS seeded runs, a log per
#                           target: build/logs/fuzz-<target>.log
#   make fuzz-corpus        regenerate tests/fuzz/corpus/ from real saves (tests/fuzz/make_corpus.c)
#   make fuzz-run FUZZ_TARGET=fuzz_bvh_view FUZZ_ARGS=crash-file   one target, libFuzzer's own options

FUZZ_TARGETS := $(sort $(basename $(notdir $(filter-out tests/fuzz/fuzz_common.c,$(wildcard tests/fuzz/fuzz_*.c)))))
FUZZ_LOGS    := $(addprefix fuzz-,$(FUZZ_TARGETS))
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 8000
FUZZ_OUT     := $(B)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -O1 -g $(WARN) $(FP_FLAGS) -Iinclude -Itests/fuzz $(FUZZ_SAN) -MMD -MP
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_OUT)/%.o) $(FUZZ_OUT)/tests/fuzz/fuzz_common.o

.PHONY: fuzz fuzz-smoke fuzz-corpus fuzz-run fuzz-build

# The library and shared code with coverage counters, the targets with libFuzzer's main.
$(FUZZ_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  fuzz $<"
	@clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_OUT)/fuzz_%: $(FUZZ_OUT)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	@echo "  LD  $@"
	@clang $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lm

# The point-cloud readers are host tool code, linked into their own target only.
$(FUZZ_OUT)/fuzz_pointcloud: $(FUZZ_OUT)/tools/lib/pointcloud_load.o

.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_OUT)/tools/lib/pointcloud_load.o $(FUZZ_TARGETS:%=$(FUZZ_OUT)/tests/fuzz/%.o)

fuzz-build: deps-test $(addprefix $(FUZZ_OUT)/,$(FUZZ_TARGETS))

# Short and seeded: the corpus, then FUZZ_RUNS mutations; a crash, leak or failed property fails.
fuzz-smoke: fuzz-build
	@mkdir -p $(B)/logs
	@echo "== fuzz smoke ($(FUZZ_TARGETS), $(FUZZ_RUNS) runs each)"
	@for t in $(FUZZ_TARGETS); do \
	   rm -rf $(FUZZ_OUT)/smoke-$$t && mkdir -p $(FUZZ_OUT)/smoke-$$t; \
	   (cd $(FUZZ_OUT)/smoke-$$t && timeout 300 ../$$t -seed=1 -runs=$(FUZZ_RUNS) -max_len=4096 \
	      -print_final_stats=1 . ../../../tests/fuzz/corpus/$$t \
	      $$(ls -d ../../../tests/fuzz/findings/$$t ../../../tests/fuzz/campaign/$$t 2>/dev/null); rc=$$?; \
	    if [ $$rc -eq 0 ]; then echo "ok   $$t: corpus and $(FUZZ_RUNS) runs"; echo "1 passed, 0 failed"; \
	    else echo "FAIL $$t: libFuzzer exit $$rc (input saved in $(FUZZ_OUT)/smoke-$$t)"; echo "0 passed, 1 failed"; fi; \
	    echo "rc=$$rc") > $(B)/logs/fuzz-$$t.log 2>&1; \
	   grep -hE '^(FAIL|ok   |stat::(number_of_executed_units|average_exec_per_sec))|cov: .*DONE' $(B)/logs/fuzz-$$t.log; \
	 done

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	   mkdir -p $(FUZZ_OUT)/work-$$t $(FUZZ_OUT)/crash-$$t; \
	   echo "== fuzz $$t ($(FUZZ_SECONDS) s)"; \
	   $(FUZZ_OUT)/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 \
	     -artifact_prefix=$(FUZZ_OUT)/crash-$$t/ $(FUZZ_OUT)/work-$$t tests/fuzz/corpus/$$t \
	     $$(ls -d tests/fuzz/campaign/$$t 2>/dev/null) 2>&1 \
	     | grep -E 'DONE|stat::|ERROR|property|SUMMARY|Test unit written'; done

fuzz-run: fuzz-build
	$(FUZZ_OUT)/$(FUZZ_TARGET) $(FUZZ_ARGS)

$(FUZZ_OUT)/make_corpus: tests/fuzz/make_corpus.c tests/fuzz/fuzz_common.c $(LIB_SRC)
	@mkdir -p $(dir $@)
	@gcc -std=c11 -O1 $(WARN) $(FP_FLAGS) -Iinclude -Itests/fuzz -o $@ $^ -lm

fuzz-corpus: $(FUZZ_OUT)/make_corpus
	@rm -rf tests/fuzz/corpus && mkdir -p $(addprefix tests/fuzz/corpus/,$(FUZZ_TARGETS))
	@$(FUZZ_OUT)/make_corpus tests/fuzz/corpus
	@for t in $(FUZZ_TARGETS); do echo "  $$t: $$(ls tests/fuzz/corpus/$$t | wc -l) seeds"; done
