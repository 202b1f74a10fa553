# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# Taking copse into another project (docs/integration.md), the Makefile way and its checks:
#   make lib                         the host libcopse.a (CONFIG, default gcc-c11) -> $(B)/lib/
#   make lib BOARD=<b>               the board's libcopse.a -> $(B)/lib/<b>/
#   make install PREFIX=<dir>        headers -> <dir>/include/copse, libcopse.a -> <dir>/lib,
#                                    copse.pc -> <dir>/lib/pkgconfig (DESTDIR= is honoured;
#                                    with BOARD= the board's library); no CMake needed
#   make integration-check           part of make test: CMake build + install, a consumer by
#                                    find_package, by pkg-config and by add_subdirectory, the
#                                    Makefile install, and CMake cross builds of examples/quickstart
#                                    for mps2-an386 and rv32imac under QEMU (tests/integration/check.sh)
#                                    -> $(B)/logs/integration.log
#   make spdx-check                  every source file carries an SPDX line (tools/add-spdx --check;
#                                    tools/add-spdx adds the missing ones) -> $(B)/logs/spdx.log
# CMake itself: CMakeLists.txt, cmake/ (the package config, copse.pc.in, the cross toolchain).

PREFIX       ?= /usr/local
INT_PREFIX    = $(abspath $(PREFIX))
INT_DEPS     := cmake pkg-config gcc make $(ARCH_ALL_DEPS)
INT_VERSION   = $(shell sed -n 's/^\#define COPSE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' \
                  include/copse/copse.h | paste -sd. -)
ifdef BOARD
INT_LIB_A    := $(X_OUT)/libcopse.a
INT_LIB_DIR  := $(B)/lib/$(BOARD)
else
INT_LIB_A    := $(H_OUT)/libcopse.a
INT_LIB_DIR  := $(B)/lib
endif

.PHONY: lib install integration-check spdx-check

lib: $(INT_LIB_DIR)/libcopse.a

$(INT_LIB_DIR)/libcopse.a: $(INT_LIB_A)
	@mkdir -p $(dir $@)
	@cp $< $@
	@echo "  LIB $@"

# copse.pc from the template CMake uses too; here one library, -lcopse.
install: $(INT_LIB_DIR)/libcopse.a
	@d=$(DESTDIR)$(INT_PREFIX); \
	 install -d $$d/include/copse $$d/lib/pkgconfig && \
	 install -m 644 include/copse/*.h $$d/include/copse/ && \
	 install -m 644 $< $$d/lib/libcopse.a && \
	 sed -e 's|@COPSE_PC_PREFIX@|$(INT_PREFIX)|' -e 's|@COPSE_PC_LIBDIR@|$${prefix}/lib|' \
	     -e 's|@COPSE_PC_INCLUDEDIR@|$${prefix}/include|' -e 's|@COPSE_PC_VERSION@|$(INT_VERSION)|' \
	     -e 's|@COPSE_PC_LIBS@|-lcopse|' cmake/copse.pc.in > $$d/lib/pkgconfig/copse.pc && \
	 echo "  INSTALL $$d: include/copse/*.h lib/libcopse.a lib/pkgconfig/copse.pc"

integration-check:
	@$(ENSURE) $(INT_DEPS)
	@mkdir -p $(B)/logs
	@echo "== integration (CMake install, find_package, pkg-config, make install, add_subdirectory, cross firmware)"
	@(MAKE="$(MAKE)" B="$(B)" tests/integration/check.sh $(B)/integration; echo "rc=$$?") > $(B)/logs/integration.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/integration.log; grep -q '^rc=0$$' $(B)/logs/integration.log

spdx-check:
	@mkdir -p $(B)/logs
	@echo "== SPDX lines (tools/add-spdx --check)"
	@(tools/add-spdx --check; r=$$?; \
	  if [ $$r -eq 0 ]; then echo "ok   every source file has an SPDX line"; echo "1 passed, 0 failed"; \
	  else echo "FAIL files without an SPDX line"; echo "0 passed, 1 failed"; fi; echo "rc=$$r") > $(B)/logs/spdx.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$|no SPDX line: )' $(B)/logs/spdx.log; grep -q '^rc=0$$' $(B)/logs/spdx.log
