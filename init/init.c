// SPDX-License-Identifier: GPL-2.0
/*
 * A static /init for the QEMU boot test: mount the pseudo filesystems,
 * run every executable in /tests in name order, each between markers
 * that the host uses to keep the KTAP of each program apart from the
 * kernel's (KUnit) output, then power off.
 *
 *   ==== spe-tests begin ====
 *   ==== test <name> ====
 *   ...the program's own KTAP/TAP output...
 *   ==== end <name> rc=<exit code> ====
 *   ==== spe-tests end ====
 *
 * A program that runs longer than TEST_TIMEOUT seconds is killed and
 * reported with rc=timeout.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TESTS_DIR	"/tests"
#define TEST_TIMEOUT	240

static void mnt(const char *src, const char *dst, const char *type)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, 0, NULL) && errno != EBUSY)
		printf("init: mount %s on %s: %s\n", type, dst, strerror(errno));
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
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
		char *argv[] = { path, NULL };
		char *envp[] = { "PATH=/bin:/tests", "HOME=/", "TERM=dumb", NULL };

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
		if (secs++ >= TEST_TIMEOUT * 10) {
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

int main(void)
{
	struct dirent **ents;
	int i, n;

	mnt("proc", "/proc", "proc");
	mnt("sysfs", "/sys", "sysfs");
	mnt("devtmpfs", "/dev", "devtmpfs");
	mnt("tmpfs", "/tmp", "tmpfs");

	/* Keep kernel messages from splitting the programs' output lines */
	klogctl(8, NULL, 1);
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("==== spe-tests begin ====\n");
	n = scandir(TESTS_DIR, &ents, NULL, by_name);
	for (i = 0; i < n; i++) {
		struct stat st;
		char path[512];

		snprintf(path, sizeof(path), "%s/%s", TESTS_DIR, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode) && (st.st_mode & 0111))
			run(ents[i]->d_name);
		free(ents[i]);
	}
	printf("==== spe-tests end ====\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
