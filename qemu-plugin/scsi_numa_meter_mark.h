/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scsi_numa_meter_mark.h: the guest side of the scsi_numa_meter window marker.
 *
 * The marker is one x86-64 instruction, "movabs $imm64, %rax" (bytes
 * 48 b8 <imm64>), whose immediate is SCSI_NUMA_METER_MAGIC | command.  The
 * scsi_numa_meter plugin recognises that exact encoding when QEMU translates the
 * instruction and runs the command when a vCPU executes it, before the
 * instruction itself: the marker has no memory access of its own, and
 * every access of the same thread after it (in program order) is inside
 * the window, every one before it outside.  Outside QEMU+scsi_numa_meter the
 * instruction only clobbers %rax.
 */
#ifndef SCSI_NUMA_METER_MARK_H
#define SCSI_NUMA_METER_MARK_H

#define SCSI_NUMA_METER_MAGIC	0x53434e554d410000ULL	/* "SCNUMA" << 16 */
#define SCSI_NUMA_METER_START	1	/* open a window (window number + 1) */
#define SCSI_NUMA_METER_STOP	2	/* close it, write its counts */
#define SCSI_NUMA_METER_RESET	3	/* zero the totals over windows */
#define SCSI_NUMA_METER_DUMP	4	/* write the totals now */

#define scsi_numa_meter_mark(cmd)						\
	__asm__ __volatile__("movabsq %0, %%rax"			\
			     : : "i" (SCSI_NUMA_METER_MAGIC | (cmd)) : "rax", "memory")

#endif
