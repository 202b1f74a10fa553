/* SPDX-License-Identifier: MIT */
/* Status names, the arena, and the port's number formatting. */
#include <string.h>

#include "copse/copse.h"
#include "suites.h"
#include "test.h"

static void test_status_names(void)
{
    int s;
    for (s = COPSE_ERR_CONFIG; s <= COPSE_OK; s++) { /* the lowest status */
        const char *name = copse_status_str((copse_status)s);
        CHECKF(strncmp(name, "COPSE_", 6) == 0, "status %d has name '%s'", s, name);
        CHECKF(strstr(name, "unknown") == NULL, "status %d has no name", s);
    }
    CHECK(strstr(copse_status_str((copse_status)-1000), "unknown") != NULL);
    CHECK(strstr(copse_status_str(COPSE_ERR_NOMEM), "NOMEM") != NULL);
}

static void test_arena_alloc_and_rewind(void)
{
    COPSE_ARENA_STORAGE(buf, 64);
    copse_arena a;
    void *p1, *p2, *p3;
    size_t mark;

    copse_arena_init(&a, buf, sizeof buf);
    CHECK_EQ_INT(a.capacity, 64);
    p1 = copse_arena_alloc(&a, 3);
    CHECK(p1 == (void *)buf);
    CHECK_EQ_INT(a.used, 8);
    mark = copse_arena_mark(&a);
    p2 = copse_arena_alloc(&a, 40);
    CHECK(p2 == (void *)((uint8_t *)buf + 8));
    CHECK_EQ_INT(a.used, 48);
    p3 = copse_arena_alloc(&a, 17); /* 24 rounded: does not fit in 16 */
    CHECK(p3 == NULL);
    CHECK_EQ_INT(a.needed, 72);
    CHECK_EQ_INT(a.used, 48);
    copse_arena_rewind(&a, mark);
    CHECK_EQ_INT(a.used, 8);
    CHECK_EQ_INT(a.high_water, 48);
    CHECK(copse_arena_alloc(&a, 56) != NULL);
    CHECK_EQ_INT(copse_arena_remaining(&a), 0);
    CHECK(copse_arena_alloc(&a, 0) != NULL); /* zero bytes always fit */
    copse_arena_rewind(&a, 1000);             /* a mark beyond `used` is ignored */
    CHECK_EQ_INT(a.used, 64);
}

static void test_arena_misaligned_and_huge(void)
{
    COPSE_ARENA_STORAGE(buf, 64);
    copse_arena a;
    copse_arena_init(&a, (uint8_t *)buf + 3, 61);
    CHECK(((uintptr_t)a.base & (COPSE_ARENA_ALIGN - 1)) == 0);
    CHECK_EQ_INT(a.capacity, 56);
    CHECK(copse_arena_alloc(&a, (size_t)-1) == NULL); /* rounding would wrap */
    CHECK(a.needed == (size_t)-1);
    CHECK(copse_arena_alloc(&a, (size_t)-1 - 6) == NULL);
    CHECK_EQ_INT(a.used, 0);
    copse_arena_init(&a, (uint8_t *)buf + 1, 5); /* smaller than the alignment gap */
    CHECK_EQ_INT(a.capacity, 0);
    CHECK(copse_arena_alloc(&a, 1) == NULL);
    copse_arena_init(&a, NULL, 100);
    CHECK_EQ_INT(a.capacity, 0);
}

static void test_port_format(void)
{
    char out[64];
    copse_port_snprintf(out, sizeof out, "%d|%5u|%-3x|%s|%c", -42, 7u, 255u, "ab", 'z');
    CHECKF(strcmp(out, "-42|    7|ff |ab|z") == 0, "got '%s'", out);
    copse_port_snprintf(out, sizeof out, "%.3f %.0f %f", 3.14159, 2.5, -0.000001);
    CHECKF(strcmp(out, "3.142 3 -0.000001") == 0, "got '%s'", out);
    copse_port_snprintf(out, sizeof out, "%.2e %g %g", 123456.0, 1e10, 0.5);
    CHECKF(strcmp(out, "1.23e+05 1.000000e+10 0.500000") == 0, "got '%s'", out);
    copse_port_snprintf(out, sizeof out, "%.2e", 9.999);
    CHECKF(strcmp(out, "1.00e+01") == 0, "got '%s'", out);
    copse_port_snprintf(out, sizeof out, "%llu %lld %zu", 18446744073709551615ull, -9223372036854775807ll - 1, (size_t)12);
    CHECKF(strcmp(out, "18446744073709551615 -9223372036854775808 12") == 0, "got '%s'", out);
    CHECK_EQ_INT(copse_port_snprintf(out, 4, "%s", "abcdef"), 6);
    CHECK(strcmp(out, "abc") == 0);
}

void suite_core(void)
{
    test_run("core/status_names", test_status_names);
    test_run("core/arena_alloc_and_rewind", test_arena_alloc_and_rewind);
    test_run("core/arena_misaligned_and_huge", test_arena_misaligned_and_huge);
    test_run("core/port_format", test_port_format);
}
