# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# cover-letter-fills.sh, sourced by cover-letter.sh once it has accepted
# the inputs: the functions writing each @NAME@ fill and evidence.txt,
# from the runs and files it found (cmp, check_id, check_names ...).
# shellcheck disable=SC2154	# cover-letter.sh's variables

# none WHAT: what the letter says for a figure it cannot give (missing[]
# names the missing inputs on stderr).
none() { foldp 70 "  " "    " <<< "(not measured: $1)"; }
# foldp WIDTH FIRST REST: stdin folded as fold -s -w WIDTH folds it (at
# the last blank of the first WIDTH bytes of a line too long, else at
# WIDTH), trailing blanks dropped; of each input line the first line
# prefixed by FIRST, the others by REST.  One awk: fold | sed cost two
# processes a paragraph.  Blanks are spaces (the letter's text has no
# tab); LC_ALL=C: bytes, as fold counts them, whichever awk is installed.
foldp() {
	LC_ALL=C awk -v w="$1" -v p1="$2" -v p2="$3" '{ line = $0; p = p1
		while (length(line) > w) {
			cut = w
			for (i = w; i > 0; i--) if (substr(line, i, 1) == " ") { cut = i; break }
			part = substr(line, 1, cut); sub(/ +$/, "", part); print p part; p = p2
			line = substr(line, cut + 1)
		}
		sub(/ +$/, "", line); print p line }'
}
# wrap: stdin folded for a mail (72 columns), each line indented by $1.
wrap() { foldp $((72 - ${#1})) "$1" "$1"; }
placement_source() {
	# Figures of the series before patches/series-since's patches.
	[ -z "${since_used:-}" ] || wrap "" <<< "The $since_used figures were $since_note"
	if [ -n "$check_id" ]; then
		wrap "" <<< "From make check of $check_when, run id $check_id, on $check_src; objects on the host's node:"
	else none "make check: $(rel "$summary")"; fi
}
# The runs of make check that wrote a placement.tsv.
placement_dirs() {
	local name
	for name in "${check_names[@]}"; do
		[ ! -f "$runs/$name/out/placement.tsv" ] || echo "$runs/$name"
	done
}
placement_summary() {
	local dirs=()
	mapfile -t dirs < <(placement_dirs)
	[ ${#dirs[@]} -gt 0 ] || { none "no placement.tsv in the runs of make check"; return; }
	local d
	for d in "${dirs[@]}"; do awk -v r="${d##*/}" -F'\t' '{ print r "\t" $0 }' "$d/out/placement.tsv"; done |
		awk -F'\t' '{ k = $2; if (!(k in all)) { order[++n] = k; first[k] = $1 }
			on[k] += $7; all[k] += $8; if (!((k, $1) in seen)) { seen[k, $1] = 1; runs[k]++ }
			if (!((k, $3, $4) in ctx)) { ctx[k, $3, $4] = 1; nctx[k]++ } }
			END { for (i = 1; i <= n; i++) { k = order[i]
				# make host-check run in a guest: its kernel is named
				# host-RELEASE, its run KERNEL-TOPOLOGY-LABEL.
				l = k ~ /^host-/ ? "make host-check on " substr(first[k], 1, index(first[k] "-", "-") - 1) : k
				printf "  %-8s %d of %d objects (%.1f%%), %d run%s, %d context%s\n", l, on[k], all[k],
					all[k] ? 100 * on[k] / all[k] : 0, runs[k], runs[k] == 1 ? "" : "s",
					nctx[k], nctx[k] == 1 ? "" : "s" } }'
}
check_total() {
	[ -f "$summary" ] || { none "make check: $(rel "$summary")"; return; }
	awk -F'\t' '$1 == "kat" { kat = $2 }
		$1 == "total" { t = sprintf("%d cases passed, %d failed, %d skipped, %d reported; %d run checks passed, %d failed", $2, $3, $4, $5, $6, $7) }
		END { print "Checks: " t "; meter known-answer test: " kat "." }' "$summary" | wrap "  "
}
# compare_run: the comparison's run, for the letter.
compare_run() { wrap "  " <<< "($cmp_what of $cmp_when, run id $cmp_id)"; }
# report_part iops|meter|meter-lines: report.py's part, from report.json
# (cover-letter.sh made them once, in $parts).
report_part() { local t; IFS= read -r -d '' t < "$parts/$1" || :; printf '%s' "$t"; }
fio_summary() {
	if [ ! -f "$cmp/report.json" ]; then none "$cmp_what: $(rel "$cmp/report.json")"; return; fi
	local t
	[ ! -f "$parts/iops.err" ] || { none "report.py could not make the IOPS table: $(< "$parts/iops.err")"; return; }
	t=$(report_part iops | grep -m 1 '^No regression' || :)
	[ -n "$t" ] || { none "no verdict line in report.py's IOPS table"; return; }
	wrap "  " <<< "$t"
	compare_run
}
# meter_summary: per target, the patched/vanilla ratio of the kernel's
# remote accesses per I/O and of those to the SCSI objects, summed over
# the CPU nodes, with the 95% CI where there are repetitions (report.py
# --letter's meter-lines).
meter_summary() {
	if [ ! -f "$cmp/report.json" ]; then none "$cmp_what: $(rel "$cmp/report.json")"; return; fi
	[ ! -f "$parts/meter-lines.err" ] || { none "the meter's sums could not be read from $(rel "$cmp/report.json")"; return; }
	[ -s "$parts/meter-lines" ] || { none "$cmp_what of $cmp_when (run $cmp_id) ran without the meter"; return; }
	foldp 70 "  " "    " < "$parts/meter-lines"
}
placement() {
	local dirs=() name
	for name in "${check_names[@]}"; do
		[ ! -f "$runs/$name/out/placement.tsv" ] || dirs+=("$runs/$name")
	done
	[ ${#dirs[@]} -gt 0 ] || { none "no placement.tsv in the runs of make check"; return; }
	"$top/harness/placement-summary.sh" --context "${dirs[@]}"
}
alloc_cpus() {
	local i name found=""
	for ((i = 0; i < ${#check_names[@]}; i++)); do
		name=${check_names[i]}
		case ${check_topos[i]} in two-node|cpuless) ;; *) continue ;; esac
		[ -f "$runs/$name/out/alloc-cpus.summary" ] || continue
		found=1
		echo "  $name"
		sed 's/^/    /' "$runs/$name/out/alloc-cpus.summary"
	done
	[ -n "$found" ] || none "make check, topologies two-node and cpuless (case 12)"
}
# compare_part iops|meter: the table from report.json, with its run.
compare_part() {
	if [ ! -f "$cmp/report.json" ]; then none "$cmp_what: $(rel "$cmp/report.json")"; return; fi
	local t
	[ ! -f "$parts/$1.err" ] || { none "report.py could not make the table from $(rel "$cmp/report.json"): $(< "$parts/$1.err")"; return; }
	t=$(report_part "$1")
	if [ -z "$t" ]; then none "$cmp_what of $cmp_when (run $cmp_id) ran without the meter"; return; fi
	echo "  ($cmp_what of $cmp_when, run id $cmp_id)"
	echo "$t" | sed 's/^/  /; s/ *$//'
}
fio_table() { compare_part iops; }
meter() { compare_part meter; }
check_summary() {
	[ -f "$summary" ] || { none "make check: $(rel "$summary")"; return; }
	awk -F'\t' -v id="$check_id" -v src="$check_src" '
		function counts(i) {	# the cases, then the checks of the runs themselves
			return sprintf("%d cases passed, %d failed, %d skipped, %d reported; %d run checks passed, %d failed",
				$i, $(i + 1), $(i + 2), $(i + 3), $(i + 4), $(i + 5)) }
		$1 == "run" { printf "  %-26s %s\n", $2, counts(7) }
		$1 == "kat" { kat = $2 }
		$1 == "total" { total = counts(2) }
		END { print "  meter known-answer test: " kat
		      print "  check: " total; print "  (run id " id ", " src ")" }' "$summary"
}
maintainers() {
	local p gm=$tree/scripts/get_maintainer.pl
	[ -x "$gm" ] || { none "no $(rel "$gm")"; return; }
	while read -r p; do
		[ -n "$p" ] || continue
		echo "  $(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$top/patches/$p" | head -n 1)"
		(cd "$tree" && "$gm" --no-git --no-git-fallback --no-rolestats "$top/patches/$p" 2>/dev/null) |
			sed 's/^/      /' | head -n 12
	done < "$top/patches/series"
}
# own_tree: $tree is build/linux, the tree postings.sh reads (also through
# COVER_BUILD/linux as a link to it: lint-series' letter step); not a
# test's stand-in tree.
own_tree() {
	[ -d "$tree/.git" ] && [ -d "$top/build/linux" ] &&
		[ "$(cd "$tree" && pwd -P)" = "$(cd "$top/build/linux" && pwd -P)" ]
}
postings() {
	if ! own_tree; then none "no kernel tree $(rel "$tree") (make tree)"
	else "$top/harness/postings.sh" plan 2>/dev/null || none "postings.sh plan failed"; fi
}
# The base, from make check-upstream's last result, if it was for this series.
base() {
	local r=$build/check-upstream/result series kind
	series=$(git -C "$tree" rev-parse -q --verify patched 2>/dev/null || true)
	if [ ! -f "$r" ] || [ "$(sed -n 's/^series: //p' "$r")" != "$series" ]; then
		base_record
		return
	fi
	kind=$(sed -n 's/^base: \([a-z]*\) .*/\1/p' "$r")
	if [ "$kind" = debian ]; then
		echo "The base is Linux 7.3.4 as released, without Debian's patches:"
		echo "Debian's linux_7.3.4.orig.tar.xz, which is upstream's 7.3.4 less the"
		echo "files Debian's copyright file excludes (none in block/, drivers/scsi,"
		echo "drivers/ata, drivers/pci or include/).  Checked there on"
		echo "$(sed -n 's/^date: //p' "$r") (make check-upstream, \"$(sed -n 's/^make: //p' "$r")\"):"
	else
		echo "Checked on a tarball that is not Debian's orig tarball:"
		echo "$(sed -n 's/^base: //p' "$r")"
		echo "Checked there on $(sed -n 's/^date: //p' "$r") (make check-upstream):"
	fi
	sed -n 's/^posting \(.*\)/  - \1/p; s/^all: /  - all postings in order: /p' "$r" |
		sed 's/\(.\{72\}\) /\1\n      /'
	grep -q '^failures: 0$' "$r" || echo "make check-upstream reported failures (build/check-upstream/result)."
}
# base_record: the base from patches/base.txt's verdicts, counted.
base_record() {
	local f=$top/patches/base.txt
	[ -f "$f" ] || { none "no $(rel "$f")"; return; }
	# Its header names Debian's package and version; each file's line starts
	# with its verdict.
	awk '/^# Base: .*Debian.s linux-source-[^ ]*$/ { src = $NF }
		/^# [0-9][^ ]* \(.*\): upstream/ { ver = $2 }
		/^upstream / { up++ } /^not-found / { nf++ } /^new / { nw++ }
		END { printf "Linux 7.3.4 as Debian ships it (%s %s).  Of the %d files the whole series (all its postings) changes, %d are byte-identical to blobs in upstream patch mail, %d were not found in the index searched, %d are new; Debian\047s changelog has no change of its own to any of them.  Evidence, blob by blob: patches/base.txt.\n", src, ver, up + nf + nw, up, nf, nw }' "$f" | wrap ""
}
# The SCSI posting's commits (postings.sh groups), else vanilla..patched.
scsi_commits() {
	if own_tree &&
		"$top/harness/postings.sh" groups > "$fills/.groups" 2>/dev/null; then
		awk '$1 ~ /-scsi$/ { print $2 }' "$fills/.groups"
	elif [ -d "$tree/.git" ]; then
		git -C "$tree" rev-list --reverse vanilla..patched
	fi
}
shortlog() {
	[ -d "$tree/.git" ] || return 0
	local cs=()
	mapfile -t cs < <(scsi_commits)
	[ ${#cs[@]} -gt 0 ] || return 0
	git -C "$tree" log --no-walk=unsorted --format='%an%n%s' "${cs[@]}" 2>/dev/null |
		awk 'NR % 2 { a = $0; next } { n[a]++; s[a] = s[a] "    " $0 "\n"; if (!(a in o)) ord[++k] = a; o[a] = 1 }
			END { for (i = 1; i <= k; i++) printf "%s (%d):\n%s\n", ord[i], n[ord[i]], s[ord[i]] }' |
		sed '${/^$/d}' | cut -c1-78
}
evidence_file() {
	echo "Evidence for the cover letter $(basename "$out"): the full tables it"
	echo "summarises, written by harness/cover-letter.sh from the same data."
	echo
	echo "Placement (make check)"
	placement_source
	placement
	echo
	echo "Which CPU ran the allocations (SLUB allocation tracking, slub_debug=U)"
	alloc_cpus
	echo
	echo "Remote accesses and misses per I/O (make compare, the QEMU meter)"
	meter
	echo
	echo "fio in the guests: no-regression check"
	fio_table
	echo
	echo "make check, per run"
	check_summary
	echo
	echo "scripts/get_maintainer.pl, per patch"
	maintainers
	echo
	echo "diffstat of the series"
	[ ! -d "$tree/.git" ] || git -C "$tree" diff --stat=72 vanilla patched | sed 's/^/ /'
}
npatches() { local c; c=$(scsi_commits | wc -l); [ "$c" -gt 0 ] && echo "$c" || echo "$n"; }
evidence() { echo "patches/evidence.txt"; }
harness_url() { if [ -n "${HARNESS_URL:-}" ]; then echo "the harness at $HARNESS_URL"; else echo "the harness repository"; fi; }
