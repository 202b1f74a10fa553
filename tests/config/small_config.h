/* SPDX-License-Identifier: MIT */
/* A firmware's own settings file (COPSE_CONFIG_FILE): shallow BVHs and BSPs, few bins. */
#define COPSE_BVH_MAX_DEPTH 24
#define COPSE_BSP_MAX_DEPTH 16
#define COPSE_BVH_SAH_BINS 8
