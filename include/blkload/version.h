/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * The one version of blkload: the module (MODULE_VERSION, info-get), the
 * CLI (--version, reports), the man page and the packages (dkms.conf,
 * debian/changelog are checked against it).
 */
#ifndef _BLKLOAD_VERSION_H
#define _BLKLOAD_VERSION_H

#define BLKLOAD_VERSION		"0.4.0"

#endif /* _BLKLOAD_VERSION_H */
