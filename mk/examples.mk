# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# examples-run (part of make test): the README's examples, built as a user would build them
# (the public headers and libcopse.a only, every warning an error) and run on the host; each
# one's output must match its examples/<name>/expected.txt, which README.md shows.
#   quickstart   a BVH over a floor and a crate: a ray, a sphere, the nearest point
#   robot_link   a robot's forearm posed from a URDF origin against a mesh and a scan

EXAMPLES := quickstart robot_link
EX_OUT   := $(H_OUT)/examples

.PHONY: examples-run

$(EX_OUT)/%/example: examples/%/main.c $(H_OUT)/libcopse.a
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $<"
	$(Q)$(H_CC) -std=$(H_STD) -O2 $(WARN) -Iinclude $(H_SAN) -o $@ $^ -lm

examples-run: $(foreach e,$(EXAMPLES),$(EX_OUT)/$(e)/example)
	@mkdir -p $(B)/logs
	@echo "== examples (host $(CONFIG))"
	@{ p=0; f=0; for e in $(EXAMPLES); do \
	     if $(EX_OUT)/$$e/example > $(EX_OUT)/$$e/out.txt 2>&1 && diff -u examples/$$e/expected.txt $(EX_OUT)/$$e/out.txt; \
	     then echo "ok   $$e: output as README.md shows it"; p=$$((p + 1)); \
	     else echo "FAIL $$e: output differs from examples/$$e/expected.txt"; f=$$((f + 1)); fi; done; \
	   echo "$$p passed, $$f failed"; echo "rc=0"; } > $(B)/logs/examples.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/examples.log; grep -q ' 0 failed$$' $(B)/logs/examples.log
