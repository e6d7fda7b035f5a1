/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record format of the SCSI placement inspector (scsi_numa_inspect.ko).
 *
 * Reading /sys/kernel/debug/scsi_numa_inspect yields text, one record per
 * line, fields separated by single spaces:
 *
 *   # scsi_numa_inspect <version>
 *   host <hostno> <proc_name> <dev> <dev_node> <shost_node> <set_node>
 *   obj <hostno> <kind> <id> <node> <mem>
 *
 * host:  one per SCSI host, before its objects.
 *        <dev>        name of the host's DMA device (or "-")
 *        <dev_node>   dev_to_node() of that device: the node the objects
 *                     belong on; -1 when the device has no node
 *        <shost_node> dev_to_node() of the host's own struct device
 *        <set_node>   the node the host's blk-mq tag set was given
 * obj:   one per inspected object of that host.
 *        <kind>       one of SCSI_NUMA_KINDS below
 *        <id>         which instance: "host", "<ch>:<id>" for a target,
 *                     "<ch>:<id>:<lun>" for a device, with a suffix
 *                     "/hctx<n>" (hardware queue n of the device's queue),
 *                     "/tags<n>[/page<k>|/tag<k>]" (tags of hardware queue n),
 *                     "/stags[/page<k>|/tag<k>]" (tags shared by all queues),
 *                     "/hctx<n>/sched[/page<k>|/tag<k>]" (a device's I/O
 *                     scheduler tags of hardware queue n), "/ssched[...]"
 *                     (the device's scheduler tags shared by all queues)
 *        <node>       node of the page that backs the object's first byte
 *        <mem>        "slab" (direct map) or "vmalloc"
 *        With the module parameter addresses=1 (off by default), two more:
 *        <addr> <size> the object's kernel virtual address (hex) and its
 *                     size in bytes (decimal, 0 if unknown); rq_page: the
 *                     run of requests + driver pdus in that page
 *
 * Node numbers are decimal; -1 is NUMA_NO_NODE and is never rewritten.
 * Parsers must ignore unknown record types and trailing fields, so that
 * fields can be added without a version bump; a change of meaning bumps
 * SCSI_NUMA_FORMAT_VERSION.
 */
#ifndef SCSI_NUMA_INSPECT_H
#define SCSI_NUMA_INSPECT_H

#define SCSI_NUMA_FORMAT_VERSION	1
#define SCSI_NUMA_DEBUGFS_NAME	"scsi_numa_inspect"

/* X(kind, description) */
#define SCSI_NUMA_KINDS(X)							\
	X(shost,	"struct Scsi_Host")				\
	X(hostdata,	"the LLD's hostdata (tail of the Scsi_Host)")	\
	X(shost_data,	"transport class per-host data")		\
	X(tags,		"struct blk_mq_tags of the host's tag set")	\
	X(rq_page,	"pages holding static requests + scsi_cmnd pdus") \
	X(sense,	"sense buffer of each static request")		\
	X(starget,	"struct scsi_target (+ transport target data)")	\
	X(sdev,		"struct scsi_device (+ transport device data)")	\
	X(budget_map,	"the device's budget sbitmap words")		\
	X(request_queue, "struct request_queue of the device")		\
	X(hctx,		"struct blk_mq_hw_ctx of the device's queue")	\
	X(scsi_disk,	"sd's struct scsi_disk")			\
	X(scsi_cd,	"sr's struct scsi_cd")				\
	X(gendisk,	"struct gendisk of the device's queue")

#endif
