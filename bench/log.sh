#!/usr/bin/env bash
# bench/log.sh — keyfindings log against git log -p, on a local copy of
# opencode's history.
#
#   bench/log.sh [REPO]        (default: $KEYFINDINGS_OPENCODE_REPO)
#
# Measures, interleaved (one untimed run of each first, for warm OS
# caches), medians of $RUNS runs (default 3):
#
#   log   keyfindings log $ID --from $FROM --to $TO (default
#         system-prompt-routing, v1.0.0..v1.18.3; FROM=all: the whole
#         history reachable from $TO), empty cache directory
#   git   git log -p $FROM..$TO -- <the finding's file> (FROM=all: $TO)
#
# and prints wall time, CPU time (user+sys), peak RSS and the ratios. With
# ALL=1 it then times one `keyfindings log` of every record of the catalog
# at $TO over the whole history reachable from it, from an empty cache
# directory (a build of $TO first, untimed, names the records).
# Needs go, git and GNU time (/usr/bin/time). Everything it writes goes to
# one scratch directory, removed on exit.
set -euo pipefail

repo=${1:-${KEYFINDINGS_OPENCODE_REPO:-}}
if [[ -z $repo ]]; then
	echo "usage: bench/log.sh REPO (or set KEYFINDINGS_OPENCODE_REPO to a local opencode repository)" >&2
	exit 2
fi
repo=$(cd "$repo" && pwd)
id=${ID:-system-prompt-routing}
from=${FROM:-v1.0.0}
to=${TO:-v1.18.3}
runs=${RUNS:-3}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$(dirname "$0")/.."
go build -o "$scratch/keyfindings" ./cmd/keyfindings
kf=$scratch/keyfindings

file=$("$kf" list | awk -F'\t' -v id="$id" '$1 == id { print $4 }')
if [[ -z $file ]]; then
	echo "bench/log.sh: no finding $id in the catalog" >&2
	exit 2
fi

# timed NAME CMD... runs CMD under GNU time and appends "wall cpu rss".
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$scratch/t" "$@" >/dev/null
	awk -v n="$name" '{ printf "%s %.2f %.2f %d\n", n, $1, $2 + $3, $4 }' "$scratch/t" >>"$scratch/times"
}

# FROM=all: the whole history reachable from $TO.
range_args=(--from "$from" --to "$to")
git_range="$from..$to"
if [[ $from == all ]]; then
	range_args=(--to "$to")
	git_range=$to
fi
run_log() {
	rm -rf "$scratch/cache"
	KEYFINDINGS_CACHE=$scratch/cache timed log "$kf" log "$id" --repo "$repo" "${range_args[@]}" --format json
}
run_git() {
	timed git git -C "$repo" log -p "$git_range" -- "$file"
}

run_log
run_git
: >"$scratch/times"
for _ in $(seq "$runs"); do
	run_log
	run_git
done

median() { # NAME FIELD
	awk -v n="$1" -v f="$2" '$1 == n { print $f }' "$scratch/times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
printf '%-5s %8s %8s %10s\n' run wall cpu 'rss(MiB)'
for n in log git; do
	printf '%-5s %7ss %7ss %10d\n' "$n" "$(median $n 2)" "$(median $n 3)" $(($(median $n 4) / 1024))
done
awk -v lw="$(median log 2)" -v gw="$(median git 2)" -v lc="$(median log 3)" -v gc="$(median git 3)" \
	'BEGIN { printf "log / git log -p: %.1f× wall, %.1f× CPU (%s %s..%s)\n", lw / gw, lc / gc, "'"$id"'", "'"$from"'", "'"$to"'" }'

if [[ ${ALL:-} == 1 ]]; then
	rm -rf "$scratch/cache" "$scratch/site"
	KEYFINDINGS_CACHE=$scratch/cache "$kf" build --repo "$repo" --ref "$to" --out "$scratch/site" --quiet
	ids=$(sed -n 's/^      "id": "\(.*\)",$/\1/p' "$scratch/site/findings.json")
	rm -rf "$scratch/cache"
	# shellcheck disable=SC2086
	KEYFINDINGS_CACHE=$scratch/cache /usr/bin/time -f '%e %U %S %M' -o "$scratch/t" "$kf" log $ids --repo "$repo" --to "$to" --format json >"$scratch/all.json"
	n=$(wc -w <<<"$ids")
	entries=$(grep -c '^    "commit":' "$scratch/all.json" || true)
	awk -v n="$n" -v e="$entries" '{ printf "all %d records over the whole history (%d entries): %.1f s wall, %.1f s CPU, peak RSS %d MiB\n", n, e, $1, $2 + $3, $4 / 1024 }' "$scratch/t"
fi
