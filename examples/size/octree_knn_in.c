/* SPDX-License-Identifier: MIT */
/* Size row "view + k nearest, the walk's state in a caller buffer": octree_knn.c with
 * copse_octree_knn_in and a static work buffer (in .bss, not on the stack). */
#define SIZE_KNN_IN 1
#include "octree_knn.c"
