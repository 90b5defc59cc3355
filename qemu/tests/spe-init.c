// SPDX-License-Identifier: GPL-2.0
/*
 * Tiny static /init for a QEMU guest with emulated SPE.
 *
 * Checks that the arm_spe_pmu driver probed, opens an SPE event for a
 * child pinned to CPU 1 with an AUX buffer, lets the child spin, and
 * decodes the AUX data as SPE packets.  The parent stays on CPU 0, so
 * an interrupt storm on CPU 1 (the unpatched driver under a DEN0154
 * hypervisor) is detected and reported instead of hanging the test.
 *
 * Output: "RESULT pass|fail|skip <name>" lines, and "SPE-IRQS <n>" (the
 * arm_spe line of /proc/interrupts, summed).  Then the guest powers off.
 *
 * Kernel command line knobs (read from /proc/cmdline):
 *   spetest.secs=N     seconds the child profiles itself (default 2)
 *   spetest.pages=N    AUX pages (power of two, default 16)
 *   spetest.expect=storm  expect the storm (the unpatched kernel under
 *                      spe-mode=den0154): pass when it is seen
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
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

#define SPE_DEV "/sys/bus/event_source/devices/arm_spe_0"

static char cmdline[4096];
static int failures;

static void result(const char *res, const char *name)
{
	printf("RESULT %s %s\n", res, name);
	fflush(stdout);
	if (!strcmp(res, "fail"))
		failures++;
}

static long opt(const char *key, long def)
{
	char *p = strstr(cmdline, key);

	if (!p)
		return def;
	return strtol(p + strlen(key), NULL, 0);
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
			printf("dmesg: %s\n", line);
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
				printf("  PC packet: addr 0x%014llx el %d ns %d\n",
				       (unsigned long long)(v & ((1ULL << 56) - 1)),
				       (int)((v >> 61) & 3), (int)(v >> 63));
			if (((v >> 61) & 3) > 1)
				bad++;
			if (((v >> 61) & 3) == 0)
				el0++;
		}
		i += n + pl;
	}
	printf("decode: %zu bytes, %d records, %d PC packets (%d at EL0), %d bad\n",
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
		printf("perf_event_open: %s\n", strerror(errno));
		return 2;
	}
	pc = mmap(NULL, psz + data, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		printf("mmap data: %s\n", strerror(errno));
		return 3;
	}
	pc->aux_offset = psz + data;
	pc->aux_size = aux;
	auxbuf = mmap(NULL, aux, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      pc->aux_offset);
	if (auxbuf == MAP_FAILED) {
		printf("mmap aux (%zu bytes): %s\n", aux, strerror(errno));
		return 4;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(secs);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&pc->aux_head, __ATOMIC_ACQUIRE);
	tail = pc->aux_tail;
	printf("aux: head %llu tail %llu (buffer %zu bytes)\n",
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

int main(void)
{
	char buf[256];
	long secs, pages, irq0, irq1;
	int type, expect_storm, status = 0;
	pid_t pid;
	double t0;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/dev", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	secs = opt("spetest.secs=", 2);
	pages = opt("spetest.pages=", 16);
	expect_storm = strstr(cmdline, "spetest.expect=storm") != NULL;

	printf("spe-init: cmdline: %s", cmdline);
	show_dmesg("spe");

	if (read_file(SPE_DEV "/type", buf, sizeof(buf)) < 0) {
		printf("no %s: %s\n", SPE_DEV "/type", strerror(errno));
		result("fail", "qemu-spe-probe");
		goto out;
	}
	type = atoi(buf);
	result("pass", "qemu-spe-probe");
	printf("arm_spe_0 type %d\n", type);
	if (read_file(SPE_DEV "/caps/max_buff_size", buf, sizeof(buf)) > 0)
		printf("caps/max_buff_size %s", buf);
	if (read_file(SPE_DEV "/caps/min_interval", buf, sizeof(buf)) > 0)
		printf("caps/min_interval %s", buf);

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
	printf("SPE-IRQS %ld (during the run: %ld)\n", irq1, irq1 - irq0);
	if (status == -1) {
		printf("child stuck after %.1fs: interrupt storm on CPU 1\n",
		       now() - t0);
		kill(pid, SIGKILL);
		result(expect_storm ? "pass" : "fail", "qemu-spe-storm");
	} else {
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 100;

		printf("child exit code %d\n", code);
		if (expect_storm)
			result("fail", "qemu-spe-storm");
		else
			result(code == 0 ? "pass" : "fail", "qemu-spe-aux-records");
	}
	show_dmesg("spe");
out:
	printf("spe-init: done, %d failure(s)\n", failures);
	fflush(stdout);
	sync();
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	return 0;
}
