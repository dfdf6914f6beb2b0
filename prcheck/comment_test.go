package prcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	script = "../.github/keyfindings-comment.sh"
	marker = "<!-- keyfindings-pr-check -->"
)

func TestMain(m *testing.M) {
	if state := os.Getenv(stubEnv); state != "" {
		os.Exit(ghStub(state, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// env is one test's world: a bin directory on PATH with the stub gh, the
// stub's state and the directory the diff step leaves for the post step.
type env struct {
	t      *testing.T
	script string
	bin    string
	state  string
	dir    string
}

func newEnv(t *testing.T, st ghState) *env {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed: the pull-request script cannot run here")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	e := &env{t: t, bin: filepath.Join(tmp, "bin"), state: filepath.Join(tmp, "gh.json"), dir: filepath.Join(tmp, "out")}
	for _, d := range []string{e.bin, e.dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeExec(t, filepath.Join(e.bin, "gh"), "#!/bin/sh\nexec '"+self+"' \"$@\"\n")
	// Run a copy read here, so go test's cache knows the script: a
	// cached pass must not outlive a change to it.
	text, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	e.script = filepath.Join(tmp, "keyfindings-comment.sh")
	writeExec(t, e.script, string(text))
	e.setState(st)
	return e
}

func writeExec(t *testing.T, file, text string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func (e *env) setState(st ghState) {
	e.t.Helper()
	if err := saveState(e.state, &st); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) getState() ghState {
	e.t.Helper()
	st, err := loadState(e.state)
	if err != nil {
		e.t.Fatal(err)
	}
	return *st
}

// run runs the script with args and extra environment; it returns stdout,
// stderr and the exit status.
func (e *env) run(extra []string, args ...string) (string, string, int) {
	e.t.Helper()
	cmd := exec.Command("bash", append([]string{e.script}, args...)...)
	cmd.Env = append(os.Environ(),
		"PATH="+e.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		stubEnv+"="+e.state, "GH_REPO=example/opencode", "GH_TOKEN=token", "KEYFINDINGS_EXPECT_HEAD=")
	cmd.Env = append(cmd.Env, extra...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// leave writes what the diff step leaves: the Markdown, changed and pr.
func (e *env) leave(md string, changed bool, pr string) {
	e.t.Helper()
	files := map[string]string{"comment.md": md, "changed": map[bool]string{true: "true\n", false: "false\n"}[changed], "pr": pr + "\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(e.dir, name), []byte(text), 0o644); err != nil {
			e.t.Fatal(err)
		}
	}
}

// post runs the post step and fails the test unless it succeeds.
func (e *env) post(extra ...string) string {
	e.t.Helper()
	out, errb, code := e.run(extra, "post", e.dir)
	if code != 0 {
		e.t.Fatalf("post: exit %d\nstdout: %s\nstderr: %s", code, out, errb)
	}
	return out
}

func writes(st ghState) []ghCall {
	var w []ghCall
	for _, c := range st.Calls {
		if c.Method != "GET" {
			w = append(w, c)
		}
	}
	return w
}

// TestCommentLifecycle: the first run creates the comment, a second run
// with another diff updates that comment by the id found by its marker,
// and a run with nothing changed turns it into a note.
func TestCommentLifecycle(t *testing.T) {
	other := ghComment{ID: 7, Body: "Looks good. The bot said " + marker + " earlier.", User: ghUser{"alice", "User"}}
	e := newEnv(t, ghState{Comments: []ghComment{other}})

	e.leave("### Key findings: a → b\n\nfirst diff\n", true, "42")
	e.post()
	st := e.getState()
	if w := writes(st); len(w) != 1 || w[0].Method != "POST" || w[0].Path != "repos/example/opencode/issues/42/comments" {
		t.Fatalf("first run: writes %+v, want one POST to pull request 42", w)
	}
	if len(st.Comments) != 2 || st.Comments[1].Body != marker+"\n### Key findings: a → b\n\nfirst diff\n" {
		t.Fatalf("first run: comments %+v", st.Comments)
	}
	for _, c := range st.Calls {
		if !c.Token {
			t.Errorf("%s %s ran without GH_TOKEN", c.Method, c.Path)
		}
	}
	id := st.Comments[1].ID

	e.leave("### Key findings: a → c\n\nsecond diff\n", true, "42")
	e.post()
	st = e.getState()
	w := writes(st)
	if len(w) != 2 || w[1].Method != "PATCH" || w[1].Path != "repos/example/opencode/issues/comments/"+itoa(id) {
		t.Fatalf("second run: writes %+v, want a PATCH of comment %d", w, id)
	}
	if len(st.Comments) != 2 || !strings.Contains(st.Comments[1].Body, "second diff") || st.Comments[0] != other {
		t.Fatalf("second run: comments %+v", st.Comments)
	}

	e.leave("### Key findings: a → d\n", false, "42")
	e.post()
	st = e.getState()
	if w := writes(st); len(w) != 3 || w[2].Method != "PATCH" {
		t.Fatalf("third run: writes %+v, want the comment updated", w)
	}
	if body := st.Comments[1].Body; !strings.HasPrefix(body, marker+"\n") || !strings.Contains(body, "no longer changes any key finding") {
		t.Fatalf("third run: comment %q", body)
	}
}

// TestNothingChangedNoComment: with nothing changed and no comment yet,
// nothing is written.
func TestNothingChangedNoComment(t *testing.T) {
	e := newEnv(t, ghState{Comments: []ghComment{{ID: 5, Body: "hello", User: ghUser{"bob", "User"}}}})
	e.leave("### Key findings: a → b\n\n0 changed.\n", false, "3")
	out := e.post()
	st := e.getState()
	if w := writes(st); len(w) != 0 {
		t.Fatalf("writes %+v, want none", w)
	}
	if len(st.Comments) != 1 {
		t.Fatalf("comments %+v", st.Comments)
	}
	if !strings.Contains(out, "no comment") {
		t.Errorf("stdout %q does not say that nothing was posted", out)
	}
}

// TestExpectHead: an artifact naming a pull request whose head is not the
// commit the diff ran on is refused before anything is written.
func TestExpectHead(t *testing.T) {
	pull := ghPull{Number: 9}
	pull.Head.SHA = strings.Repeat("a", 40)
	e := newEnv(t, ghState{Pulls: map[string]ghPull{"9": pull}})
	e.leave("diff\n", true, "9")

	_, errb, code := e.run([]string{"KEYFINDINGS_EXPECT_HEAD=" + strings.Repeat("b", 40)}, "post", e.dir)
	if code == 0 || !strings.Contains(errb, "nothing posted") {
		t.Fatalf("exit %d, stderr %q: want a refusal", code, errb)
	}
	if w := writes(e.getState()); len(w) != 0 {
		t.Fatalf("writes %+v after a refusal", w)
	}

	e.post("KEYFINDINGS_EXPECT_HEAD=" + pull.Head.SHA)
	if w := writes(e.getState()); len(w) != 1 || w[0].Method != "POST" {
		t.Fatalf("writes %+v, want the comment created when the head matches", w)
	}
}

// TestBadArtifact: what the post step reads may come from a fork; values
// that are not what the diff step writes are refused with one line.
func TestBadArtifact(t *testing.T) {
	for name, tc := range map[string]struct{ pr, changed string }{
		"pr not a number":  {"1; rm -rf /", "true"},
		"pr of a path":     {"../../pulls/1", "true"},
		"changed not bool": {"3", "maybe"},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, ghState{})
			e.leave("diff\n", true, tc.pr)
			if err := os.WriteFile(filepath.Join(e.dir, "changed"), []byte(tc.changed+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errb, code := e.run(nil, "post", e.dir)
			if code != 1 || strings.Count(errb, "\n") != 1 || !strings.HasPrefix(errb, "keyfindings-comment: ") {
				t.Fatalf("exit %d, stderr %q: want exit 1 and one line", code, errb)
			}
			if len(e.getState().Calls) != 0 {
				t.Fatalf("gh called: %+v", e.getState().Calls)
			}
		})
	}
}

// TestLongDiffCut: a diff longer than a comment may be is cut before a
// finding's section, never inside one, and says so.
func TestLongDiffCut(t *testing.T) {
	e := newEnv(t, ghState{})
	section := func(id string) string {
		return "#### `" + id + "`: changed\n\n```diff\n" + strings.Repeat("+ line\n", 40) + "```\n\n"
	}
	md := "### Key findings: a → b\n\n| table |\n\n" + section("one") + section("two") + section("three")
	e.leave(md, true, "4")
	e.post("KEYFINDINGS_COMMENT_MAX_BYTES=" + itoa(int64(len("### Key findings: a → b\n\n| table |\n\n"+section("one")+section("two"))+10)))
	body := e.getState().Comments[0].Body
	if !strings.Contains(body, "`two`") || strings.Contains(body, "`three`") || !strings.Contains(body, "the rest is cut") {
		t.Fatalf("body:\n%s", body)
	}
	if strings.Count(body, "```")%2 != 0 {
		t.Fatalf("a code fence is left open:\n%s", body)
	}

	e.leave(md, true, "4")
	e.post()
	if body := e.getState().Comments[0].Body; body != marker+"\n"+md {
		t.Fatalf("a short diff was changed:\n%s", body)
	}
}

// TestDiffStep runs the diff step with a stub keyfindings: exit 0 is
// "nothing changed", exit 1 with Markdown is "changed", exit 1 without
// output or any other status is a failure.
func TestDiffStep(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		rc      int
		changed string // "" for a failure
	}{
		{"nothing differs", "### Key findings: a → b\n", 0, "false"},
		{"something differs", "### Key findings: a → b\n\n#### `x`: changed\n", 1, "true"},
		{"failure", "", 1, ""},
		{"usage error", "", 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, ghState{})
			args := filepath.Join(t.TempDir(), "args")
			kf := filepath.Join(e.bin, "keyfindings")
			writeExec(t, kf, "#!/bin/sh\nprintf '%s\\n' \"$@\" >\"$KF_ARGS\"\nprintf '%s' \"$KF_OUT\"\nexit $KF_RC\n")
			dir := filepath.Join(t.TempDir(), "pr-check")
			out, errb, code := e.run([]string{"KF_ARGS=" + args, "KF_OUT=" + tc.out, "KF_RC=" + itoa(int64(tc.rc))},
				"diff", kf, "base1", "head2", "/src/opencode", "17", dir)
			got, _ := os.ReadFile(args)
			if want := "diff\nbase1\nhead2\n--repo\n/src/opencode\n--format\nmd\n--changed\n--exit-code\n--quiet\n"; string(got) != want {
				t.Errorf("keyfindings called with\n%s\nwant\n%s", got, want)
			}
			if tc.changed == "" {
				if code != 1 || strings.Count(errb, "\n") != 1 {
					t.Fatalf("exit %d, stderr %q: want a one-line failure", code, errb)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s%s", code, out, errb)
			}
			for name, want := range map[string]string{"changed": tc.changed + "\n", "pr": "17\n", "comment.md": tc.out} {
				if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
					t.Errorf("%s = %q, want %q", name, b, want)
				}
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
