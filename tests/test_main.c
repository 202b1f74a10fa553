/* SPDX-License-Identifier: MIT */
/* The test runner: every suite, on the host and on every board; or, built with
 * -DCOPSE_TEST_PART=n, the suites of part n only (tests/suites.h). */
#include "test.h"
#include "suites.h"

#ifndef COPSE_TEST_PART
#define COPSE_TEST_PART 0
#endif

int main(int argc, char **argv)
{
    copse_port_init(argc, argv);
    copse_port_printf("copse tests on %s (%lu KiB scratch), part %d\n", copse_port_name(),
                      (unsigned long)(test_memory_bytes() >> 10), COPSE_TEST_PART);
    /* A constant condition: the suites of other parts are never referenced, so the linker's
     * --gc-sections leaves them, and the library code only they use, out of the image. */
#define COPSE_SUITE(name, part) \
    if (COPSE_TEST_PART == 0 || COPSE_TEST_PART == (part)) \
        suite_##name();
    COPSE_SUITES
    COPSE_HOST_SUITES
#undef COPSE_SUITE
    return test_finish();
}
