package history

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/source"
)

const (
	routingFile = "packages/opencode/src/session/system.ts"
	// routingRange is git log -L's line range for the definition's span:
	// the exported function provider, from its first line through the
	// first line that closes a block at the start of a line. (git's
	// ":provider:" form would take the first line matching "provider",
	// which in this file is an import, not the function.)
	routingRange = "/^export function provider/,/^}/:" + routingFile
)

// realRepo opens the real opencode history, skipping without it or
// without a git binary.
func realRepo(t *testing.T) (*git.Repository, string) {
	t.Helper()
	dir := os.Getenv("KEYFINDINGS_OPENCODE_REPO")
	if dir == "" {
		t.Skip("KEYFINDINGS_OPENCODE_REPO is unset: set it to a clone of opencode's history to compare log with git log -L")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary: the comparison runs git log -L")
	}
	o, err := source.Open(context.Background(), source.Options{Repo: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	repo, err := o.Repository()
	if err != nil {
		t.Fatal(err)
	}
	return repo, dir
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// nonMergeLog runs log for system-prompt-routing over from..to and
// returns the commits it lists that are not merges.
func nonMergeLog(t *testing.T, repo *git.Repository, from, to string) []string {
	t.Helper()
	cat, err := findings.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	q := Query{ID: "system-prompt-routing", Definition: FindDefinition(cat, "system-prompt-routing"), CacheDir: t.TempDir()}
	if q.To, err = source.ResolveCommit(repo, to); err != nil {
		t.Fatal(err)
	}
	if q.From, err = source.ResolveCommit(repo, from); err != nil {
		t.Fatal(err)
	}
	h, err := logOne(repo, q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range h.Entries {
		c, err := repo.CommitObject(plumbing.NewHash(e.Commit))
		if err != nil {
			t.Fatal(err)
		}
		if c.NumParents() < 2 {
			out = append(out, e.Commit)
		}
	}
	slices.Sort(out)
	return out
}

func gitLogL(t *testing.T, dir, from, to string) []string {
	t.Helper()
	out := gitOut(t, dir, "log", "-L", routingRange, from+".."+to, "--no-merges", "-s", "--format=%H")
	hex := regexp.MustCompile(`^[0-9a-f]{40}$`)
	var ids []string
	for _, l := range strings.Split(out, "\n") {
		if hex.MatchString(l) {
			ids = append(ids, l)
		}
	}
	slices.Sort(ids)
	return ids
}

// In a range where the file stays put and provider is a top-level
// function throughout, log lists the same non-merge commits as git log -L
// on the function's lines.
func TestRealLogMatchesGitLogL(t *testing.T) {
	repo, dir := realRepo(t)
	got := nonMergeLog(t, repo, "v1.14.20", "v1.18.3")
	want := gitLogL(t, dir, "v1.14.20", "v1.18.3")
	if len(want) == 0 {
		t.Fatal("git log -L lists nothing in v1.14.20..v1.18.3: the history is not the expected one")
	}
	if !slices.Equal(got, want) {
		t.Errorf("log lists %q\ngit log -L lists %q", got, want)
	}
}

// Over the whole 1.x history git log -L lists more: before provider left
// the SystemPrompt namespace, the range git carries back through that
// rewrite starts at the namespace's first line and takes in the
// functions above provider. Every commit log lists is one git lists, and
// every commit only git lists leaves the text of provider itself as it
// was in the commit's parent.
func TestRealLogWholeHistory(t *testing.T) {
	repo, dir := realRepo(t)
	got := nonMergeLog(t, repo, "v1.0.0", "v1.18.3")
	want := gitLogL(t, dir, "v1.0.0", "v1.18.3")
	for _, c := range got {
		if !slices.Contains(want, c) {
			t.Errorf("log lists %s, git log -L does not", c)
		}
	}
	for _, c := range want {
		if slices.Contains(got, c) {
			continue
		}
		now := providerText(gitOut(t, dir, "show", c+":"+routingFile))
		before := providerText(gitOut(t, dir, "show", c+"^:"+routingFile))
		if now == "" || now != before {
			t.Errorf("git log -L lists %s, which changes provider, and log does not", c)
		}
	}
}

// providerText is the text of the function provider in a file: from its
// line through the first line that closes a block at its indentation.
func providerText(file string) string {
	lines := strings.SplitAfter(file, "\n")
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		if !strings.HasPrefix(trimmed, "export function provider(") {
			continue
		}
		indent := l[:len(l)-len(trimmed)]
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimRight(lines[j], "\n") == indent+"}" {
				return strings.Join(lines[i:j+1], "")
			}
		}
	}
	return ""
}
