/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HARNESS_TESTS_H
#define HARNESS_TESTS_H

#include <stdio.h>

#include "hx.h"
#include "driver.h"

/* What a test is about, so the runner knows where it applies */
#define T_ANY		0
#define T_PATCHED	1	/* behaviour the series adds: skipped on the base */
#define T_BASE		2	/* an expectation about the unpatched base */

/* What the runner sets up before a test and checks and undoes after it */
enum hx_fixture_kind {
	FX_NONE,	/* the test loads and unloads the driver itself */
	FX_CLEAN,	/* hx_load() == 0 before; ASSERT_CLEAN(), hx_unload() after */
	/*
	 * FX_CLEAN, and fx->event running on CPU0 (open_running() with
	 * FX_PAGES pages, normal mode)
	 */
	FX_RUNNING,
};

#define FX_PAGES	4

struct hx_fixture {
	struct hx_event *event;		/* FX_RUNNING */
};

struct harness_test {
	const char *name;
	bool (*fn)(struct hx_fixture *fx);
	unsigned int flags;		/* T_* */
	enum hx_fixture_kind fixture;
};

/*
 * TEST(name[, .flags = T_..., .fixture = FX_...]) { body }
 * defines test_<name>() and registers it with the runner before main()
 * (a constructor); the body returns true on success and sees @fx.
 */
#define TEST(tname, ...)						\
	static bool test_##tname(struct hx_fixture *fx);		\
	static const struct harness_test test_desc_##tname = {		\
		.name = #tname, .fn = test_##tname, ##__VA_ARGS__	\
	};								\
	__attribute__((constructor)) static void test_reg_##tname(void) \
	{								\
		harness_register_test(&test_desc_##tname);		\
	}								\
	static bool test_##tname(struct hx_fixture *fx)

void harness_register_test(const struct harness_test *t);
extern const struct harness_test **harness_tests;
extern int harness_nr_tests;

extern bool harness_verbose;
extern bool harness_skipped;
extern const char *harness_skip_reason;

/*
 * The scenario is not about this mode: it is not run here and not counted
 * (as a T_PATCHED test on the base is not), which is not a skip.
 */
#define NOT_FOR_MODE(cond)						\
	do {								\
		if (cond) {						\
			harness_skipped = true;				\
			return true;					\
		}							\
	} while (0)
extern bool harness_tree_patched;

/*
 * The one skip: what the scenario needs is missing here (a feature of the
 * driver under test, say); the run is reported as RESULT skip with the
 * reason, never as a pass.
 */
#define SKIP(cond, why)							\
	do {								\
		if (cond) {						\
			harness_skip_reason = (why);			\
			return true;					\
		}							\
	} while (0)
#define SKIP_UNLESS_DRIVER(feat, why)					\
	SKIP(!(harness_driver_features & (feat)), why)

#define ASSERT_TRUE(expr)						\
	do {								\
		if (!(expr)) {						\
			fprintf(stderr, "  %s:%d:%s(): %s is FALSE\n",	\
				__FILE__, __LINE__, __func__, #expr);	\
			return false;					\
		}							\
	} while (0)
#define ASSERT_FALSE(expr)	ASSERT_TRUE(!(expr))
/* kselftest_harness.h's order: ASSERT_EQ(expected, seen) */
#define ASSERT_EQ(expected, seen)					\
	do {								\
		unsigned long long _e = (expected), _s = (seen);	\
		if (_e != _s) {						\
			fprintf(stderr, "  %s:%d:%s(): %s is 0x%llx, expected %s (0x%llx)\n", \
				__FILE__, __LINE__, __func__, #seen, _s, #expected, _e); \
			return false;					\
		}							\
	} while (0)
#define ASSERT_NE(a, b)		ASSERT_TRUE((a) != (b))
/* No rule violation, storm, WARN or lost data so far */
#define ASSERT_CLEAN()		ASSERT_TRUE(harness_clean(__func__))

bool harness_clean(const char *who);
bool cap_is(const char *want);		/* caps/max_buff_size reads @want */
void harness_print_violations(void);
bool violation_seen(const char *needle);
const char *violation_text(const char *needle);

/* shared helpers (tests/common.c) */
#define PERIOD		256
#define OPS_PER_PAGE	(PERIOD * 4096 / 20)	/* ~ ops to fill a page */
struct hx_event *open_running(int cpu, int pages, bool snapshot);
bool handler_left_unit_quiet(int cpu);
bool ignored_write_in(const char *fn, enum spe_reg reg);
const struct spe_access *ignored_write(const char *fn, enum spe_reg reg);
/* tests/aux.c: a new AUX area whose first session starts at the wakeup */
struct hx_event *aux_remap_wakeup_at_head(bool snapshot);
bool aux_pad_overflow_reported(void);
/* what the model reports when the base pads past the end of that area */
#define AUX_PAD_OVERFLOW \
	"driver memset() of 8191 bytes at offset 4096 of a 8192-byte AUX buffer"

#endif
