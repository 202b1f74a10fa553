# SPDX-License-Identifier: MIT
# make help: every target a person runs, with what it does. make help-check (part of make test)
# fails when a Makefile or mk/*.mk defines a target that is neither listed here nor in
# HELP_INTERNAL (the steps the listed targets run), so a new target cannot go unmentioned.
#
# Two settings work everywhere: V=1 prints every compiler, linker and archiver command in full;
# NO_INSTALL=1 skips tools/ensure-deps (for a machine without apt, or a build that must not
# touch the system: then the tools named in the error are yours to install).

define HELP_TEXT
Everyday
  test                 everything that must pass (TEST_JOBS=2 jobs at a time); ends "N passed, N failed"
  demo                 the demos under QEMU (mps2-an386, BOARD=<b> for another) and on the host, compared
  demo-table           instructions per demo query on every QEMU board (README's boards table)
  host                 the host library and test program (CONFIG=gcc-c11|gcc-c99|clang-c11|clang-c99|asan-ubsan)
  host-run             build and run the host suite for CONFIG
  board / board-run    BOARD=<b>: library, tests and demo for one board / and run its suite under QEMU
  clean                remove build/
Library and integration (docs/integration.md)
  lib                  libcopse.a for the host, or BOARD=<b>
  install              PREFIX=<dir> (and DESTDIR): headers, libcopse.a, copse.pc
  integration-check    CMake build and install, find_package, pkg-config, add_subdirectory, cross builds
Checks that make test runs, one by one
  check-core           the core is freestanding: no libc header, no heap, no I/O, only allowed helpers
  runner-checks        every QEMU board turns a fault and a hang into a failure (runner-run: BOARD=<b>)
  demo-check           the demos of the default board against the host (demo-run: BOARD=<b>)
  examples-run         examples/ built and compared with their expected output
  same-bytes           the same-bytes checksums of every host, board and FMA build compared
  bigendian-run        the suite big endian (s390x under qemu-user)
  fma-asm              builds that allow multiply-add: the same bytes, and no FMA in the library
  hostile-run          the hostile-API suite, 64-bit and -m32 (hostile: build it only)
  fuzz-smoke           every fuzz target's corpus and a short seeded run
  spdx-check           every source file carries an SPDX line
  help-check           every target of the build is listed by make help
  config-check         config.h refuses settings out of range and reads COPSE_CONFIG_FILE
  size-check           the minimal firmwares of examples/size within examples/size/budgets, no software double
  tool-check           the copse tool's tests (CONFIG=asan-ubsan in make test)
Tools and reports
  tool                 the copse host tool -> build/tool/copse (docs/tool.md)
  size                 flash and RAM per module, per call and per minimal firmware on every board -> docs/size.md
  stack                worst-case stack per public function -> docs/stack.md (STACK_BOARD=<b>)
  fuzz                 each libFuzzer target for FUZZ_SECONDS (docs/fuzz.md); fuzz-corpus: regenerate the seeds
Benchmarks (numbers into docs/)
  bench                host benchmarks and QEMU instruction counts -> docs/benchmarks.md
  bench-peers          against Embree, Bullet, CGAL (Debian packages, installed when missing)
  bench-octree         point octree against brute force; bench-octree-peers: against nanoflann
  bench-bsp            BSP trees, host and boards (bench-bsp-boards: the boards alone)
  bench-collide        posed shapes and meshes against FCL and Bullet -> docs/benchmarks-collide.md
  bench-collide-fw     the collision queries' instructions on the boards
  bench-robot          robots against FCL (MoveIt's setup) and on the M7/M4F -> docs/benchmarks-robot.md
  bench-robot-host     the host half alone; bench-robot-fw: the boards' half alone
Settings: V=1 shows every command; NO_INSTALL=1 skips installing Debian packages; B=<dir> build folder
endef
export HELP_TEXT

# Steps of the targets above, run by them (not meant to be called alone).
HELP_INTERNAL := all size-fw size-fw-rows ab-force bench-bsp-fw-elf bench-fw-elf bench-host-bin bench-peers-bin \
  bench-robot-bakes bench-robot-fw-md bench-octree-ab bench-collide-profile collide-fw-elf \
  robot-fw-elf robot-fw-gen stack-report core-check demo-compare demo-compare-arm \
  demo-compare-warehouse demo-run fma-run fma-asm-board fuzz-build fuzz-run fuzz-corpus runner-check \
  runner-run x-deps x-qemu-deps deps-bigendian deps-test board-build bigendian hostile \
  hostile-run-one test-prep test-jobs bench-octree-peers bench-bsp-boards

.PHONY: help help-check config-check
help:
	@echo "$$HELP_TEXT"

help-check:
	@mkdir -p $(B)/logs
	@echo "== make help lists every target (tools/check-help)"
	@(tools/check-help $(HELP_INTERNAL); echo "rc=$$?") > $(B)/logs/help.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/help.log; grep -q '^rc=0$$' $(B)/logs/help.log

config-check:
	@mkdir -p $(B)/logs
	@echo "== config.h's range checks and COPSE_CONFIG_FILE (tools/check-config)"
	@(tools/check-config; echo "rc=$$?") > $(B)/logs/config.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/config.log; grep -q '^rc=0$$' $(B)/logs/config.log
