#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# posting.sh: the tests of this folder (common/numa, tests/scsi/NNN and
# their .out) as a patch series on blktests' master, the posting that goes
# to linux-block with the kernel postings (harness/postings.sh).  This
# folder stays the one copy of the tests: the series is rebuilt from it.
#
#   posting.sh plan N        its entry in the list of postings (@POSTINGS@
#                            of every letter; postings.sh plan)
#   posting.sh write DIR [POSTINGS-FILE]
#                            (POSTER="Name <addr>" required) the postable
#                            series in DIR: git format-patch output, [PATCH
#                            blktests N/M] as blktests' CONTRIBUTING.md asks,
#                            the poster as author and in Signed-off-by,
#                            To/Cc, base-commit, the cover letter from
#                            patches/postings/blktests.in; refused unless
#                            blktests' own "make check" passes on it
#   posting.sh preview DIR   the same series with the placeholder
#                            identity, for review; no make check
#   posting.sh check         the unit test (test/unit/test_blktests_posting.sh):
#                            the series with the placeholder identity,
#                            applied with git am to the base, its files
#                            equal to this folder's, blktests' make check
#                            passing on it, the letter within its limits
#
# The commits: patches/postings/blktests.commits (files, subject, body of
# each, in order); every file of common/ and tests/ here must be in one.
# Author and committer are the placeholder "scsi_numa project
# <scsi_numa@localhost>" (write: the poster); dates are the project's last
# commit of these inputs, so that equal inputs give equal patches.
#
# The base: blktests' master at $base, below.  Its objects come from a
# blktests repository, fetched once into build/blktests.git:
# BLKTESTS_REPO=<path or URL of one> (e.g. a clone of
# https://github.com/linux-blktests/blktests), else BLKTESTS (make
# blktests' checkout).  Without one that has the base: write fails, check
# skips (exit 4), each saying so.  Nothing here uses the network unless
# BLKTESTS_REPO is a URL.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# blktests master, "block/045: respect dma_alignment" (committed 2026-08-21):
# the last commit before these tests; scsi/011 is its last scsi test.
base=a608cb56341e0f4cacf473f5e0ac6052f1f12de9
commits=$top/patches/postings/blktests.commits
tmpl=$top/patches/postings/blktests.in
store=$top/build/blktests.git
placeholder='scsi_numa project <scsi_numa@localhost>'
prefix="PATCH blktests"
die() { echo "blktests-posting: $*" >&2; exit 1; }
s() { git -C "$store" "$@"; }

# --- the base --------------------------------------------------------------------
have_base() { s cat-file -e "$base^{commit}" 2>/dev/null; }
# get_base: status 1 (and a reason on stdout) when no source has it.
get_base() {
	local src
	[ -d "$store" ] || git init -q --bare "$store"
	have_base && return 0
	for src in ${BLKTESTS_REPO:-} ${BLKTESTS:-}; do
		s fetch -q "$src" "$base" 2>/dev/null && have_base && return 0
		s fetch -q "$src" '+refs/heads/*:refs/remotes/src/*' 2>/dev/null && have_base && return 0
	done
	echo "no blktests repository with the base $base (BLKTESTS_REPO=${BLKTESTS_REPO:-unset}, BLKTESTS=${BLKTESTS:-unset}): set BLKTESTS_REPO to a clone of https://github.com/linux-blktests/blktests"
	return 1
}

# --- the commits -------------------------------------------------------------------
# sections: the commits file without its comment, one record per commit,
# separated by NUL: "files...\nsubject\n\nbody".
sections() {
	awk 'BEGIN { started = 0 }
	     !started && /^#/ { next }
	     { started = 1 }
	     /^%%$/ { printf "%c", 0; next }
	     { print }' "$commits"
	printf '\0'
}
ncommits() { grep -c '^files:' "$commits"; }

# The identity and date every commit gets.
stamp_date() {
	git -C "$top" log -1 --format=%aD -- blktests/common blktests/tests "$commits" 2>/dev/null | grep . ||
		date -R
}

# build WT IDENT: the commits on base in the worktree WT; prints the tip.
build() {
	local wt=$1 ident=$2 rec files subject body f name mail date mode
	local -A covered=()
	name=${ident% <*}; mail=${ident##*<}; mail=${mail%>}
	date=$(stamp_date)
	while IFS= read -r -d '' rec; do
		[ -n "${rec//[[:space:]]/}" ] || continue
		files=$(echo "$rec" | sed -n '1s/^files: *//p')
		subject=$(echo "$rec" | sed -n 2p)
		body=$(echo "$rec" | sed '1,3d')
		[ -n "$files" ] && [ -n "$subject" ] || die "$commits: a section without files: or subject"
		for f in $files; do
			[ -f "$here/$f" ] || die "$commits names $f, which blktests/ does not have"
			mode=644
			[[ $f == tests/*/[0-9]*[0-9] ]] && mode=755
			mkdir -p "$wt/$(dirname "$f")"
			install -m "$mode" "$here/$f" "$wt/$f"
			git -C "$wt" add "$f"
			covered[$f]=1
		done
		printf '%s\n\n%s\n\nSigned-off-by: %s\n' "$subject" "$body" "$ident" |
			GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$mail GIT_AUTHOR_DATE=$date \
			GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$mail GIT_COMMITTER_DATE=$date \
			git -C "$wt" commit -q --no-verify -F - || die "commit '$subject' failed"
	done < <(sections)
	for f in $(cd "$here" && find common tests -type f | sort); do
		[ -n "${covered[$f]:-}" ] || die "blktests/$f is in no commit of $commits"
	done
	git -C "$wt" rev-parse HEAD
}

# A scratch worktree of the store at base; removed by the caller (drop).
scratch() {
	local wt
	wt=$(mktemp -d "$top/build/blktests-posting.XXXXXX")
	s worktree add -q --detach "$wt" "$base" >/dev/null 2>&1 || die "cannot check out $base"
	echo "$wt"
}
drop() { [ ! -e "$1" ] || s worktree remove --force "$1" 2>/dev/null || rm -rf "$1"; s worktree prune; }
# Every scratch worktree goes on exit, a die's too.
scratches=()
drop_all() { local w; for w in "${scratches[@]}"; do drop "$w"; done; }
trap drop_all EXIT

# make_check WT [added]: blktests' own "make check" in WT (shellcheck with
# its settings over check, common/*, every test and src/*.sh; no TODO; no
# executable .out); its output on failure.  "added": the same commands
# with blktests' settings (SHELLCHECK_EXCLUDE of its Makefile), but
# over common/* and the files the series adds only: the rest
# is master's, unchanged, and the whole run takes minutes.
make_check() {
	local out ex
	local -a added
	if [ "${2:-}" != added ]; then
		out=$(make -C "$1" check 2>&1) || { echo "$out" | tail -n 40; return 1; }
		return 0
	fi
	ex=$(sed -n 's/^SHELLCHECK_EXCLUDE := *//p' "$1/Makefile")
	[ -n "$ex" ] || { echo "no SHELLCHECK_EXCLUDE in blktests' Makefile"; return 1; }
	mapfile -t added < <(git -C "$1" diff --name-only --diff-filter=A "$base" HEAD -- 'tests/*/[0-9]*[0-9]')
	out=$(cd "$1" && shellcheck -x -e "$ex" -f gcc common/* "${added[@]}" 2>&1 &&
		! grep TODO tests/*/rc tests/*/[0-9]*[0-9] &&
		! find -L . -name '*.out' -perm /u=x+g=x+o=x -printf '%p is executable\n' | grep .) ||
		{ echo "$out" | tail -n 40; return 1; }
}

# --- the letter --------------------------------------------------------------------
# The kernel patches the tests need: every subject a test's header cites
# ("patch "..."", joined over the comment's lines), with the tests citing
# it; each must be a subject of patches/ (the series), else die.
kernel_needs() {
	python3 - "$here" "$top/patches" <<'PY'
import email
import glob
import os
import re
import sys
here, patches = sys.argv[1:3]
subjects = set()
for p in sorted(glob.glob(os.path.join(patches, '[0-9]*.patch'))):
    with open(p) as f:
        s = email.message_from_file(f)['Subject'] or ''
    subjects.add(re.sub(r'\s+', ' ', re.sub(r'^\[[^]]*\]\s*', '', s)).strip())
cited = {}
for t in sorted(glob.glob(os.path.join(here, 'tests', '*', '[0-9]*[0-9]'))):
    head = []
    for line in open(t).read().splitlines()[1:]:
        if not line.startswith('#'):
            break
        head.append(line.lstrip('#').strip())
    text = ' '.join(head)
    name = os.path.relpath(t, os.path.join(here, 'tests'))
    for s in re.findall(r'"((?:[a-zA-Z0-9_-]+: )+[^"]+)"', text):
        cited.setdefault(s, []).append(name)
bad = [s for s in cited if s not in subjects]
if bad:
    sys.exit('a test cites a patch the series does not have: %s' % '; '.join(bad))
for s in sorted(cited, key=lambda s: (-len(cited[s]), s)):
    print('  "%s"' % s)
    print('      (%s)' % ', '.join(cited[s]))
PY
}

# The tests: name, QUICK/TIMED, DESCRIPTION, from the files.
tests_list() {
	local t d kind
	for t in "$here"/tests/*/[0-9]*[0-9]; do
		d=$(sed -n 's/^DESCRIPTION="\(.*\)"$/\1/p' "$t")
		kind=""
		grep -qx 'QUICK=1' "$t" && kind=QUICK
		grep -qx 'TIMED=1' "$t" && kind=TIMED
		printf '  %s  %-5s  %s\n' "${t#"$here"/tests/}" "$kind" "$d" | fold -s -w 78 | sed 's/ *$//; 2,$s/^/                   /'
	done
}

# The command that runs them, and what each test's requires() asks for.
check_cmd() {
	local t l="./check"
	for t in "$here"/tests/*/[0-9]*[0-9]; do l+=" ${t#"$here"/tests/}"; done
	echo "$l"
}
requires_list() {
	local t
	for t in "$here"/tests/*/[0-9]*[0-9]; do
		echo "  ${t#"$here"/tests/}: $(sed -n '/^requires() {$/,/^}$/p' "$t" | sed '1d;$d' |
			sed 's/^[[:space:]]*//' | paste -sd';' - | sed 's/;/; /g')" | fold -s -w 76 | sed 's/ *$//; 2,$s/^/    /'
	done
}

# The guest runs of make blktests that ran these tests (build/runs/*/table.tsv,
# blktests/table.py): kernel-topology and each test's status.
runs_list() {
	local tsv run line
	for tsv in "$top"/build/runs/*/table.tsv; do
		[ -f "$tsv" ] || continue
		run=$(basename "$(dirname "$tsv")")
		line=$(awk -F'\t' '$1 ~ /^scsi\/01[2-9]$/ { printf "%s %s; ", $1, $3 }' "$tsv")
		[ -z "$line" ] || echo "  ${run#blktests-}: ${line%; }" | fold -s -w 78 | sed '2,$s/^/    /'
	done
}

fill_letter() { # FILE FILLS-DIR
	python3 - "$1" "$2" "$tmpl" <<'PY'
import os
import sys
f, fills, tmpl = sys.argv[1:4]
t = open(tmpl).read()
for name in os.listdir(fills):
    t = t.replace('@%s@' % name, open(os.path.join(fills, name)).read().rstrip('\n'))
subject, _, body = t.partition('\n')
subject = subject.replace('Subject: ', '', 1)
subject = subject.split('] ', 1)[1] if subject.startswith('[') else subject
body = body.lstrip('\n').rstrip('\n')
p = open(f).read()
p = p.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body)
open(f, 'w').write(p)
PY
}

# The addresses: blktests' CONTRIBUTING.md of the base (its list and its
# maintainer), and linux-scsi from the kernel's MAINTAINERS (SCSI
# SUBSYSTEM) when build/linux has it: the tests are scsi tests.
addrs_to() {
	s show "$base:CONTRIBUTING.md" | tr '\n' ' ' | grep -oE "([A-Z][A-Za-z'.-]+( [A-Z][A-Za-z'.-]+)* )?<[^<> ]+@[^<> ]+>" |
		grep -v 'example\.' | sed 's/^<\(.*\)>$/\1/' | awk '!s[$0]++'
}
addrs_cc() {
	git -C "$top/build/linux" show vanilla:MAINTAINERS 2>/dev/null | awk '
		$0 == "SCSI SUBSYSTEM" { on = 1; next }
		on && /^$/ { exit }
		on && /^L:/ { sub(/^L:[ \t]*/, ""); sub(/ .*/, ""); print }' || true
}

# series OUT IDENT [POSTINGS-FILE]: format-patch and the letter into OUT;
# the tree checked by blktests' make check first.  Leaves $wt for the caller.
series() {
	local out=$1 ident=$2 postings=${3:-} fills f to cc
	local -a args=()
	wt=$(scratch)
	scratches+=("$wt")
	build "$wt" "$ident" >/dev/null
	# (check runs it on the series as applied instead)
	[ -n "${skip_make_check:-}" ] || make_check "$wt" ||
		{ drop "$wt"; die "blktests' make check fails on the series (above)"; }
	rm -rf "$out"; mkdir -p "$out"
	to=$(addrs_to) cc=$(addrs_cc)
	[ -n "$to" ] || die "no address in blktests' CONTRIBUTING.md"
	while IFS= read -r f; do args+=(--to="$f"); done <<< "$to"
	while IFS= read -r f; do [ -z "$f" ] || args+=(--cc="$f"); done <<< "$cc"
	git -C "$wt" -c user.name="${ident% <*}" -c user.email="$(echo "$ident" | sed 's/.*<//; s/>$//')" \
		format-patch -q -o "$out" --cover-letter --subject-prefix="$prefix" --base="$base" \
		"${args[@]}" "$base..HEAD" >/dev/null
	fills=$(mktemp -d)
	ncommits > "$fills/NPATCHES"
	s log -1 --format='%H%n("%s", %cs)' "$base" > "$fills/BASE"
	kernel_needs > "$fills/KERNEL" || { rm -rf "$fills"; drop "$wt"; die "the letter's kernel patches (above)"; }
	tests_list > "$fills/TESTS"
	check_cmd > "$fills/CHECKCMD"
	requires_list > "$fills/REQUIRES"
	runs_list > "$fills/RUNS"
	[ -s "$fills/RUNS" ] || echo "  (none in this repository's build/runs)" > "$fills/RUNS"
	{ echo "$to" | sed '1s/^/  To: /; 2,$s/^/      /'
	  [ -z "$cc" ] || echo "$cc" | sed '1s/^/  Cc: /; 2,$s/^/      /'; } > "$fills/ROUTING"
	if [ -n "$postings" ] && [ -s "$postings" ]; then cp "$postings" "$fills/POSTINGS"
	else plan 1 > "$fills/POSTINGS"; fi
	fill_letter "$out/0000-cover-letter.patch" "$fills"
	rm -rf "$fills"
}

# --- commands -----------------------------------------------------------------------
plan() {
	local n=$1 subj cnt
	subj=$(sed -n '1s/^Subject: \[[^]]*\] //p' "$tmpl")
	cnt=$(ncommits)
	echo "  $n. [$prefix $(printf "%0${#cnt}d/%d" 0 "$cnt")] $subj"
	echo "     lists: linux-block (and blktests' maintainer: its CONTRIBUTING.md);"
	echo "       applies to blktests' master ${base:0:12}, not to the kernel"
}

valid_ident() {
	[[ $1 =~ ^[^\<\>@]+\ \<[^\<\>@\ ]+@[^\<\>@\ ]+\>$ ]] || return 1
	[ "$1" != "$placeholder" ] || return 1
	case $1 in *@localhost\>|*@example.*|*.example\>|*.invalid\>) return 1 ;; esac
}

write() {
	local out
	out=$(realpath -m "$1")
	[ -n "${POSTER:-}" ] || die "no POSTER: refusing to write postable files (make export POSTER='Name <address>')"
	valid_ident "$POSTER" || die "POSTER='$POSTER' is not 'Name <address>' with a real address"
	local why
	why=$(get_base) || die "$why"
	series "$out" "$POSTER" "${2:-}"
	drop "$wt"
	echo "blktests-posting: $(ls "$out"/*.patch | wc -l) files [$prefix] in ${out#"$top"/}, on blktests ${base:0:12}; blktests' make check passed"
}

check() {
	local why out wt2 f rc=0 lines
	if ! why=$(get_base); then
		echo "SKIP: $why"
		exit 4
	fi
	out=$(mktemp -d)
	skip_make_check=1 series "$out" "$placeholder"
	drop "$wt"
	# Applied as a maintainer would: git am on the base.
	wt2=$(scratch)
	scratches+=("$wt2")
	local -a pp=()
	for f in "$out"/*.patch; do [[ $f == */0000-cover-letter.patch ]] || pp+=("$f"); done
	if ! git -C "$wt2" -c user.name=check -c user.email=check@localhost am -q "${pp[@]}" >/dev/null 2>&1 ||
		[ "$(git -C "$wt2" rev-list --count "$base..HEAD")" != "$(ncommits)" ]; then
		echo "FAIL: the series does not apply to blktests $base with git am"; rc=1
	fi
	for f in $(cd "$here" && find common tests -type f | sort); do
		cmp -s "$here/$f" "$wt2/$f" || { echo "FAIL: $f differs between blktests/ and the applied series"; rc=1; }
	done
	# BLKTESTS_FULL_CHECK=1: the whole make check (minutes), else its
	# commands on what the series adds (make_check).
	if ! make_check "$wt2" "$([ -n "${BLKTESTS_FULL_CHECK:-}" ] || echo added)"; then
		echo "FAIL: blktests' make check fails on the applied series"; rc=1
	fi
	# The letter: at most 120 lines of at most 80 columns (its body, after
	# the mail header), no placeholder but the poster's identity.
	f=$out/0000-cover-letter.patch
	lines=$(sed '1,/^$/d' "$f" | wc -l)
	[ "$lines" -le 120 ] || { echo "FAIL: the cover letter has $lines lines (at most 120)"; rc=1; }
	if sed '1,/^$/d' "$f" | awk 'length > 80 { print; bad = 1 } END { exit !bad }'; then
		echo "FAIL: cover letter lines over 80 columns (above)"; rc=1
	fi
	if grep -nE '\*\*\* (SUBJECT|BLURB)|\[\[[A-Z]+:|@[A-Z]+@|TODO' "$out"/*.patch; then
		echo "FAIL: a placeholder left in the series (above)"; rc=1
	fi
	grep -q "^base-commit: $base\$" "$f" || { echo "FAIL: no base-commit: $base in the letter"; rc=1; }
	echo "blktests posting: $(ls "$out"/*.patch | wc -l) files, $lines letter lines, on ${base:0:12}: $([ "$rc" = 0 ] && echo ok || echo FAILED)"
	drop "$wt2"
	rm -rf "$out"
	return $rc
}

preview() {
	local why
	why=$(get_base) || die "$why"
	skip_make_check=1 series "$(realpath -m "$1")" "$placeholder"
	echo "blktests-posting: the series with the placeholder identity in $1 (not postable)"
}

case ${1:-} in
plan) plan "${2:-1}" ;;
preview) [ -n "${2:-}" ] || die "usage: posting.sh preview DIR"; preview "$2" ;;
write) [ -n "${2:-}" ] || die "usage: posting.sh write DIR [POSTINGS-FILE]"; write "$2" "${3:-}" ;;
check) check ;;
*) die "usage: posting.sh plan N | write DIR [POSTINGS-FILE] | preview DIR | check" ;;
esac
