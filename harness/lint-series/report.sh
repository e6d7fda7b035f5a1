# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/report.sh, sourced by lint-series.sh: the output.
#   res STATUS TEXT   one check's line ("    ok   ..." / "    FAIL ..."); a
#                     status other than ok counts as a failure
#   indent            the findings under it
#   report_set NAME VALUE...  a commit's results, one step's at a time
#   report_commit C NN SUBJECT  that commit's summary row and TSV row
#   report_start, report_commits_done  build/lint-series.tsv: written as
#                     .tsv.new, renamed once every commit is in
#   report_once NAME STATUS  a check run once (patches, notes, postings)
#   report_end        the summary table, each once-check's status, the
#                     TSV's name, the elapsed time and last "lint-series: N
#                     commits, M failures" (M counts failed checks); status
#                     1 when M > 0
# Reads $top, $tsv, $start, $total; uses g.  Writes $tsv and $tsv.new.
: "${top:?}" "${tsv:?}" "${start:?}" "${total:?}"
failures=0
summary=() once=()
declare -A row=()

res() { # STATUS TEXT
	printf '    %-4s %s\n' "$1" "$2"
	[ "$1" = ok ] || failures=$((failures + 1))
}
indent() { sed 's/^/           /'; }

report_start() {
	printf 'commit\tsubject\twarnings_before\twarnings_after\tnew\tcheckpatch_err\tcheckpatch_warn\tcheckpatch_checks\tkerneldoc_new\tsubject_ok\tfiles_built\tfiles_skipped\tbuild_failed\tmakefile_missing\n' > "$tsv.new"
}
report_set() {
	while [ $# -ge 2 ]; do row[$1]=$2; shift 2; done
}
# The steps' names and fields: build (wb wa wn nbuilt nskip nfail nmiss),
# checkpatch (ce cw cc), kerneldoc (kn), subject (so).
report_commit() {
	local c=$1 nn=$2 subj=$3
	summary+=("$(printf '%-5s  %-5s  %-12s  %-10s  %-7s  %s %s' "${nn%/*}" "${row[build]}" "${row[checkpatch]}(${row[ce]}/${row[cw]}/${row[cc]})" \
		"${row[kerneldoc]}(${row[kn]})" "${row[subject]}" "$(g log -1 --format=%h "$c")" "$subj")")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$subj" "${row[wb]}" "${row[wa]}" "${row[wn]}" \
		"${row[ce]}" "${row[cw]}" "${row[cc]}" "${row[kn]}" "${row[so]}" \
		"${row[nbuilt]}" "${row[nskip]}" "${row[nfail]}" "${row[nmiss]}" >> "$tsv.new"
	row=()
}
report_commits_done() { mv "$tsv.new" "$tsv"; }
report_once() { once+=("$1: $2"); }
report_end() {
	echo
	echo "#      build  checkpatch    kernel-doc  subject  commit       (checkpatch: errors/warnings/checks)"
	printf '%s\n' "${summary[@]}"
	printf '%s\n' "${once[@]}"
	echo "TSV: ${tsv#"$top"/}"
	echo "lint-series: elapsed $(( $(date +%s) - start ))s"
	echo "lint-series: $total commits, $failures failures"
	[ "$failures" = 0 ]
}
