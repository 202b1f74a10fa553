# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# The hostile-API suite (tests/hostile/, docs/hostile.md): every public function attacked, checked
# against the list tools/list-api generates from include/copse/*.h. Host only, two builds:
#   hostile-asan-ubsan   gcc, 64-bit, AddressSanitizer + UndefinedBehaviorSanitizer
#   hostile-m32          gcc -m32 (32-bit size_t and pointers), the same sanitizers; Debian's
#                        gcc-multilib, installed by tools/ensure-deps only when missing; a machine
#                        that cannot install it logs a skip (no failure)
#   make hostile-run     both, a log each: build/logs/hostile-<config>.log (part of make test)

HZ_CONFIGS := asan-ubsan m32
HOSTILE_LOGS := $(addprefix hostile-,$(HZ_CONFIGS))
HZ_GEN     := $(B)/hostile-gen
HZ_SRC     := $(sort $(wildcard tests/hostile/*.c)) tests/harness/test.c \
              port/common/print.c port/host/port_host.c
HZ_CFLAGS  := -std=c11 -O1 -g $(WARN) $(FP_FLAGS) $(INC) -I$(HZ_GEN) -DCOPSE_HOST=1 -MMD -MP
HZ_M32_DEPS := gcc-multilib

.PHONY: hostile hostile-run hostile-run-one

$(HZ_GEN)/hostile_api.h: tools/list-api $(wildcard include/copse/*.h)
	@mkdir -p $(dir $@)
	@tools/list-api --c > $@.tmp && mv $@.tmp $@

define HZ_BUILD
$(B)/hostile-$(1)/%.o: %.c $(HZ_GEN)/hostile_api.h
	@mkdir -p $$(dir $$@)
	@echo "  CC  hostile-$(1) $$<"
	@gcc $(2) $(SAN_FLAGS) $(HZ_CFLAGS) -c $$< -o $$@

$(B)/hostile-$(1)/copse_hostile: $(patsubst %.c,$(B)/hostile-$(1)/%.o,$(LIB_SRC) $(HZ_SRC))
	@echo "  LD  $$@"
	@gcc $(2) $(SAN_FLAGS) -o $$@ $$^ -lpthread -lm
endef
$(eval $(call HZ_BUILD,asan-ubsan,))
$(eval $(call HZ_BUILD,m32,-m32))

hostile: $(B)/hostile-asan-ubsan/copse_hostile

# One configuration, its log in build/logs (HZ_CONFIG=asan-ubsan|m32).
hostile-run-one:
	@mkdir -p $(B)/logs
	@echo "== hostile-API suite ($(HZ_CONFIG))"
	@log=$(B)/logs/hostile-$(HZ_CONFIG).log; \
	 if [ "$(HZ_CONFIG)" = m32 ] && ! { $(ENSURE) $(HZ_M32_DEPS) && \
	      echo 'int main(void){return 0;}' | gcc -m32 $(SAN_FLAGS) -x c - -o $(B)/hostile-m32-probe 2>/dev/null; }; then \
	   { echo "skip hostile-m32: gcc -m32 with the sanitizers does not work here ($(HZ_M32_DEPS) missing and not installable)"; \
	     echo "0 passed, 0 failed"; echo "rc=0"; } > $$log; cat $$log | head -1; exit 0; fi; \
	 if ! $(MAKE) --no-print-directory $(B)/hostile-$(HZ_CONFIG)/copse_hostile > $$log.build 2>&1; then \
	   cat $$log.build; { cat $$log.build; echo "FAIL hostile-$(HZ_CONFIG): build failed"; echo "rc=1"; } > $$log; exit 1; fi; \
	 (timeout 900 $(B)/hostile-$(HZ_CONFIG)/copse_hostile; echo "rc=$$?") > $$log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $$log; grep -q '^rc=0$$' $$log

hostile-run:
	@for c in $(HZ_CONFIGS); do $(MAKE) --no-print-directory hostile-run-one HZ_CONFIG=$$c || true; done
