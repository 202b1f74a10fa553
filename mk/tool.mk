# SPDX-License-Identifier: MIT
# ---------------------------------------------------------------------------------------------
# make tool: the `copse` host tool (tools/copse, docs/tool.md) -> $(B)/tool/copse, linked with
# the host library of CONFIG, assimp and urdfdom (built in $(H_OUT)/tool, one per CONFIG, and
# copied). tool-check (part of make test, under ASan + UBSan there) runs its tests.
# `copse robot` reads URDFs with Debian's urdfdom (C++): robot_urdf.cpp is compiled with the C++
# compiler of CONFIG's family and the tool is linked with it.

TOOL_OUT := $(H_OUT)/tool
TOOL_SRC := $(sort $(wildcard tools/copse/*.c)) tools/lib/mesh_load.c tools/lib/pointcloud_load.c
TOOL_OBJ := $(TOOL_SRC:%.c=$(H_OUT)/%.o) $(H_OUT)/tools/copse/robot_urdf.o
TOOL_DEPS := gcc g++ make python3 libassimp-dev liburdfdom-dev
TOOL_CXX  := $(if $(findstring clang,$(CONFIG)),clang++,g++)
URDF_LIBS := -lurdfdom_model -lconsole_bridge -ltinyxml

$(H_OUT)/tools/copse/robot_urdf.o: tools/copse/robot_urdf.cpp
	@mkdir -p $(dir $@)
	@echo "  CXX $(CONFIG) $<"
	$(Q)$(TOOL_CXX) -std=c++17 -O2 -g -Wall -Wextra -Werror $(H_SAN) -Iinclude -Itools/copse -MMD -MP -c $< -o $@

.PHONY: tool tool-check

tool:
	@$(ENSURE) $(TOOL_DEPS)
	@$(MAKE) --no-print-directory $(TOOL_OUT)/copse
	@mkdir -p $(B)/tool && cp $(TOOL_OUT)/copse $(B)/tool/copse
	@echo "  --  $(B)/tool/copse ($(CONFIG))"

$(TOOL_OUT)/copse: $(TOOL_OBJ) $(H_OUT)/libcopse.a
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	$(Q)$(TOOL_CXX) $(H_SAN) -o $@ $^ $(H_LIBS) $(URDF_LIBS)

# ---- tests -----------------------------------------------------------------------------------
TOOL_TEST_OUT := $(B)/tool-test
TOOL_LIB_OBJ  := $(H_OUT)/tools/copse/bvh_query.o $(H_OUT)/tools/copse/tool.o \
                 $(H_OUT)/tools/copse/word_query.o $(H_OUT)/tools/copse/octree_query.o
ORACLE_OBJ    := $(H_OUT)/tools/copse/tests/tool_oracle.o $(H_OUT)/tools/copse/tests/octree_oracle.o \
                 $(H_OUT)/tests/oracle/oracle.o $(H_OUT)/tools/lib/mesh_load.o \
                 $(H_OUT)/tools/lib/pointcloud_load.o $(TOOL_LIB_OBJ)

$(TOOL_OUT)/tool_oracle: $(ORACLE_OBJ) $(H_OUT)/libcopse.a
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	$(Q)$(H_CC) $(H_SAN) -o $@ $^ $(H_LIBS)

# The robot oracle: bakes checked against the URDF in double, queries against brute force.
ROBOT_ORACLE_OBJ := $(H_OUT)/tools/copse/tests/robot_oracle.o $(H_OUT)/tools/copse/robot_model.o \
                    $(H_OUT)/tools/copse/robot_urdf.o $(H_OUT)/tools/copse/tool.o $(H_OUT)/tools/lib/mesh_load.o \
                    $(H_OUT)/tools/lib/pointcloud_load.o $(H_OUT)/tests/oracle/oracle.o \
                    $(H_OUT)/tests/oracle/oracle_collide.o $(H_OUT)/tests/oracle/oracle_closest.o \
                    $(if $(wildcard tests/oracle/oracle_robot.c),$(H_OUT)/tests/oracle/oracle_robot.o)

$(TOOL_OUT)/robot_oracle: $(ROBOT_ORACLE_OBJ) $(H_OUT)/libcopse.a
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	$(Q)$(TOOL_CXX) $(H_SAN) -o $@ $^ $(H_LIBS) $(URDF_LIBS)

$(TOOL_OUT)/test_readers: $(H_OUT)/tools/copse/tests/test_readers.o $(H_OUT)/tools/lib/pointcloud_load.o
	@mkdir -p $(dir $@)
	@echo "  LD  $@"
	$(Q)$(H_CC) $(H_SAN) -o $@ $^ $(H_LIBS)

# The emitted C is compiled as firmware would: the public headers, every warning an error.
tool-check: $(TOOL_OUT)/copse $(TOOL_OUT)/tool_oracle $(TOOL_OUT)/test_readers $(TOOL_OUT)/robot_oracle
	@mkdir -p $(B)/logs
	@echo "== tool (bake, stats, query, svg, C emitter, point-cloud readers, robot)"
	@rm -rf $(TOOL_TEST_OUT)
	@(TOOL=$(TOOL_OUT)/copse ORACLE=$(TOOL_OUT)/tool_oracle READERS=$(TOOL_OUT)/test_readers \
	  ROBOT_ORACLE=$(TOOL_OUT)/robot_oracle \
	  EMIT_CC=$(H_CC) EMIT_FLAGS="-O1 $(WARN) $(H_SAN) -Iinclude" \
	  EMIT_LINK="$(TOOL_LIB_OBJ) $(H_OUT)/libcopse.a -lm" \
	  timeout 900 tools/copse/tests/run.sh $(TOOL_TEST_OUT) $(DATA); echo "rc=$$?") > $(B)/logs/tool.log 2>&1; \
	 grep -vE '^(ok   |rc=0$$)' $(B)/logs/tool.log; grep -q '^rc=0$$' $(B)/logs/tool.log
