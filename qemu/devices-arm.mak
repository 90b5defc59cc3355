# qemu-system-arm's devices on top of devices.mak (build.sh writes both
# into the QEMU tree as configs/devices/arm-softmmu/spe-test.mak): the
# micro:bit, on which QEMU's make check-tcg runs its Cortex-M0 test
# (tests/tcg/arm/Makefile.softmmu-target).
CONFIG_MICROBIT=y
