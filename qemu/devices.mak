# Devices for the SPE test build of qemu-system-aarch64 and
# qemu-system-arm (build.sh copies this into the QEMU tree as
# configs/devices/{aarch64,arm}-softmmu/spe-test.mak).
# Only the virt board and a few virtio devices a test guest may want.
CONFIG_ARM_VIRT=y
# TCG needs these (default y only with default devices); GICv3 for
# gic-version=3
CONFIG_ARM_V7M=y
CONFIG_ARM_GICV3=y
CONFIG_VIRTIO_BLK=y
CONFIG_VIRTIO_RNG=y
CONFIG_VIRTIO_SERIAL=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_MMIO=y
# QEMU 10.2: virt selects ACPI_CXL, whose code needs hw/cxl (CXL, which
# depends on PXB), the CXL memory device and a PCIe root port to link
CONFIG_PXB=y
CONFIG_CXL=y
CONFIG_CXL_MEM_DEVICE=y
CONFIG_PCIE_PORT=y
