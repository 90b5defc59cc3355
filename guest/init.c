// SPDX-License-Identifier: GPL-2.0
/*
 * The one static /init of every QEMU guest of the project (scripts/boot.sh
 * packs it with scripts/guest/initramfs.sh).  It mounts the pseudo filesystems,
 * runs every executable in /tests in name order, then, when asked, the
 * built-in SPE check, each between markers that the host's KTAP parser
 * (scripts/ktap.py) uses to keep the KTAP of each program apart from the
 * kernel's (KUnit) output, and powers off:
 *
 *   ==== spe-tests begin ====
 *   ==== test <name> ====
 *   ...the program's own KTAP/TAP output...
 *   ==== end <name> rc=<exit code> secs=<n> ====
 *   ==== spe-tests end ====
 *
 * Before the tests, unless the kernel was booted with kunit.enable=0, it
 * prints the results KUnit keeps in debugfs, suite by suite, each a KTAP
 * document of its own (CONFIG_KUNIT_DEBUGFS):
 *
 *   ==== kunit-debugfs begin ====
 *   ==== suite <name> ====
 *   ...the contents of /sys/kernel/debug/kunit/<name>/results...
 *   ==== kunit-debugfs end ====
 *
 * The results are read there rather than from the console that KUnit
 * printed them on at boot: other kernel messages (the asynchronous
 * unpacking of the initramfs, for one) can land between those lines.
 *
 * What to run, from the kernel command line (scripts/boot.sh sets them):
 *   spe_init.tests=0       do not run /tests
 *   spe_init.timeout=N     kill a program after N seconds (rc=timeout;
 *                          default 240)
 *   spe_init.storm=expect|clean
 *                          run the built-in check "spe-storm": open an
 *                          SPE event for a child pinned to CPU 1 with an
 *                          AUX buffer while this process watches from CPU
 *                          0.  "expect": the kernel must storm (the
 *                          unpatched driver under a DEN0154 hypervisor);
 *                          "clean": it must not, and the AUX data must
 *                          decode as SPE records.  Runs after /tests: a
 *                          storming CPU 1 spoils whatever runs next.
 *   spe_init.secs=N        seconds the child profiles itself (default 2)
 *   spe_init.pages=N       AUX pages (power of two, default 16)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TESTS_DIR	"/tests"
#define SPE_DEV		"/sys/bus/event_source/devices/arm_spe_0"

static char cmdline[4096];
static long test_timeout = 240;

/* The number after KEY on the kernel command line, or DEF */
static long opt(const char *key, long def)
{
	char *p = strstr(cmdline, key);

	if (!p)
		return def;
	return strtol(p + strlen(key), NULL, 0);
}

static void mnt(const char *src, const char *dst, const char *type)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, NULL) && errno != EBUSY)
		printf("init: mount %s on %s: %s\n", type, dst, strerror(errno));
}

static void run(const char *name)
{
	char path[512];
	struct timespec t0, t1;
	int status, secs = 0;
	pid_t pid, w;

	snprintf(path, sizeof(path), "%s/%s", TESTS_DIR, name);
	printf("==== test %s ====\n", name);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);

	pid = fork();
	if (pid == 0) {
		char *const argv[] = { path, NULL };
		static char *const envp[] = { "PATH=/bin:/tests", "HOME=/", "TERM=dumb", NULL };

		setsid();
		execve(path, argv, envp);
		printf("init: exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		printf("==== end %s rc=fork-failed ====\n", name);
		return;
	}

	for (;;) {
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (secs++ >= test_timeout * 10) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			printf("==== end %s rc=timeout ====\n", name);
			fflush(stdout);
			return;
		}
		usleep(100000);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (WIFEXITED(status))
		printf("==== end %s rc=%d secs=%ld ====\n", name,
		       WEXITSTATUS(status), (long)(t1.tv_sec - t0.tv_sec));
	else
		printf("==== end %s rc=signal-%d ====\n", name,
		       WTERMSIG(status));
	fflush(stdout);
}

/* The built-in SPE check */

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
	buf[n] = 0;
	return n;
}

static void show_dmesg(const char *needle)
{
	static char log[1 << 17];
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *line, *save;

	if (n <= 0 || n > (int)sizeof(log))
		n = sizeof(log);
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, n - 1);
	if (n < 0)
		return;
	log[n] = 0;
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strcasestr(line, needle))
			printf("# dmesg: %s\n", line);
}

static long spe_irqs(void)
{
	char buf[8192], *line, *save;
	long total = -1;

	if (read_file("/proc/interrupts", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p;

		if (!strstr(line, "arm_spe") && !strstr(line, "spe"))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		total = 0;
		for (p++; ; ) {
			char *end;
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			total += v;
			p = end;
		}
	}
	return total;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Walk SPE packets (header classes of the Arm ARM, D18.1). */
static int decode(const uint8_t *b, size_t len, int verbose)
{
	size_t i = 0;
	int records = 0, pcs = 0, bad = 0, el0 = 0;

	while (i < len) {
		uint8_t h = b[i];
		size_t n = 1, pl;

		if (h == 0x00 || h == 0x01) {
			if (h == 0x01)
				records++;
			i++;
			continue;
		}
		if ((h & 0xe0) == 0x20) {	/* extended header */
			if (i + 1 >= len)
				break;
			h = b[i + 1];
			n = 2;
		} else if (h < 0x20) {		/* other no-payload packets */
			i++;
			continue;
		}
		pl = (size_t)1 << ((h >> 4) & 3);
		if (i + n + pl > len)
			break;
		if (n == 1 && h == 0x71)
			records++;
		if (n == 1 && (h & 0xf8) == 0xb0 && (h & 7) == 0) {
			uint64_t v = 0;
			int k;

			for (k = 7; k >= 0; k--)
				v = v << 8 | b[i + 1 + k];
			pcs++;
			if (verbose && pcs <= 4)
				printf("#   PC packet: addr 0x%014llx el %d ns %d\n",
				       (unsigned long long)(v & ((1ULL << 56) - 1)),
				       (int)((v >> 61) & 3), (int)(v >> 63));
			if (((v >> 61) & 3) > 1)
				bad++;
			if (((v >> 61) & 3) == 0)
				el0++;
		}
		i += n + pl;
	}
	printf("# decode: %zu bytes, %d records, %d PC packets (%d at EL0), %d bad\n",
	       len, records, pcs, el0, bad);
	return (records > 0 && pcs > 0 && !bad) ? records : -1;
}

static volatile uint64_t sink;

static void spin(double secs)
{
	double end = now() + secs;

	while (now() < end)
		for (int i = 0; i < 100000; i++)
			sink += i;
}

/* Child: open SPE on itself, spin, check the AUX data. Exit 0 = ok. */
static int child(int type, long pages, long secs)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr = { 0 };
	struct perf_event_mmap_page *pc;
	size_t data = 8 * psz, aux = pages * psz;
	uint8_t *auxbuf;
	uint64_t head, tail;
	int fd;

	pin(1);
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = 1;		/* ts_enable */
	attr.sample_period = 1024;
	attr.disabled = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		printf("# perf_event_open: %s\n", strerror(errno));
		return 2;
	}
	pc = mmap(NULL, psz + data, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		printf("# mmap data: %s\n", strerror(errno));
		return 3;
	}
	pc->aux_offset = psz + data;
	pc->aux_size = aux;
	auxbuf = mmap(NULL, aux, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      pc->aux_offset);
	if (auxbuf == MAP_FAILED) {
		printf("# mmap aux (%zu bytes): %s\n", aux, strerror(errno));
		return 4;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(secs);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE);
	tail = pc->aux_tail;
	printf("# aux: head %llu tail %llu (buffer %zu bytes)\n",
	       (unsigned long long)head, (unsigned long long)tail, aux);
	if (head == tail)
		return 5;
	/* Decode the newest data that is still in the buffer. */
	{
		uint64_t start = head > aux ? head - aux : 0;
		size_t off = start % aux, len = head - start;
		uint8_t *copy = malloc(len);

		for (size_t k = 0; k < len; k++)
			copy[k] = auxbuf[(off + k) % aux];
		/* A window that starts mid-record: skip to after an End/TS */
		return decode(copy, len, 1) > 0 ? 0 : 6;
	}
}

/*
 * The built-in check, as a KTAP document of the test "spe-storm":
 *   ok 1 probe             arm_spe_0 is there
 *   ok 2 storm_caught      (expect) CPU 1 stuck in the SPE interrupt
 *   ok 2 aux_records       (clean) the child finished, its AUX data decodes
 * Returns the number of failures.
 */
static int spe_storm(int expect_storm)
{
	long secs = opt("spe_init.secs=", 2), pages = opt("spe_init.pages=", 16);
	const char *what = expect_storm ? "storm_caught" : "aux_records";
	long irq0, irq1;
	int type, status = 0, code;
	char buf[256];
	pid_t pid;
	double t0;

	printf("TAP version 13\n1..2\n");
	show_dmesg("arm_spe");
	if (read_file(SPE_DEV "/type", buf, sizeof(buf)) < 0) {
		printf("# no %s: %s\n", SPE_DEV "/type", strerror(errno));
		printf("not ok 1 probe\nnot ok 2 %s\n", what);
		return 2;
	}
	type = atoi(buf);
	printf("ok 1 probe\n");
	printf("# arm_spe_0 type %d\n", type);
	if (read_file(SPE_DEV "/caps/max_buff_size", buf, sizeof(buf)) > 0)
		printf("# caps/max_buff_size %s", buf);
	if (read_file(SPE_DEV "/caps/min_interval", buf, sizeof(buf)) > 0)
		printf("# caps/min_interval %s", buf);

	pin(0);
	irq0 = spe_irqs();
	t0 = now();
	pid = fork();
	if (pid == 0)
		_exit(child(type, pages, secs));
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (now() - t0 > secs + 10) {
			status = -1;
			break;
		}
		usleep(100000);
	}
	irq1 = spe_irqs();
	printf("# SPE-IRQS %ld (during the run: %ld)\n", irq1, irq1 - irq0);
	show_dmesg("arm_spe");
	if (status == -1) {
		printf("# child stuck after %.1fs: interrupt storm on CPU 1\n",
		       now() - t0);
		kill(pid, SIGKILL);
		printf("%sok 2 %s\n", expect_storm ? "" : "not ", what);
		return !expect_storm;
	}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 100;
	printf("# child exit code %d\n", code);
	if (expect_storm) {
		printf("not ok 2 %s\n", what);
		return 1;
	}
	printf("%sok 2 %s\n", code == 0 ? "" : "not ", what);
	return code != 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* KUnit's results as debugfs keeps them, one suite after the other */
static void kunit_results(void)
{
	static const char dir[] = "/sys/kernel/debug/kunit";
	struct dirent **ents;
	char path[512], buf[4096];
	ssize_t len;
	int i, n, fd;

	if (strstr(cmdline, "kunit.enable=0"))
		return;
	mnt("debugfs", "/sys/kernel/debug", "debugfs");
	printf("==== kunit-debugfs begin ====\n");
	n = scandir(dir, &ents, NULL, by_name);
	if (n < 0)
		printf("init: %s: %s\n", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/results", dir, ents[i]->d_name);
		fd = ents[i]->d_name[0] == '.' ? -1 : open(path, O_RDONLY);
		if (fd >= 0) {
			printf("==== suite %s ====\n", ents[i]->d_name);
			fflush(stdout);
			while ((len = read(fd, buf, sizeof(buf))) > 0)
				fwrite(buf, 1, len, stdout);
			close(fd);
			fflush(stdout);
		}
		free(ents[i]);
	}
	if (n > 0)
		free(ents);
	printf("==== kunit-debugfs end ====\n");
	fflush(stdout);
}

int main(void)
{
	struct dirent **ents;
	char storm[16] = "";
	const char *p;
	int i, n;

	mnt("proc", "/proc", "proc");
	mnt("sysfs", "/sys", "sysfs");
	mnt("devtmpfs", "/dev", "devtmpfs");
	mnt("tmpfs", "/tmp", "tmpfs");

	/* Keep kernel messages from splitting the programs' output lines */
	klogctl(8, NULL, 1);
	setvbuf(stdout, NULL, _IOLBF, 0);

	read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	test_timeout = opt("spe_init.timeout=", 240);
	p = strstr(cmdline, "spe_init.storm=");
	if (p)
		sscanf(p + strlen("spe_init.storm="), "%15[a-z]", storm);

	kunit_results();
	printf("==== spe-tests begin ====\n");
	n = opt("spe_init.tests=", 1) ? scandir(TESTS_DIR, &ents, NULL, by_name) : 0;
	for (i = 0; i < n; i++) {
		struct stat st;
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", TESTS_DIR, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode) && (st.st_mode & 0111))
			run(ents[i]->d_name);
		free(ents[i]);
	}
	if (storm[0]) {
		int rc;

		printf("==== test spe-storm ====\n");
		if (strcmp(storm, "expect") && strcmp(storm, "clean")) {
			printf("TAP version 13\n1..0\n"
			       "Bail out! spe_init.storm=%s: not expect or clean\n", storm);
			rc = 2;
		} else {
			rc = spe_storm(!strcmp(storm, "expect"));
		}
		printf("==== end spe-storm rc=%d ====\n", rc);
	}
	printf("==== spe-tests end ====\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
