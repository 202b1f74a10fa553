/* SPDX-License-Identifier: MIT */
/* The same-bytes suite alone: the runner of the FMA-contracting builds (mk/fma.mk), which
 * compile the library and this suite without -ffp-contract=off. */
#include "test.h"
#include "suites.h"

int main(int argc, char **argv)
{
    copse_port_init(argc, argv);
    copse_port_printf("copse same-bytes suite on %s\n", copse_port_name());
    suite_same_bytes();
    return test_finish();
}
