/* The test runner: every suite, on the host and on every board. */
#include "test.h"
#include "suites.h"

int main(int argc, char **argv)
{
    copse_port_init(argc, argv);
    copse_port_printf("copse tests on %s (%lu KiB scratch)\n", copse_port_name(),
                      (unsigned long)(test_memory_bytes() >> 10));
#define COPSE_SUITE(name) suite_##name();
    COPSE_SUITES
    COPSE_HOST_SUITES
#undef COPSE_SUITE
    return test_finish();
}
