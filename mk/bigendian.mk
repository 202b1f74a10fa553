# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# bigendian-run (part of make test): the portable suites cross-built for a big-endian Linux
# (s390x) and run under qemu-user. The blob suite saves little-endian blobs with the writers,
# sees the views refuse them (HOST_ORDER), converts them with copse_blob_to_host and compares
# the converted trees' answers with fresh builds; every other suite proves the builders and
# queries on a big-endian machine. No data files, no assimp: COPSE_NO_HOST_SUITES. Every
# instruction is emulated: COPSE_TEST_EMULATED sizes the slowest suites as on the QEMU boards.

BE_CC      := s390x-linux-gnu-gcc
BE_QEMU    := qemu-s390x
BE_SYSROOT := /usr/s390x-linux-gnu
BE_OUT     := $(B)/bigendian-s390x
BE_SRC     := $(LIB_SRC) $(TEST_SRC) $(PORT_COMMON) port/host/port_host.c
# s390x evaluates float in double under ISO C unless told not to (FLT_EVAL_METHOD 1)
BE_CFLAGS  := -std=c99 -fexcess-precision=fast -O2 -g $(WARN) $(FP_FLAGS) $(INC) -DCOPSE_HOST=1 -DCOPSE_NO_HOST_SUITES=1 -DCOPSE_TEST_EMULATED=1 -MMD -MP
DEPS_BE    := gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user

.PHONY: deps-bigendian bigendian bigendian-run

deps-bigendian:
	@$(ENSURE) $(DEPS_BE)

$(BE_OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  s390x $<"
	$(Q)$(BE_CC) $(BE_CFLAGS) -c $< -o $@

$(BE_OUT)/copse_tests: $(BE_SRC:%.c=$(BE_OUT)/%.o)
	@echo "  LD  $@"
	$(Q)$(BE_CC) -o $@ $^ -lm

bigendian: deps-bigendian
	@$(MAKE) --no-print-directory $(BE_OUT)/copse_tests

bigendian-run: bigendian
	@mkdir -p $(B)/logs
	@echo "== big endian (s390x, $(BE_QEMU))"
	@(timeout 1200 $(BE_QEMU) -L $(BE_SYSROOT) $(BE_OUT)/copse_tests; echo "rc=$$?") > $(B)/logs/bigendian-s390x.log 2>&1; \
	 grep -vE '^(ok   |info |rc=0$$)' $(B)/logs/bigendian-s390x.log; grep -q '^rc=0$$' $(B)/logs/bigendian-s390x.log
