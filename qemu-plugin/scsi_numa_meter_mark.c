// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_meter_mark start|stop|reset|dump: execute the scsi_numa_meter marker
 * instruction (see scsi_numa_meter_mark.h) from a guest shell.
 *
 * Built static on the host (the guest runs the host's / over 9p).  The
 * window it opens also holds what the shell does around the command (exit
 * of this process, fork/exec of the next): to measure one program exactly,
 * put scsi_numa_meter_mark() into the program itself.
 */
#include <stdio.h>
#include <string.h>
#include "scsi_numa_meter_mark.h"

int main(int argc, char **argv)
{
	const char *c = argc == 2 ? argv[1] : "";

	if (!strcmp(c, "start"))
		scsi_numa_meter_mark(SCSI_NUMA_METER_START);
	else if (!strcmp(c, "stop"))
		scsi_numa_meter_mark(SCSI_NUMA_METER_STOP);
	else if (!strcmp(c, "reset"))
		scsi_numa_meter_mark(SCSI_NUMA_METER_RESET);
	else if (!strcmp(c, "dump"))
		scsi_numa_meter_mark(SCSI_NUMA_METER_DUMP);
	else {
		fprintf(stderr, "usage: scsi_numa_meter_mark start|stop|reset|dump\n");
		return 2;
	}
	return 0;
}
