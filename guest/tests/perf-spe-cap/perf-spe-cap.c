// SPDX-License-Identifier: GPL-2.0
/*
 * perf-spe-cap: check that "perf record" honours an SPE PMU's
 * caps/max_buff_size, by running the real perf binary against a fake
 * arm_spe_0 PMU.
 *
 * Meant to run as root in a QEMU guest booted from an initramfs without a
 * shell, as /init or started by one:
 *
 *   perf-spe-cap [PERF]          (PERF defaults to /bin/perf)
 *
 * The guest has no SPE, so a tmpfs is mounted over
 * /sys/bus/event_source/devices holding symlinks to the real PMUs plus an
 * arm_spe_0 directory with what perf reads from an SPE PMU: type, cpumask,
 * format/ and caps/ (with caps/max_buff_size chosen per case).  Its type is
 * the software PMU's, so perf recognises arm_spe_0 as SPE, applies its AUX
 * size logic, opens a software event that really exists and then fails to
 * map an AUX area for it (EOPNOTSUPP), after printing (-vv) the AUX area
 * length it asked for.  That is the real code path up to the mmap the SPE
 * driver would refuse.
 *
 * Output is TAP ("TAP version 13"); exit status 0 when every case passed.
 * When run as PID 1 the machine is powered off at the end, after a line
 * "perf-spe-cap: exit N".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEVICES		"/sys/bus/event_source/devices"
#define SPE		DEVICES "/arm_spe_0"
#define WORKDIR		"/tmp/perf-spe-cap"
#define OUT_MAX		(1024 * 1024)
#define ARRAY_SIZE(a)	((int)(sizeof(a) / sizeof((a)[0])))

static const char *perf = "/bin/perf";
static char self[PATH_MAX];
static int nr_tests, nr_failed;
static char out[OUT_MAX];	/* combined stdout and stderr of the last perf run */

static void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
}

static void result(bool ok, const char *name)
{
	nr_tests++;
	if (!ok)
		nr_failed++;
	printf("%sok %d %s\n", ok ? "" : "not ", nr_tests, name);
	fflush(stdout);
}

static int write_file(const char *path, const char *fmt, ...)
{
	va_list ap;
	FILE *f = fopen(path, "w");

	if (!f) {
		diag("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	return fclose(f);
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * The basic mounts, when nothing (no init) made them, in a mount namespace
 * of our own so that the fake PMU directory is seen only by us and perf.
 */
static void mount_basics(bool init)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		diag("no private mount namespace: %s", strerror(errno));

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mkdir("/tmp", 01777);
	if (access("/proc/self", F_OK))
		mount("proc", "/proc", "proc", 0, NULL);
	if (access("/sys/bus", F_OK))
		mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (access("/dev/null", F_OK))
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	if (init)
		mount("tmpfs", "/tmp", "tmpfs", 0, NULL);

	/* An initramfs without /dev/console leaves init without output */
	if (init && fcntl(1, F_GETFD) < 0) {
		int fd = open("/dev/console", O_RDWR);

		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
	}
}

/*
 * Replace DEVICES by a tmpfs with a link to each real PMU and a fake
 * arm_spe_0 of type @type.
 */
static int fake_devices(char *type, size_t type_len)
{
	static const char * const formats[][2] = {
		/* what the 6.12 SPE driver exports */
		{ "ts_enable",		"config:0" },
		{ "pa_enable",		"config:1" },
		{ "pct_enable",		"config:2" },
		{ "jitter",		"config:16" },
		{ "branch_filter",	"config:32" },
		{ "load_filter",	"config:33" },
		{ "store_filter",	"config:34" },
		{ "event_filter",	"config1:0-63" },
		{ "min_latency",	"config2:0-11" },
	};
	static const char * const caps[][2] = {
		{ "arch_inst",		"1" },
		{ "ernd",		"1" },
		{ "count_size",		"12" },
		{ "min_interval",	"256" },
	};
	char names[64][NAME_MAX + 1], targets[64][PATH_MAX], path[PATH_MAX];
	int n = 0, i;
	struct dirent *de;
	DIR *d;

	if (read_file(DEVICES "/software/type", type, type_len)) {
		diag("no software PMU in " DEVICES);
		return -1;
	}

	d = opendir(DEVICES);
	if (!d) {
		diag("cannot open " DEVICES ": %s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && n < 64) {
		if (de->d_name[0] == '.')
			continue;
		if (!strncmp(de->d_name, "arm_spe_", 8)) {
			diag("real SPE PMU %s present: hidden by the fake one",
			     de->d_name);
			continue;
		}
		snprintf(path, sizeof(path), DEVICES "/%s", de->d_name);
		if (!realpath(path, targets[n]))
			continue;
		snprintf(names[n], sizeof(names[n]), "%s", de->d_name);
		n++;
	}
	closedir(d);

	if (mount("perf-spe-cap", DEVICES, "tmpfs", 0, "mode=0755")) {
		diag("cannot mount tmpfs on " DEVICES ": %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DEVICES "/%.255s", names[i]);
		if (symlink(targets[i], path))
			diag("symlink %s: %s", path, strerror(errno));
	}

	if (mkdir(SPE, 0755) || mkdir(SPE "/format", 0755) ||
	    mkdir(SPE "/caps", 0755))
		return -1;
	if (write_file(SPE "/type", "%s\n", type) ||
	    write_file(SPE "/cpumask", "0-%ld\n", sysconf(_SC_NPROCESSORS_CONF) - 1))
		return -1;
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		snprintf(path, sizeof(path), SPE "/format/%s", formats[i][0]);
		if (write_file(path, "%s\n", formats[i][1]))
			return -1;
	}
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		snprintf(path, sizeof(path), SPE "/caps/%s", caps[i][0]);
		if (write_file(path, "%s\n", caps[i][1]))
			return -1;
	}
	return 0;
}

/* caps/max_buff_size: @val bytes, or no file when @val is NULL */
static int set_max_buff_size(const char *val)
{
	const char *path = SPE "/caps/max_buff_size";

	if (!val)
		return unlink(path) && errno != ENOENT ? -1 : 0;
	return write_file(path, "%s\n", val);
}

/*
 * Run perf with @args (NULL terminated, after "perf record"), the workload
 * being this program with --exit0.  Output goes to out[].  Returns perf's
 * exit status, 128 + signal, or -1.
 */
static int run_perf(const char * const *args)
{
	const char *argv[32];
	int p[2], n = 0, status, len = 0;
	pid_t pid;
	ssize_t r;

	argv[n++] = perf;
	argv[n++] = "record";
	argv[n++] = "-o";
	argv[n++] = WORKDIR "/perf.data";
	while (*args && n < 28)
		argv[n++] = *args++;
	argv[n++] = "--";
	argv[n++] = self;
	argv[n++] = "--exit0";
	argv[n] = NULL;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execv(perf, (char * const *)argv);
		fprintf(stderr, "exec %s: %s\n", perf, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	while ((r = read(p[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += r;
	out[len] = '\0';
	close(p[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Print out[] as TAP diagnostics, for a failed case */
static void dump_out(void)
{
	char *line, *save = NULL;
	int n = 0;

	for (line = strtok_r(out, "\n", &save); line && n < 60;
	     line = strtok_r(NULL, "\n", &save), n++)
		diag("  | %s", line);
}

/*
 * Number of lines of out[] that contain every string of @needles; the
 * first such line in *first.
 */
static int lines_with(const char * const *needles, const char **first)
{
	const char *l = out, *e;
	int n = 0, i;
	char line[1024];

	*first = NULL;

	for (; *l; l = *e ? e + 1 : e) {
		size_t len;

		e = strchrnul(l, '\n');
		len = e - l;
		if (len > sizeof(line) - 1)
			len = sizeof(line) - 1;
		memcpy(line, l, len);
		line[len] = '\0';
		for (i = 0; needles[i]; i++)
			if (!strstr(line, needles[i]))
				break;
		if (!needles[i] && !n++)
			*first = l;
	}
	return n;
}

/*
 * The AUX area lengths perf asked for ("AUX area mmap length N", -vv):
 * the largest in *max, how many in the return value.
 */
static int aux_lengths(unsigned long long *max)
{
	static const char key[] = "AUX area mmap length ";
	const char *s = out;
	int n = 0;

	*max = 0;
	while ((s = strstr(s, key))) {
		unsigned long long v = strtoull(s + sizeof(key) - 1, NULL, 10);

		if (v > *max)
			*max = v;
		n++;
		s += sizeof(key) - 1;
	}
	return n;
}

/* Did perf refuse on its own, before mapping anything? */
static bool refused(int status)
{
	return status != 0 && !strstr(out, "AUX area mmap length") &&
	       !strstr(out, "failed to mmap");
}

/* A case that expects perf to map an AUX area of exactly @want bytes */
static void expect_aux(const char *name, const char *limit,
		       const char * const *args, unsigned long long want)
{
	unsigned long long max;
	int status, n;
	bool ok;

	if (set_max_buff_size(limit)) {
		result(false, name);
		return;
	}
	status = run_perf(args);
	n = aux_lengths(&max);
	ok = n > 0 && max == want && !strstr(out, "max_buff_size)");
	if (ok) {
		diag("%s: perf asked for an AUX area of %llu bytes (%d mmap(s)), exit %d",
		     name, max, n, status);
	} else {
		diag("%s: perf exit %d, %d AUX mmap(s), largest %llu, want %llu",
		     name, status, n, max, want);
		dump_out();
	}
	result(ok, name);
}

/*
 * A case that expects perf to refuse with one line holding all of
 * @needles, and not to get as far as mapping.
 */
static void expect_refusal(const char *name, const char *limit,
			   const char * const *args, const char * const *needles)
{
	const char *m;
	int status, lines;
	bool ok;

	if (set_max_buff_size(limit)) {
		result(false, name);
		return;
	}
	status = run_perf(args);
	lines = lines_with(needles, &m);
	ok = refused(status) && lines == 1;
	if (ok) {
		/* show the message itself, for the record */
		diag("%s: perf exit %d: %.*s", name, status,
		     (int)(strchrnul(m, '\n') - m), m);
	} else {
		diag("%s: perf exit %d, %d matching line(s)", name, status, lines);
		dump_out();
	}
	result(ok, name);
}

static void run_cases(void)
{
	static const char * const vv[] = { "-vv", "-e", "arm_spe_0//", NULL };
	static const char * const m16[] = { "-vv", "-e", "arm_spe_0//", "-m", ",16M", NULL };
	static const char * const m1[] = { "-vv", "-e", "arm_spe_0//", "-m", ",1M", NULL };
	static const char * const s3m[] = { "-vv", "-e", "arm_spe_0//", "-S3145728", NULL };
	const char * const msg16[] = { "16M", "4194304 bytes", "max_buff_size", "-m ,4M", NULL };
	const char * const msg_s[] = { "3M", "3145728 bytes", "max_buff_size", "-S2097152", NULL };
	long psz = sysconf(_SC_PAGESIZE);
	char tiny[32];

	/* The case: 16M asked for, 4MiB limit */
	expect_refusal("explicit_16M_over_4M_limit_refused", "4194304", m16, msg16);
	/* Default (4MiB for root) clamped under a 1MiB limit */
	expect_aux("default_clamped_to_1M_limit", "1048576", vv, 1ULL << 20);
	/* 2MiB - 4KiB (MaxBuffSize 0x01FF): the largest power of two below */
	expect_aux("default_clamped_to_1M_under_2044K_limit", "2093056", vv, 1ULL << 20);
	/* The limit itself is accepted */
	expect_aux("explicit_1M_at_1M_limit_accepted", "1048576", m1, 1ULL << 20);
	/* A snapshot needing a 4MiB AUX area under a 3MiB limit */
	expect_refusal("snapshot_3M_over_3M_limit_refused", "3145728", s3m, msg_s);
	/* Below two pages: SPE unusable, refused up front */
	snprintf(tiny, sizeof(tiny), "%ld", psz);
	{
		const char * const msg_t[] = { "max_buff_size", "cannot be used", NULL };

		expect_refusal("limit_below_two_pages_refused", tiny, vv, msg_t);
	}
	/* Older kernels: no caps/max_buff_size, perf as before */
	expect_aux("no_cap_default_unchanged_4M", NULL, vv, 4ULL << 20);
	expect_aux("no_cap_explicit_16M_not_refused", NULL, m16, 16ULL << 20);
	/* 0 means no limit */
	expect_aux("zero_cap_explicit_16M_not_refused", "0", m16, 16ULL << 20);
}

int main(int argc, char **argv)
{
	bool init = getpid() == 1;
	char type[32];
	int ret;

	if (argc > 1 && !strcmp(argv[1], "--exit0"))
		return 0;	/* perf's workload */
	if (argc > 1)
		perf = argv[1];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (init)
		setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
	setenv("HOME", "/tmp", 1);
	mount_basics(init);

	printf("TAP version 13\n");
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		snprintf(self, sizeof(self), "%s", argv[0]);
	if (access(perf, X_OK)) {
		printf("1..0 # SKIP no perf at %s\n", perf);
		ret = 0;
		goto out;
	}
	if (geteuid()) {
		printf("1..0 # SKIP needs root\n");
		ret = 0;
		goto out;
	}
	mkdir(WORKDIR, 0755);
	printf("1..9\n");
	if (fake_devices(type, sizeof(type))) {
		printf("Bail out! cannot build the fake arm_spe_0\n");
		ret = 1;
		goto out;
	}
	diag("fake arm_spe_0 of type %s (software), page size %ld, perf %s",
	     type, sysconf(_SC_PAGESIZE), perf);
	run_cases();
	diag("%d of %d failed", nr_failed, nr_tests);
	ret = nr_failed || nr_tests != 9;
out:
	if (init) {
		printf("perf-spe-cap: exit %d\n", ret);
		fflush(stdout);
		sync();
		reboot(RB_POWER_OFF);
	}
	return ret;
}
