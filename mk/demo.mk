# ---------------------------------------------------------------------------------------------
# make demo: the warehouse demo (examples/warehouse) as firmware under QEMU -icount and as a
# host program, with every answer line compared. Lines starting with '#' are machine-specific
# (board name, instruction counts or nanoseconds) and are left out of the comparison.
#
#   make demo                        mps2-an386 (Cortex-M4F), the full warehouse
#   make demo DEMO_BOARD=microbit    Cortex-M0 with 16 KB RAM: the small warehouse (DEMO_SMALL=1)
#   make demo CONFIG=asan-ubsan      the host side under ASan + UBSan
#
# `make BOARD=<b>` also builds $(B)/<b>/copse_demo.elf.

DEMO_BOARD        ?= $(DEFAULT_BOARD)
DEMO_SMALL_BOARDS := microbit
DEMO_SRC          := $(sort $(wildcard examples/warehouse/*.c))
DEMO_DEPS         := gcc make gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
DEMO_OUT          := $(B)/demo

.PHONY: demo demo-compare demo-check

# Part of make test: the same comparison, its verdict as a log line for tools/summarize.
demo-check:
	@mkdir -p $(B)/logs
	@echo "== demo (mps2-an386 and host, answers compared)"
	@{ if $(MAKE) --no-print-directory BOARD=$(DEFAULT_BOARD) demo-compare > $(B)/logs/demo.out 2>&1; \
	   then echo "ok   demo: $$(tail -n 1 $(B)/logs/demo.out)"; echo "1 passed, 0 failed"; \
	   else cat $(B)/logs/demo.out; echo "FAIL demo"; echo "0 passed, 1 failed"; fi; echo "rc=0"; } \
	   > $(B)/logs/demo.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/demo.log; grep -q '^1 passed' $(B)/logs/demo.log

demo:
	@$(ENSURE) $(DEMO_DEPS)
	@$(MAKE) --no-print-directory BOARD=$(DEMO_BOARD) demo-compare

# Host builds of the demo, one per scene size (the library and port objects are the test build's).
DEMO_HOST_PORT := $(H_OUT)/port/common/print.o $(H_OUT)/port/host/port_host.o
DEMO_HOST_FULL_OBJ  := $(DEMO_SRC:%.c=$(H_OUT)/demo-full/%.o)
DEMO_HOST_SMALL_OBJ := $(DEMO_SRC:%.c=$(H_OUT)/demo-small/%.o)

$(DEMO_HOST_FULL_OBJ): $(H_OUT)/demo-full/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $< (demo, full scene)"
	@$(H_CC) $(H_CFLAGS) -DDEMO_SMALL=0 -c $< -o $@

$(DEMO_HOST_SMALL_OBJ): $(H_OUT)/demo-small/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $< (demo, small scene)"
	@$(H_CC) $(H_CFLAGS) -DDEMO_SMALL=1 -c $< -o $@

define demo_host_link
	@echo "  LD  $@"
	@$(H_CC) $(H_SAN) -o $@ $^ -lm
endef
$(H_OUT)/demo-full/copse_demo: $(DEMO_HOST_FULL_OBJ) $(DEMO_HOST_PORT) $(H_OUT)/libcopse.a
	$(demo_host_link)
$(H_OUT)/demo-small/copse_demo: $(DEMO_HOST_SMALL_OBJ) $(DEMO_HOST_PORT) $(H_OUT)/libcopse.a
	$(demo_host_link)

ifdef BOARD
DEMO_VARIANT  := $(if $(filter $(BOARD),$(DEMO_SMALL_BOARDS)),small,full)
DEMO_X_OBJ    := $(DEMO_SRC:%.c=$(X_OUT)/demo/%.o)
DEMO_HOST_BIN := $(H_OUT)/demo-$(DEMO_VARIANT)/copse_demo

board: $(X_OUT)/copse_demo.elf

$(DEMO_X_OBJ): $(X_OUT)/demo/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC  $(BOARD) $< (demo, $(DEMO_VARIANT) scene)"
	@$(X_CC) $(X_APPFLAGS) -DDEMO_SMALL=$(if $(filter small,$(DEMO_VARIANT)),1,0) -c $< -o $@

$(X_OUT)/copse_demo.elf: $(DEMO_X_OBJ) $(X_PORT_SRC:%.c=$(X_OUT)/%.o) $(X_OUT)/libcopse.a
	@echo "  LD  $@"
	@$(X_CC) $(X_LDFLAGS) -Wl,-Map=$(X_OUT)/copse_demo.map -o $@ $^ $(X_LDLIBS)

# Run both, show the board's output, then insist that every answer line is the same.
demo-compare: $(X_OUT)/copse_demo.elf $(DEMO_HOST_BIN)
	@mkdir -p $(DEMO_OUT)
	@echo "== demo: examples/warehouse ($(DEMO_VARIANT) scene) on $(BOARD) under QEMU -icount"
	@QEMU_TIMEOUT=300 tools/qemu-run $(BOARD) $< --icount > $(DEMO_OUT)/$(BOARD).out 2>&1; rc=$$?; \
	 cat $(DEMO_OUT)/$(BOARD).out; \
	 if [ $$rc -ne 0 ]; then echo "DEMO FAILED: $(BOARD) exited with status $$rc"; exit 1; fi
	@echo "== the same program on the host ($(CONFIG)): its machine-specific lines"
	@$(DEMO_HOST_BIN) > $(DEMO_OUT)/host-$(DEMO_VARIANT).out 2>&1; rc=$$?; \
	 grep '^#' $(DEMO_OUT)/host-$(DEMO_VARIANT).out; \
	 if [ $$rc -ne 0 ]; then cat $(DEMO_OUT)/host-$(DEMO_VARIANT).out; \
	   echo "DEMO FAILED: the host run exited with status $$rc"; exit 1; fi
	@grep -v '^#' $(DEMO_OUT)/$(BOARD).out > $(DEMO_OUT)/$(BOARD).answers; \
	 grep -v '^#' $(DEMO_OUT)/host-$(DEMO_VARIANT).out > $(DEMO_OUT)/host-$(DEMO_VARIANT).answers; \
	 n=$$(grep -c . $(DEMO_OUT)/$(BOARD).answers); \
	 if [ "$$n" -lt 10 ] || ! grep -q '^verdict' $(DEMO_OUT)/$(BOARD).answers; then \
	   echo "DEMO FAILED: the $(BOARD) run stopped early ($$n answer lines)"; exit 1; fi; \
	 if diff -u --label "$(BOARD)" --label "host" $(DEMO_OUT)/$(BOARD).answers \
	      $(DEMO_OUT)/host-$(DEMO_VARIANT).answers > $(DEMO_OUT)/answers.diff; then \
	   echo "demo: OK: $(BOARD) and the host give the same $$n answer lines"; \
	 else \
	   echo "DEMO FAILED: $(BOARD) and the host disagree ('-' $(BOARD), '+' host):"; \
	   cat $(DEMO_OUT)/answers.diff; exit 1; \
	 fi
endif
