#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# postings.sh: split the series (vanilla..patched of build/linux) into the
# postings that go to the lists, and write them.
#
#   postings.sh groups      one line per commit, in posting order:
#                           "<n>-<name> <commit> <subject>"
#   postings.sh deps [REV]  one line per posting, in posting order:
#                           "<n>-<name> <postings it needs, comma-separated,
#                           or -> <commit>..." (what @DEPENDS@ says); REV:
#                           a commit of build/linux instead of "patched"
#   postings.sh plan        the postings, their routing and whether each
#                           applies to base on its own (text for the cover
#                           letters, @POSTINGS@)
#   postings.sh write OUT   (POSTER="Name <addr>" and HARNESS_URL, the
#                           harness's public URL, required) the postable
#                           series under OUT/<n>-<name>/: git format-patch
#                           output with the poster as author and in
#                           Signed-off-by, To:/Cc:, base-commit, and the
#                           cover letter (more than one patch) or notes
#                           below "---" (one patch) from
#                           patches/postings/<name>.in (the SCSI series:
#                           patches/cover-letter.in, through cover-letter.sh)
#                           and, last, blktests' tests as a series on
#                           blktests' master in OUT/<n>-blktests
#                           (blktests/posting.sh, which needs
#                           BLKTESTS_REPO=<a blktests repository>)
#
# A commit belongs to the first posting whose subject pattern matches it
# (the table below); the SCSI series takes the rest.  A posting is built on
# base alone when its patches apply there; otherwise on the earlier
# postings it needs (the fewest that make it apply), named in
# prerequisite-patch-id lines.  Nothing is written into build/linux: the
# commits are rebuilt in build/postings-repo, a repository that borrows
# build/linux's objects (objects/info/alternates) and has no work tree.
#
# Environment: POSTER="Name <addr>" (write); BASE_COMMIT=<40 hex> (the
# upstream commit the orig tarball is: v7.3.4 of the stable tree) for the
# base-commit line, else it carries a [[POSTER: ...]] placeholder.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
repo=$top/build/postings-repo
placeholder='scsi_numa project <scsi_numa@localhost>'
die() { echo "postings: $*" >&2; exit 1; }
g() { git -C "$tree" "$@"; }
r() { git -C "$repo" "$@"; }

# name | subject pattern (ERE) | version (1, or rfc: an RFC v1) | To: MAINTAINERS section[~M: filter] ... | Cc: the same
# To gets the section's M: lines (those matching the filter) and its L:
# lines; Cc adds the patches' own Cc: trailers.  An entry with an "@" is
# an address as it stands ("Name <addr>").  Every posting is v1: none of
# them reached a list before.
# The SCSI posting's extra Cc: the authors and reviewers of Broadcom's
# overlapping series (v3, 20260609121806.2121755-1-sumit.saxena@broadcom.com),
# their addresses as they appear in that thread's headers.
broadcom="Sumit Saxena <sumit.saxena@broadcom.com>,James Rizzo <james.rizzo@broadcom.com>"
broadcom+=",John Garry <john.g.garry@oracle.com>,Hannes Reinecke <hare@suse.com>"
# The drivers the SCSI posting converts, by their MAINTAINERS sections.
drivers="LSILOGIC MPT FUSION DRIVERS (FC/SAS/SPI),EMULEX/BROADCOM LPFC FC/FCOE SCSI DRIVER"
drivers+=",VIRTIO BLOCK AND SCSI DRIVERS"
table=(
	"blk-mq-fix|^blk-mq: fix out-of-bounds read of set->tags|1|BLOCK LAYER|"
	"elevator-fix|^block: don't WARN when re-registering the elevator|1|BLOCK LAYER|"
	"sdebug-fix|^scsi: scsi_debug: Report a failed add_host|1|SCSI SUBSYSTEM~Martin K. Petersen|"
	"scan-fix|^scsi: core: Fail the scan of a target or device whose name|1|SCSI SUBSYSTEM~Martin K. Petersen|"
	"pseudo-fix|^scsi: core: Reap the pseudo device's target|1|SCSI SUBSYSTEM~Martin K. Petersen|"
	"megaraid-fix|^scsi: megaraid_sas: Do not confine high IOPS queues|1|MEGARAID SCSI/SAS DRIVERS|SCSI SUBSYSTEM~Martin K. Petersen"
	"blk-mq|^(blk-mq)?(ublk)?: |1|BLOCK LAYER|SCSI SUBSYSTEM~Martin K. Petersen"
	"blk-mq-rfc|^blk-mq: keep a single hardware queue on the tag set|rfc|BLOCK LAYER|SCSI SUBSYSTEM~Martin K. Petersen"
	"pci|^PCI: |1|PCI SUBSYSTEM|"
	"ata|^ata: |1|LIBATA SUBSYSTEM (Serial and Parallel ATA drivers)|SCSI SUBSYSTEM~Martin K. Petersen,SCSI LIBSAS SUBSYSTEM"
	"scsi|.|1|SCSI SUBSYSTEM~Martin K. Petersen|BLOCK LAYER,$drivers,$broadcom"
)
field() { echo "$1" | cut -d'|' -f"$2"; }

[ -d "$tree/.git" ] || die "no kernel tree at $tree (make tree)"
basec=$(g rev-parse --verify -q "vanilla^{commit}") || die "no tag vanilla in $tree"
rev=patched
[ "${1:-}" != deps ] || rev=${2:-patched}
tipc=$(g rev-parse --verify -q "$rev^{commit}") || die "no commit $rev in $tree"

groups() {
	local c s t name pat n=0 hit
	declare -A seen=() owner=()
	# An RFC posting claims its commits first: it follows the posting it
	# builds on in the table, whose pattern would take them.
	for t in "${table[@]}"; do
		[ "$(field "$t" 3)" = rfc ] || continue
		name=$(field "$t" 1) pat=$(field "$t" 2)
		while read -r c s; do
			[[ $s =~ $pat ]] && [ -z "${owner[$c]:-}" ] && owner[$c]=$name
		done < <(g log --reverse --format='%H %s' "$basec..$tipc")
	done
	for t in "${table[@]}"; do
		name=$(field "$t" 1) pat=$(field "$t" 2) hit=""
		while read -r c s; do
			[ -z "${seen[$c]:-}" ] || continue
			if [ -n "${owner[$c]:-}" ]; then
				[ "${owner[$c]}" = "$name" ] || continue
			else
				[[ $s =~ $pat ]] || continue
			fi
			[ -n "$hit" ] || { n=$((n + 1)); hit=1; }
			seen[$c]=1
			echo "$n-$name $c $s"
		done < <(g log --reverse --format='%H %s' "$basec..$tipc")
	done
}

# The addresses of a MAINTAINERS section (of base): "SECTION[~filter]";
# with a second argument, its reviewers (R:) too.
section_addrs() {
	local sec=${1%%~*} filt='' rev=${2:+R}
	[ "$sec" = "$1" ] || filt=${1#*~}
	g show "$basec:MAINTAINERS" | awk -v s="$sec" -v f="$filt" -v r="$rev" '
		$0 == s { on = 1; next }
		on && /^$/ { on = 0 }
		on && (/^M:/ || (r != "" && /^R:/)) { sub(/^[MR]:[ \t]*/, ""); if (f == "" || index($0, f)) print }
		on && /^L:/ { sub(/^L:[ \t]*/, ""); sub(/ .*/, ""); print }'
}
route() { # ROUTE-FIELD [R]: addresses, one a line (R: with reviewers)
	local spec
	local IFS=','
	for spec in $1; do
		case $spec in
		"") ;;
		*@*) echo "$spec" ;;
		*) section_addrs "$spec" "${2:-}" ;;
		esac
	done
}

# --- the private repository and the rebuilt commits --------------------------
init_repo() {
	if [ ! -d "$repo/.git" ]; then
		git init -q "$repo"
		r config gc.auto 0
	fi
	echo "$tree/.git/objects" > "$repo/.git/objects/info/alternates"
}
# rebuild PARENT IDENT COMMIT...: apply each COMMIT's diff on PARENT in a
# private index and commit it with IDENT as author and committer (dates
# kept).  Prints the new tip; status 1 when a diff does not apply.
rebuild() {
	local parent=$1 ident=$2 c idx t msg name mail date
	shift 2
	idx=$(mktemp "$top/build/postings-index.XXXXXX")
	name=${ident% <*}; mail=${ident##*<}; mail=${mail%>}
	GIT_INDEX_FILE=$idx r read-tree "$parent"
	for c; do
		if ! g diff --binary --full-index "$c^" "$c" | GIT_INDEX_FILE=$idx r apply --cached - 2>/dev/null; then
			rm -f "$idx"; return 1
		fi
		t=$(GIT_INDEX_FILE=$idx r write-tree)
		msg=$(g log -1 --format=%B "$c" | sed "s|^Signed-off-by: $placeholder\$|Signed-off-by: $ident|")
		date=$(g log -1 --format=%aD "$c")
		parent=$(echo "$msg" | GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$mail GIT_AUTHOR_DATE=$date \
			GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$mail GIT_COMMITTER_DATE=$date \
			r commit-tree "$t" -p "$parent")
	done
	rm -f "$idx"
	echo "$parent"
}

# build IDENT: for every posting n, in order: P_name[n], P_tip[n] (its
# tip), P_on[n] (the commit it is built on: base, or the tip of the
# postings it needs), P_deps[n] (those postings, space separated; empty:
# base alone), P_commits[n] (its number of patches).
declare -a P_name=() P_tip=() P_on=() P_deps=() P_commits=() P_alone=() P_list=()
build() {
	local ident=$1 n k name tip on deps prev
	local -a names=() cs=()
	mapfile -t names < <(groups | awk '{print $1}' | uniq)
	init_repo
	for ((n = 0; n < ${#names[@]}; n++)); do
		name=${names[$n]}
		mapfile -t cs < <(groups | awk -v n="$name" '$1 == n {print $2}')
		on=$basec deps=""
		if ! tip=$(rebuild "$basec" "$ident" "${cs[@]}"); then
			tip=""
			# The fewest earlier postings it needs: one of them, else all.
			for ((k = 0; k < n; k++)); do
				[ -n "${P_alone[$k]}" ] || continue
				if tip=$(rebuild "${P_alone[$k]}" "$ident" "${cs[@]}"); then
					on=${P_alone[$k]} deps=${P_name[$k]}
					break
				fi
				tip=""
			done
			if [ -z "$tip" ]; then
				[ "$n" -gt 0 ] || die "$name does not apply on base"
				prev=$basec deps=""
				for ((k = 0; k < n; k++)); do
					# shellcheck disable=SC2086 # commit ids, one word each
					prev=$(rebuild "$prev" "$ident" ${P_list[$k]}) ||
						die "${P_name[$k]} does not apply on the postings before it"
					deps="$deps ${P_name[$k]}"
				done
				tip=$(rebuild "$prev" "$ident" "${cs[@]}") ||
					die "$name applies neither on base nor on the postings before it"
				on=$prev deps=${deps# }
			fi
		fi
		P_name[n]=$name P_tip[n]=$tip P_on[n]=$on P_deps[n]=$deps P_commits[n]=${#cs[@]}
		P_list[n]="${cs[*]}"
		# The posting alone on base (empty when it needs others), for the
		# postings after it that need only this one.
		if [ "$on" = "$basec" ]; then P_alone[n]=$tip; else P_alone[n]=""; fi
	done
}

bare() { [[ $1 =~ ^[0-9]+-(.*)$ ]] && echo "${BASH_REMATCH[1]}" || echo "$1"; }	# N-NAME or NAME: NAME
entry_of() { # N-NAME or NAME
	local t
	for t in "${table[@]}"; do
		if [ "$(field "$t" 1)" = "$(bare "$1")" ]; then echo "$t"; return 0; fi
	done
	die "no posting $1 in the table"
}
version_of() { field "$(entry_of "$1")" 3; }
# template_of N-NAME: the posting's cover letter (or notes) template.
template_of() {
	if [ "$(bare "$1")" = scsi ]; then echo "$top/patches/cover-letter.in"
	else echo "$top/patches/postings/$(bare "$1").in"; fi
}
prefix_of() { # N-NAME
	local v; v=$(version_of "$1")
	case $v in 1) echo "PATCH" ;; rfc) echo "RFC PATCH" ;; *) echo "PATCH v$v" ;; esac
}

# foldsubj: a plan line folded to the letter's 80 columns.
foldsubj() { fold -s -w 80 | sed 's/ *$//; 2,$s/^/       /'; }
plan() {
	local n name t lists deps cnt pre subj alldeps=""
	build "$placeholder"
	for ((n = 0; n < ${#P_name[@]}; n++)); do
		name=${P_name[$n]} cnt=${P_commits[$n]}
		t=$(entry_of "$name")
		pre=$(prefix_of "$name")
		if [ "$cnt" = 1 ]; then
			subj=$(groups | awk -v n="$name" '$1 == n' | cut -d' ' -f3-)
			echo "  $((n + 1)). [$pre] $subj" | foldsubj
		else
			subj=$(sed -n '1s/^Subject: \[[^]]*\] //p' "$(template_of "$name")")
			# as git format-patch numbers them: 00/15, 0/2
			echo "  $((n + 1)). [$pre $(printf "%0${#cnt}d/%d" 0 "$cnt")] $subj" | foldsubj
		fi
		# Its lists (MAINTAINERS' L:, the addresses without a name), To's
		# then Cc's, once each; the people are in each mail's To and Cc
		# (write), by patch in evidence.txt (get_maintainer.pl).
		lists=$({ route "$(field "$t" 4)"; route "$(field "$t" 5)"; } | awk '!/</' |
			sed 's/@vger\.kernel\.org$//' | awk '!s[$0]++' | paste -sd, - | sed 's/,/, /g')
		deps=${P_deps[$n]}
		[ -z "$deps" ] || { lists+="; applies only after $(echo "$deps" | sed 's/ /, /g')"; alldeps=1; }
		echo "lists: $lists" | fold -s -w 72 | sed 's/ *$//; 1s/^/     /; 2,$s/^/       /'
	done
	# The project's blktests tests, a series on blktests (blktests/posting.sh).
	"$top/blktests/posting.sh" plan "$((n + 1))"
	# Applying, not building: the letters say what builds on what.
	[ -n "$alldeps" ] || echo "  Each applies to its base without the others."
}

# --- write ----------------------------------------------------------------------
# uniq_addrs SEEN: the addresses on stdin, first of each e-mail address
# (case-insensitive) only, leaving out those of the file SEEN.
uniq_addrs() {
	awk -v seen="$1" '
	function key(a) { if (match(a, /<[^>]*>/)) a = substr(a, RSTART + 1, RLENGTH - 2); return tolower(a) }
	BEGIN { while ((getline l < seen) > 0) if (l != "") s[key(l)] = 1 }
	$0 != "" && !s[key($0)]++' -
}

valid_ident() {
	[[ $1 =~ ^[^\<\>@]+\ \<[^\<\>@\ ]+@[^\<\>@\ ]+\>$ ]] || return 1
	[ "$1" != "$placeholder" ] || return 1
	case $1 in *@localhost\>|*@example.*|*.example\>|*.invalid\>) return 1 ;; esac
}

base_line() {
	if [ -n "${BASE_COMMIT:-}" ]; then
		[[ $BASE_COMMIT =~ ^[0-9a-f]{40}$ ]] || die "BASE_COMMIT=$BASE_COMMIT is not a 40-digit commit id"
		echo "base-commit: $BASE_COMMIT"
	else
		echo "base-commit: [[POSTER: the commit id of v7.3.4 in the stable tree (make export BASE_COMMIT=...)]]"
	fi
}

write() {
	local out n name t dir to cc pre vflag cover tmpl fills body subj f gm c bname
	out=$(realpath -m "$1")
	[ -n "${POSTER:-}" ] || die "no POSTER: refusing to write postable files (make export POSTER='Name <address>')"
	valid_ident "$POSTER" || die "POSTER='$POSTER' is not 'Name <address>' with a real address"
	fills=$(mktemp -d)
	trap 'rm -rf "$fills"' RETURN
	plan > "$fills/POSTINGS"	# (builds with the placeholder: first)
	# @HARNESS@: the letters send readers to the harness's make host-check
	# and fio-jobs/run.sh, which they cannot reach without its address.
	[ -n "${HARNESS_URL:-}" ] ||
		die "no HARNESS_URL: the letters would name the harness without its address (make export HARNESS_URL=https://...)"
	build "$POSTER"
	rm -rf "$out"; mkdir -p "$out"
	for ((n = 0; n < ${#P_name[@]}; n++)); do
		name=${P_name[$n]} t=$(entry_of "$name") dir=$out/$name
		mkdir -p "$dir"
		to=$(route "$(field "$t" 4)" | uniq_addrs /dev/null)
		# Cc: the routing's, then every Cc: trailer of the posting's patches.
		cc=$( { route "$(field "$t" 5)" R
			route "$(field "$t" 4)" R
			for c in $(r rev-list --reverse "${P_on[$n]}..${P_tip[$n]}"); do
				r log -1 --format=%B "$c" | sed -n 's/^Cc:[[:space:]]*//p'
			done; } | uniq_addrs <(echo "$to") || true)
		pre=$(prefix_of "$name")
		vflag=(--subject-prefix="$pre")
		case $(version_of "$name") in 1|rfc) ;; *) vflag=(--reroll-count="$(version_of "$name")") ;; esac
		cover=()
		[ "${P_commits[$n]}" = 1 ] || cover=(--cover-letter)
		mapfile -t toargs < <(echo "$to" | sed 's/^/--to=/')
		mapfile -t ccargs < <(echo "$cc" | sed '/^$/d; s/^/--cc=/')
		r -c user.name="${POSTER% <*}" -c user.email="$(echo "$POSTER" | sed 's/.*<//; s/>$//')" \
			format-patch -q -o "$dir" "${vflag[@]}" "${cover[@]}" --base="$basec" \
			"${toargs[@]}" "${ccargs[@]}" "${P_on[$n]}..${P_tip[$n]}" >/dev/null
		# The template: the SCSI series' cover letter is patches/cover-letter.in.
		tmpl=$(template_of "$name")
		[ -f "$tmpl" ] || die "no template $tmpl"
		echo "${P_commits[$n]}" > "$fills/NPATCHES"
		{ echo "$to" | sed '1s/^/  To: /; 2,$s/^/      /'
		  [ -z "$cc" ] || echo "$cc" | sed '1s/^/  Cc: /; 2,$s/^/      /'
		  echo
		  echo "  The postings, in the order they are sent:"
		  cat "$fills/POSTINGS"; } > "$fills/ROUTING"
		deps_text "$n" > "$fills/DEPENDS"
		: > "$fills/SHORTLOG"
		body=$("$top/harness/cover-letter.sh" --body "$tmpl" "$fills")
		subj=$(echo "$body" | sed -n '1s/^Subject: \[[^]]*\] //p')
		body=$(echo "$body" | sed '1{/^Subject:/d}' | sed '1{/^$/d}')
		# Each patch's notes (below its "---" in patches/), by subject.
		python3 "$top/harness/keep-notes.py" "$top/patches" "$dir" >/dev/null 2>&1
		python3 - "$dir" "$subj" "$body" "$(base_line)" <<'PY'
import glob
import os
import re
import sys
d, subj, body, base = sys.argv[1:5]
files = sorted(glob.glob(os.path.join(d, '*.patch')))
for f in files:
    t = open(f).read()
    t = re.sub(r'^base-commit: [0-9a-f]{40}$', base, t, flags=re.M)
    if '*** BLURB HERE ***' in t:
        t = t.replace('*** SUBJECT HERE ***', subj).replace('*** BLURB HERE ***', body)
    elif len(files) == 1:
        # One patch: the notes go below the "---" line, above the diffstat.
        t = re.sub(r'^---$', '---\n' + body.replace('\\', r'\\') + '\n', t, count=1, flags=re.M)
    open(f, 'w').write(t)
PY
		# What scripts/get_maintainer.pl names that To/Cc leave out: for the poster to judge.
		gm=$tree/scripts/get_maintainer.pl
		if [ -x "$gm" ]; then
			for f in "$dir"/*.patch; do
				case $f in *0000-cover-letter.patch) continue ;; esac
				(cd "$tree" && "$gm" --no-git --no-git-fallback --no-rolestats "$f" 2>/dev/null) || true
			done | awk '!s[$0]++' > "$dir/get_maintainer.txt"
			grep -vxF -f <( { echo "$to"; echo "$cc"; } | sed '/^$/d') "$dir/get_maintainer.txt" | sed 's/^/  /' > "$dir/not-addressed.txt" || true
		fi
		echo "postings: $name: $(ls "$dir"/*.patch | wc -l) files [$pre], To: $(echo "$to" | sed 's/ <.*//' | paste -sd, -)"
		[ ! -s "$dir/not-addressed.txt" ] || echo "postings:   get_maintainer.pl also names (not in To/Cc, see $dir/not-addressed.txt): $(sed 's/^ *//; s/ <.*//' "$dir/not-addressed.txt" | paste -sd, - | cut -c1-150)"
		grep -l '\[\[POSTER:' "$dir"/*.patch >/dev/null && echo "postings:   [[POSTER: ...]] placeholders left in: $(grep -l '\[\[POSTER:' "$dir"/*.patch | xargs -n1 basename | paste -sd' ' -)"
	done
	# The last posting: blktests' tests, on blktests' master (its own base,
	# its own make check; blktests/posting.sh).
	bname=$((${#P_name[@]} + 1))-blktests
	"$top/blktests/posting.sh" write "$out/$bname" "$fills/POSTINGS" ||
		die "the blktests posting was not written (above); the kernel postings are in ${out#"$top"/}"
	cat > "$out/SEND" <<EOF
Postable series written by harness/postings.sh from build/linux
$(g log -1 --format='%h %s' "$tipc") as $POSTER,
and by blktests/posting.sh from blktests/ (on blktests' master).
Send in this order, each after checking it (git send-email --dry-run first):
$(for ((n = 0; n < ${#P_name[@]}; n++)); do echo "  git send-email ${out#"$top"/}/${P_name[$n]}/*.patch"; done)
  git send-email ${out#"$top"/}/$bname/*.patch
EOF
	echo "$tipc" > "$out/series"
	echo "postings: ${out#"$top"/}/SEND lists the send commands"
}

# deps_text N: how posting N relates to the base and the others (@DEPENDS@).
deps_text() {
	local n=$1 d
	if [ -z "${P_deps[$n]}" ]; then
		echo "It applies to the base on its own; it does not need the other postings."
	else
		d=$(echo "${P_deps[$n]}" | sed 's/ /, /g')
		echo "It needs posting(s) $d first: it does not apply to the base without them (its prerequisite-patch-id lines name their patches)."
	fi
}

case ${1:-} in
groups) groups ;;
deps)
	build "$placeholder"
	for ((n = 0; n < ${#P_name[@]}; n++)); do
		d=${P_deps[$n]:--}
		echo "${P_name[$n]} ${d// /,} ${P_list[$n]}"
	done ;;
plan) plan ;;
write) [ -n "${2:-}" ] || die "usage: postings.sh write OUTDIR"; write "$2" ;;
*) die "usage: postings.sh groups | deps [REV] | plan | write OUTDIR" ;;
esac
