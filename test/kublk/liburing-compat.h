/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-ins for the buffer-ring helpers liburing added in 2.4, for
 * building the kernel's ublk selftest server (kublk) against an older
 * liburing (Debian 12 has 2.3).  Only kublk's batch mode (-b) calls
 * them; here they fail with -EOPNOTSUPP, and case 42 does not use -b.
 * harness/kbuild.sh includes this file only when liburing.h lacks them.
 */
#include <errno.h>
#include <linux/io_uring.h>	/* the tree's, before liburing's older copy */
#include <liburing.h>

static inline struct io_uring_buf_ring *
io_uring_setup_buf_ring(struct io_uring *ring, unsigned int nentries,
			int bgid, unsigned int flags, int *ret)
{
	(void)ring; (void)nentries; (void)bgid; (void)flags;
	*ret = -EOPNOTSUPP;
	return NULL;
}

static inline int io_uring_free_buf_ring(struct io_uring *ring,
					 struct io_uring_buf_ring *br,
					 unsigned int nentries, int bgid)
{
	(void)ring; (void)br; (void)nentries; (void)bgid;
	return -EOPNOTSUPP;
}
