// SPDX-License-Identifier: GPL-2.0
/*
 * snimeter-mark start|stop|reset|dump: execute the snimeter marker
 * instruction (see snimeter-mark.h) from a guest shell.
 *
 * Built static on the host (the guest runs the host's / over 9p).  The
 * window it opens also holds what the shell does around the command (exit
 * of this process, fork/exec of the next): to measure one program exactly,
 * put snimeter_mark() into the program itself.
 */
#include <stdio.h>
#include <string.h>
#include "snimeter-mark.h"

int main(int argc, char **argv)
{
	const char *c = argc == 2 ? argv[1] : "";

	if (!strcmp(c, "start"))
		snimeter_mark(SNIMETER_START);
	else if (!strcmp(c, "stop"))
		snimeter_mark(SNIMETER_STOP);
	else if (!strcmp(c, "reset"))
		snimeter_mark(SNIMETER_RESET);
	else if (!strcmp(c, "dump"))
		snimeter_mark(SNIMETER_DUMP);
	else {
		fprintf(stderr, "usage: snimeter-mark start|stop|reset|dump\n");
		return 2;
	}
	return 0;
}
