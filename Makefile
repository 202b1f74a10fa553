# SPDX-License-Identifier: MIT
# copse — spatial acceleration trees for machines with fixed memory.
#
#   make test          everything that must pass: host (gcc, clang; C99, C11), ASan+UBSan,
#                      freestanding checks of the core, the suite, the runner's checks and the
#                      demos on every QEMU board (Arm and RISC-V), the build-only boards, the
#                      examples, big endian under qemu-s390x (mk/bigendian.mk), builds that allow
#                      FMA (mk/fma.mk), the same-bytes checksums compared across all of them, the
#                      hostile-API suite 64-bit and -m32 (mk/hostile.mk), and a short seeded run
#                      of every fuzz target (mk/fuzz.mk); TEST_JOBS (2) at once
#   make fuzz          each libFuzzer target for FUZZ_SECONDS (docs/fuzz.md)
#   make demo          the demos (warehouse, arm cell) under QEMU (mps2-an386, or BOARD=<b>) and on
#                      the host, answers compared; make demo-table: instructions per query, every board
#   make bench         benchmarks on the host and instruction counts under QEMU -> docs/benchmarks.md
#   make BOARD=<b>     library, tests and demo for one board (boards/<b>/)
#   make size          flash and RAM of each library module on every board
#   make stack         worst-case stack of each public function on Cortex-M4 -> docs/stack.md
#                      (STACK_BOARD=<b>: any other board, RISC-V too)
#   make tool          the copse host tool (bake, stats, query, svg, robot) -> build/tool/copse (docs/tool.md)
#   make lib / make install PREFIX=<dir>   libcopse.a, headers and copse.pc (docs/integration.md)
#
# Every entry point first installs the Debian packages it is missing (tools/ensure-deps; NO_INSTALL=1
# skips that). V=1 shows every command; make help lists every target (mk/help.mk).

# Boards: one folder each in boards/ (board.mk names the architecture, port/<arch>/arch.mk).
# A board whose board.mk names a QEMU machine runs the suite under QEMU in make test (BOARDS);
# the others are build-only (BUILD_ONLY_BOARDS): their library, tests and demo are built and
# linked against the part's real memory map, so they still prove the code fits.
ALL_BOARDS        := $(sort $(patsubst boards/%/board.mk,%,$(wildcard boards/*/board.mk)))
BOARDS            := $(sort $(patsubst boards/%/board.mk,%,$(shell grep -l '^QEMU_MACHINE' boards/*/board.mk)))
BUILD_ONLY_BOARDS := $(filter-out $(BOARDS),$(ALL_BOARDS))
DEFAULT_BOARD     := mps2-an386
HOST_CONFIGS  := gcc-c99 gcc-c11 clang-c99 clang-c11 asan-ubsan
DATA          ?= ../shared/data
B             ?= build

LIB_SRC       := $(sort $(wildcard src/*/*.c))
LIB_MODULES   := $(sort $(notdir $(patsubst %/,%,$(dir $(LIB_SRC)))))
TEST_SRC      := tests/test_main.c tests/harness/test.c $(sort $(wildcard tests/test_*.c tests/oracle/*.c))
HOST_TEST_SRC := $(sort $(wildcard tests/host/*.c)) tools/lib/mesh_load.c
PORT_COMMON   := port/common/print.c

WARN     := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wdouble-promotion -Wcast-qual -Wundef
# Same input, same bytes: no multiply-add contraction, on any compiler or target.
FP_FLAGS := -ffp-contract=off -fno-math-errno
INC      := -Iinclude -Iport -Itests/harness -Itests -Itools/lib

# every architecture's toolchain, C library and QEMU (port/*/arch.mk)
ARCH_ALL_DEPS := $(sort $(shell sed -n 's/^ARCH_\(QEMU_\)\{0,1\}DEPS *:= *//p' port/*/arch.mk))
DEPS_TEST  := gcc g++ clang make python3 $(ARCH_ALL_DEPS) libassimp-dev liburdfdom-dev libclang-rt-14-dev
# NO_INSTALL=1: install nothing (no apt; the tools are yours to provide). V=1: every command in full.
ENSURE     := $(if $(NO_INSTALL),true,tools/ensure-deps)
Q          := $(if $(filter 1,$(V)),,@)

.PHONY: all test deps-test host host-run board board-run board-build runner-check runner-run runner-checks \
        core-check check-core clean

ifdef BOARD
all: board
else
all: host
endif

deps-test:
	@$(ENSURE) $(DEPS_TEST)

# ---------------------------------------------------------------------------------------------
# make test: every job runs even when another fails; the total decides. The jobs are independent
# (each builds in its own folders and writes its own logs) and single-threaded (one compiler, one
# QEMU or one test program at a time), so TEST_JOBS of them run at once (make -j, output kept per
# job); the longest are listed first. Before them, test-prep builds what several share (the host
# library, the copse tool and the demos' host side); after them, the checks over every job's
# results. $(B)/logs/times.txt: each job's wall time.
TEST_JOBS ?= 2
TEST_JOB_ALL   := $(addprefix board-,$(BOARDS)) $(addprefix host-,$(HOST_CONFIGS)) bigendian fuzz hostile fma \
                  $(addprefix build-,$(BUILD_ONLY_BOARDS)) spdx size
# Longest first (minutes of CPU, measured: rv32imafc 8, mps2-an385 4.3, asan-ubsan and the tool's
# tests ..., rv32imac 4, mps2-an505 4, ...): a job not named here starts after these.
TEST_FIRST     := board-rv32imafc board-mps2-an385 host-asan-ubsan board-rv32imac board-mps2-an505 \
                  bigendian board-mps2-an386 fuzz hostile host-gcc-c11
TEST_JOB_NAMES := $(filter $(TEST_JOB_ALL),$(TEST_FIRST)) $(filter-out $(TEST_FIRST),$(TEST_JOB_ALL))

test: deps-test
	@rm -rf $(B)/logs && mkdir -p $(B)/logs
	@start=$$(date +%s); \
	 $(MAKE) --no-print-directory -j$(TEST_JOBS) test-prep > $(B)/logs/test-prep.out 2>&1 || \
	   { cat $(B)/logs/test-prep.out; echo "FAIL test-prep: the shared host builds failed"; }; \
	 $(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=recurse test-jobs || true; \
	 $(MAKE) --no-print-directory check-core || true; \
	 $(MAKE) --no-print-directory same-bytes || true; \
	 echo "== total: $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s, $(TEST_JOBS) jobs at a time"
	@tools/summarize $(B)/logs $(addprefix host-,$(HOST_CONFIGS)) core-checks $(addprefix board-,$(BOARDS)) \
	    $(addprefix runner-,$(BOARDS)) $(addprefix demo-,$(BOARDS)) $(addprefix build-,$(BUILD_ONLY_BOARDS)) \
	    examples integration spdx help config tool bigendian-s390x $(addprefix fma-,$(FMA_HOSTS) $(FMA_BOARDS)) fma-asm \
	    same-bytes size $(HOSTILE_LOGS) $(FUZZ_LOGS)

# The host side that the examples, the integration check and every board's demo use (CONFIG gcc-c11).
test-prep:
	@$(MAKE) --no-print-directory CONFIG=gcc-c11 $(B)/host-gcc-c11/libcopse.a $(B)/host-gcc-c11/tool/copse \
	  $(foreach v,full small,$(B)/host-gcc-c11/demo-$(v)/copse_demo $(B)/host-gcc-c11/demo-$(v)/copse_arm)

# One job: its commands (each one's failure is in its log, not the job's status), then its time.
timed = t0=$$(date +%s); $(2); echo "$(1) $$(( $$(date +%s) - t0 )) s" >> $(B)/logs/times.txt
SUB  := $(MAKE) --no-print-directory

.PHONY: test-prep test-jobs $(addprefix tj-,$(TEST_JOB_NAMES))
test-jobs: $(addprefix tj-,$(TEST_JOB_NAMES))

# a QEMU board: the suite, the runner's fault and hang checks, the demos against the host
$(addprefix tj-board-,$(BOARDS)): tj-board-%:
	+@$(call timed,board-$*,$(SUB) BOARD=$* board-run || true; $(SUB) BOARD=$* runner-run || true; \
	   $(SUB) BOARD=$* demo-run || true)
$(addprefix tj-build-,$(BUILD_ONLY_BOARDS)): tj-build-%:
	+@$(call timed,build-$*,$(SUB) BOARD=$* board-build || true)
# gcc-c11 is the CONFIG of the examples and the integration check; asan-ubsan that of the tool's tests
tj-host-gcc-c11:
	+@$(call timed,host-gcc-c11,$(SUB) host-run CONFIG=gcc-c11 || true; $(SUB) examples-run || true; \
	   $(SUB) integration-check || true)
tj-host-asan-ubsan:
	+@$(call timed,host-asan-ubsan,$(SUB) host-run CONFIG=asan-ubsan || true; $(SUB) tool-check CONFIG=asan-ubsan || true)
$(addprefix tj-host-,$(filter-out asan-ubsan gcc-c11,$(HOST_CONFIGS))): tj-host-%:
	+@$(call timed,host-$*,$(SUB) host-run CONFIG=$* || true)
tj-bigendian:
	+@$(call timed,bigendian,$(SUB) bigendian-run || true)
tj-fuzz:
	+@$(call timed,fuzz,$(SUB) fuzz-smoke || true)
tj-hostile:
	+@$(call timed,hostile,$(SUB) hostile-run || true)
tj-fma:
	+@$(call timed,fma,$(SUB) fma-asm || true)
tj-size:
	+@$(call timed,size,$(SUB) size-check || true)
tj-spdx:
	+@$(call timed,spdx,$(SUB) spdx-check || true; $(SUB) help-check || true; \
	   $(SUB) config-check || true)

# ---------------------------------------------------------------------------------------------
# Host builds. CONFIG picks the compiler, the C standard and the sanitizers.
CONFIG ?= gcc-c11
H_CC   := $(if $(findstring clang,$(CONFIG)),clang,gcc)
H_STD  := $(if $(findstring c99,$(CONFIG)),c99,c11)
# float-cast-overflow: gcc's -fsanitize=undefined leaves it out (inf or NaN to an integer)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
H_SAN  := $(if $(findstring asan,$(CONFIG)),$(SAN_FLAGS))
H_OUT  := $(B)/host-$(CONFIG)
# clang-c99 also proves the depth cap can be lowered: a cap of 24 levels, queries and tests alike.
H_DEPTH  := $(if $(findstring clang-c99,$(CONFIG)),-DCOPSE_BVH_MAX_DEPTH=24u)
H_CFLAGS := -std=$(H_STD) -O2 -g $(WARN) $(FP_FLAGS) $(INC) $(H_SAN) $(H_DEPTH) -DCOPSE_HOST=1 -MMD -MP
H_LIBS   := -lassimp -lm

H_LIB_OBJ  := $(LIB_SRC:%.c=$(H_OUT)/%.o)
H_TEST_OBJ := $(TEST_SRC:%.c=$(H_OUT)/%.o) $(HOST_TEST_SRC:%.c=$(H_OUT)/%.o) \
              $(H_OUT)/port/common/print.o $(H_OUT)/port/host/port_host.o

host: $(H_OUT)/copse_tests

$(H_OUT)/libcopse.a: $(H_LIB_OBJ)
	@rm -f $@
	$(Q)ar rcs $@ $^

$(H_OUT)/copse_tests: $(H_TEST_OBJ) $(H_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(H_CC) $(H_SAN) -o $@ $^ $(H_LIBS)

$(H_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $<"
	$(Q)$(H_CC) $(H_CFLAGS) -c $< -o $@

host-run: $(H_OUT)/copse_tests
	@mkdir -p $(B)/logs
	@echo "== host $(CONFIG)"
	@(timeout 1200 $(H_OUT)/copse_tests --data $(DATA); echo "rc=$$?") > $(B)/logs/host-$(CONFIG).log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/host-$(CONFIG).log; grep -q '^rc=0$$' $(B)/logs/host-$(CONFIG).log

# ---------------------------------------------------------------------------------------------
# Board builds: the library freestanding, the same tests, semihosting, QEMU.
ifdef BOARD
include boards/$(BOARD)/board.mk
# The board names its architecture; the architecture its toolchain, C library and link flags.
include port/$(BOARD_ARCH)/arch.mk
# X_VARIANT: another build of the same board in its own folder (mk/fma.mk: fma)
X_OUT     := $(B)/$(BOARD)$(if $(X_VARIANT),-$(X_VARIANT))
X_CC      := $(ARCH_PREFIX)gcc
X_OPT     ?= -O2
# The tests, port and demo code; a board short of flash builds them for size (boards/microbit).
X_APP_OPT ?= $(X_OPT)
X_COMMON  := $(BOARD_CFLAGS) -g -std=c99 $(WARN) $(FP_FLAGS) $(INC) -ffunction-sections \
             -fdata-sections -MMD -MP
# The core needs no libc header (docs/design.md rule 1): only the compiler's own (stdint.h, float.h ...).
# "=": asked when a library object is compiled, after x-deps installed the compiler.
X_CC_INCLUDE = $(shell $(X_CC) -print-file-name=include)
X_LIBFLAGS = $(X_COMMON) $(X_OPT) -ffreestanding -nostdinc -isystem $(X_CC_INCLUDE)
X_APPFLAGS := $(X_COMMON) $(X_APP_OPT) $(ARCH_APPFLAGS) $(BOARD_APPFLAGS) -DCOPSE_BOARD_NAME=\"$(BOARD)\" \
              -Iport/common -Iport/$(BOARD_ARCH)
X_LDFLAGS := $(BOARD_CFLAGS) $(ARCH_LDFLAGS) -Wl,--gc-sections -Lboards/$(BOARD) \
             -Tport/$(BOARD_ARCH)/$(BOARD_ARCH).ld
X_LDLIBS  := $(ARCH_LDLIBS)
# port/common/board.c: what every board's port shares (semihosting text and exit, scratch, stack)
X_PORT_SRC := $(PORT_COMMON) port/common/board.c $(sort $(wildcard port/$(BOARD_ARCH)/*.c))

X_LIB_OBJ  := $(LIB_SRC:%.c=$(X_OUT)/lib/%.o)
X_TEST_OBJ := $(filter-out $(X_OUT)/tests/test_main.o,$(TEST_SRC:%.c=$(X_OUT)/%.o)) \
              $(X_PORT_SRC:%.c=$(X_OUT)/%.o)
# One test image, or one per part where the board lists TEST_PARTS (tests/suites.h).
TEST_PARTS ?= 0
X_TEST_ELFS := $(foreach p,$(TEST_PARTS),$(X_OUT)/copse_tests$(if $(filter 0,$(p)),,-p$(p)).elf)

board: $(X_TEST_ELFS)

$(X_OUT)/libcopse.a: $(X_LIB_OBJ)
	@rm -f $@
	$(Q)$(ARCH_PREFIX)ar rcs $@ $^

# The architecture's toolchain and C library, installed when missing (tools/ensure-deps).
.PHONY: x-deps x-qemu-deps
x-deps:
	@$(ENSURE) $(ARCH_DEPS)
x-qemu-deps:
	@$(ENSURE) $(ARCH_DEPS) $(ARCH_QEMU_DEPS)

$(X_OUT)/lib/%.o: %.c | x-deps
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $<"
	$(Q)$(X_CC) $(X_LIBFLAGS) -fstack-usage -fcallgraph-info=su -c $< -o $@

$(X_OUT)/%.o: %.c | x-deps
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $<"
	$(Q)$(X_CC) $(X_APPFLAGS) -c $< -o $@

$(X_OUT)/tests/test_main-p%.o: tests/test_main.c | x-deps
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (part $*)"
	$(Q)$(X_CC) $(X_APPFLAGS) -DCOPSE_TEST_PART=$* -c $< -o $@

$(X_OUT)/copse_tests.elf: $(X_OUT)/tests/test_main-p0.o $(X_TEST_OBJ) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(@:.elf=.map) -o $@ $^ $(X_LDLIBS)

$(X_OUT)/copse_tests-p%.elf: $(X_OUT)/tests/test_main-p%.o $(X_TEST_OBJ) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(@:.elf=.map) -o $@ $^ $(X_LDLIBS)

$(X_OUT)/tests/selftest/fault.o: X_APPFLAGS += $(if $(UNMAPPED_ADDRESS),-DCOPSE_UNMAPPED_ADDRESS=$(UNMAPPED_ADDRESS)u)
$(X_OUT)/selftest-%.elf: $(X_OUT)/tests/selftest/%.o $(X_PORT_SRC:%.c=$(X_OUT)/%.o)
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -o $@ $^ $(X_LDLIBS)

# The runner must turn a fault into exit 99 and a hang into a time-out (124).
runner-check: $(X_OUT)/selftest-fault.elf $(X_OUT)/selftest-hang.elf | x-qemu-deps
	@tools/qemu-run $(BOARD) $(X_OUT)/selftest-fault.elf >$(X_OUT)/selftest-fault.out 2>&1; rc=$$?; \
	 if [ $$rc -eq 99 ] && grep -q 'FAULT: pc=' $(X_OUT)/selftest-fault.out; then echo "ok   $(BOARD): fault reported, exit 99"; \
	 else echo "FAIL $(BOARD): fault gave rc=$$rc"; cat $(X_OUT)/selftest-fault.out; fi
	@QEMU_TIMEOUT=2 tools/qemu-run $(BOARD) $(X_OUT)/selftest-hang.elf >$(X_OUT)/selftest-hang.out 2>&1; rc=$$?; \
	 if [ $$rc -eq 124 ]; then echo "ok   $(BOARD): hang stopped by the time limit, exit 124"; \
	 else echo "FAIL $(BOARD): hang gave rc=$$rc"; fi

# make test's part: the same as a log, $(B)/logs/runner-<board>.log
runner-run:
	@mkdir -p $(B)/logs
	@$(MAKE) --no-print-directory -s $(X_OUT)/selftest-fault.elf $(X_OUT)/selftest-hang.elf >/dev/null 2>&1; \
	 ($(MAKE) --no-print-directory -s runner-check > $(X_OUT)/runner.out 2>&1; cat $(X_OUT)/runner.out; \
	  p=$$(grep -c '^ok' $(X_OUT)/runner.out); f=$$(grep -c '^FAIL' $(X_OUT)/runner.out); \
	  [ $$((p + f)) -eq 2 ] || f=$$((2 - p)); echo "$$p passed, $$f failed"; echo "rc=$$f") > $(B)/logs/runner-$(BOARD).log 2>&1; \
	 grep -vE '^(ok   |rc=0$$|[0-9]+ passed, 0 failed$$)' $(B)/logs/runner-$(BOARD).log; grep -q '^rc=0$$' $(B)/logs/runner-$(BOARD).log

# The time limits of each test image (a hang ends there): 1200 s of QEMU's CPU time, as the host
# run's limit, and an hour of wall time for a guest stuck without spending CPU. CPU time, since a
# busy machine stretches wall time: rv32imafc's suite takes 8 minutes of CPU under QEMU (libgcc's
# double helpers write fflags, and each CSR write ends QEMU's translation block) and twice that
# when it shares its core.
SUITE_CPU_LIMIT ?= 1200
SUITE_TIMEOUT   ?= 3600
board-run: $(X_TEST_ELFS) | x-qemu-deps
	@mkdir -p $(B)/logs
	@echo "== $(BOARD) ($(QEMU_SYSTEM) -M $(QEMU_MACHINE))"
	@(QEMU_CPU_LIMIT=$(SUITE_CPU_LIMIT) QEMU_TIMEOUT=$(SUITE_TIMEOUT) tools/run-parts $(BOARD) $^; echo "rc=$$?") > $(B)/logs/board-$(BOARD).log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/board-$(BOARD).log; grep -q '^rc=0$$' $(B)/logs/board-$(BOARD).log

# A build-only board (no QEMU machine): the test images and the demos, built and linked against
# the part's memory map (the link fails when they do not fit), with what each takes.
board-build: board
	@mkdir -p $(B)/logs
	@echo "== $(BOARD) (build only: $(BOARD_ARCH), $(filter -mcpu=% -march=%,$(BOARD_CFLAGS)))"
	@(n=0; for e in $(X_TEST_ELFS) $(X_DEMO_ELFS); do \
	    $(ARCH_PREFIX)size $$e | awk -v e=$$(basename $$e) 'NR == 2 { printf "ok   %s: %d bytes of flash, %d of RAM (.data + .bss)\n", e, $$1 + $$2, $$2 + $$3 }'; \
	    n=$$((n + 1)); done; echo "$$n passed, 0 failed"; echo "rc=0") > $(B)/logs/build-$(BOARD).log 2>&1; \
	 cat $(B)/logs/build-$(BOARD).log | grep -v '^rc='

# tools/check-core on this board's library objects, with its architecture's helpers;
# CORE_NOSTDINC=1 also compiles the core with its compiler and -nostdinc, source by source.
core-check: $(X_OUT)/libcopse.a
	@tools/check-core --name $(BOARD) --prefix $(ARCH_PREFIX) --helpers '$(ARCH_HELPERS)' \
	  $(if $(CORE_NOSTDINC),--nostdinc $(X_CC)) $(X_OUT)/lib
endif

# ---------------------------------------------------------------------------------------------
# The core's promises (tools/check-core) on every board's library objects: no heap, stdio or exit
# symbols, no helper but its architecture's, float only, no recursion. And no libc header: the
# core compiles with -nostdinc and only the compiler's own headers, with the host's gcc and with
# each architecture's compiler (every board library is built that way too).
check-core:
	@mkdir -p $(B)/logs
	@echo "== core checks ($(words $(ALL_BOARDS)) boards)"
	@(archs=; for b in $(ALL_BOARDS); do \
	    a=$$(sed -n 's/^BOARD_ARCH *:= *//p' boards/$$b/board.mk); \
	    case " $$archs " in *" $$a "*) first=;; *) first=1; archs="$$archs $$a";; esac; \
	    $(MAKE) --no-print-directory -s BOARD=$$b $(B)/$$b/libcopse.a >/dev/null 2>&1 \
	      || echo "FAIL $$b: the library did not build"; \
	    $(MAKE) --no-print-directory -s BOARD=$$b core-check CORE_NOSTDINC=$$first \
	      || echo "FAIL $$b: the core checks did not run"; done; \
	  tools/check-core --name host --nostdinc gcc) > $(B)/core.out 2>&1; \
	 (grep -vE '^[0-9]+ passed, [0-9]+ failed$$' $(B)/core.out; p=$$(grep -c '^ok' $(B)/core.out); \
	  f=$$(grep -c '^FAIL' $(B)/core.out); echo "$$p passed, $$f failed"; echo "rc=$$f") > $(B)/logs/core-checks.log; \
	 grep -vE '^(ok   |rc=)' $(B)/logs/core-checks.log; grep -q '^rc=0$$' $(B)/logs/core-checks.log

# The runner's own failure paths (a fault is reported and exits 99, a hang times out), on every
# QEMU board (make test runs each board's part in its job).
runner-checks:
	@echo "== runner checks ($(words $(BOARDS)) boards)"
	@for b in $(BOARDS); do $(MAKE) --no-print-directory BOARD=$$b runner-run || true; done

clean:
	rm -rf $(B)

# Further entry points (bench, demo, size, stack ...) live in mk/, one file each.
-include $(sort $(wildcard mk/*.mk))

-include $(shell find $(B) -name '*.d' 2>/dev/null)
