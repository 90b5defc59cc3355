// SPDX-License-Identifier: GPL-2.0
/*
 * SPE driver model harness: the test runner and the benchmark.  The
 * driver itself is in driver.c.
 */
#include <stdio.h>
#include <string.h>

#include "tests.h"

bool harness_verbose;
bool harness_skipped;
const char *harness_skip_reason;
bool harness_tree_patched = HARNESS_TREE_PATCHED;

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	/* devm allocations and the driver's own lifetime are not tracked */
	return "detect_leaks=0";
}

/* Every TEST() of tests/, in link order, registered before main() */
const struct harness_test **harness_tests;
int harness_nr_tests;

void harness_register_test(const struct harness_test *t)
{
	for (int i = 0; i < harness_nr_tests; i++) {
		if (!strcmp(harness_tests[i]->name, t->name)) {
			fprintf(stderr, "two tests named %s\n", t->name);
			exit(2);
		}
	}
	harness_tests = realloc(harness_tests,
				(harness_nr_tests + 1) * sizeof(*harness_tests));
	if (!harness_tests) {
		perror("realloc");
		exit(2);
	}
	harness_tests[harness_nr_tests++] = t;
}

/* The test with its fixture: set up, run, check clean, unload */
static bool run_fixture(const struct harness_test *t)
{
	struct hx_fixture fx = { 0 };
	bool ok;
	int err;

	if (t->fixture == FX_NONE)
		return t->fn(&fx);
	err = hx_load();
	if (err) {
		fprintf(stderr, "  %s: fixture: hx_load() = %d\n", t->name, err);
		return false;
	}
	if (t->fixture == FX_RUNNING) {
		fx.event = open_running(0, FX_PAGES, false);
		if (!fx.event) {
			fprintf(stderr, "  %s: fixture: no running event\n", t->name);
			hx_unload();
			return false;
		}
	}
	ok = t->fn(&fx);
	/* a test that does not apply or lacks a feature stopped early */
	if (ok && !harness_skipped && !harness_skip_reason)
		ok = harness_clean(t->name);
	hx_unload();
	return ok;
}

static int run_one(const struct harness_test *t, const char *rev,
		   enum spe_mode mode, bool vis)
{
	char name[160];
	const char *why = NULL;
	bool ok;

	snprintf(name, sizeof(name), "harness/%s/%s-vis%s/%s", rev,
		 spe_mode_name(mode), vis ? "on" : "off", t->name);
	if ((t->flags & T_PATCHED) && !harness_tree_patched)
		why = "behaviour added by the series";
	if ((t->flags & T_BASE) && harness_tree_patched)
		why = "expectation about the unpatched base";
	/*
	 * The base is only expected to be correct where it was written for:
	 * bare, and r24557 without the visibility assumption.  Where it is
	 * expected to be caught, base_* tests assert that instead.
	 */
	if (!(t->flags & T_BASE) && !harness_tree_patched &&
	    (mode == SPE_MODE_DEN0154 || (mode == SPE_MODE_R24557 && vis)))
		why = "base expected to be caught here (base_* tests)";
	/*
	 * A test that does not apply to this tree or mode is not run and not
	 * counted: it is not a test of this configuration that was skipped.
	 */
	if (why) {
		if (harness_verbose)
			fprintf(stderr, "  n/a: %s: %s\n", name, why);
		return 0;
	}
	hx_reset(4, mode, vis);
	harness_skipped = false;
	harness_skip_reason = NULL;
	ok = run_fixture(t);
	if (!ok && harness_verbose)
		hx_log_dump();
	if (harness_skipped) {
		if (harness_verbose)
			fprintf(stderr, "  n/a: %s: not for this mode\n", name);
		return 0;
	}
	/* the driver lacks what the test needs: counted, but never a pass */
	if (ok && harness_skip_reason) {
		printf("RESULT skip %s (%s)\n", name, harness_skip_reason);
		fflush(stdout);
		return 0;
	}
	printf("RESULT %s %s\n", ok ? "pass" : "fail", name);
	fflush(stdout);
	return ok ? 0 : 1;
}

/*
 * Per buffer-full interrupt costs.  Deterministic counts from the
 * model, not times.
 *
 * The architectural minimum for a correct handler of a buffer-full
 * event that resumes profiling, under DEN0154:
 *  reads  2: PMBSR_EL1 (what happened) and PMBPTR_EL1 (how far the unit
 *            wrote: the bytes written are PMBPTR_EL1 - base - head) -
 *            nothing else tells either;
 *  writes 4: PMBLIMITR_EL1 = 0 (E must be clear before the next two;
 *            SFDXJJ), PMBSR_EL1 = 0 (drop S, the IRQ level; I_GRLRX),
 *            PMBPTR_EL1 (the next window), PMBLIMITR_EL1 = limit | E;
 *  isb    3: after the drain, before reading PMBPTR/PMBSR
 *            (spe-rules: read-after-psb); after clearing E, so the
 *            PMBSR/PMBPTR writes see E == 0; between PMBPTR and the
 *            enabling PMBLIMITR write (R_HXSYK, R24557); the enable
 *            itself can ride on the exception return
 *            (spe-rules: context-sync-events);
 *  drain  1: PSB CSYNC (+ DSB) so PMBPTR covers every record
 *            (spe-rules: psb-drain).
 * PMB* accesses trapped by a hypervisor that traps them all (KVM RFC):
 * 2 + 4 = 6.  The series keeps one more isb (resume before the ERET).
 */
static void bench(const char *rev)
{
	printf("%-6s %-8s %-4s %6s %6s %5s %6s %8s %8s\n", "tree", "mode", "vis",
	       "reads", "writes", "isb", "drains", "trapped", "gap_ops");
	for (int m = 0; m < SPE_NR_MODES; m++) {
		for (int v = 0; v < 2; v++) {
			struct hx_event *e;
			double n;

			hx_reset(4, m, v);
			hx_load();
			e = open_running(0, 4, false);
			hx_run(0, 12L * 4 * OPS_PER_PAGE, e, 2000);
			n = hx_irq.full_irqs;
			if (hx_irq.storms || !n) {
				printf("%-6s %-8s %-4s %s\n", rev, spe_mode_name(m),
				       v ? "on" : "off",
				       hx_irq.storms ? "storm: PMBIRQ never drops" :
				       spe.nr_ignored ?
				       "no buffer-full IRQ: start() lost PMBPTR_EL1" :
				       "no interrupt");
			} else {
				printf("%-6s %-8s %-4s %6.2f %6.2f %5.2f %6.2f %8.2f %8.2f\n",
				       rev, spe_mode_name(m), v ? "on" : "off",
				       hx_irq.reads / n, hx_irq.writes / n, hx_irq.isbs / n,
				       hx_irq.drains / n, hx_irq.trapped / n,
				       spe.stats.gaps ?
				       (double)spe.stats.gap_ops / spe.stats.gaps : 0);
			}
			hx_unload();
		}
	}
	printf("%-6s %-8s %-4s %6d %6d %5d %6d %8d %8s\n", "min", "(arch)", "", 2, 4, 3, 1, 6, "-");
}

static void usage(void)
{
	fprintf(stderr,
		"usage: main [-r REV] [-m bare|r24557|den0154|all] [-V on|off|all]\n"
		"            [-t TEST] [-v] [-l]\n"
		"  -r  name printed in RESULT lines (default: build REV)\n"
		"  -m  model mode, -V the visibility assumption, -t one test\n"
		"  -l  list tests, -v print violations and driver messages\n");
}

/* -m NAME: run that mode only; "all": every mode; false: no such mode */
static bool parse_mode(const char *v, bool run_mode[SPE_NR_MODES])
{
	bool any = false;

	for (int m = 0; m < SPE_NR_MODES; m++)
		any |= run_mode[m] = !strcmp(v, spe_mode_name(m));
	if (!any)
		for (int m = 0; m < SPE_NR_MODES; m++)
			run_mode[m] = true;
	return any || !strcmp(v, "all");
}

int main(int argc, char **argv)
{
	const char *rev = HARNESS_REV, *only = NULL;
	bool run_mode[SPE_NR_MODES], run_vis[2] = { true, true };
	int failed = 0, run = 0;
	bool list = false;

	for (int m = 0; m < SPE_NR_MODES; m++)
		run_mode[m] = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-b")) {
			bench(rev);
			return 0;
		} else if (!strcmp(a, "-v")) {
			harness_verbose = true;
		} else if (!strcmp(a, "-l")) {
			list = true;
		} else if (!strcmp(a, "-r") && v) {
			rev = v; i++;
		} else if (!strcmp(a, "-t") && v) {
			only = v; i++;
		} else if (!strcmp(a, "-m") && v) {
			if (!parse_mode(v, run_mode)) {
				usage();
				return 2;
			}
			i++;
		} else if (!strcmp(a, "-V") && v) {
			run_vis[0] = strcmp(v, "on");	/* off or all */
			run_vis[1] = strcmp(v, "off");	/* on or all */
			i++;
		} else {
			usage();
			return 2;
		}
	}
	for (int n = 0; n < harness_nr_tests; n++) {
		const struct harness_test *t = harness_tests[n];

		if (list) {
			printf("%s%s\n", t->name,
			       t->flags & T_PATCHED ? " (patched)" :
			       t->flags & T_BASE ? " (base)" : "");
			continue;
		}
		if (only && strcmp(only, t->name))
			continue;
		for (int m = 0; m < SPE_NR_MODES; m++) {
			if (!run_mode[m])
				continue;
			for (int v = 0; v < 2; v++) {
				if (!run_vis[v])
					continue;
				failed += run_one(t, rev, m, v);
				run++;
			}
		}
	}
	if (!list)
		fprintf(stderr, "%s: %d runs, %d failed.\n", rev, run, failed);
	if (only && !run && !list) {
		fprintf(stderr, "no test named %s\n", only);
		return EXIT_FAILURE;
	}
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
