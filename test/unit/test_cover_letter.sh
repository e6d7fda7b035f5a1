#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_cover_letter.sh (make lint): cover-letter.sh on recorded inputs
# (test_data/cover-letter, see its README): the placement, allocation,
# check and compare figures come from that data; figures of another make
# check run, or of no known run, or of another series than build/linux's
# patched (a reworded commit of the same tree is the same series) are
# refused, and so is a report with an IOPS row not met unless
# COVER_ALLOW_NOT_MET=1; a missing input is named;
# build/compare-smoke is used only when asked for; check.sh (with a
# stand-in for vm.sh, no guest) writes data it accepts.  Exit 1 on any
# failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cl=$top/harness/cover-letter.sh
data=$here/test_data/cover-letter
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0 ncases=0
C=2026-11-30T10:00:00Z-aaaaaaaaaaaa	# the check's run id (check/summary.tsv)
R=2026-11-29T08:30:00Z-bbbbbbbbbbbb	# the comparison's (compare/report.json)
fail() { echo "FAIL: $n: $*"; bad=$((bad + 1)); }
# fresh: a new copy of the recorded inputs in $b; the letter goes to $out.
fresh() { n=$1 ncases=$((ncases + 1)); b=$tmp/$n out=$tmp/$n-letter/0000-cover-letter.patch; rm -rf "$b"; cp -r "$data" "$b"; }
run() { COVER_BUILD=$b "$cl" "$@" > "$tmp/stdout" 2> "$tmp/stderr"; }
# has TEXT: the letter holds TEXT, any run of blanks and line breaks
# counted as one blank (the letter folds its lines).  In bash: a tr and
# a grep per check cost seconds over the test.
squeeze() { # VAR TEXT: TEXT, each run of blanks and newlines one blank, in VAR
	local t=${2//[$' \t\n']/ }
	while [[ $t == *"  "* ]]; do t=${t//  / }; done
	printf -v "$1" '%s' "$t"
}
holds() { # FILE TEXT
	local c w
	[ -f "$1" ] || return 1
	IFS= read -r -d '' c < "$1" || :
	squeeze c "$c"; squeeze w "$2"
	[[ $c == *"$w"* ]]
}
has() { holds "$out" "$1" || fail "the letter lacks: $1"; }
# ev_has TEXT: the same for evidence.txt beside the letter.
ev_has() { holds "${out%/*}/evidence.txt" "$1" || fail "evidence.txt lacks: $1"; }
# short FILE: a letter a maintainer reads to the end: at most
# 120 lines of at most 80 columns, no [[...]] placeholder at all (the
# poster's identity is given to make export, never a placeholder in a
# letter), no template comment or marker.
short() {
	local l w
	l=$(wc -l < "$1") w=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$1")
	[ "$l" -le 120 ] || fail "$1: $l lines, more than 120"
	[ "$w" -le 80 ] || fail "$1: a line of $w columns, more than 80: $(awk 'length > 80' "$1" | head -n 1)"
	! grep -q '\[\[' "$1" || fail "$1: a placeholder: $(grep -m 1 '\[\[' "$1")"
	! grep -q '^## ' "$1" || fail "$1: a template comment left: $(grep -m 1 '^## ' "$1")"
	! grep -qE '@[A-Z_]+@' "$1" || fail "$1: a marker left: $(grep -oE '@[A-Z_]+@' "$1" | head -n 1)"
}
# figures TEMPLATE...: no hand-typed figure in a template: outside its
# "## " comments and @NAME@ markers every word with a digit is one of
# these (versions, the first posting's v1, Broadcom's v3 and its patch
# numbers, dates named in the prose, driver names), a lore link or an
# e-mail address.
# Every count, share, ratio or threshold comes from a fill.
figures() {
	python3 - "$@" <<'PY'
import re
import sys
allowed = {"7.3", "7.3.4", "6.12", "v1", "v3", "1/4", "2/4", "3/4", "4/4",
           "2012", "2026-06", "00/", "0/", "mpt3sas", "mpi3mr", "qla2xxx"}
bad = 0
for path in sys.argv[1:]:
    for no, line in enumerate(open(path), 1):
        if line.startswith("## "):
            continue
        text = re.sub(r"@[A-Z_]+@", " ", line)
        for word in re.findall(r"\S*\d\S*", text):
            w = word.strip(".,;:()\"'[]")
            if w in allowed or "@" in w or w.startswith("https://lore.kernel.org/"):
                continue
            print("%s:%d: hand-typed figure %r: %s" % (path, no, w, line.rstrip()))
            bad += 1
sys.exit(bad > 0)
PY
}
said() { grep -qF -- "$1" "$tmp/stderr" || { fail "stderr lacks: $1"; sed 's/^/#   /' "$tmp/stderr"; }; }

fresh good
if ! run "$out"; then fail "exit $?"; sed 's/^/#   /' "$tmp/stderr"
else
	short "$out"
	# The letter's summary: per kernel, from the runs' placement.tsv.
	has "  patched 7 of 8 objects (87.5%), 2 runs, 3 contexts"
	has "  vanilla 1 of 3 objects (33.3%), 1 run, 1 context"
	has "From make check of 2026-11-30 10:00 UTC, run id
$C, on linux-source-7.3 7.3.4-1; objects on the
host's node:"
	has "  Checks: 4 cases passed, 1 failed, 1 skipped, 2 reported; 9 run checks
  passed, 0 failed; meter known-answer test: ok."
	# 2 repetitions per kernel: no verdict, not "met in 0 of 3 rows".
	has "  No regression (95% CI lower bound of patched/vanilla >= 0.94): no
  verdict at n = 2 (a verdict needs 8 repetitions per kernel:
  fio-jobs/README.compare)."
	has "  (make compare of 2026-11-29 08:30 UTC, run id $R)"
	has "(not measured: make compare of 2026-11-29 08:30 UTC (run $R) ran without the meter)"
	# The base line counts patches/base.txt's verdicts, counted here by grep.
	has "$(grep -c '^upstream ' "$top/patches/base.txt") are byte-identical to blobs in upstream patch mail, $(grep -c '^not-found ' "$top/patches/base.txt") were not found"
	has "patches/evidence.txt"
	grep -q 'node 0 (remote)' "$out" && fail "the IOPS table in the letter, not in evidence.txt"
	# evidence.txt: the full tables, from the same data.
	ev_has "  patched two-node probe 100.0% | shost=1/1 tags=2/2"
	ev_has "  patched two-node rescan 75.0% | sdev=3/4"
	ev_has "  vanilla two-node probe 33.3% | shost=0/1 tags=1/2"
	ev_has "  patched one-node probe 100.0% | shost=1/1"
	ev_has "  patched-two-node
    scsi_host_alloc_node 1 objects cpus=2 nodes=1 (kmalloc-4k)"
	ev_has "  vanilla-two-node
    scsi_host_alloc 1 objects cpus=0 nodes=0 (kmalloc-4k)"
	grep -q 'patched-one-node$' "${out%/*}/evidence.txt" && fail "a one-node run in the allocating CPUs"
	ev_has "  vanilla-two-node 2 cases passed, 1 failed, 0 skipped, 1 reported; 3 run checks passed, 0 failed"
	ev_has "  meter known-answer test: ok"
	ev_has "| patched | node 0 (remote) | 5078 ± 3159 (62.2%) | 2845–7312 | 2 |"
	ev_has "| 0.811 [0.025, 26.272] | no (p=0.696) | no verdict (n = 2 < 8)"
	# inputs.tsv: every input with its run.
	[ "$(grep -c "	$C	" "${out%/*}/inputs.tsv")" = 7 ] || fail "inputs.tsv: not 7 inputs of run $C"
	grep -q "^compare	$R	.*compare/report.json$" "${out%/*}/inputs.tsv" || fail "inputs.tsv: no compare line"
	said "placement.tsv      $C"
fi
run --inputs || fail "--inputs refused the recorded inputs"

fresh mixed
echo 2026-11-30T11:00:00Z-cccccccccccc > "$b/runs/vanilla-two-node/run-id"
if run "$out"; then fail "figures of two make check runs accepted"
else
	said "refused: figures from different make check runs"
	said "runs/vanilla-two-node/out/placement.tsv is from run 2026-11-30T11:00:00Z-cccccccccccc, not from the check's $C"
	said "runs/vanilla-two-node/out/alloc-cpus.summary is from run 2026-11-30T11:00:00Z-cccccccccccc"
	[ ! -e "$out" ] || fail "a letter was written"
fi
run --inputs && fail "--inputs accepted mixed runs"

fresh no-run-id
rm "$b/runs/patched-one-node/run-id"
run "$out" && fail "a placement.tsv without a run id accepted"
said "runs/patched-one-node/out/placement.tsv is from run none: no "
said "runs/patched-one-node/run-id (the run directory was rewritten after make check"

fresh compare-no-run-id
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); del d["run_id"]; json.dump(d, open(sys.argv[1], "w"))' \
	"$b/compare/report.json"
run "$out" && fail "a report.json without a run id accepted"
said "compare/report.json has no run_id"
echo '{"run_id": "x"' > "$b/compare/report.json"
run "$out" && fail "a report.json that is not JSON accepted"
said "compare/report.json is not JSON: report.py: "

fresh no-check
rm "$b/check/summary.tsv"
run "$out" || fail "exit $? without make check's data"
said "missing input: make check's data: "
said "check/summary.tsv (run make check)"
has "  (not measured: make check: "
has "  (not measured: no placement.tsv in the runs of make check)"

fresh smoke
mv "$b/compare" "$b/compare-smoke"
run "$out" || fail "exit $? without make compare's data"
said "missing input: make compare's data: "
said "compare-smoke/report.json is a smoke run, used only with COVER_COMPARE=smoke"
has "  (not measured: make compare: "
grep -q 'node 0 (remote)' "$out" && fail "the smoke run's figures in the letter without COVER_COMPARE=smoke"
COVER_COMPARE=smoke run "$out" || fail "COVER_COMPARE=smoke: exit $?"
has "  (make compare-smoke, not make compare of 2026-11-29 08:30 UTC, run id
  $R)"
COVER_COMPARE=full run "$out"; [ $? = 2 ] || fail "COVER_COMPARE=full: not exit 2"

# A report with IOPS rows not met (fio-jobs/test_data/README): refused,
# by --inputs too (make export asks it first), unless COVER_ALLOW_NOT_MET=1.
fresh not-met
cp "$top/fio-jobs/test_data/report-not-met.json" "$b/compare/report.json"
if run "$out"; then fail "a report with rows not met accepted"
else
	said "refused: build/compare/report.json: verdict: not met in 2 of 4 rows: randread-4k qd32 node 0 slowed; randread-4k qd32 unpinned slowed (make export COVER_ALLOW_NOT_MET=1 writes the letter anyway)"
	[ ! -e "$out" ] || fail "a letter was written"
fi
run --inputs && fail "--inputs accepted rows not met"
COVER_ALLOW_NOT_MET=1 run "$out" || fail "COVER_ALLOW_NOT_MET=1: exit $?"
has "  No regression (95% CI lower bound of patched/vanilla >= 0.94): met in
  2 of 4 rows."

# postings.sh's use: --body TEMPLATE FILLS, the same figures, the same refusal.
fresh body
mkdir -p "$tmp/fills"; echo 3 > "$tmp/fills/NPATCHES"
if run --body "$top/patches/cover-letter.in" "$tmp/fills"; then
	grep -q '^Subject: \[PATCH 00/3\] ' "$tmp/stdout" || fail "--body: no subject with the posting's NPATCHES"
	tr -s ' ' < "$tmp/stdout" | grep -qF " vanilla 1 of 3 objects (33.3%), 1 run, 1 context" || fail "--body: no placement summary"
	[ ! -s "$tmp/stderr" ] || fail "--body: said something: $(head -n 1 "$tmp/stderr")"
else fail "--body: exit $?"; fi
echo 2026-11-30T11:00:00Z-cccccccccccc > "$b/runs/patched-two-node/run-id"
run --body "$top/patches/cover-letter.in" "$tmp/fills" && fail "--body accepted mixed runs"
said "runs/patched-two-node/out/placement.tsv is from run 2026-11-30T11:00:00Z-cccccccccccc"

# @HARNESS@: one text, cover-letter.sh's, in the tracked letter and every
# posting's (postings.sh fills no @HARNESS@ of its own).
fresh harness
printf 'from @HARNESS@.\n' > "$tmp/harness.in"
rm -rf "$tmp/fills"; mkdir -p "$tmp/fills"; echo 1 > "$tmp/fills/NPATCHES"
run --body "$tmp/harness.in" "$tmp/fills" && [ "$(cat "$tmp/stdout")" = "from the harness repository." ] ||
	fail "--body without HARNESS_URL: $(cat "$tmp/stdout")"
HARNESS_URL=https://h.invalid/x run --body "$tmp/harness.in" "$tmp/fills" &&
	[ "$(cat "$tmp/stdout")" = "from the harness at https://h.invalid/x." ] ||
	fail "--body with HARNESS_URL: $(cat "$tmp/stdout")"
! grep -n 'HARNESS"\|/HARNESS\b' "$top/harness/postings.sh" ||
	fail "postings.sh fills @HARNESS@ itself: a second text beside cover-letter.sh's"

# The kernel tree's refs (tag vanilla, branch patched): the shortlog and the
# diffstat come from vanilla..patched of build/linux.
fresh refs
git init -q -b patched "$b/linux" && (cd "$b/linux" &&
	git -c user.name=t -c user.email=t@localhost commit -q --allow-empty -m "vanilla: 7.3.4" &&
	git tag vanilla && echo x > f && git add f &&
	git -c user.name=t -c user.email=t@localhost commit -q -m "scsi: core: a change between the refs")
# The series measured must be that tree's patched: not yet (the recorded one).
run "$out" && fail "figures of another series than build/linux's patched accepted"
said "refused: figures of another series than the one exported: "
said "check/summary.tsv measured series 111111111111, not the patched $(git -C "$b/linux" rev-parse --short=12 patched) of "
said "compare/series-commit measured series 111111111111"
series_is() { # COMMIT TREE: what check.sh and compare.sh measured
	sed -i "s/^series	.*/series	$1	$2/" "$b/check/summary.tsv"; echo "$1 $2" > "$b/compare/series-commit"; }
series_is "$(git -C "$b/linux" rev-parse patched)" "$(git -C "$b/linux" rev-parse 'patched^{tree}')"
if ! run "$out"; then fail "exit $?"; sed 's/^/#   /' "$tmp/stderr"
else
	has "a change between the refs"
	ev_has " f | 1 +"
fi
# The message reworded, the tree the same: the same code, accepted.
git -C "$b/linux" -c user.name=t -c user.email=t@localhost commit -q --amend -m "scsi: core: reworded"
run "$out" || fail "a reworded commit of the same tree refused: $(grep refused "$tmp/stderr")"
# A patch added since the figures, named in patches/series-since with why
# they stand: accepted, and the letter says so; not named, named wrongly,
# or with other code changed too: refused.
printf 'scsi: core: a fix added since\tan error path no run takes\n' > "$tmp/since"
(cd "$b/linux" && echo z > g && git add g && git -c user.name=t -c user.email=t@localhost commit -q -m "scsi: core: a fix added since")
COVER_SINCE=$tmp/since run "$out" || fail "a patch added since and named refused: $(grep refused "$tmp/stderr")"
has 'The make check and make compare figures were measured without the patch added since: "scsi: core: a fix added since" (an error path no run takes).'
# make check rerun on the series with the fix, make compare not: only
# make compare's figures are said to lack it.
cs=$(grep '^series	' "$b/check/summary.tsv")
sed -i "s/^series	.*/series	$(git -C "$b/linux" rev-parse patched)	$(git -C "$b/linux" rev-parse 'patched^{tree}')/" "$b/check/summary.tsv"
COVER_SINCE=$tmp/since run "$out" || fail "make check of the series with the fix refused: $(grep refused "$tmp/stderr")"
has 'The make compare figures were measured without the patch added since: "scsi: core: a fix added since" (an error path no run takes).'
sed -i "s/^series	.*/$cs/" "$b/check/summary.tsv"
COVER_SINCE=/dev/null run "$out" && fail "a patch added since and not named accepted"
printf 'scsi: core: no such patch\tx\n' > "$tmp/since-bad"
COVER_SINCE=$tmp/since-bad run "$out" && fail "a patch named in series-since that is not in the series accepted"
said "no one commit 'scsi: core: no such patch' in vanilla..patched"
(cd "$b/linux" && echo w > f && git -c user.name=t -c user.email=t@localhost commit -q -am "scsi: core: more code")
COVER_SINCE=$tmp/since run "$out" && fail "other code changed beside the patch named in series-since accepted"
said "(nor patched without the patches of $tmp/since)"
git -C "$b/linux" reset -q --hard HEAD~2
# The code changed after make compare: refused, make check's figures still fine.
old=$(cut -d" " -f1 "$b/compare/series-commit")
(cd "$b/linux" && echo y > f && git -c user.name=t -c user.email=t@localhost commit -q -am "scsi: core: v2")
sed -i "s/^series	.*/series	$(git -C "$b/linux" rev-parse patched)	$(git -C "$b/linux" rev-parse 'patched^{tree}')/" "$b/check/summary.tsv"
run "$out" && fail "make compare's figures of the series before accepted"
said "compare/series-commit measured series ${old:0:12}, not the patched "
grep -q 'summary.tsv measured' "$tmp/stderr" && fail "make check's figures of this series refused"
# A summary.tsv written before series were recorded: refused.
sed -i '/^series	/d' "$b/check/summary.tsv"
run "$out" && fail "a summary.tsv without a series accepted"
said "check/summary.tsv names no series measured: rerun make check"

# The templates: no hand-typed figure; the postings' notes filled with the
# recorded figures are short too.
n=templates ncases=$((ncases + 1))
figures "$top/patches/cover-letter.in" "$top/patches/postings/"*.in > "$tmp/figures" ||
	fail "hand-typed figures in the templates: $(cat "$tmp/figures")"
fresh notes
for f in "$top/patches/postings/"*.in; do
	# blktests.in: blktests/posting.sh fills it (test_blktests_posting.sh).
	[ "${f##*/}" != blktests.in ] || continue
	mkdir -p "$tmp/nfills"; echo 1 > "$tmp/nfills/NPATCHES"
	for k in DEPENDS POSTINGS; do echo "(the posting's $k)" > "$tmp/nfills/$k"; done
	if run --body "$f" "$tmp/nfills"; then cp "$tmp/stdout" "$tmp/${f##*/}.txt"; short "$tmp/${f##*/}.txt"
	else fail "--body ${f##*/}: exit $?"; fi
done

# check.sh's own data: check.sh in a copy of the harness whose vm.sh is a
# stand-in (no guest) writing a TAP and a placement.tsv; cover-letter.sh
# must take what it wrote as one run, and refuse it once a run is redone.
n=check.sh ncases=$((ncases + 1))
sb=$tmp/sandbox
mkdir -p "$sb/harness/lib" "$sb/lib" "$sb/build/kernels/patched"
echo "3333333333333333333333333333333333333333 scsi: core: the last patch" > "$sb/build/kernels/patched/commit"
cp "$top/harness/check.sh" "$top/harness/run-id.sh" "$top/harness/placement-summary.sh" "$top/harness/cover-letter.sh" "$sb/harness/"
cp "$top/lib/kmsg.sh" "$top/lib/config.sh" "$sb/lib/"
cp "$top"/harness/lib/{expect,series,phase,plan}.sh "$sb/harness/lib/"
cp "$top/Makefile" "$sb/" && ln -s "$top/harness/topo" "$sb/harness/" && mkdir -p "$sb/test" && ln -s "$top/test/cases" "$sb/test/"
mkdir -p "$sb/patches" && cp "$top/patches/cover-letter.in" "$top/patches/series" "$sb/patches/"
cat > "$sb/harness/vm.sh" <<'VM'
#!/bin/bash
# Stand-in for vm.sh: 01 and one case pass, one placement line, no guest.
top=$(cd "$(dirname "$0")/.." && pwd)
o=$top/build/runs/$VM_RUN/out
rm -rf "${o%/out}"; mkdir -p "$o"
printf 'ok 1 boot-and-setup\n# case 2: 01-topology (timeout 300s)\nok 2 01-topology\n' > "$o/tap"
# STANDIN_STREAMED=FILE: go on only once check.sh has streamed that line
# into FILE (its output), as a guest goes on writing while QEMU runs.
if [ -n "${STANDIN_STREAMED:-}" ]; then
	for _ in $(seq 20); do grep -q "^\[$VM_RUN\] ok 2 01-topology$" "$STANDIN_STREAMED" && break; sleep 0.5; done
	grep -q "^\[$VM_RUN\] ok 2 01-topology$" "$STANDIN_STREAMED" || echo "not ok 3 10-placement-probe # not streamed while running" >> "$o/tap"
fi
printf 'ok 3 10-placement-probe\nok 4 teardown\n' >> "$o/tap"; : > "$o/dmesg.txt"
printf '%s\t%s\tprobe\tahci\tshost\t1\t1\n' "$1" "$2" > "$o/placement.tsv"
VM
chmod +x "$sb/harness/vm.sh"
if ! STANDIN_STREAMED=$tmp/check.out "$sb/harness/check.sh" --no-kat 'patched:two-node' 'vanilla:cpuless:01*,10*' > "$tmp/check.out" 2>&1; then
	fail "check.sh with the stand-in vm.sh: $(tail -n 3 "$tmp/check.out")"
else
	id=$(cat "$sb/build/runs/vanilla-cpuless/run-id" 2>/dev/null)
	[ -n "$id" ] && [ "$id" = "$(cat "$sb/build/runs/patched-two-node/run-id")" ] || fail "run-id: '$id' and another"
	grep -qx "run_id	$id" "$sb/build/check/summary.tsv" || fail "summary.tsv: no run_id $id"
	grep -qx "series	3333333333333333333333333333333333333333" "$sb/build/check/summary.tsv" ||
		fail "summary.tsv: not the series of build/kernels/patched/commit: $(grep series "$sb/build/check/summary.tsv")"
	grep -qx "run	vanilla-cpuless	vanilla	cpuless	vanilla	01\*,10\*	1	0	0	0	4	0" "$sb/build/check/summary.tsv" ||
		fail "summary.tsv: no line for vanilla-cpuless: $(grep vanilla-cpuless "$sb/build/check/summary.tsv")"
	grep -qx "total	2	0	0	0	8	0" "$sb/build/check/summary.tsv" ||
		fail "summary.tsv: total not 2 cases and 8 run checks passed: $(grep total "$sb/build/check/summary.tsv")"
	[ "$(tail -n 1 "$tmp/check.out")" = "check: 2 cases passed, 0 failed, 0 skipped, 0 reported; 8 run checks passed, 0 failed (boot, teardown, kernel log); meter known-answer test: skipped (--no-kat); logs: build/runs/<run>/ (tap, console.log, out/), build/check/" ] ||
		fail "check.sh's last line: $(tail -n 1 "$tmp/check.out")"
	grep -qx '\[vanilla-cpuless\] # case 2: 01-topology (timeout 300s)' "$tmp/check.out" || fail "check.sh streamed no '# case' line"
	grep -q '^times: guests [0-9]* s, summary [0-9]* s ' "$tmp/check.out" || fail "check.sh printed no times: $(grep '^times' "$tmp/check.out")"
	for w in 'phase	guests' 'run	patched-two-node' 'run	vanilla-cpuless' 'phase	summary'; do
		grep -q "^$w	[0-9][0-9]*$" "$sb/build/check/times.tsv" || fail "times.tsv: no '$w': $(tr '\n' ' ' < "$sb/build/check/times.tsv")"
	done
	"$sb/harness/cover-letter.sh" --inputs 2> "$tmp/stderr" || fail "cover-letter.sh refused check.sh's data"
	said "placement.tsv      $id"
	VM_RUN=vanilla-cpuless "$sb/harness/vm.sh" vanilla cpuless	# as make vm does
	"$sb/harness/cover-letter.sh" --inputs 2> "$tmp/stderr" && fail "a redone run accepted"
	said "build/runs/vanilla-cpuless/out/placement.tsv is from run none"
fi

[ "$ncases" -gt 0 ] || fail "no case ran"
echo "test_cover_letter: $ncases cases: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
