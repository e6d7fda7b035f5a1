/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snimeter-mark.h: the guest side of the snimeter window marker.
 *
 * The marker is one x86-64 instruction, "movabs $imm64, %rax" (bytes
 * 48 b8 <imm64>), whose immediate is SNIMETER_MAGIC | command.  The
 * snimeter plugin recognises that exact encoding when QEMU translates the
 * instruction and runs the command when a vCPU executes it, before the
 * instruction itself: the marker has no memory access of its own, and
 * every access of the same thread after it (in program order) is inside
 * the window, every one before it outside.  Outside QEMU+snimeter the
 * instruction only clobbers %rax.
 */
#ifndef SNIMETER_MARK_H
#define SNIMETER_MARK_H

#define SNIMETER_MAGIC	0x534e494d45540000ULL	/* "SNIMET" << 16 */
#define SNIMETER_START	1	/* open a window (window number + 1) */
#define SNIMETER_STOP	2	/* close it, write its counts */
#define SNIMETER_RESET	3	/* zero the totals over windows */
#define SNIMETER_DUMP	4	/* write the totals now */

#define snimeter_mark(cmd)						\
	__asm__ __volatile__("movabsq %0, %%rax"			\
			     : : "i" (SNIMETER_MAGIC | (cmd)) : "rax", "memory")

#endif
