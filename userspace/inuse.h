/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BLKLOAD_INUSE_H
#define BLKLOAD_INUSE_H

/*
 * The write guard: before blkload writes to a block device without --force,
 * is anything else using it (a process holding it open, a mount, a holder
 * such as device-mapper, MD or LVM), and does it carry a signature of live
 * data (a filesystem, an LVM2 PV, MD, LUKS, a BlueStore label, a partition
 * table; probed read-only with blkid -p)? Returns 0 when writing is fine,
 * -EBUSY when refused (the reasons printed on stderr, in the user's terms).
 * Not a block device: 0 (nothing to guard).
 */
int bl_write_guard(const char *path);

#endif
