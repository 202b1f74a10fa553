/* SPDX-License-Identifier: MIT */
/*
 * A URDF as plain C data, in double, exactly as Debian's urdfdom (liburdfdom-dev) parsed it:
 * robot_urdf.cpp is a thin loader over urdf::parseURDF that fills these structs, so the rest of
 * the robot commands (robot*.c) and the tests' oracle stay C.
 *
 * Links come root first, then breadth first along each link's child joints (urdfdom lists them
 * by joint name); joint j places link j + 1 (its child), so every joint follows the joint that
 * places its parent link. Origins hold both urdfdom's quaternion and the rpy read back from it.
 */
#ifndef COPSE_TOOL_ROBOT_URDF_H
#define COPSE_TOOL_ROBOT_URDF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum urdf_geom_kind { URDF_MESH, URDF_BOX, URDF_CYLINDER, URDF_SPHERE } urdf_geom_kind;

typedef enum urdf_joint_kind {
    URDF_FIXED,
    URDF_REVOLUTE,
    URDF_CONTINUOUS,
    URDF_PRISMATIC,
    URDF_FLOATING,
    URDF_PLANAR,
    URDF_UNKNOWN
} urdf_joint_kind;

typedef struct urdf_origin {
    double xyz[3];
    double quat[4]; /* x, y, z, w: what urdfdom keeps of <origin rpy> */
    double rpy[3];  /* read back from quat (urdf::Rotation::getRPY) */
} urdf_origin;

typedef struct urdf_geom {
    int kind;          /* urdf_geom_kind */
    urdf_origin origin;/* of the <collision> element, in the link frame */
    char *filename;    /* mesh: as the URDF writes it */
    double scale[3];   /* mesh */
    double size[3];    /* box: x y z; cylinder: radius, length; sphere: radius */
} urdf_geom;

typedef struct urdf_link {
    char *name;
    urdf_geom *geoms;  /* its <collision> elements, in file order */
    unsigned geom_count;
} urdf_link;

typedef struct urdf_joint {
    char *name;
    int kind;          /* urdf_joint_kind */
    unsigned parent, child;
    urdf_origin origin;
    double axis[3];
    int has_limits;
    double lower, upper;
    int mimic;         /* the mimicked joint's index, or -1 */
    char *mimic_name;
    double multiplier, offset;
} urdf_joint;

typedef struct urdf_robot {
    char *name;
    urdf_link *links;
    unsigned link_count;
    urdf_joint *joints; /* link_count - 1 */
    unsigned joint_count;
} urdf_robot;

/* 0, or -1 with one line in err naming the file and urdfdom's complaint. */
int urdf_load(const char *path, urdf_robot *out, char *err, size_t err_cap);
void urdf_free(urdf_robot *robot);

/* An SRDF's <disable_collisions link1= link2=/> pairs (read with TinyXML, urdfdom's XML
 * library): names packed as "a\0b\0" pairs into *names, *count pairs. 0, or -1 with err. */
int urdf_srdf_pairs(const char *path, char **names, unsigned *count, char *err, size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif
