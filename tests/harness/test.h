/* SPDX-License-Identifier: MIT */
/*
 * copse test harness: one runner for the host and every QEMU board.
 *
 * A suite is a function that calls test_run() for each of its tests. A test
 * fails when any CHECK in it fails; the run ends with "N passed, N failed"
 * and exits non-zero on any failure. Tests size their scenes from
 * test_memory_bytes() so the micro:bit runs the same checks on smaller scenes.
 */
#ifndef COPSE_TEST_H
#define COPSE_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "port.h"

typedef void (*test_fn)(void);

void test_run(const char *name, test_fn fn);
void test_skip(const char *why);
bool test_check_at(bool ok, const char *file, int line, const char *expr);
bool test_checkf_at(bool ok, const char *file, int line, const char *fmt, ...) COPSE_PORT_PRINTF(4, 5);
int test_finish(void);

/* The free memory a test may use (the port's scratch region). */
void *test_memory(size_t *bytes);
size_t test_memory_bytes(void);

/* Directory of ../shared/data (host only; NULL on boards). */
const char *test_data_dir(void);

#define CHECK(cond) test_check_at((cond), __FILE__, __LINE__, #cond)
#define CHECKF(cond, ...) test_checkf_at((cond), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_INT(a, b)                                                                           \
    test_checkf_at((long long)(a) == (long long)(b), __FILE__, __LINE__, "%s == %s (%lld vs %lld)", \
                   #a, #b, (long long)(a), (long long)(b))
#define CHECK_STATUS(expr, expected)                                                              \
    do {                                                                                          \
        copse_status check_status_ = (expr);                                                      \
        test_checkf_at(check_status_ == (expected), __FILE__, __LINE__, "%s -> %s, expected %s", \
                       #expr, copse_status_str(check_status_), copse_status_str(expected));      \
    } while (0)

/* Deterministic random numbers (PCG32): the same scene on every machine. */
typedef struct test_rng {
    uint64_t state;
} test_rng;

void test_rng_seed(test_rng *rng, uint64_t seed);
uint32_t test_rng_u32(test_rng *rng);
uint32_t test_rng_below(test_rng *rng, uint32_t n); /* [0, n) */
float test_rng_float(test_rng *rng, float lo, float hi);

#endif
