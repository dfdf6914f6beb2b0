#!/usr/bin/env bash
# bench/releases.sh — keyfindings releases over a range of opencode's
# release tags, on a local copy of its history: the site side (writing,
# re-running, adding a release), not the extraction.
#
#   bench/releases.sh [REPO]        (default: $KEYFINDINGS_OPENCODE_REPO)
#
# Over the release tags $FROM..$TO (default v1.14.0..v1.18.3; FROM=all
# takes every vX.Y.Z tag up to $TO), with one extraction cache directory
# that an untimed first run fills (its figures are printed as "cold": a
# run from an empty cache), measures medians of $RUNS runs (default 3):
#
#   fresh    releases into an empty output directory (cache warm)
#   rerun    the same again into that directory: nothing new
#   addone   releases $FROM..$TO into a copy of a directory that holds
#            $FROM up to the release before $TO (run again in place,
#            untimed, first): one new release
#
# and prints wall time, CPU time (user+sys), peak RSS, the files each run
# wrote (new or replaced), and the output's size: in all, per release, and
# by kind of file (a release's findings.json, its other files, the
# top-level pages, the manifest).
#
# With BASE=<git ref>, the same rows are measured for keyfindings built
# from that ref (suffix -base; its own cache directory, filled by its own
# untimed run): a before/after side by side.
#
# Needs go, git and GNU time (/usr/bin/time). Everything it writes goes to
# one scratch directory, removed on exit. The machine's load average at
# the start and the end is printed: on a shared machine, compare CPU time.
set -euo pipefail

repo=${1:-${KEYFINDINGS_OPENCODE_REPO:-}}
if [[ -z $repo ]]; then
	echo "usage: bench/releases.sh REPO (or set KEYFINDINGS_OPENCODE_REPO to a local opencode repository)" >&2
	exit 2
fi
repo=$(cd "$repo" && pwd)
FROM=${FROM:-v1.14.0}
TO=${TO:-v1.18.3}
RUNS=${RUNS:-3}
BASE=${BASE:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
if [[ ! -x /usr/bin/time ]]; then
	echo "bench/releases.sh: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
	exit 1
fi
gitdir=$(git -C "$repo" rev-parse --absolute-git-dir)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/keyfindings-releases-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

all=$(git --git-dir="$gitdir" tag -l 'v*' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V)
if [[ $FROM == all ]]; then
	FROM=$(echo "$all" | head -n 1)
fi
# The tags from $FROM to $TO in version order, either end a tag or not.
tags=$(printf '%s\n' "$all" "$FROM" "$TO" | sort -V | uniq | awk -v f="$FROM" -v t="$TO" '$0==f{on=1} on{print} $0==t{exit}' |
	grep -Fx -f <(echo "$all") || true)
ntags=$(echo "$tags" | wc -w)
if [[ $ntags -lt 2 ]]; then
	echo "bench/releases.sh: $FROM..$TO holds $ntags release tags; want at least two" >&2
	exit 2
fi
FROM=$(echo "$tags" | head -n 1)
TO=$(echo "$tags" | tail -n 1)
prev=$(echo "$tags" | tail -n 2 | head -n 1)

echo "== building keyfindings"
(cd "$root" && go build -o "$scratch/keyfindings" ./cmd/keyfindings)
kinds=(new)
if [[ -n $BASE ]]; then
	echo "== building keyfindings at $BASE"
	mkdir -p "$scratch/base-src"
	git -C "$root" archive "$BASE" | tar -x -C "$scratch/base-src"
	(cd "$scratch/base-src" && go build -o "$scratch/keyfindings-base" ./cmd/keyfindings)
	kinds+=(base)
fi
echo "   repository $repo; releases $FROM..$TO ($ntags tags; the one added: $TO after $prev)"
echo "   load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

# kf KIND ARGS...: keyfindings releases of that kind (new or base), with
# the kind's own cache directory.
kf() {
	local kind=$1
	shift
	local exe=$scratch/keyfindings
	[[ $kind == base ]] && exe=$scratch/keyfindings-base
	env KEYFINDINGS_CACHE="$scratch/cache-$kind" "$exe" releases --repo "$repo" --quiet "$@"
}

# measure NAME DIR KIND ARGS...: one timed run of kf KIND ARGS..., its
# time and the files it wrote under DIR appended to NAME's results.
measure() {
	local name=$1 dir=$2 kind=$3
	shift 3
	local exe=$scratch/keyfindings
	[[ $kind == base ]] && exe=$scratch/keyfindings-base
	mkdir -p "$dir"
	touch "$scratch/mark"
	sleep 1 # file times have a resolution of a second on some file systems
	if ! /usr/bin/time -f '%e %U %S %M' -o "$scratch/time" env KEYFINDINGS_CACHE="$scratch/cache-$kind" \
		"$exe" releases --repo "$repo" --quiet "$@" >/dev/null 2>"$scratch/stderr"; then
		echo "bench/releases.sh: $name failed:" >&2
		cat "$scratch/stderr" "$scratch/time" >&2
		exit 1
	fi
	local written
	written=$(find "$dir" -type f -newer "$scratch/mark" | wc -l)
	echo "$(tail -n 1 "$scratch/time") $written" >>"$scratch/$name.times"
}

for kind in "${kinds[@]}"; do
	sfx=
	[[ $kind == base ]] && sfx=-base
	echo "== $kind: filling the extraction cache (the cold run)"
	rm -rf "$scratch/cold"
	measure "cold$sfx" "$scratch/cold" "$kind" --from "$FROM" --to "$TO" --out "$scratch/cold"
	# The directory the added release goes into: everything up to $prev.
	kf "$kind" --from "$FROM" --to "$prev" --out "$scratch/before-$kind"
done

for ((i = 1; i <= RUNS; i++)); do
	for kind in "${kinds[@]}"; do
		sfx=
		[[ $kind == base ]] && sfx=-base
		out=$scratch/out-$kind
		rm -rf "$out"
		measure "fresh$sfx" "$out" "$kind" --from "$FROM" --to "$TO" --out "$out"
		measure "rerun$sfx" "$out" "$kind" --from "$FROM" --to "$TO" --out "$out"
		rm -rf "$scratch/add"
		cp -a "$scratch/before-$kind" "$scratch/add"
		# A re-run in place first, untimed: the directory is then as the
		# user's last run left it (keyfindings keeps the stamps of a
		# directory's files by its path, in the cache directory).
		kf "$kind" --from "$FROM" --to "$prev" --out "$scratch/add"
		measure "addone$sfx" "$scratch/add" "$kind" --from "$FROM" --to "$TO" --out "$scratch/add"
	done
	echo "   round $i of $RUNS done"
done
echo "   load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

# median FILE COLUMN: the median of a column of numbers.
median() {
	awk -v c="$2" '{print $c}' "$1" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}

echo
echo "$FROM..$TO, $ntags release tags; medians of $RUNS runs (cold: one run)"
printf '%-14s %9s %9s %11s %9s\n' run wall CPU "peak RSS" written
for name in cold fresh rerun addone; do
	for sfx in "" -base; do
		f=$scratch/$name$sfx.times
		[[ -f $f ]] || continue
		awk '{print $1, $2+$3, $4, $5}' "$f" >"$f.sum"
		printf '%-14s %8.2fs %8.2fs %7.0f MiB %9d\n' "$name$sfx" "$(median "$f.sum" 1)" "$(median "$f.sum" 2)" \
			"$(awk "BEGIN{print $(median "$f.sum" 3)/1024}")" "$(median "$f.sum" 4)"
	done
done

# size KIND: the output of a fresh run, by kind of file.
size() {
	local out=$scratch/out-$1
	local total json top manifest
	total=$(du -sb "$out" | cut -f1)
	json=$(find "$out" -mindepth 2 -maxdepth 2 -name findings.json -printf '%s\n' | awk '{s+=$1} END {print s+0}')
	manifest=$(stat -c %s "$out/.keyfindings-releases.json")
	top=$(find "$out" -maxdepth 1 -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}')
	if [[ -d $out/timeline ]]; then
		top=$((top + $(find "$out/timeline" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}')))
	fi
	top=$((top - manifest))
	echo "$1: $((total / 1048576)) MiB in all, $((total / ntags / 1024)) KiB per release:" \
		"findings.json $((json / ntags / 1024)) KiB per release," \
		"the release's other files $(((total - json - top - manifest) / ntags / 1024)) KiB per release," \
		"top-level pages $((top / 1024)) KiB, manifest $((manifest / 1024)) KiB"
	local biggest
	biggest=$(find "$out" -mindepth 2 -maxdepth 2 -type f -printf '%f %s\n' | awk '{s[$1]+=$2} END {for (f in s) print s[f], f}' | sort -rn | head -n 6 |
		awk -v n="$ntags" '{printf "%s%s %d KiB", (NR>1?", ":""), $2, $1/n/1024}')
	echo "   per release, by file: $biggest"
}
echo
echo "output of a fresh run"
for kind in "${kinds[@]}"; do
	size "$kind"
done
