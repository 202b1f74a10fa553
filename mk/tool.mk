# ---------------------------------------------------------------------------------------------
# make tool: the `copse` host tool (tools/copse, docs/tool.md) -> $(B)/tool/copse, linked with
# the host library of CONFIG and assimp (built in $(H_OUT)/tool, one per CONFIG, and copied).
# tool-check (part of make test, under ASan + UBSan there) runs its tests.

TOOL_OUT := $(H_OUT)/tool
TOOL_SRC := $(sort $(wildcard tools/copse/*.c)) tools/lib/mesh_load.c tools/lib/pointcloud_load.c
TOOL_OBJ := $(TOOL_SRC:%.c=$(H_OUT)/%.o)
TOOL_DEPS := gcc make python3 libassimp-dev

.PHONY: tool tool-check

tool:
	@$(ENSURE) $(TOOL_DEPS)
	@$(MAKE) --no-print-directory $(TOOL_OUT)/copse
	@mkdir -p $(B)/tool && cp $(TOOL_OUT)/copse $(B)/tool/copse
	@echo "  --  $(B)/tool/copse ($(CONFIG))"

$(TOOL_OUT)/copse: $(TOOL_OBJ) $(H_OUT)/libcopse.a
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	@$(H_CC) $(H_SAN) -o $@ $^ $(H_LIBS)

# ---- tests -----------------------------------------------------------------------------------
TOOL_TEST_OUT := $(B)/tool-test
TOOL_LIB_OBJ  := $(H_OUT)/tools/copse/bvh_query.o $(H_OUT)/tools/copse/tool.o \
                 $(H_OUT)/tools/copse/word_query.o $(H_OUT)/tools/copse/octree_query.o
ORACLE_OBJ    := $(H_OUT)/tools/copse/tests/tool_oracle.o $(H_OUT)/tools/copse/tests/octree_oracle.o \
                 $(H_OUT)/tests/oracle/oracle.o $(H_OUT)/tools/lib/mesh_load.o \
                 $(H_OUT)/tools/lib/pointcloud_load.o $(TOOL_LIB_OBJ)

$(TOOL_OUT)/tool_oracle: $(ORACLE_OBJ) $(H_OUT)/libcopse.a
	@echo "  LD  $@"
	@$(H_CC) $(H_SAN) -o $@ $^ $(H_LIBS)

$(TOOL_OUT)/test_readers: $(H_OUT)/tools/copse/tests/test_readers.o $(H_OUT)/tools/lib/pointcloud_load.o
	@echo "  LD  $@"
	@$(H_CC) $(H_SAN) -o $@ $^ $(H_LIBS)

# The emitted C is compiled as firmware would: the public headers, every warning an error.
tool-check: $(TOOL_OUT)/copse $(TOOL_OUT)/tool_oracle $(TOOL_OUT)/test_readers
	@mkdir -p $(B)/logs
	@echo "== tool (bake, stats, query, svg, C emitter, point-cloud readers)"
	@rm -rf $(TOOL_TEST_OUT)
	@(TOOL=$(TOOL_OUT)/copse ORACLE=$(TOOL_OUT)/tool_oracle READERS=$(TOOL_OUT)/test_readers \
	  EMIT_CC=$(H_CC) EMIT_FLAGS="-O1 $(WARN) $(H_SAN) -Iinclude" \
	  EMIT_LINK="$(TOOL_LIB_OBJ) $(H_OUT)/libcopse.a -lm" \
	  timeout 900 tools/copse/tests/run.sh $(TOOL_TEST_OUT) $(DATA); echo "rc=$$?") > $(B)/logs/tool.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/tool.log; grep -q '^rc=0$$' $(B)/logs/tool.log
