/* The list of suites. Add a suite: write tests/test_<name>.c with suite_<name>() and list it
 * here; suites that need files or host libraries go in tests/host/ and COPSE_HOST_SUITES. */
#ifndef COPSE_SUITES_H
#define COPSE_SUITES_H

#define COPSE_SUITES \
    COPSE_SUITE(core) \
    COPSE_SUITE(bvh_build) \
    COPSE_SUITE(bvh_query) \
    COPSE_SUITE(bvh_edge) \
    COPSE_SUITE(bvh_errors) \
    COPSE_SUITE(blob) \
    COPSE_SUITE(octree_point) \
    COPSE_SUITE(octree_loose) \
    COPSE_SUITE(bsp2) \
    COPSE_SUITE(bsp3) \
    COPSE_SUITE(same_bytes)

/* COPSE_NO_HOST_SUITES: a host build without the data files and assimp (mk/bigendian.mk). */
#if defined(COPSE_HOST) && !defined(COPSE_NO_HOST_SUITES)
#define COPSE_HOST_SUITES COPSE_SUITE(bvh_meshes) COPSE_SUITE(octree_scan) COPSE_SUITE(bsp_meshes)
#else
#define COPSE_HOST_SUITES
#endif

#define COPSE_SUITE(name) void suite_##name(void);
COPSE_SUITES
COPSE_HOST_SUITES
#undef COPSE_SUITE

#endif
