#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the commits vanilla..patched of build/linux into patches/ (git
# format-patch files + series).  Output is stable across exports of the same
# commits: no commit hashes, no signature, no version numbering noise.  The
# tracked files keep the placeholder author "scsi_numa project
# <scsi_numa@localhost>".  The cover letter: harness/cover-letter.sh
# writes build/cover-letter/0000-cover-letter.patch and evidence.txt (the
# full tables the letter points to), both copied into patches/;
# export refuses (exit 1, patches/ untouched) whatever cover-letter.sh
# --inputs refuses: a placement or allocation input not from summary.tsv's
# make check run, a report.json without a run id or with an IOPS row not
# met (make export COVER_ALLOW_NOT_MET=1 writes it), figures of another
# series than build/linux's patched (cover-letter.sh, "Runs").
#
# Then, with POSTER="Name <address>" and HARNESS_URL (make export
# POSTER=... HARNESS_URL=...), the postable
# series under build/postings/<n>-<name>/ (harness/postings.sh): the
# poster as author and in Signed-off-by, To:/Cc:, base-commit (BASE_COMMIT=
# the upstream v7.3.4 commit id), cover letters.  Without POSTER it writes
# no postable file, says so and exits 3 after the tracked export.  The
# last posting is blktests/'s tests on blktests' master
# (blktests/posting.sh): BLKTESTS_REPO=<a blktests repository> gives its
# base.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
g() { git -C "$tree" "$@"; }
[ -d "$tree/.git" ] || { echo "export: no tree at $tree (make tree)" >&2; exit 1; }
[ -z "$(g status --porcelain --untracked-files=no)" ] ||
	{ echo "export: $tree has uncommitted changes: commit them first" >&2; exit 1; }
# The cover letter's inputs, before anything is written.
"$top/harness/cover-letter.sh" --inputs ||
	{ echo "export: refused for the reason cover-letter.sh gives above; nothing exported" >&2; exit 1; }
tmp=$(mktemp -d)
g format-patch -q --zero-commit --no-signature --no-base -o "$tmp" vanilla..patched
# Files the kernel's (Debian's) .gitignore hides never reach a commit:
# refuse to export a tree with such new sources rather than lose them.
ign=$(g ls-files --others --ignored --exclude-standard -- '*.c' '*.h' '*Kconfig*' '*Makefile' ':!.obj*' | head -n 5)
[ -z "$ign" ] || { echo "export: new files hidden by .gitignore, never committed (git add -f them): $ign" >&2; exit 1; }
# git am dropped each patch's notes (below its "---"): put them back from
# the patches/ being replaced, by subject.
python3 "$top/harness/keep-notes.py" "$top/patches" "$tmp"
rm -f "$top"/patches/*.patch
(cd "$tmp" && ls) > "$top/patches/series"
cp "$tmp"/*.patch "$top/patches/" 2>/dev/null || true
rm -rf "$tmp"
# The tree now is what patches/ describes: record it so ktree.sh keeps it.
"$top/harness/ktree.sh" --stamp
echo "export: $(wc -l < "$top/patches/series") patches in patches/"
# The cover letter, with the figures of the harness's data (build/).
"$top/harness/cover-letter.sh"
cp "$top/build/cover-letter/0000-cover-letter.patch" "$top/build/cover-letter/evidence.txt" "$top/patches/"
echo "export: patches/0000-cover-letter.patch and patches/evidence.txt (its full tables; from build/cover-letter/)"
# Their inputs (inputs.tsv's files, each run's run-id, the compare's
# series-commit) in patches/run-data/letter/, laid out as build/: make
# lint-series regenerates both from them with the kernel tree
# (harness/lint-series.sh, "letter").
rd=$top/patches/run-data/letter
rm -rf "$rd"
{
	cut -f3 "$top/build/cover-letter/inputs.tsv"
	[ ! -f "$top/build/compare/series-commit" ] || echo build/compare/series-commit
} | sort -u | while read -r f; do
	case $f in build/*) ;; *) echo "export: an input outside build/: $f" >&2; exit 1 ;; esac
	[ -f "$top/$f" ] || continue
	mkdir -p "$rd/$(dirname "${f#build/}")"
	cp "$top/$f" "$rd/${f#build/}"
	case $f in build/runs/*/out/*) r=${f#build/runs/}; r=${r%%/*}
		cp "$top/build/runs/$r/run-id" "$rd/runs/$r/run-id" ;;
	esac
done
echo "export: the letter's inputs in patches/run-data/letter/"
# make compare's queue-node rules part (RULES_TOPO): its per-node tables
# and summaries, with the run id and kernels, in
# patches/run-data/compare-rules/.
if [ -f "$top/build/compare-rules/rules.json" ]; then
	rd=$top/patches/run-data/compare-rules
	rm -rf "$rd"; mkdir -p "$rd"
	for f in rules.txt rules.json rules-summary.txt meter-summary.txt run-id kernels; do
		[ ! -f "$top/build/compare-rules/$f" ] || cp "$top/build/compare-rules/$f" "$rd/"
	done
	echo "export: make compare's rules tables in patches/run-data/compare-rules/"
fi
# The queue-node rules over the topologies (make compare-rules-matrix),
# which the rule's changelog quotes.
# With its inputs in patches/run-data/rules-matrix/, from which make lint
# regenerates it (test/unit/test_run_data.sh).
if [ -f "$top/build/rules-matrix/matrix.txt" ]; then
	m=$top/build/rules-matrix rd=$top/patches/run-data/rules-matrix
	rm -rf "$rd"
	for t in $(sed -n "1s/.*RULES_MATRIX='\([^']*\)'.*/\1/p" "$m/matrix.txt"); do
		mkdir -p "$rd/$t"
		cp "$m/$t/rules.json" "$m/$t/series-commit" "$rd/$t/"
	done
	cp "$m/matrix.txt" "$top/patches/evidence-rules.txt"
	echo "export: patches/evidence-rules.txt (from build/rules-matrix/matrix.txt) and its inputs in patches/run-data/rules-matrix/"
fi
# The postable series, only for a named poster.
if [ -z "${POSTER:-}" ]; then
	rm -rf "$top/build/postings"
	echo "export: no POSTER: postable series NOT written (patches/ is exported; it keeps the placeholder author)." >&2
	echo "export: to write build/postings/: make export POSTER='Your Name <you@example.org>' HARNESS_URL=<this repository's public URL> [BASE_COMMIT=<v7.3.4 commit id>] BLKTESTS_REPO=<a blktests clone>" >&2
	exit 3
fi
"$top/harness/postings.sh" write "$top/build/postings"
