#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print what the virt board's ACPI MADT says of SPE, for one -cpu.

    checks/qemu-madt.py QEMU CPU [MACHINE]

Starts QEMU stopped (-S, 2 CPUs) with the qtest protocol on stdio, reads the ACPI
tables QEMU gives the firmware ("etc/acpi/tables" through the virt
board's fw_cfg registers), finds the MADT and prints one line:

    rev R gicc N len L spe I,I,...

R: the MADT revision; N: the number of GICC structures; L: their
lengths; I: each GICC's SPE overflow interrupt, the 16-bit field at
offset 78 (ACPI 6.3, MADT revision 5; "-" when the structure is too short
to have it).
"""

import subprocess
import struct
import sys

FW_CFG = 0x09020000             # virt: data at +0, selector at +8
FW_CFG_FILE_DIR = 0x19
GICC = 0x0B
SPE_OFF = 78                    # ACPI 6.3 GICC: SPE overflow interrupt


class Qtest:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        while True:
            r = self.p.stdout.readline()
            if not r:
                raise SystemExit("qemu-madt: QEMU exited (%s)" % line)
            if not r.startswith("IRQ"):
                break
        w = r.split()
        if w[0] != "OK":
            raise SystemExit("qemu-madt: %s: %s" % (line, r.strip()))
        return w[1] if len(w) > 1 else None

    def select(self, key):
        # the selector is a big-endian register; qtest writes in the
        # guest's (little-endian) byte order
        self.cmd("writew 0x%x 0x%x" % (FW_CFG + 8,
                                       ((key & 0xff) << 8) | (key >> 8)))

    def read(self, n):
        # the data register gives the item's next bytes in order, up to
        # 8 at a time; qtest prints them as a little-endian number
        b = b""
        while len(b) + 8 <= n:
            b += struct.pack("<Q", int(self.cmd("readq 0x%x" % FW_CFG), 16))
        while len(b) < n:
            b += bytes([int(self.cmd("readb 0x%x" % FW_CFG), 16)])
        return b

    def close(self):
        self.p.stdin.close()
        self.p.kill()
        self.p.wait()


def fw_file(q, name):
    q.select(FW_CFG_FILE_DIR)
    count = struct.unpack(">I", q.read(4))[0]
    for _ in range(count):
        size, sel, _res, fname = struct.unpack(">IHH56s", q.read(64))
        if fname.rstrip(b"\0").decode() == name:
            q.select(sel)
            return q.read(size)
    raise SystemExit("qemu-madt: no fw_cfg file %s" % name)


def madt(tables):
    # Checksums are left for the firmware to fill in (etc/table-loader),
    # so a table header is told by its signature and QEMU's default OEM
    # ID and table ID.
    i = 0
    while True:
        i = tables.find(b"APIC", i)
        if i < 0:
            raise SystemExit("qemu-madt: no MADT in etc/acpi/tables")
        length = struct.unpack_from("<I", tables, i + 4)[0]
        t = tables[i:i + length]
        if (len(t) == length and length >= 44 and
                t[10:24] == b"BOCHS BXPC    "):
            return t
        i += 4


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    qemu, cpu = sys.argv[1], sys.argv[2]
    machine = sys.argv[3] if len(sys.argv) == 4 else "virt"
    q = Qtest([qemu, "-M", machine, "-accel", "tcg", "-cpu", cpu, "-smp", "2",
               "-S",
               "-display", "none", "-nic", "none", "-monitor", "none",
               "-serial", "none", "-qtest", "stdio"])
    try:
        t = madt(fw_file(q, "etc/acpi/tables"))
    finally:
        q.close()
    rev = t[8]
    lens, spe = [], []
    off = 44
    while off + 2 <= len(t):
        typ, ln = t[off], t[off + 1]
        if ln < 2:
            raise SystemExit("qemu-madt: bad structure length at %d" % off)
        if typ == GICC:
            lens.append(str(ln))
            if ln >= SPE_OFF + 2:
                spe.append(str(struct.unpack_from("<H", t, off + SPE_OFF)[0]))
            else:
                spe.append("-")
        off += ln
    print("rev %d gicc %d len %s spe %s" % (rev, len(lens),
                                             ",".join(sorted(set(lens))),
                                             ",".join(spe)))


if __name__ == "__main__":
    main()
