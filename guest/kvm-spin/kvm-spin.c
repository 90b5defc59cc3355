// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-spin: a KVM guest for the host-side SPE checks (guest/kvm-host-test).
 *
 *   kvm-spin SECONDS
 *
 * Runs a one-vCPU guest through the KVM API for SECONDS, then the same
 * kind of loop on the host for SECONDS, and prints where each one's code
 * is, so that a system-wide "perf record -e arm_spe//" taken meanwhile
 * can be checked: records from the host loop show that the host was
 * sampled, records from the guest's code would be samples of the guest's
 * context, which a guest without SPE must not give its host.
 *
 * The guest runs with its MMU off from a 64 KiB memory slot at
 * GUEST_BASE.  It reads ID_AA64DFR0_EL1 and reports it with a store to
 * GUEST_MMIO (no memory slot there: KVM exits to us with the value), then
 * counts down from 4096 and stores zero to GUEST_MMIO, for ever: each
 * store is one exit, a "round".
 *
 * Output (one line each):
 *   kvm-spin: guest ID_AA64DFR0_EL1 0x... PMSVer N
 *   kvm-spin: guest code 0x...-0x... rounds N
 *   kvm-spin: host loop 0x...-0x... rounds N
 * Exit status 0, or 1 with a message naming the call that failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>

#define GUEST_BASE	0x10000000UL
#define GUEST_SIZE	0x10000UL
#define GUEST_MMIO	0x20000000UL

/* The guest's code, as the assembler gives it */
static const uint32_t guest_code[] = {
	0xd5380501,	/* mrs  x1, id_aa64dfr0_el1 */
	0xd2a40003,	/* movz x3, #0x2000, lsl #16: GUEST_MMIO */
	0xf9000061,	/* str  x1, [x3] */
	0xd2820002,	/* 2: movz x2, #0x1000 */
	0xf1000442,	/* 1: subs x2, x2, #1 */
	0x54ffffe1,	/* b.ne 1b */
	0xf900007f,	/* str  xzr, [x3] */
	0x17fffffc,	/* b    2b */
};

/*
 * The host's loop: host_spin(n) counts n down.  Its size is fixed, so
 * that its range does not depend on what the compiler makes of labels.
 */
#define HOST_SPIN_SIZE	12
void host_spin(uint64_t n);
asm(".text\n"
	".global host_spin\n"
	".type host_spin, %function\n"
	".balign 16\n"
	"host_spin:\n"
	"1:	subs	x0, x0, #1\n"
	"	b.ne	1b\n"
	"	ret\n"
	".size host_spin, . - host_spin\n");

static void fail(const char *what)
{
	fprintf(stderr, "kvm-spin: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct kvm_userspace_memory_region slot = {
		.slot = 0,
		.guest_phys_addr = GUEST_BASE,
		.memory_size = GUEST_SIZE,
	};
	struct kvm_vcpu_init init;
	struct kvm_one_reg reg;
	struct kvm_run *run;
	uint64_t pc = GUEST_BASE, dfr0 = 0, rounds = 0, host_rounds = 0;
	int kvm, vm, vcpu, seen_dfr0 = 0;
	double secs, end;
	long run_size;
	void *mem;

	if (argc != 2 || atof(argv[1]) <= 0) {
		fprintf(stderr, "usage: kvm-spin SECONDS\n");
		return 2;
	}
	secs = atof(argv[1]);
	/* A guest that never exits must not hang the test */
	alarm((unsigned int)(4 * secs) + 60);

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		fail("open /dev/kvm");
	if (ioctl(kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		errno = EINVAL;
		fail("KVM_GET_API_VERSION");
	}
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		fail("KVM_CREATE_VM");
	mem = mmap(NULL, GUEST_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		fail("mmap guest memory");
	memcpy(mem, guest_code, sizeof(guest_code));
	slot.userspace_addr = (uintptr_t)mem;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &slot) < 0)
		fail("KVM_SET_USER_MEMORY_REGION");

	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		fail("KVM_CREATE_VCPU");
	if (ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init) < 0)
		fail("KVM_ARM_PREFERRED_TARGET");
	if (ioctl(vcpu, KVM_ARM_VCPU_INIT, &init) < 0)
		fail("KVM_ARM_VCPU_INIT");
	reg.id = KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE |
		 KVM_REG_ARM_CORE_REG(regs.pc);
	reg.addr = (uintptr_t)&pc;
	if (ioctl(vcpu, KVM_SET_ONE_REG, &reg) < 0)
		fail("KVM_SET_ONE_REG pc");

	run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (run_size < (long)sizeof(*run))
		fail("KVM_GET_VCPU_MMAP_SIZE");
	run = mmap(NULL, run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		fail("mmap kvm_run");

	end = now() + secs;
	while (now() < end) {
		if (ioctl(vcpu, KVM_RUN, 0) < 0)
			fail("KVM_RUN");
		if (run->exit_reason != KVM_EXIT_MMIO ||
		    run->mmio.phys_addr != GUEST_MMIO || !run->mmio.is_write) {
			fprintf(stderr, "kvm-spin: unexpected exit %u (MMIO at 0x%llx)\n",
				run->exit_reason, (unsigned long long)run->mmio.phys_addr);
			return 1;
		}
		if (!seen_dfr0) {
			memcpy(&dfr0, run->mmio.data, sizeof(dfr0));
			seen_dfr0 = 1;
		} else {
			rounds++;
		}
	}
	printf("kvm-spin: guest ID_AA64DFR0_EL1 0x%llx PMSVer %llu\n",
	       (unsigned long long)dfr0, (unsigned long long)(dfr0 >> 32) & 0xf);
	printf("kvm-spin: guest code 0x%lx-0x%lx rounds %llu\n", GUEST_BASE,
	       GUEST_BASE + GUEST_SIZE - 1, (unsigned long long)rounds);
	fflush(stdout);

	end = now() + secs;
	while (now() < end) {
		host_spin(4096);
		host_rounds++;
	}
	printf("kvm-spin: host loop 0x%lx-0x%lx rounds %llu\n",
	       (unsigned long)(uintptr_t)host_spin,
	       (unsigned long)(uintptr_t)host_spin + HOST_SPIN_SIZE - 1,
	       (unsigned long long)host_rounds);
	return 0;
}
