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
