/* SPDX-License-Identifier: MIT */
/* Internals shared by the Cortex-M port's files (not part of the port contract). */
#ifndef COPSE_CORTEX_M_H
#define COPSE_CORTEX_M_H

#include <stdint.h>

void cortex_m_fault_report(const uint32_t *frame);

/* Exception handlers named in the vector table. */
void Reset_Handler(void);
void Fault_Entry(void);
void Default_Handler(void);
void SysTick_Handler(void);

#endif
