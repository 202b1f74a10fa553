/* The list of suites. Add a suite: write tests/test_<name>.c with suite_<name>() and list it here. */
#ifndef COPSE_SUITES_H
#define COPSE_SUITES_H

#define COPSE_SUITES \
    COPSE_SUITE(core) \
    COPSE_SUITE(bvh)

#define COPSE_SUITE(name) void suite_##name(void);
COPSE_SUITES
#undef COPSE_SUITE

#endif
