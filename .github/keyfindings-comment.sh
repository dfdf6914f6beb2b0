#!/usr/bin/env bash
# keyfindings-comment.sh: the pull-request check of action.yml.
#
#   keyfindings-comment.sh diff KEYFINDINGS BASE HEAD REPO PR DIR
#       Runs `KEYFINDINGS diff BASE HEAD --repo REPO --format md --changed
#       --exit-code` and writes DIR/comment.md (its Markdown), DIR/changed
#       (true or false) and DIR/pr (the pull request number). DIR is what the
#       fork-safe example uploads as an artifact.
#
#   keyfindings-comment.sh post DIR
#       Creates, updates or leaves alone the one comment on pull request
#       DIR/pr, found again by the hidden marker on its first line:
#       - changed, no comment yet: creates it;
#       - changed, comment exists: updates it in place;
#       - nothing changed, comment exists: updates it to say so (kept, not
#         deleted, so the earlier report stays readable in the thread);
#       - nothing changed, no comment: does nothing.
#       Needs gh with GH_TOKEN, and GH_REPO (or GITHUB_REPOSITORY) as
#       owner/name. When KEYFINDINGS_EXPECT_HEAD is set, the pull request's
#       head commit must be it: DIR may come from a fork's artifact, and this
#       keeps a crafted artifact from commenting on another pull request.
set -euo pipefail

readonly MARKER='<!-- keyfindings-pr-check -->'
# GitHub refuses comment bodies over 65536 characters; stay well below.
readonly MAX_BYTES="${KEYFINDINGS_COMMENT_MAX_BYTES:-60000}"

die() {
	echo "keyfindings-comment: $*" >&2
	exit 1
}

cmd_diff() {
	[[ $# -eq 6 ]] || die "diff wants KEYFINDINGS BASE HEAD REPO PR DIR, got $# arguments"
	local kf=$1 base=$2 head=$3 repo=$4 pr=$5 dir=$6
	[[ $pr =~ ^[1-9][0-9]*$ ]] || die "pull request number \"$pr\" is not a number; pass pr-number (the default is the pull_request event's)"
	[[ -n $base && -n $head ]] || die "base and head must be set; outside a pull_request event pass base and head"
	mkdir -p "$dir"
	local rc=0
	# --exit-code: 0 nothing differs, 1 something differs. A failure is
	# also 1, but then nothing was written to stdout.
	"$kf" diff "$base" "$head" --repo "$repo" --format md --changed --exit-code --quiet >"$dir/comment.md" || rc=$?
	case $rc in
	0) echo false >"$dir/changed" ;;
	1)
		[[ -s $dir/comment.md ]] || die "keyfindings diff $base $head failed (see the message above)"
		echo true >"$dir/changed"
		;;
	*) die "keyfindings diff $base $head failed with exit status $rc (see the message above)" ;;
	esac
	echo "$pr" >"$dir/pr"
	echo "keyfindings-comment: findings changed between $base and $head: $(<"$dir/changed")"
}

# fit prints the Markdown in $1, cut before the first "#### " section that
# would take it past MAX_BYTES, with a note saying so. Sections are cut
# whole, so no code fence is left open.
fit() {
	local file=$1
	if [[ $(wc -c <"$file") -le $MAX_BYTES ]]; then
		cat "$file"
		return
	fi
	LC_ALL=C awk -v max="$MAX_BYTES" '
		function flush() { if (size + length(sec) <= max) { out = out sec; size += length(sec) } else { cut = 1 } sec = "" }
		/^#### / && !cut { flush() }
		{ sec = sec $0 "\n" }
		END {
			if (!cut) flush()
			printf "%s", out
			if (cut) print "\n*The diff is longer than a comment can hold; the rest is cut. Run `keyfindings diff` locally for all of it.*"
		}' "$file"
}

cmd_post() {
	[[ $# -eq 1 ]] || die "post wants DIR, got $# arguments"
	local dir=$1
	local repo=${GH_REPO:-${GITHUB_REPOSITORY:-}}
	[[ $repo =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || die "set GH_REPO (or GITHUB_REPOSITORY) to owner/name, got \"$repo\""
	local pr changed
	pr=$(<"$dir/pr") || die "$dir/pr is missing: run the diff step first"
	changed=$(<"$dir/changed") || die "$dir/changed is missing: run the diff step first"
	[[ $pr =~ ^[1-9][0-9]*$ ]] || die "$dir/pr holds \"$pr\", not a pull request number"
	[[ $changed == true || $changed == false ]] || die "$dir/changed holds \"$changed\", not true or false"
	[[ -f $dir/comment.md ]] || die "$dir/comment.md is missing: run the diff step first"

	if [[ -n ${KEYFINDINGS_EXPECT_HEAD:-} ]]; then
		local head
		head=$(gh api "repos/$repo/pulls/$pr" --jq .head.sha)
		[[ $head == "$KEYFINDINGS_EXPECT_HEAD" ]] ||
			die "pull request #$pr has head $head, not $KEYFINDINGS_EXPECT_HEAD: the artifact does not belong to this run; nothing posted"
	fi

	local ids id
	ids=$(gh api --paginate "repos/$repo/issues/$pr/comments?per_page=100" \
		--jq ".[] | select(.body | startswith(\"$MARKER\")) | .id")
	id=${ids%%$'\n'*}

	local body=$BODY
	if [[ $changed == true ]]; then
		{
			echo "$MARKER"
			fit "$dir/comment.md"
		} >"$body"
	else
		if [[ -z $id ]]; then
			echo "keyfindings-comment: no key finding changes; no comment on #$pr"
			return
		fi
		{
			echo "$MARKER"
			echo "### Key findings"
			echo
			echo "This pull request no longer changes any key finding: what opencode puts in the model's context is as on the base branch."
		} >"$body"
	fi

	if [[ -z $id ]]; then
		gh api -X POST "repos/$repo/issues/$pr/comments" -F "body=@$body" --jq .html_url
	else
		gh api -X PATCH "repos/$repo/issues/comments/$id" -F "body=@$body" --jq .html_url
	fi
}

BODY=$(mktemp)
trap 'rm -f "$BODY"' EXIT

case ${1:-} in
diff) shift && cmd_diff "$@" ;;
post) shift && cmd_post "$@" ;;
*) die "usage: keyfindings-comment.sh diff KEYFINDINGS BASE HEAD REPO PR DIR | post DIR" ;;
esac
