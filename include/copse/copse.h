/* SPDX-License-Identifier: MIT */
/* copse: spatial acceleration trees for machines with fixed memory. One include for everything. */
#ifndef COPSE_H
#define COPSE_H

#include "copse/status.h"
#include "copse/arena.h"
#include "copse/geom.h"
#include "copse/query.h"
#include "copse/blob.h"
#include "copse/bvh.h"
#include "copse/octree.h"
#include "copse/bsp.h"
#include "copse/collide.h"
#include "copse/robot.h"

#define COPSE_VERSION_MAJOR 0
#define COPSE_VERSION_MINOR 1
#define COPSE_VERSION_PATCH 0

#endif
