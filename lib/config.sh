# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# config.sh: the settings a user may change, and their defaults -- the one
# place either lives.  Sourced by every script a make target runs (and by
# fio-jobs/run.sh on a real server).  Each setting comes, first found, from
#   1. the environment or make's command line (make check JOBS=4),
#   2. the file "config" at the top of the repository (cp config.example
#      config; shell assignments and comments, as blktests' config),
#   3. the default below.
# The environment wins over the file here: the opposite of blktests, whose
# config file takes precedence over the environment.
# config.example says what each one does.  Every other variable the
# scripts read is internal: the VM_* and SCSI_NUMA_* variables scripts hand
# each other, the topology files' TOPO_*; none of them is a setting.
scsi_numa_settings=(KSRC JOBS CHECK_JOBS VM_ACCEL VM_TIMEOUT
	COMPARE_REPS COMPARE_TARGETS COMPARE_IRQ COMPARE_METER COMPARE_ICOUNT COMPARE_VERDICT
	FIO_JOBS FIO_QDS FIO_RUNTIME FIO_NUMJOBS)

config_die() { echo "config: $*" >&2; exit 2; }

# The variables that configured the scripts before this file: refused,
# so that an old command line does not run with its values dropped.
declare -A config_retired=([KTARBALL]="KSRC=FILE.tar.xz" [KSERIES]="none: 7.3"
	[KSUITE]="none: trixie-backports" [KORIG_TARBALL]="make check-upstream ORIG=FILE"
	[KORIG_VERSION]="none: build/ksource/version" [CHECK_COMPARE]="make compare-smoke"
	[CHECK_KAT]="check.sh --no-kat" [CHECK_CHURN]="make check-full (check.sh --churn long)"
	[CHECK_UPSTREAM_JOBS]="JOBS" [CHECK_UPSTREAM_ALONE]="check-upstream.sh --together-only"
	[COMPARE_KAT]="none: the known-answer test always runs first"
	[COMPARE_OUT]="make compare-smoke (build/compare-smoke)" [COMPARE_TOPO]="none: two-node"
	[COMPARE_HBA_JOBS]="none: randread-4k" [COMPARE_HBA_QDS]="none: 32"
	[LINT_JOBS]="JOBS" [LINT_REV]="lint-series.sh REV" [LINT_NOCACHE]="lint-series.sh --no-cache"
	[LINT_SPARSE]="lint-series.sh --sparse PATH" [LINT_PATCHES]="none: patches/"
	[SPARSE_SUITE]="none: sid" [VM_EXPECT]="none: from the kernel's name (harness/lib/expect.sh)"
	[KAT_BASELINE]="kat/run.sh --no-baseline" [KAT_N]="none: 1000000" [KAT_TIMEOUT]="none: 600 s"
	[FIO_WRITE_OK]="run.sh --confirm-write DEVICE" [FIO_REPEAT]="COMPARE_REPS"
	[FIO_REP_START]="run.sh --rep-start" [FIO_TARGET]="run.sh --target" [FIO_DEV_NODE]="run.sh --dev-node"
	[FIO_CPU_NODES]="run.sh --cpu-nodes" [FIO_MEM_NODE]="run.sh --mem-node" [FIO_METER]="run.sh --meter"
	[FIO_METER_SEQ]="run.sh --meter-seq" [FIO_METER_OBJECTS]="run.sh --meter-objects"
	[FIO_IRQS]="run.sh --irqs" [FIO_PERF]="run.sh --perf" [FIO_IOURING]="run.sh --iouring"
	[FIO_RAMP]="none: 1 s" [FIO_SIZE]="none: 64M")
for config_name in "${!config_retired[@]}"; do
	[ -z "${!config_name+x}" ] ||
		config_die "$config_name is not read any more (instead: ${config_retired[$config_name]}; config.example)"
done
unset config_retired
config_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
config_file=$config_top/config
if [ -f "$config_file" ]; then
	# A name the file sets that is no setting is a typo: refused, not ignored.
	while IFS= read -r config_line; do
		config_name=${config_line%%=*}
		[[ " ${scsi_numa_settings[*]} " == *" $config_name "* ]] ||
			config_die "$config_file sets $config_name, which is not a setting (settings: ${scsi_numa_settings[*]})"
	done < <(sed -n 's/^[[:space:]]*\(export[[:space:]]\+\)\?\([A-Za-z_][A-Za-z0-9_]*\)+\?=.*/\2/p' "$config_file")
	declare -A config_env=()
	for config_name in "${scsi_numa_settings[@]}"; do
		[ -z "${!config_name:-}" ] || config_env[$config_name]=${!config_name}
	done
	# shellcheck source=/dev/null
	. "$config_file" || config_die "$config_file: cannot be read as shell assignments"
	for config_name in "${!config_env[@]}"; do
		printf -v "$config_name" %s "${config_env[$config_name]}"
	done
	unset config_env
fi

: "${KSRC:=}"
: "${JOBS:=$(nproc)}"
: "${CHECK_JOBS:=2}"
: "${VM_ACCEL:=auto}"
: "${VM_TIMEOUT:=1500}"
: "${COMPARE_REPS:=8}"
: "${COMPARE_TARGETS:=scsi_debug megaraid_sas ahci virtio_scsi}"
: "${COMPARE_IRQ:=device}"
: "${COMPARE_METER:=1024:16:64}"
: "${COMPARE_ICOUNT:=shift=5}"
: "${COMPARE_VERDICT:=fail}"
: "${FIO_JOBS:=randread-4k}"
: "${FIO_QDS:=32}"
: "${FIO_RUNTIME:=3}"
: "${FIO_NUMJOBS:=1}"

for config_name in JOBS CHECK_JOBS VM_TIMEOUT COMPARE_REPS FIO_RUNTIME FIO_NUMJOBS; do
	[[ ${!config_name} =~ ^[1-9][0-9]*$ ]] || config_die "$config_name='${!config_name}': a positive whole number"
done
case $VM_ACCEL in auto|tcg) ;; *) config_die "VM_ACCEL='$VM_ACCEL': auto or tcg" ;; esac
case $COMPARE_IRQ in device|kernel) ;; *) config_die "COMPARE_IRQ='$COMPARE_IRQ': device or kernel" ;; esac
case $COMPARE_VERDICT in fail|report) ;; *) config_die "COMPARE_VERDICT='$COMPARE_VERDICT': fail or report" ;; esac
[[ $COMPARE_METER =~ ^(0|on|[0-9]+:[0-9]+(:[0-9]+)?)$ ]] ||
	config_die "COMPARE_METER='$COMPARE_METER': KIB:WAYS[:LINE], on or 0"
[[ $COMPARE_ICOUNT =~ ^(0|shift=[0-9]+(,(align|sleep)=(on|off))*)$ ]] ||
	config_die "COMPARE_ICOUNT='$COMPARE_ICOUNT': shift=N[,sleep=on|off][,align=on|off] or 0"
for config_name in $FIO_QDS; do
	[[ $config_name =~ ^[1-9][0-9]*$ ]] || config_die "FIO_QDS='$FIO_QDS': queue depths, positive whole numbers"
done
export "${scsi_numa_settings[@]}"
unset config_name config_line
