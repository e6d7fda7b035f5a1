#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_prose.sh all|CHECK (make lint): prose and history that must not drift.
#   trackers  no tracker reference (issue, item or review numbers, version
#             letters of drafts) in a tracked file outside patches/
#   figures   no run id, date or time in minutes or hours in a README
#             (README's generated sample aside): times.tsv has the times
#   length    harness/README at most 250 lines
#   targets   make help names exactly the Makefile's targets
#   subjects  the repository's commit subjects after $base: <= 72 columns
#   sample    README's compare sample is patches/evidence.txt's;
#             "sample --write" rewrites it
# Exit 0 pass, 1 fail (with the offending lines).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
fail() { echo "test_prose $check: FAIL: $*"; exit 1; }
check=${1:-}

trackers() {
	local re='issue ?#?[0-9]|\bitem [0-9]|\breview (v[0-9]|repo|series|stress)|\b(repo|series|stress)-v[0-9]|\bv[0-9]+[a-z]\b'
	local hits
	hits=$(git ls-files -z -- . ':!patches' ':!LICENSES' | xargs -0 grep -nIiE "$re" --)
	[ -z "$hits" ] || fail "tracker references (the tracker is not in the tree; say what is meant):
$hits"
}

# The README's lines, its generated sample blanked.
readme_prose() { awk -v intro="$intro" 'skip && /^$/ { skip = 0 } { print skip ? "" : $0 } index($0, intro) { skip = 1 }' README; }
intro='test/unit/test_prose.sh sample --write rewrites it):'

figures() {
	local re='[0-9]{4}-[0-9]{2}-[0-9]{2}|\b[0-9.]+ ?(min|minutes|hours?)\b' f out hits=""
	# test_data/: the provenance of recorded inputs, which do not change.
	for f in $(git ls-files -- '*README*' ':!patches' ':!*/test_data/*'); do
		out=$(grep -nE "$re" <(if [ "$f" = README ]; then readme_prose; else cat "$f"; fi) | sed "s|^|$f:|")
		[ -z "$out" ] || hits+="$out"$'\n'
	done
	[ -z "$hits" ] || fail "hand-typed run ids, dates or times (point to build/check/times.tsv or generate the sample):
$hits"
}

length() {
	local n
	n=$(wc -l < harness/README)
	[ "$n" -le 250 ] || fail "harness/README has $n lines, more than 250: cut what make help or a script's header says"
}

targets() {
	local mk hp
	mk=$(sed -n 's/^\([a-z][a-z0-9-]*\):\([^=].*\)\{0,1\}$/\1/p' Makefile | grep -vx all | sort -u)
	hp=$(harness/help.sh | sed -n '/^Targets$/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | sort -u)
	[ "$(echo "$mk" | wc -l)" -ge 10 ] || fail "found only these targets in the Makefile: $mk"
	[ "$mk" = "$hp" ] || fail "make help's targets differ from the Makefile's:
  in the Makefile only: $(comm -23 <(echo "$mk") <(echo "$hp") | tr '\n' ' ')
  in make help only: $(comm -13 <(echo "$mk") <(echo "$hp") | tr '\n' ' ')"
}

# The repository's own history before this commit is left as it is.
base=104d62b
subjects() {
	local long="" h s LC_ALL=C.UTF-8
	git rev-parse -q --verify "$base^{commit}" > /dev/null ||
		fail "no commit $base in this clone (shallow? git fetch --unshallow)"
	while read -r h s; do
		[ "${#s}" -le 72 ] || long+="  ${#s} columns: $h $s"$'\n'
	done < <(git log --format='%h %s' "$base..HEAD")
	[ -z "$long" ] || fail "commit subjects over 72 columns (git commit --amend, or rebase -i: reword):
$long"
}

# The meter's summary as patches/evidence.txt has it, indented for README.
evidence_sample() { sed -n '/^Remote accesses and misses per I\/O/,/^$/p' patches/evidence.txt | sed '1d; /^$/d; s/^/  /'; }
readme_sample() { awk -v intro="$intro" 'on && /^$/ { exit } on { print } index($0, intro) { on = 1 }' README; }

sample() {
	local want
	want=$(evidence_sample)
	grep -qF "$intro" README || fail "README lacks the line \"...$intro\" that opens the sample"
	[ -n "$want" ] || fail "patches/evidence.txt has no meter summary"
	if [ "${1:-}" = --write ]; then
		want=$want awk -v intro="$intro" 'on && /^$/ { on = 0; print ENVIRON["want"] } !on { print } index($0, intro) { on = 1 }' \
			README > README.new && mv README.new README
		return
	fi
	diff -u <(readme_sample) <(echo "$want") ||
		fail "README's sample (-) is not patches/evidence.txt's (+): test/unit/test_prose.sh sample --write"
}

checks=(trackers figures length targets subjects sample)
case $check in
all)	# each check in a subshell: one failure does not hide the next
	rc=0
	for check in "${checks[@]}"; do ("$check") || rc=1; done
	[ "$rc" = 0 ] && echo "test_prose: ${checks[*]}: passed"
	exit "$rc" ;;
sample) sample "${2:-}" ;;
trackers|figures|length|targets|subjects) "$check" ;;
*) echo "usage: $0 all|CHECK, CHECK one of: ${checks[*]} (sample --write rewrites README's sample)" >&2; exit 2 ;;
esac
echo "test_prose $check: passed"
