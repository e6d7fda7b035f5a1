# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/subject.sh, sourced by lint-series.sh: the subject step.
#   At most 75 characters, no final period, and the prefix of a subsystem
#   the commit touches: block/, include/linux/blk*, bio.h: "block: " or
#   "blk-mq: " and a lower-case letter; drivers/scsi/, include/scsi/:
#   "scsi: <sub>: " and an upper-case letter; drivers/ata/, libata.h,
#   ata.h: "ata: <sub>: " (libata, ahci, ...) and an upper-case letter.
#   A commit touching several subsystems may use any of theirs; one
#   touching none of them needs some "prefix: ".
# Reads nothing but its arguments; uses res, report_set.  Sets subj_msg.
maxlen=75

# subsys_of FILE: block, scsi, ata or other.
subsys_of() {
	case $1 in
	block/*|include/linux/blk*|include/linux/bio.h|include/uapi/linux/blk*) echo block ;;
	drivers/scsi/*|include/scsi/*|include/uapi/scsi/*) echo scsi ;;
	drivers/ata/*|include/linux/libata.h|include/linux/ata.h) echo ata ;;
	*) echo other ;;
	esac
}
# subject_rules SUBJECT FILE...: sets subj_msg; status 0 when fine.
subject_rules() {
	local s=$1 f sub subs=() want=() re_block='^(block|blk-mq): [a-z]' \
	      re_scsi='^scsi: [A-Za-z0-9_.-]+: [A-Z]' re_ata='^ata: [a-z0-9_-]+: [A-Z]' \
	      re_any='^[A-Za-z0-9_./-]+: [^ ]' ok=1 problems=""
	shift
	mapfile -t subs < <(for f; do subsys_of "$f"; done | grep -vx other | sort -u || true)
	if [ ${#subs[@]} -eq 0 ]; then
		[[ $s =~ $re_any ]] && ok=0
		want=("some \"prefix: \"")
	else
		for sub in "${subs[@]}"; do
			case $sub in
			block) [[ $s =~ $re_block ]] && ok=0; want+=("\"block: \" or \"blk-mq: \" + lower case") ;;
			scsi) [[ $s =~ $re_scsi ]] && ok=0; want+=("\"scsi: <sub>: \" + upper case") ;;
			ata) [[ $s =~ $re_ata ]] && ok=0; want+=("\"ata: <sub>: \" + upper case") ;;
			esac
		done
	fi
	[ $ok = 0 ] || problems="prefix: want $(IFS=/; echo "${want[*]}") for ${subs[*]:-these files}"
	if [ ${#s} -gt $maxlen ]; then problems="${problems:+$problems; }${#s} characters (max $maxlen)"; fi
	case $s in *.) problems="${problems:+$problems; }ends with a period" ;; esac
	if [ -n "$problems" ]; then subj_msg=$problems; return 1; fi
	subj_msg="${#s} chars, prefix fits ${subs[*]:-(no subsystem rule)}"
}

# subject_check SUBJECT FILE...: the step for a commit with that subject,
# FILEs all the files it touches.  Prints its result line.
subject_check() {
	local st so
	if subject_rules "$@"; then st=ok; so=1; else st=FAIL; so=0; fi
	res "$st" "subject: $subj_msg"
	report_set subject "$st" so "$so"
}
