# ---------------------------------------------------------------------------------------------
# examples-run (part of make test): the README's quickstart, built as a user would build it
# (the public headers and libcopse.a only, every warning an error) and run on the host; its
# output must match examples/quickstart/expected.txt, which README.md shows.

QS_OUT := $(H_OUT)/examples/quickstart

.PHONY: examples-run

$(QS_OUT)/quickstart: examples/quickstart/main.c $(H_OUT)/libcopse.a
	@mkdir -p $(dir $@)
	@echo "  CC  $(CONFIG) $<"
	@$(H_CC) -std=$(H_STD) -O2 $(WARN) -Iinclude $(H_SAN) -o $@ $^

examples-run: $(QS_OUT)/quickstart
	@mkdir -p $(B)/logs
	@echo "== examples (host $(CONFIG))"
	@{ if $(QS_OUT)/quickstart > $(QS_OUT)/out.txt 2>&1 && diff -u examples/quickstart/expected.txt $(QS_OUT)/out.txt; \
	   then echo "ok   quickstart: output as README.md shows it"; echo "1 passed, 0 failed"; \
	   else echo "FAIL quickstart: output differs from examples/quickstart/expected.txt"; echo "0 passed, 1 failed"; fi; \
	   echo "rc=0"; } > $(B)/logs/examples.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/examples.log; grep -q '^1 passed' $(B)/logs/examples.log
