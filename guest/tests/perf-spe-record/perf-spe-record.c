// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end SPE test for a guest with (emulated) SPE: record this
 * program's own busy loop with the real perf tool and check that
 * perf script decodes SPE samples whose PCs fall in this program's text.
 * Then, where the PMU has Discard mode, record the same loop with
 * discard=1: perf must succeed, decode nothing (no AUX area), and the
 * SPE interrupt must not have fired at all (Discard mode raises no
 * buffer management event, so any interrupt would be a storm).
 *
 *   perf-spe-record [PERF]     (default /bin/perf), prints TAP
 *   perf-spe-record --spin     the workload: a busy loop of about 0.5 s
 *
 * Run as root in the guest; skips when there is no arm_spe PMU.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DATA	"/tmp/perf-spe-record.data"
#define SCRIPT	"/tmp/perf-spe-record.txt"
#define MIN_OWN_SAMPLES	10

extern char __executable_start[], etext[];

static int ntest, nfail;

static void tap(int ok, const char *name, const char *skip)
{
	if (skip)
		printf("ok %d %s # SKIP %s\n", ++ntest, name, skip);
	else
		printf("%sok %d %s\n", ok ? "" : "not ", ++ntest, name);
	nfail += !skip && !ok;
	fflush(stdout);
}

static __attribute__((noinline)) void spin(void)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += i ^ (x >> 3);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 500000000L);
}

static int run(char *const argv[], const char *out);

/* Sum of the SPE interrupt's counts over all CPUs in /proc/interrupts */
static long spe_irqs(void)
{
	char line[1024], *p, *end;
	long sum = -1, n;
	FILE *f = fopen("/proc/interrupts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "arm_spe"))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		sum = sum < 0 ? 0 : sum;
		for (p++;; p = end) {
			n = strtol(p, &end, 10);
			if (end == p)
				break;
			sum += n;
		}
	}
	if (f)
		fclose(f);
	return sum;
}

/* Samples perf script decodes from @data, one per SPE record */
static long count_samples(const char *perf, const char *data)
{
	char *const scr[] = { (char *)perf, "script", "-i", (char *)data, "--itrace=i1i", "-F",
			      "ip", NULL };
	char line[512];
	unsigned long ip;
	long n = 0;
	FILE *f;

	if (run(scr, SCRIPT))
		return -1;
	f = fopen(SCRIPT, "r");
	while (f && fgets(line, sizeof(line), f))
		n += sscanf(line, " %lx", &ip) == 1;
	if (f)
		fclose(f);
	return n;
}

/* Run argv with stdout to @out (if not NULL); return the exit status */
static int run(char *const argv[], const char *out)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(126);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int find_spe(char *name, size_t len)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "arm_spe_", 8) && strlen(e->d_name) < len) {
			snprintf(name, len, "%s", e->d_name);
			found = 1;
			break;
		}
	}
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	char *perf = "/bin/perf", pmu[64], event[96], self[256];
	unsigned long lo = (unsigned long)__executable_start;
	unsigned long hi = (unsigned long)etext;
	unsigned long ip, total = 0, own = 0;
	char line[512];
	FILE *f;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "--spin")) {
		spin();
		return 0;
	}
	if (argc > 1)
		perf = argv[1];

	printf("TAP version 13\n1..3\n");
	if (!find_spe(pmu, sizeof(pmu)) || access(perf, X_OK)) {
		const char *why = access(perf, X_OK) ? "no perf binary" : "no arm_spe PMU";

		tap(1, "perf_record_spe", why);
		tap(1, "perf_script_own_pcs", why);
		tap(1, "perf_record_discard", why);
		return 0;
	}

	snprintf(event, sizeof(event), "%s//", pmu);
	/* The workload is this very program, so its text range is known */
	{
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0)
			snprintf(self, sizeof(self), "%s", argv[0]);
		else
			self[n] = 0;
	}

	/* The default AUX size: perf must pick one the kernel accepts */
	char *const rec[] = { perf, "record", "-q", "-o", DATA, "-e", event, "--",
			      self, "--spin", NULL };
	rc = run(rec, NULL);
	printf("# perf record -e %s -- %s --spin: exit %d\n", event, self, rc);
	tap(rc == 0, "perf_record_spe", NULL);

	/* One "instructions" sample per SPE record, whatever its events */
	char *const scr[] = { perf, "script", "-i", DATA, "--itrace=i1i", "-F", "ip", NULL };

	rc = run(scr, SCRIPT);
	f = fopen(SCRIPT, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %lx", &ip) != 1)
			continue;
		total++;
		if (ip >= lo && ip < hi)
			own++;
	}
	if (f)
		fclose(f);
	printf("# perf script: exit %d, %lu samples, %lu in [%#lx, %#lx)\n",
	       rc, total, own, lo, hi);
	tap(rc == 0 && own >= MIN_OWN_SAMPLES, "perf_script_own_pcs", NULL);

	/* Discard mode: profiling on, nothing written, no interrupt */
	snprintf(line, sizeof(line), "/sys/bus/event_source/devices/%s/format/discard", pmu);
	if (access(line, F_OK)) {
		tap(1, "perf_record_discard", "no Discard mode on this kernel or PMU");
		return nfail ? 1 : 0;
	}
	snprintf(event, sizeof(event), "%s/discard=1/", pmu);
	char *const drec[] = { perf, "record", "-q", "-o", DATA ".discard", "-e", event, "--",
			       self, "--spin", NULL };
	long irq0 = spe_irqs(), irq1, n;

	rc = run(drec, NULL);
	irq1 = spe_irqs();
	n = count_samples(perf, DATA ".discard");
	printf("# perf record -e %s: exit %d, %ld samples decoded, SPE interrupts %ld -> %ld\n",
	       event, rc, n, irq0, irq1);
	tap(rc == 0 && n == 0 && irq0 >= 0 && irq1 == irq0, "perf_record_discard", NULL);
	return nfail ? 1 : 0;
}
