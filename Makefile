# SPDX-License-Identifier: GPL-2.0
# The SPE VM interface series: apply it to a kernel tree, build it and
# test it. See README.md.
#
#   make            install what is missing, get the base tree, apply the
#                   series, build the patched arm64 Image
#   make check      every test; ends with "N passed, N failed, N skipped"
#   make check-upstream  the kernel tree's own perf and perf_events tests on
#                   emulated SPE in every mode, with their controls, on
#                   both bases (make check: DEN0154 on 7.3 only)
#   make check-el2  the patched kernel as a KVM host at EL2, VHE and nVHE,
#                   on emulated SPE: perf's SPE tests, the series'
#                   kselftest and a KVM guest beside system-wide recording
#                   (checks/upstream.sh --el2), on both bases
#   make check-stable  the stable fixes alone on the bases that take only
#                   them (6.1.y): applied, checked, the padding reproducer
#                   on the unpatched and the patched kernel
#   make export     regenerate the series folder from branch "work"
#   make outgoing   the series folder as mail from you (git config user.name,
#                   user.email; a placeholder is refused) in build/outgoing/:
#                   b4 prep branches and b4 send -o; nothing is sent
#   make clean      remove build/, unless a tree there has commits no
#                   export saved, edits, untracked files, stashes or a
#                   rebase in progress (FORCE=1: anyway; never a BUILD
#                   outside the project)
#   make image      the patched Image (make base-image: the unpatched one,
#                   make images: both)
#   make guest      what runs in the guest, for BASE (build/guest/)
#   make rootfs     the Debian arm64 guest with a shell and a full perf
#                   (build/guest/<name>/rootfs-bookworm.cpio.gz; scripts/guest.sh)
#   make qemu       our QEMU with emulated SPE (build/qemu-10.2.2/)
#   make test-ktap  the unit test of the KTAP parser (scripts/ktap.py)
#   make test-outgoing  make outgoing with test identities (nothing sent)
#   make test-safety  make clean, export/apply and the v6.16 check on
#                   throwaway trees: none may lose a user's work
#   make soak       perf record/report in a loop on emulated SPE (DEN0154),
#                   30 minutes (scripts/soak.sh; SOAK_ARGS="--minutes 5")
#
# BASE=7.3 (default), 6.12.y or 6.1.y (the stable fixes only)  which Debian base tree
# KSRC=/path/to/linux BASE=v6.16    use a worktree of your own tree (a
#                   kernel with no series folder is refused: SERIES=)
# SERIES=7.3|v6.16|6.12.y|6.1.y    override the series folder
# A base has one name, its series folder's (<name> above: 7.3, 6.12.y,
# 6.1.y; with KSRC the folder of the kernel version at BASE, e.g. v6.16):
# series/<name>, build/linux-<name> (KSRC: build/wt-<name>),
# build/images/<name>-Image, build/guest/<name>, ... (scripts/lib.sh: NAME)

export KSRC BASE SERIES CHECK_BASES V616_FILES

.PHONY: all deps base apply build image base-image images guest rootfs qemu test-ktap test-safety \
	test-outgoing check check-upstream check-el2 check-stable export outgoing bench soak clean

all: build

deps:
	@scripts/setup.sh

base: deps
	@scripts/base.sh

apply: base
	@scripts/apply.sh

build: apply
	@scripts/image.sh work

# The Images alone, for a tree already applied: build/images/<name>-Image
# (branch work) and build/images/<name>-base-Image (the base).
image:
	@scripts/image.sh work

base-image:
	@scripts/image.sh base

images: image base-image

guest:
	@scripts/guest/programs.sh

rootfs:
	@scripts/guest/rootfs.sh

qemu:
	@qemu/build.sh

test-ktap:
	@checks/tests/ktap/run.sh

test-safety:
	@checks/tests/safety/run.sh

test-outgoing:
	@checks/tests/outgoing/run.sh

check:
	@checks/run.sh

check-upstream:
	@checks/run.sh --upstream

check-el2:
	@checks/run.sh --el2

check-stable:
	@checks/run.sh --stable

soak:
	@scripts/soak.sh $(SOAK_ARGS)

export:
	@scripts/export.sh

outgoing:
	@scripts/outgoing.sh

clean:
	@scripts/clean.sh

# Per-interrupt cost of the base and patched driver in the model
bench:
	@scripts/harness.sh bench
	@scripts/bench-qemu-spe.sh
