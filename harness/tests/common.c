// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "tests.h"

/* caps/max_buff_size reads @want (an absent entry is a failure, not a crash) */
bool cap_is(const char *want)
{
	const char *got = hx_show_cap("max_buff_size");

	if (!got || strcmp(got, want)) {
		fprintf(stderr, "  caps/max_buff_size: got '%s', want '%s'\n",
			got ? got : "(none)", want);
		return false;
	}
	return true;
}

bool harness_clean(const char *who)
{
	if (!spe.nr_violations)
		return true;
	fprintf(stderr, "  %s: %d violation(s):\n", who, spe.nr_violations);
	harness_print_violations();
	return false;
}

/* The violations not kept as text, so no reader takes the list as whole */
static void report_unkept(void)
{
	if (spe.nr_violations > SPE_MAX_VIOLATIONS)
		fprintf(stderr, "    ... and %d more violation(s), not kept (SPE_MAX_VIOLATIONS %d)\n",
			spe.nr_violations - SPE_MAX_VIOLATIONS, SPE_MAX_VIOLATIONS);
	if (spe.nr_ignored_lost)
		fprintf(stderr, "    ... and %d more ignored write(s), not kept (SPE_MAX_IGNORED %d)\n",
			spe.nr_ignored_lost, SPE_MAX_IGNORED);
}

void harness_print_violations(void)
{
	for (int i = 0; i < spe.nr_violations && i < SPE_MAX_VIOLATIONS; i++)
		fprintf(stderr, "    %s\n", spe.violations[i]);
	report_unkept();
}

/* The first kept violation that contains @needle, or NULL */
const char *violation_text(const char *needle)
{
	for (int i = 0; i < spe.nr_violations && i < SPE_MAX_VIOLATIONS; i++)
		if (strstr(spe.violations[i], needle))
			return spe.violations[i];
	report_unkept();
	return NULL;
}

bool violation_seen(const char *needle)
{
	return violation_text(needle);
}

struct hx_event *open_running(int cpu, int pages, bool snapshot)
{
	struct hx_event *e;
	int err;

	e = hx_open(cpu, 0, PERIOD, &err);
	if (!e) {
		fprintf(stderr, "  event_init: %d\n", err);
		return NULL;
	}
	err = hx_mmap_aux(e, pages, snapshot);
	if (err) {
		fprintf(stderr, "  mmap AUX: %d\n", err);
		hx_close(e);
		return NULL;
	}
	err = hx_enable(e, cpu < 0 ? 0 : cpu);
	if (err)
		fprintf(stderr, "  add: %d\n", err);
	return e;
}

/*
 * After a fatal event: sampling off, buffer off, no syndrome left (the
 * buffer disabled before PMBSR_EL1 is cleared)
 */
bool handler_left_unit_quiet(int cpu)
{
	return !(spe_peek(cpu, SPE_PMBLIMITR) & PMBLIMITR_EL1_E) &&
	       !(spe_peek(cpu, SPE_PMBSR) & PMBSR_EL1_S) &&
	       !spe_peek(cpu, SPE_PMSCR);
}

/* The first kept write to @reg the mode ignored, made in @fn, or NULL */
const struct spe_access *ignored_write(const char *fn, enum spe_reg reg)
{
	for (int i = 0; i < spe.nr_ignored; i++)
		if (spe.ignored[i].reg == reg && !strcmp(spe.ignored[i].fn, fn))
			return &spe.ignored[i];
	report_unkept();
	return NULL;
}

bool ignored_write_in(const char *fn, enum spe_reg reg)
{
	return ignored_write(fn, reg);
}
