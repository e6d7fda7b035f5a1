# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-lib.sh: make lint's steps and their verdict, sourced by
# harness/lint.sh and by its test, test/unit/test_lint.sh.
#
# A step's command exits 0 (passed), 4 (skipped: it has said why) or
# anything else (failed).  A skip is counted and named in the verdict, and
# fails the lint unless the step declared it (--may-skip WHY: where the
# skip is expected, e.g. no network).  The verdict line counts all three.
lint_rc=0 lint_steps=0 lint_failed=0 lint_skipped=0 lint_skips=""

# lint_count NAME MAY-SKIP RC CMD..: account one step's exit status.
lint_count() {
	local name=$1 may=$2 st=$3
	shift 3
	lint_steps=$((lint_steps + 1))
	if [ "$st" = 4 ] && [ -n "$may" ]; then
		lint_skipped=$((lint_skipped + 1))
		lint_skips+="${lint_skips:+; }$may"
		echo "lint: SKIPPED (declared: $may): $*"
	elif [ "$st" = 4 ]; then
		lint_skipped=$((lint_skipped + 1)) lint_failed=$((lint_failed + 1)) lint_rc=1
		lint_skips+="${lint_skips:+; }$name: no skip declared"
		echo "lint: FAILED: skipped, and no skip is declared for it: $*"
	elif [ "$st" != 0 ]; then
		lint_failed=$((lint_failed + 1)) lint_rc=1
		echo "lint: FAILED: $*"
	fi
}

# step [--may-skip WHY] NAME CMD..: run CMD now.
step() {
	local may="" st
	[ "$1" = --may-skip ] && { may=$2; shift 2; }
	echo "lint: $1"
	"${@:2}"
	st=$?
	lint_count "$1" "$may" "$st" "${@:2}"
}

# bg_step [--may-skip WHY] NAME CMD..: step, run beside the others (make
# lint must stay within a minute on 2 cores); its output and verdict come
# out at bg_join.  Needs lint_bg_dir, a scratch directory.
lint_bg_dir=${lint_bg_dir:-} lint_bg_n=0
bg_step() {
	bg_record "$@"
	shift $((lint_bg_shift + 1))
	{ "$@" > "$lint_bg_dir/$lint_bg_n.out" 2>&1; echo $? > "$lint_bg_dir/$lint_bg_n.rc"; } &
}
# bg_record [--may-skip WHY] NAME CMD..: the next background step's name,
# declared skip and command in lint_bg_dir (bg_join reports them);
# lint_bg_shift: how many words came before NAME.
bg_record() {
	local may=""
	lint_bg_shift=0
	[ "$1" = --may-skip ] && { may=$2; shift 2; lint_bg_shift=2; }
	lint_bg_n=$((lint_bg_n + 1))
	printf '%s\n' "$1" > "$lint_bg_dir/$lint_bg_n.name"
	printf '%s\n' "$may" > "$lint_bg_dir/$lint_bg_n.may"
	printf '%s\n' "${*:2}" > "$lint_bg_dir/$lint_bg_n.cmd"
	printf '%q ' "${@:2}" > "$lint_bg_dir/$lint_bg_n.run"
}
# bg_queue [--may-skip WHY] NAME CMD..: as bg_step, but in one lane with
# the other queued steps, run one after another once bg_lane starts it: on
# 2 cores, more steps at once than cores only cost more CPU time.
lint_lane=()
bg_queue() {
	bg_record "$@"
	lint_lane+=("$lint_bg_n")
}
bg_lane() {
	local i
	for i in "${lint_lane[@]}"; do
		eval "$(cat "$lint_bg_dir/$i.run")" > "$lint_bg_dir/$i.out" 2>&1
		echo $? > "$lint_bg_dir/$i.rc"
	done &
	lint_lane=()
}
bg_join() {
	local i
	wait
	for ((i = 1; i <= lint_bg_n; i++)); do
		echo "lint: $(cat "$lint_bg_dir/$i.name") (run beside the others)"
		cat "$lint_bg_dir/$i.out"
		lint_count "$(cat "$lint_bg_dir/$i.name")" "$(cat "$lint_bg_dir/$i.may")" \
			"$(cat "$lint_bg_dir/$i.rc")" "$(cat "$lint_bg_dir/$i.cmd")"
	done
}

# lint_verdict [NOTE]: the verdict line; exit status 1 on any failure.
lint_verdict() {
	echo "lint: $lint_steps checks, $lint_failed failed, $lint_skipped skipped${lint_skips:+ ($lint_skips)}${1:+ ($1)}"
	return $lint_rc
}

# unittests DIR MODULE:COUNT..: the unittest modules test_*.py of DIR, run
# at once; each MODULE must run exactly COUNT tests, and every test_*.py
# of DIR must be a listed MODULE: a module file deleted, added, or with a
# test more or less fails until its pin is changed.  Silent on success but
# for the counts; unittest's whole output on failure.
unittests() {
	local dir=$1 out st pin m want got bad=0 listed="" f counts=""
	shift
	out=$(python3 -B -m unittest discover -v -s "$dir" -p 'test_*.py' 2>&1)
	st=$?
	[ "$st" = 0 ] || { echo "$out"; return 1; }
	for pin; do
		m=${pin%:*} want=${pin#*:}
		listed+=" $m"
		if [ ! -f "$dir/$m.py" ]; then
			echo "$dir/$m.py: missing (pinned at $want tests)"; bad=1; continue
		fi
		got=$(grep -cE "^[A-Za-z_0-9]+ \\($m\\." <<< "$out")
		[ "$got" = "$want" ] || { echo "$dir/$m.py: $got tests ran, $want pinned"; bad=1; }
		counts+="${counts:+, }$m $got"
	done
	for f in "$dir"/test_*.py; do
		[ -e "$f" ] || continue
		m=${f##*/} m=${m%.py}
		[[ " $listed " == *" $m "* ]] || { echo "$f: its test count is not pinned"; bad=1; }
	done
	[ -n "$listed" ] || { echo "no module pinned for $dir"; bad=1; }
	echo "$(grep -E '^Ran [0-9]+ tests? ' <<< "$out") ($counts)"
	return $bad
}
