#!/usr/bin/env bash
# bench/run.sh — keyfindings against a peer (git export + ast-grep) and
# against the floor, on a local copy of opencode's history.
#
#   bench/run.sh [REPO]        (default: $KEYFINDINGS_OPENCODE_REPO)
#
# Measures, side by side and interleaved (so machine noise hits all alike),
# with warm OS caches (one untimed run of each first):
#
#   one release ($TAG, default v1.18.3)
#     build-cold    keyfindings build, empty cache directory
#     build-warm    keyfindings build, cache directory of an earlier build
#     build-next    keyfindings build, cache directory of a build of the
#                   release before ($PREV): the next release's build
#     extract-cold  the extraction alone (bench/extractbench), no cache
#     extract-warm  the extraction alone, cache directory of an earlier run
#     extract-cold-29  extract-cold with the catalog's first $FIRST
#                   definition files (default 29: the catalog when the
#                   speed targets were set), to measure what the
#                   definitions added since cost (extractbench -first)
#     build-cold-29 build-cold with those definitions (--defs)
#     floor         read the files the catalog needs, parse each once
#     peer          export the tag's sources, one ast-grep scan with a
#                   rule per finding (bench/astgrep)
#   releases $FROM..$TO (default v1.16.0..v1.18.3, 27 tags)
#     releases-cmd  keyfindings releases: every tag's site and the index,
#                   empty cache directory, new output directory
#     releases      the extraction alone: one Extractor over every tag
#                   (bench/extractbench, several at once), no cache
#     peer          the peer once per tag
#
# With BASE=<git ref>, the rows build-cold, extract-cold and
# extract-cold-29 are also measured for keyfindings built from that ref
# (suffix -base), in the same rounds: a before/after side by side.
# MANY=0 skips the releases rows.
#
# Prints medians of $RUNS runs (default 5; $RUNS_MANY, default 3, for the
# releases rows): wall time, CPU time (user+sys) and peak RSS, then the
# ratios the targets are stated in. Needs go, git, node/npm (for
# `npm install @ast-grep/cli`, unless $AST_GREP names an ast-grep binary)
# and GNU time (/usr/bin/time). Everything it writes goes to one scratch
# directory, removed on exit.
set -euo pipefail

repo=${1:-${KEYFINDINGS_OPENCODE_REPO:-}}
if [[ -z $repo ]]; then
	echo "usage: bench/run.sh REPO (or set KEYFINDINGS_OPENCODE_REPO to a local opencode repository)" >&2
	exit 2
fi
repo=$(cd "$repo" && pwd)
TAG=${TAG:-v1.18.3}
FROM=${FROM:-v1.16.0}
TO=${TO:-v1.18.3}
RUNS=${RUNS:-5}
RUNS_MANY=${RUNS_MANY:-3}
FIRST=${FIRST:-29}
MANY=${MANY:-1}
BASE=${BASE:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

if [[ ! -x /usr/bin/time ]]; then
	echo "bench/run.sh: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2
	exit 1
fi
gitdir=$(git -C "$repo" rev-parse --absolute-git-dir)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/keyfindings-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export KEYFINDINGS_CACHE=$scratch/no-cache # never the user's cache

echo "== building keyfindings and bench/extractbench"
(cd "$root" && go build -o "$scratch/keyfindings" ./cmd/keyfindings && go build -o "$scratch/extractbench" ./bench/extractbench)
kf=$scratch/keyfindings
xb=$scratch/extractbench
# The first $FIRST definition files (numbered in the order they were
# added), for the -29 rows.
mkdir -p "$scratch/defs-first"
find "$root/findings/defs" -maxdepth 1 -name '*.yaml' | sort | head -n "$FIRST" | xargs -I{} cp {} "$scratch/defs-first/"
if [[ -n $BASE ]]; then
	echo "== building keyfindings and bench/extractbench at $BASE"
	mkdir -p "$scratch/base-src"
	git -C "$root" archive "$BASE" | tar -x -C "$scratch/base-src"
	# This extractbench (its -first flag) against that ref's extract API.
	cp "$root/bench/extractbench/main.go" "$scratch/base-src/bench/extractbench/main.go"
	(cd "$scratch/base-src" && go build -o "$scratch/keyfindings-base" ./cmd/keyfindings && go build -o "$scratch/extractbench-base" ./bench/extractbench)
fi
echo "   load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ -n ${AST_GREP:-} ]]; then
	sg=$AST_GREP
else
	echo "== installing @ast-grep/cli with npm into the scratch directory"
	npm install --silent --no-audit --no-fund --prefix "$scratch/npm" @ast-grep/cli >/dev/null
	# The CLI package's install script only copies the binary from the
	# platform package (an optional dependency); npm may skip scripts, so
	# take the binary from there.
	sg=
	for b in "$scratch"/npm/node_modules/@ast-grep/cli-*/ast-grep "$scratch/npm/node_modules/@ast-grep/cli/ast-grep"; do
		if [[ -x $b ]] && "$b" --version >/dev/null 2>&1; then
			sg=$b
			break
		fi
	done
	if [[ -z $sg ]]; then
		echo "bench/run.sh: no working ast-grep binary in the npm package for this platform" >&2
		exit 1
	fi
fi
echo "   $("$sg" --version) ($sg)"

tags=$(git --git-dir="$gitdir" tag -l 'v*' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V |
	awk -v f="$FROM" -v t="$TO" '$0==f{on=1} on{print} $0==t{exit}')
ntags=$(echo "$tags" | wc -w)
PREV=${PREV:-$(git --git-dir="$gitdir" tag -l 'v*' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | grep -B1 -x -F "$TAG" | head -n 1)}
echo "   repository $repo; one release $TAG (the release before: $PREV); releases $FROM..$TO ($ntags tags)"

# peer_one TAG DIR: export the tag's sources into DIR and scan them. A
# whole-tree `git archive` is what a user would run, but this copy of the
# history lacks its largest blobs (videos, a fixture), so the export takes
# what the scan and the findings read: the .ts, .tsx and .txt files,
# checked out of the tag through a scratch index (the repository is not
# touched).
peer_one() {
	local tag=$1 dir=$2
	rm -rf "$dir" && mkdir -p "$dir/src"
	GIT_INDEX_FILE=$dir/index git --git-dir="$gitdir" --work-tree="$dir/src" -c core.bare=false \
		checkout -q "$tag" -- '*.ts' '*.tsx' '*.txt'
	"$sg" scan -c "$here/astgrep/sgconfig.yml" --json=stream "$dir/src" >"$dir/matches.json"
}
export -f peer_one
export gitdir sg here

# measure NAME CMD...: one timed run, appended to NAME's results.
measure() {
	local name=$1
	shift
	if ! /usr/bin/time -f '%e %U %S %M' -o "$scratch/time" "$@" >/dev/null 2>"$scratch/stderr"; then
		echo "bench/run.sh: $name failed:" >&2
		cat "$scratch/stderr" "$scratch/time" >&2
		exit 1
	fi
	tail -n 1 "$scratch/time" >>"$scratch/$name.times"
}

one=(build-cold build-cold-29 build-warm build-next extract-cold extract-cold-29 extract-warm floor peer)
if [[ -n $BASE ]]; then
	one+=(build-cold-base extract-cold-base extract-cold-29-base)
fi
run_one() {
	local name=$1
	case $name in
	build-cold-base)
		rm -rf "$scratch/cold"
		KEYFINDINGS_CACHE=$scratch/cold measure "$name" "$scratch/keyfindings-base" build --repo "$repo" --ref "$TAG" --out "$scratch/site-base" --force --quiet
		;;
	extract-cold-base) measure "$name" "$scratch/extractbench-base" releases -repo "$repo" -from "$TAG" -to "$TAG" ;;
	extract-cold-29-base) measure "$name" "$scratch/extractbench-base" releases -repo "$repo" -from "$TAG" -to "$TAG" -first "$FIRST" ;;
	extract-cold-29) measure "$name" "$xb" releases -repo "$repo" -from "$TAG" -to "$TAG" -first "$FIRST" ;;
	build-cold-29)
		rm -rf "$scratch/cold"
		KEYFINDINGS_CACHE=$scratch/cold measure "$name" "$kf" build --repo "$repo" --ref "$TAG" --defs "$scratch/defs-first" --out "$scratch/site-29" --force --quiet
		;;
	build-cold)
		rm -rf "$scratch/cold"
		KEYFINDINGS_CACHE=$scratch/cold measure "$name" "$kf" build --repo "$repo" --ref "$TAG" --out "$scratch/site" --force --quiet
		;;
	build-warm)
		KEYFINDINGS_CACHE=$scratch/warm measure "$name" "$kf" build --repo "$repo" --ref "$TAG" --out "$scratch/site" --force --quiet
		;;
	build-next)
		if [[ ! -d $scratch/prev ]]; then
			KEYFINDINGS_CACHE=$scratch/prev "$kf" build --repo "$repo" --ref "$PREV" --out "$scratch/prev-site" --force --quiet
		fi
		rm -rf "$scratch/next" && cp -r "$scratch/prev" "$scratch/next"
		KEYFINDINGS_CACHE=$scratch/next measure "$name" "$kf" build --repo "$repo" --ref "$TAG" --out "$scratch/site" --force --quiet
		;;
	extract-cold) measure "$name" "$xb" releases -repo "$repo" -from "$TAG" -to "$TAG" ;;
	extract-warm) measure "$name" "$xb" releases -repo "$repo" -from "$TAG" -to "$TAG" -cache "$scratch/xwarm" ;;
	floor) measure "$name" "$xb" floor -repo "$repo" -ref "$TAG" -findings "$scratch/site/findings.json" ;;
	peer) measure "$name" bash -c 'peer_one "$1" "$2"' _ "$TAG" "$scratch/peer" ;;
	esac
}

echo "== one release: $TAG, $RUNS runs each (after one untimed run)"
for name in "${one[@]}"; do
	run_one "$name"
	rm -f "$scratch/$name.times"
done
for ((i = 1; i <= RUNS; i++)); do
	for name in "${one[@]}"; do
		run_one "$name"
	done
	echo "   round $i of $RUNS done"
done

# The peer finds the same files as keyfindings (a check of the rules, not
# timed): for every located record, the rule of the same id matches in
# the file it cites. A record citing a whole .txt file (ast-grep parses
# no .txt) counts as found when the rule matches an import of that file.
# Definitions without a rule are listed (an absent finding's too).
check_peer() {
	python3 - "$scratch/site/findings.json" "$scratch/peer/matches.json" "$scratch/peer/src/" "$here/astgrep/rules" <<'EOF' || true
import json, os, posixpath, re, sys
doc = json.load(open(sys.argv[1]))
found = {}
for line in open(sys.argv[2]):
    m = json.loads(line)
    f = m["file"].replace(sys.argv[3], "")
    files = found.setdefault(m["ruleId"], set())
    files.add(f)
    txt = re.match(r"import\b[^;]*?\bfrom\s*[\"']([^\"']+[.]txt)[\"']", m["text"])
    if txt:
        files.add(posixpath.normpath(posixpath.join(posixpath.dirname(f), txt.group(1))))
ok, bad = 0, []
for r in doc["findings"]:
    d = r["definition"]
    if r["status"] != "located":
        continue
    if r["path"] in found.get(d, ()):
        ok += 1
    else:
        bad.append(d)
print(f"   peer rules match in the files keyfindings cites for {ok} of {ok + len(bad)} records" + (f"; not for {sorted(set(bad))}" if bad else ""))
norule = sorted({r["definition"] for r in doc["findings"]} - {n[:-4] for n in os.listdir(sys.argv[4]) if n.endswith(".yml")})
if norule:
    print(f"   no peer rule (bench/astgrep/rules/<id>.yml) for {len(norule)} definitions: {norule}")
EOF
}
if command -v python3 >/dev/null; then check_peer; fi

many=(releases-cmd releases peer-releases)
if [[ $MANY == 0 ]]; then
	many=()
fi
run_many() {
	case $1 in
	releases-cmd)
		rm -rf "$scratch/rcache" "$scratch/rsite"
		KEYFINDINGS_CACHE=$scratch/rcache measure releases-cmd "$kf" releases --repo "$repo" --from "$FROM" --to "$TO" --out "$scratch/rsite" --quiet
		;;
	releases) measure releases "$xb" releases -repo "$repo" -from "$FROM" -to "$TO" ;;
	peer-releases) measure peer-releases bash -c 'for t in $1; do peer_one "$t" "$2"; done' _ "$tags" "$scratch/peer" ;;
	esac
}
if ((${#many[@]})); then
	echo "== releases: $FROM..$TO ($ntags tags), $RUNS_MANY runs each (after one untimed run)"
fi
for name in "${many[@]}"; do
	run_many "$name"
	rm -f "$scratch/$name.times"
done
for ((i = 1; i <= RUNS_MANY && ${#many[@]}; i++)); do
	for name in "${many[@]}"; do
		run_many "$name"
	done
	echo "   round $i of $RUNS_MANY done"
done

# median FILE COLUMN-EXPRESSION: the median of a value per run.
median() {
	awk "{print $2}" "$1" | sort -g | awk '{v[NR]=$1} END {m=int((NR+1)/2); printf "%.2f\n", (NR%2) ? v[m] : (v[m]+v[m+1])/2}'
}
wall() { median "$scratch/$1.times" '$1'; }
cpu() { median "$scratch/$1.times" '$2+$3'; }
rss() { median "$scratch/$1.times" '$4/1024'; }
maxrss() { awk 'BEGIN{m=0} {if ($4>m) m=$4} END{printf "%.0f\n", m/1024}' "$scratch/$1.times"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", a/b}'; }
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }

echo
echo "== results (medians; CPU is user+sys; RSS in MiB)"
printf '%-32s %9s %9s %9s\n' "" "wall s" "CPU s" "RSS MiB"
echo "   load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in "${one[@]}" "${many[@]}"; do
	label=$name
	case $name in
	releases-cmd) label="releases-cmd ($ntags tags)" ;;
	releases) label="releases extract ($ntags tags)" ;;
	peer-releases) label="peer ($ntags tags)" ;;
	build-next) label="build-next ($PREV->$TAG)" ;;
	*-29*) label="$name (first $FIRST defs)" ;;
	*) label="$name ($TAG)" ;;
	esac
	printf '%-32s %9s %9s %9.0f\n' "$label" "$(wall "$name")" "$(cpu "$name")" "$(rss "$name")"
done

peer=$(wall peer)
floor=$(wall floor)
echo
echo "== ratios"
for name in build-cold build-warm build-next extract-cold extract-warm; do
	echo "   $name: $(ratio "$peer" "$(wall "$name")")x faster than the peer, $(ratio "$(wall "$name")" "$floor")x the floor"
done
for name in "${many[@]}"; do
	[[ $name == peer-releases ]] && continue
	echo "   $name: $(ratio "$(wall peer-releases)" "$(wall "$name")")x faster than the peer run once per tag; peak RSS $(maxrss "$name") MiB (largest of the runs)"
done
for suffix in "" ${BASE:+-base}; do
	echo "   extract-cold$suffix: $(ratio2 "$(wall extract-cold$suffix)" "$(wall extract-cold-29$suffix)")x the wall time, $(ratio2 "$(cpu extract-cold$suffix)" "$(cpu extract-cold-29$suffix)")x the CPU time of the first $FIRST definitions"
done
if [[ -n $BASE ]]; then
	for name in build-cold extract-cold extract-cold-29; do
		echo "   $name against $BASE: $(ratio "$(wall "$name-base")" "$(wall "$name")")x faster (wall), $(ratio "$(cpu "$name-base")" "$(cpu "$name")")x less CPU"
	done
fi
echo
echo "== targets"
# Targets are checked on the unrounded ratios (a 1.96x shown as 2.0x is
# not 2x), and memory in MB as the issues state it (300 MB = 292,968.75
# KiB, as GNU time counts).
exact() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.6f", a/b}'; }
maxkb() { awk 'BEGIN{m=0} {if ($4>m) m=$4} END{print m}' "$scratch/$1.times"; }
check() { awk -v v="$2" -v op="$3" -v t="$4" 'BEGIN{ok = (op==">=") ? v>=t : v<=t; printf "   %-58s %s\n", ARGV[1], ok ? "met" : "NOT met"}' "$1"; }
check "one release, build-cold, >= 2x faster than the peer (wall)" "$(exact "$peer" "$(wall build-cold)")" ">=" 2
check "one release, build-cold, >= 2x less CPU than the peer" "$(exact "$(cpu peer)" "$(cpu build-cold)")" ">=" 2
check "one release, build-warm, >= 5x faster than the peer (wall)" "$(exact "$peer" "$(wall build-warm)")" ">=" 5
check "one release, build-warm, >= 5x less CPU than the peer" "$(exact "$(cpu peer)" "$(cpu build-warm)")" ">=" 5
ndefs=$("$kf" list | wc -l)
check "extract-cold ($ndefs defs), <= 1.2x the wall time of the first $FIRST" "$(exact "$(wall extract-cold)" "$(wall extract-cold-29)")" "<=" 1.2
check "extract-cold ($ndefs defs), <= 1.2x the CPU time of the first $FIRST" "$(exact "$(cpu extract-cold)" "$(cpu extract-cold-29)")" "<=" 1.2
check "build-cold ($ndefs defs), <= 1.2x the CPU time of the first $FIRST" "$(exact "$(cpu build-cold)" "$(cpu build-cold-29)")" "<=" 1.2
for name in build-cold build-warm; do
	check "one release, $name, within 2x of the floor" "$(exact "$(wall "$name")" "$floor")" "<=" 2
done
for name in extract-cold extract-warm; do
	check "one release, $name, within 2x of the floor" "$(exact "$(wall "$name")" "$floor")" "<=" 2
done
for name in "${many[@]}"; do
	[[ $name == peer-releases ]] && continue
	check "$name >= 10x faster than the peer per tag" "$(exact "$(wall peer-releases)" "$(wall "$name")")" ">=" 10
	check "$name peak RSS <= 300 MB" "$(maxkb "$name")" "<=" 292968.75
done
