// SPDX-License-Identifier: GPL-2.0
/*
 * Reproducer for the AUX padding overflow of arm_spe_pmu (fixed by "perf:
 * arm_spe: Do not pad past the end of the AUX buffer"), through the perf
 * ABI alone, as an unprivileged user.
 *
 * __arm_spe_pmu_next_off() clamps the buffer limit to the page boundary
 * after the wakeup point when "head <= wakeup".  If the wakeup index is
 * the head index itself and page aligned, the limit is the head, the
 * driver finds no room and pads handle->size bytes (the free space of the
 * ring, which wraps) from the head, without wrapping: memset() runs past
 * the end of the vmap()ed AUX buffer.
 *
 * The perf core keeps aux_head and aux_wakeup when the AUX area is
 * unmapped and mapped again, but takes the new area's watermark (half of
 * it by default), so the first wakeup after a smaller mapping can be the
 * head.  Nothing here needs a sample: the sample interval is the largest
 * the unit takes, and every step checks that no record moved the head.
 *
 *   1. 16 KiB AUX area (watermark 8 KiB), aux_tail 4096 - 16384: 4095
 *      bytes free.  ENABLE: the window would end in the head's own page,
 *      so the driver pads the 4095 bytes: aux_head = 4095 (TRUNCATED).
 *   2. aux_tail = aux_head, ENABLE: the driver aligns the head to the
 *      unit's alignment (>= 2 bytes), aux_head = 4096.  DISABLE.
 *      aux_wakeup is still 0.
 *   3. Unmap the AUX area, map 8 KiB (watermark 4 KiB).
 *   4. aux_tail = aux_head, ENABLE: wakeup = 0 + 4096 = head, at offset
 *      4096 of the new area; free space 8191 bytes.  Unfixed, the driver
 *      writes 8191 bytes from offset 4096 of an 8192-byte buffer: 4095
 *      bytes into the page after it, the vmap guard page, and the kernel
 *      oopses in the SPE start path.  Fixed, it programs [4096, 8192).
 *
 * Step 2 needs PMBIDR_EL1.Align >= 1 (sysfs does not show it): with
 * 1-byte alignment the head stays at 4095 and the rest is skipped.
 * Prints TAP 13; exit 0 = pass.  As root it drops to
 * uid/gid 65534 first: an unprivileged user, within perf_event_paranoid
 * <= 2, is enough.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NOBODY		65534
#define SPE_DEVICES	"/sys/bus/event_source/devices"
#define PAGE		4096UL
#define BIG_AUX		(4 * PAGE)	/* watermark 2 pages */
#define SMALL_AUX	(2 * PAGE)	/* watermark 1 page */
#define DATA_PAGES	8
#define TRIES		5
#define NTESTS		5

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

static void skip_rest(const char *why)
{
	while (ntest < NTESTS)
		tap(1, "-", why);
}

/* The value in @dir/@file, or -1 */
static long read_long(const char *dir, const char *file)
{
	char path[1024];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%li", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int find_spe(char *dir, size_t len)
{
	DIR *d = opendir(SPE_DEVICES);
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d))) {
		if (!strncmp(e->d_name, "arm_spe_", 8)) {
			snprintf(dir, len, "%s/%s", SPE_DEVICES, e->d_name);
			found = 1;
			break;
		}
	}
	if (d)
		closedir(d);
	return found;
}

struct ev {
	int fd;
	struct perf_event_mmap_page *pc;
	size_t data_len;
	void *aux;
	size_t aux_len;
	uint64_t data_tail;
};

static int map_aux(struct ev *ev, size_t len)
{
	ev->pc->aux_offset = ev->data_len;
	ev->pc->aux_size = len;
	ev->aux = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd,
		       ev->data_len);
	if (ev->aux == MAP_FAILED) {
		printf("# mmap of a %zu-byte AUX area: %s\n", len, strerror(errno));
		ev->aux = NULL;
		return -1;
	}
	ev->aux_len = len;
	return 0;
}

static int ev_open(struct ev *ev, int type)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		/* The largest interval PMSIRR_EL1 takes: no record in time */
		.sample_period = 0xffffff00,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	memset(ev, 0, sizeof(*ev));
	ev->fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (ev->fd < 0) {
		printf("# perf_event_open(type %d, this task): %s\n", type, strerror(errno));
		return -1;
	}
	ev->data_len = (1 + DATA_PAGES) * PAGE;
	ev->pc = mmap(NULL, ev->data_len, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, 0);
	if (ev->pc == MAP_FAILED) {
		printf("# mmap of the ring buffer: %s\n", strerror(errno));
		close(ev->fd);
		return -1;
	}
	return map_aux(ev, BIG_AUX);
}

static void ev_close(struct ev *ev)
{
	if (ev->aux)
		munmap(ev->aux, ev->aux_len);
	munmap(ev->pc, ev->data_len);
	close(ev->fd);
}

static uint64_t aux_head(struct ev *ev)
{
	return __atomic_load_n(&ev->pc->aux_head, __ATOMIC_ACQUIRE);
}

static void set_aux_tail(struct ev *ev, uint64_t tail)
{
	__atomic_store_n(&ev->pc->aux_tail, tail, __ATOMIC_RELEASE);
}

static int onoff(struct ev *ev, int on)
{
	if (ioctl(ev->fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0)) {
		printf("# ioctl %s: %s\n", on ? "ENABLE" : "DISABLE", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The PERF_RECORD_AUX records written since the last call: how many, and
 * how many had PERF_AUX_FLAG_TRUNCATED.
 */
static void aux_records(struct ev *ev, int *n, int *truncated)
{
	uint64_t head = __atomic_load_n(&ev->pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t size = ev->pc->data_size, off = ev->pc->data_offset;
	unsigned char *data = (unsigned char *)ev->pc + off;

	*n = *truncated = 0;
	while (ev->data_tail < head) {
		struct perf_event_header h;
		struct { uint64_t offset, size, flags; } rec;
		unsigned char buf[sizeof(h) + sizeof(rec)];

		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = data[(ev->data_tail + i) % size];
		memcpy(&h, buf, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_AUX) {
			memcpy(&rec, buf + sizeof(h), sizeof(rec));
			(*n)++;
			*truncated += !!(rec.flags & PERF_AUX_FLAG_TRUNCATED);
		}
		ev->data_tail += h.size;
	}
	__atomic_store_n(&ev->pc->data_tail, ev->data_tail, __ATOMIC_RELEASE);
}

/*
 * Steps 1 and 2: aux_head = 4096 with aux_wakeup = 0, in a 16 KiB area.
 * Returns 1 on success, 0 when a record moved the head (try again), 2
 * when the head stayed at 4095 (1-byte alignment), -1 on an error.
 */
static int head_to_page(struct ev *ev)
{
	int n, trunc;

	/* 1: 4095 bytes free, all in the head's page: the driver pads them */
	set_aux_tail(ev, PAGE - BIG_AUX);
	if (onoff(ev, 1) || onoff(ev, 0))
		return -1;
	aux_records(ev, &n, &trunc);
	printf("# step 1: aux_head %llu, %d AUX records, %d truncated\n",
	       (unsigned long long)aux_head(ev), n, trunc);
	if (aux_head(ev) != PAGE - 1 || !trunc)
		return aux_head(ev) > PAGE - 1 ? 0 : -1;

	/* 2: the driver aligns the head: one byte, to the page boundary */
	set_aux_tail(ev, aux_head(ev));
	if (onoff(ev, 1) || onoff(ev, 0))
		return -1;
	aux_records(ev, &n, &trunc);
	printf("# step 2: aux_head %llu, %d AUX records, %d truncated\n",
	       (unsigned long long)aux_head(ev), n, trunc);
	if (aux_head(ev) == PAGE - 1 && !trunc)
		return 2;
	if (aux_head(ev) != PAGE)
		return aux_head(ev) > PAGE ? 0 : -1;
	return trunc ? -1 : 1;
}

int main(void)
{
	char dir[512];
	long type, paranoid;
	struct ev ev;
	int rc = -1, n, trunc;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("TAP version 13\n1..%d\n", NTESTS);
	if (!find_spe(dir, sizeof(dir))) {
		skip_rest("no arm_spe PMU");
		return 0;
	}
	type = read_long(dir, "type");
	paranoid = read_long("/proc/sys/kernel", "perf_event_paranoid");
	printf("# %s: type %ld; perf_event_paranoid %ld\n", dir, type, paranoid);
	if (geteuid() == 0 && (setgid(NOBODY) || setuid(NOBODY))) {
		printf("# cannot drop to uid %d: %s\n", NOBODY, strerror(errno));
		tap(0, "unprivileged", NULL);
		skip_rest("not unprivileged");
		return 1;
	}
	printf("# uid %d, euid %d\n", (int)getuid(), (int)geteuid());
	tap(geteuid() != 0, "unprivileged", NULL);

	for (int i = 0; i < TRIES && rc == -1; i++) {
		if (ev_open(&ev, type)) {
			tap(0, "open_16k_aux", NULL);
			skip_rest("no event");
			return 1;
		}
		rc = head_to_page(&ev);
		if (rc == 0) {
			printf("# a record moved the head; again\n");
			ev_close(&ev);
			rc = -1;
			continue;
		}
		break;
	}
	tap(1, "open_16k_aux", NULL);
	if (rc == 2) {
		tap(1, "head_at_4096_wakeup_at_0",
		    "the driver left the head at 4095: PMBIDR_EL1.Align is 0");
		skip_rest("the head cannot be moved to a page boundary without records");
		return 0;
	}
	tap(rc == 1, "head_at_4096_wakeup_at_0", NULL);
	if (rc != 1) {
		skip_rest("the head did not reach a page boundary");
		return 1;
	}

	/* 3: a smaller area: watermark 4 KiB, so wakeup = 0 + 4096 = head */
	munmap(ev.aux, ev.aux_len);
	ev.aux = NULL;
	if (map_aux(&ev, SMALL_AUX)) {
		tap(0, "remap_8k_aux", NULL);
		skip_rest("no 8 KiB AUX area");
		return 1;
	}
	printf("# step 3: 8 KiB AUX area, aux_head %llu\n", (unsigned long long)aux_head(&ev));
	tap(aux_head(&ev) == PAGE, "remap_8k_aux", NULL);

	/*
	 * 4: with the consumer caught up, 8191 bytes are free.  Unfixed,
	 * this ENABLE writes 4095 bytes past the AUX buffer and oopses.
	 */
	set_aux_tail(&ev, aux_head(&ev));
	printf("# step 4: ENABLE with head = wakeup = 4096 (offset 4096 of 8192)\n");
	if (onoff(&ev, 1) || onoff(&ev, 0)) {
		tap(0, "enable_with_wakeup_at_head", NULL);
		return 1;
	}
	aux_records(&ev, &n, &trunc);
	printf("# step 4: survived; aux_head %llu, %d AUX records, %d truncated\n",
	       (unsigned long long)aux_head(&ev), n, trunc);
	/* Fixed: a window [4096, 8192) was programmed, nothing padded */
	tap(aux_head(&ev) == PAGE && !trunc, "enable_with_wakeup_at_head", NULL);
	ev_close(&ev);
	return nfail ? 1 : 0;
}
