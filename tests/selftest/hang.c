/* SPDX-License-Identifier: MIT */
/* Runner self-check: this firmware never ends; the runner's time limit must catch it. */
#include "port.h"

int main(int argc, char **argv)
{
    volatile unsigned spin = 0;
    copse_port_init(argc, argv);
    copse_port_write("selftest: hanging\n");
    for (;;)
        spin++;
}
