/* SPDX-License-Identifier: MIT */
#include "test.h"

#include <stdarg.h>
#include <string.h>

#define MAX_REPORTS_PER_TEST 8

static const char *g_current;
static unsigned g_passed, g_failed, g_skipped;
static unsigned long g_checks;
static unsigned g_test_failures;
static bool g_test_skipped;

void test_run(const char *name, test_fn fn)
{
    const char *filter = copse_port_option("--filter");
    if (filter != NULL && strstr(name, filter) == NULL)
        return;
    g_current = name;
    g_test_failures = 0;
    g_test_skipped = false;
    fn();
    if (g_test_failures != 0) {
        g_failed++;
        copse_port_printf("FAIL %s (%u failed checks)\n", name, g_test_failures);
    } else if (g_test_skipped) {
        g_skipped++;
    } else {
        g_passed++;
        copse_port_printf("ok   %s\n", name);
    }
}

void test_skip(const char *why)
{
    g_test_skipped = true;
    copse_port_printf("skip %s: %s\n", g_current, why);
}

static void report_header(const char *file, int line)
{
    copse_port_printf("  %s:%d: ", file, line);
}

bool test_check_at(bool ok, const char *file, int line, const char *expr)
{
    g_checks++;
    if (!ok) {
        if (g_test_failures++ < MAX_REPORTS_PER_TEST) {
            report_header(file, line);
            copse_port_printf("check failed: %s\n", expr);
        }
    }
    return ok;
}

bool test_checkf_at(bool ok, const char *file, int line, const char *fmt, ...)
{
    g_checks++;
    if (!ok) {
        if (g_test_failures++ < MAX_REPORTS_PER_TEST) {
            char msg[200];
            va_list ap;
            va_start(ap, fmt);
            (void)copse_port_vsnprintf(msg, sizeof msg, fmt, ap);
            va_end(ap);
            report_header(file, line);
            copse_port_printf("check failed: %s\n", msg);
        }
    }
    return ok;
}

int test_finish(void)
{
    copse_port_printf("%lu checks in %u tests on %s, %u skipped\n", g_checks, g_passed + g_failed,
                      copse_port_name(), g_skipped);
    copse_port_printf("%u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : (g_failed < 98 ? (int)g_failed : 98);
}

void *test_memory(size_t *bytes)
{
    return copse_port_scratch(bytes);
}

size_t test_memory_bytes(void)
{
    size_t n;
    (void)copse_port_scratch(&n);
    return n;
}

const char *test_data_dir(void)
{
    return copse_port_option("--data");
}

void test_rng_seed(test_rng *rng, uint64_t seed)
{
    rng->state = seed * 6364136223846793005ull + 1442695040888963407ull;
    (void)test_rng_u32(rng);
}

uint32_t test_rng_u32(test_rng *rng)
{
    uint64_t old = rng->state;
    uint32_t xorshifted, rot;
    rng->state = old * 6364136223846793005ull + 1442695040888963407ull;
    xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

uint32_t test_rng_below(test_rng *rng, uint32_t n)
{
    return n == 0 ? 0 : (uint32_t)(((uint64_t)test_rng_u32(rng) * n) >> 32);
}

float test_rng_float(test_rng *rng, float lo, float hi)
{
    float u = (float)(test_rng_u32(rng) >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}
