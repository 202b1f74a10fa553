/* SPDX-License-Identifier: MIT */
/* Runner self-check: this firmware must end as a reported fault (exit 99), never as a pass. */
#include <stdint.h>

#include "port.h"

/* An address with nothing behind it: boards/<b>/board.mk's UNMAPPED_ADDRESS where this one is mapped. */
#ifndef COPSE_UNMAPPED_ADDRESS
#define COPSE_UNMAPPED_ADDRESS 0x3FFFFFF0u
#endif

int main(int argc, char **argv)
{
    volatile const uint32_t *unmapped = (volatile const uint32_t *)(uintptr_t)COPSE_UNMAPPED_ADDRESS;
    copse_port_init(argc, argv);
    copse_port_write("selftest: reading unmapped memory\n");
    return (int)*unmapped;
}
