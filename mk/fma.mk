# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# fma-run (part of make test): the library and the same-bytes suite built the way a user might,
# WITHOUT -ffp-contract=off and with multiply-add contraction allowed, on CPUs that have FMA:
#   fma-gcc-haswell    gcc -march=haswell -ffp-contract=fast (x86-64 FMA3; this machine has it)
#   fma-clang-haswell  clang -march=haswell -ffp-contract=on (clang's default contraction)
#   fma-mps2-an386     arm-none-eabi-gcc -ffp-contract=fast on the Cortex-M4F (VFMA.F32), QEMU
#   fma-rv32imafc      riscv64-unknown-elf-gcc -ffp-contract=fast on RV32F (fmadd.s), QEMU
# Each prints the suite's checksum lines; tools/same-bytes (in make test) compares them with
# every other run. The library stays exact through the pragmas in src/geom/geom_internal.h.
# fma-asm counts fused multiply-adds in the library objects of those builds: there must be none.

FMA_SRC     := $(LIB_SRC) tests/same_bytes_main.c tests/test_same_bytes.c tests/harness/test.c $(PORT_COMMON) \
               port/host/port_host.c
FMA_HOSTS   := gcc-haswell clang-haswell
FMA_CFLAGS  := -O2 -g $(WARN) -fno-math-errno $(INC) -DCOPSE_HOST=1 -march=haswell -MMD -MP
FMA_FLAGS_gcc-haswell   := -std=c11 -ffp-contract=fast
FMA_FLAGS_clang-haswell := -std=c11 -ffp-contract=on
FMA_CC_gcc-haswell      := gcc
FMA_CC_clang-haswell    := clang
FMA_BOARDS  := mps2-an386 rv32imafc
FMA_X_FLAGS := -fno-math-errno -ffp-contract=fast

.PHONY: fma-run fma-asm fma-asm-board

define fma_host_rules
$(B)/fma-$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	@echo "  CC  fma-$(1) $$<"
	@$(FMA_CC_$(1)) $(FMA_FLAGS_$(1)) $(FMA_CFLAGS) -c $$< -o $$@

$(B)/fma-$(1)/same_bytes: $(FMA_SRC:%.c=$(B)/fma-$(1)/%.o)
	@echo "  LD  $$@"
	@$(FMA_CC_$(1)) -o $$@ $$^ -lm
endef
$(foreach h,$(FMA_HOSTS),$(eval $(call fma_host_rules,$(h))))

ifdef BOARD
$(X_OUT)/same_bytes.elf: $(X_OUT)/tests/same_bytes_main.o $(X_OUT)/tests/test_same_bytes.o \
                         $(X_OUT)/tests/harness/test.o $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	$(Q)$(X_CC) $(X_LDFLAGS) -o $@ $^ $(X_LDLIBS)

# make BOARD=<b> X_VARIANT=fma fma-asm-board: the architecture's multiply-adds in that library
fma-asm-board:
	@[ -f $(X_OUT)/libcopse.a ] || { echo "FAIL fma-$(BOARD): $(X_OUT)/libcopse.a missing (make fma-run builds it)"; exit 0; }; \
	 c=$$($(ARCH_PREFIX)objdump -d $(X_OUT)/libcopse.a | grep -ciE '$(ARCH_FMA_INSN)'); \
	 if [ "$$c" -eq 0 ]; then echo "ok   fma-$(BOARD): no fused multiply-add in the library"; \
	 else echo "FAIL fma-$(BOARD): $$c multiply-add instructions in the library"; fi
endif

# One log per build: the suite's own "N passed, N failed" and the exit status.
fma-run:
	@mkdir -p $(B)/logs
	@echo "== fma (contraction allowed: $(addprefix fma-,$(FMA_HOSTS) $(FMA_BOARDS)))"
	@for h in $(FMA_HOSTS); do \
	   if $(MAKE) --no-print-directory -s $(B)/fma-$$h/same_bytes >/dev/null; then \
	     (timeout 300 $(B)/fma-$$h/same_bytes; echo "rc=$$?") > $(B)/logs/fma-$$h.log 2>&1; \
	   else echo "FAIL fma-$$h: did not build"; fi; done
	@for b in $(FMA_BOARDS); do \
	   if $(MAKE) --no-print-directory -s BOARD=$$b X_VARIANT=fma FP_FLAGS="$(FMA_X_FLAGS)" \
	       $(B)/$$b-fma/same_bytes.elf >/dev/null; then \
	     (tools/qemu-run $$b $(B)/$$b-fma/same_bytes.elf; echo "rc=$$?") > $(B)/logs/fma-$$b.log 2>&1; \
	   else echo "FAIL fma-$$b: did not build"; fi; done
	@grep -hE '^(FAIL|  .*check failed)' $(B)/logs/fma-*.log; true

# The contraction really is off in those builds: no fused multiply-add in any library object.
fma-asm: fma-run
	@mkdir -p $(B)/logs
	@echo "== fma-asm"
	@(n=0; for h in $(FMA_HOSTS); do \
	    c=$$(objdump -d $(addprefix $(B)/fma-$$h/,$(LIB_SRC:%.c=%.o)) | grep -ciE '\bvf(n)?m(add|sub)'); \
	    if [ "$$c" -eq 0 ]; then echo "ok   fma-$$h: no FMA instruction in the library"; \
	    else echo "FAIL fma-$$h: $$c FMA instructions in the library"; n=$$((n + 1)); fi; done; \
	  for b in $(FMA_BOARDS); do $(MAKE) --no-print-directory -s BOARD=$$b X_VARIANT=fma fma-asm-board; done \
	    > $(B)/fma-asm-boards.out; cat $(B)/fma-asm-boards.out; n=$$((n + $$(grep -c '^FAIL' $(B)/fma-asm-boards.out))); \
	  t=$$(( $(words $(FMA_HOSTS) $(FMA_BOARDS)) )); echo "$$((t - n)) passed, $$n failed"; echo "rc=$$n") > $(B)/logs/fma-asm.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/fma-asm.log; grep -q '^rc=0$$' $(B)/logs/fma-asm.log

# ---------------------------------------------------------------------------------------------
# same-bytes (part of make test, after every run): the checksum lines of tests/test_same_bytes.c
# must be identical in every host configuration, every board, the big-endian run and the
# FMA-contracting builds (tools/same-bytes; a board split into several images has one log each).
SAME_BYTES_RUNS = $(addprefix host-,$(HOST_CONFIGS)) $(addprefix board-,$(BOARDS)) bigendian-s390x \
                  $(addprefix fma-,$(FMA_HOSTS) $(FMA_BOARDS))

.PHONY: same-bytes
same-bytes:
	@mkdir -p $(B)/logs
	@echo "== same bytes"
	@(tools/same-bytes $(B)/logs $(firstword $(SAME_BYTES_RUNS)) $(wordlist 2,99,$(SAME_BYTES_RUNS)); \
	  echo "rc=$$?") > $(B)/logs/same-bytes.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/same-bytes.log; grep -q '^rc=0$$' $(B)/logs/same-bytes.log
