/* SPDX-License-Identifier: MIT */
/* Internals shared by the Cortex-M port's files (not part of the port contract). */
#ifndef COPSE_CORTEX_M_H
#define COPSE_CORTEX_M_H

#include <stddef.h>
#include <stdint.h>

void cortex_m_paint_stack(void);
void cortex_m_counter_start(void);
void cortex_m_fault_report(const uint32_t *frame);

/* Exception handlers named in the vector table. */
void Reset_Handler(void);
void Fault_Entry(void);
void Default_Handler(void);
void SysTick_Handler(void);

/* Bytes of stack touched since the last cortex_m_paint_stack (high-water mark). */
size_t cortex_m_stack_used(void);

#endif
