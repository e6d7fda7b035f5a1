#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every figure written in a patch's changelog (the text before its diff)
# must be in the tables it comes from, patches/evidence-rules.txt or
# patches/evidence.txt, so that a changelog cannot keep a figure its
# tables no longer have.  Figures are read by value, whatever the
# spelling: a ratio with its CI ("x1.263 [1.254, 1.273]", "1.263x [...]",
# "×1.26 [...]") is matched as three numbers against a table's ratio and
# CI; any other number with a ratio mark ("x1.2", "1.2x", "1.06 times",
# "1.06-fold") or with two decimals or more ("0.941") against any number of
# the tables.  A figure with fewer decimals than the table matches the
# table's value rounded to it.  Versions (v6.16, 6.12.36, 6.12.y, 7.3) and
# URLs are not figures.
# First the reader itself, on test_data/figures: respelt.patch's figures,
# spelt every way, are all found and all in tables.txt; wrong.patch's are
# all found and none is.  Then patches/: no figure outside its tables, and
# at least $floor figures found (patch 0007 quotes the rules' comparison),
# so that figures that all escape the reader fail.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
data=$top/test/unit/test_data/figures
# The figures patches/ must hold at least: lower it on purpose only.
floor=3

# figures TABLE.. -- PATCH..: one FAIL line per figure in no table, then
# "figures: N"; exit 1 on any FAIL.
figures() {
	python3 - "$@" <<'EOF'
import re, sys
from decimal import Decimal, ROUND_HALF_UP

args = sys.argv[1:]
tables, patches = args[:args.index('--')], args[args.index('--') + 1:]
NUM = r'\d+\.\d+'
PRE = r'(?:[x×] ?)'
POST = r'(?: ?[x×](?![A-Za-z0-9])|-fold| +times)'
TRIPLE = re.compile(r'(?<![\w.])' + PRE + r'?(' + NUM + r')' + POST +
                    r'? *\[ *(' + NUM + r') *, *(' + NUM + r') *\]')
SINGLE = re.compile(r'(?<![\w.])(' + PRE + r')?(' + NUM + r')(?!\w|\.\w)(' + POST + r')?')


def text(path, changelog):
    t = open(path, encoding='utf-8').read()
    if changelog:
        t = t.split('\ndiff --git ')[0]
    t = re.sub(r'\S+://\S+', ' ', t)
    return re.sub(r'\s+', ' ', t)


def read(t):
    """The figures of t: (spelling, (number,..)), triples first."""
    out = [(m.group(0), m.group(1, 2, 3)) for m in TRIPLE.finditer(t)]
    for m in SINGLE.finditer(TRIPLE.sub(' ', t)):
        if m.group(1) or m.group(3) or len(m.group(2).split('.')[1]) >= 2:
            out.append((m.group(0), (m.group(2),)))
    return out


def same(fig, tab):
    """fig (as written) is tab's value, tab rounded to fig's decimals."""
    f, t = Decimal(fig), Decimal(tab)
    if f.as_tuple().exponent < t.as_tuple().exponent:
        return f == t
    return t.quantize(f, rounding=ROUND_HALF_UP) == f


tab_text = ' '.join(text(p, False) for p in tables)
tab_triples = [m.group(1, 2, 3) for m in TRIPLE.finditer(tab_text)]
tab_nums = re.findall(NUM, tab_text)
n = bad = 0
for p in patches:
    for spelt, nums in read(text(p, True)):
        n += 1
        pool = tab_triples if len(nums) == 3 else [(x,) for x in tab_nums]
        if not any(all(same(f, t) for f, t in zip(nums, row)) for row in pool):
            print(f"FAIL: {p.split('/')[-1]}: '{spelt}' ({', '.join(nums)}) is in no table"
                  f" ({', '.join(x.split('/')[-1] for x in tables)})")
            bad += 1
print(f'figures: {n}')
sys.exit(1 if bad else 0)
EOF
}

bad=0
out=$(figures "$data/tables.txt" -- "$data/respelt.patch")
[ $? = 0 ] && [ "$(tail -n 1 <<< "$out")" = "figures: 8" ] ||
	{ echo "FAIL: respelt.patch: 8 figures in tables.txt expected, got:"; echo "$out"; bad=1; }
out=$(figures "$data/tables.txt" -- "$data/wrong.patch")
[ $? = 1 ] && [ "$(grep -c '^FAIL: ' <<< "$out")" = 3 ] && [ "$(tail -n 1 <<< "$out")" = "figures: 3" ] ||
	{ echo "FAIL: wrong.patch: 3 figures, each in no table, expected; got:"; echo "$out"; bad=1; }
patches=()
for p in "$top"/patches/0*.patch; do
	# The cover letter has its own test (test_cover_letter.sh).
	[ "${p##*/}" != 0000-cover-letter.patch ] && patches+=("$p")
done
out=$(figures "$top/patches/evidence-rules.txt" "$top/patches/evidence.txt" -- "${patches[@]}") ||
	{ grep '^FAIL' <<< "$out"; bad=1; }
n=$(sed -n 's/^figures: //p' <<< "$out")
[ "${n:-0}" -ge "$floor" ] ||
	{ echo "FAIL: ${n:-no} figures found in patches/, fewer than $floor: a figure escapes the reader, or the floor is stale"; bad=1; }
[ "$bad" = 0 ] || exit 1
echo "test_patch_figures: $n figures in patches/ (at least $floor), each in its table; the reader on 11 test figures: passed"
