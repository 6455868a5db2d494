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

/*
 * The same questions for targets that are not one block device (a librbd
 * image), as text for the caller's refusal: NULL when the answer is no, else
 * the reasons, "; "-separated (the caller frees them).
 *
 * bl_dev_in_use(): is block device @path mounted, held, open by a process
 * or claimed exclusively by the kernel? (A krbd mapping of the image.)
 * Kernel openers without a holder link or a claim (a loop device over it,
 * a blkload read job) are not seen. bl_data_on(): does open file @fd (a
 * copy of an image's first and last MiB, in place, sparse between) carry a
 * signature of live data?
 */
char *bl_dev_in_use(const char *path);
char *bl_data_on(int fd);

#endif
