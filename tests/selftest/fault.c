/* SPDX-License-Identifier: MIT */
/* Runner self-check: this firmware must end as a reported fault (exit 99), never as a pass. */
#include <stdint.h>

#include "port.h"

int main(int argc, char **argv)
{
    volatile const uint32_t *unmapped = (volatile const uint32_t *)(uintptr_t)0x3FFFFFF0u;
    copse_port_init(argc, argv);
    copse_port_write("selftest: reading unmapped memory\n");
    return (int)*unmapped;
}
