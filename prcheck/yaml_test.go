package prcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// step is a workflow or composite-action step, as far as the tests look.
type step struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
	Dir   string            `yaml:"working-directory"`
}

type action struct {
	Name        string         `yaml:"name"`
	Description string         `yaml:"description"`
	Inputs      map[string]any `yaml:"inputs"`
	Outputs     map[string]any `yaml:"outputs"`
	Runs        struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type workflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		If     string `yaml:"if"`
		RunsOn string `yaml:"runs-on"`
		Steps  []step `yaml:"steps"`
	} `yaml:"jobs"`
}

// decodeYAML parses file strictly into v: a YAML error or an unknown key
// fails the test.
func decodeYAML(t *testing.T, file string, v any) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s is not valid YAML for its kind: %v", file, err)
	}
	return string(data)
}

var scriptRef = regexp.MustCompile(`\$GITHUB_ACTION_PATH/([A-Za-z0-9_./-]+)`)
var inputRef = regexp.MustCompile(`inputs\.([a-z][a-z0-9-]*)`)
var stepRef = regexp.MustCompile(`steps\.([a-z][a-z0-9-]*)\.outputs`)

// TestActionYAML parses action.yml and checks what GitHub would only find
// out when it runs: every run step has a shell, every script it runs
// exists and is executable, every input and step it names is declared,
// and every action it uses is pinned to a version.
func TestActionYAML(t *testing.T) {
	var a action
	text := decodeYAML(t, "../action.yml", &a)
	if a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("runs.using = %q with %d steps, want a composite action", a.Runs.Using, len(a.Runs.Steps))
	}
	ids := map[string]bool{}
	scripts := 0
	for _, s := range a.Runs.Steps {
		if s.ID != "" {
			ids[s.ID] = true
		}
		switch {
		case s.Run != "" && s.Shell == "":
			t.Errorf("step %q: a composite run step needs shell:", s.Name)
		case s.Uses != "" && !strings.Contains(s.Uses, "@"):
			t.Errorf("step %q: uses %q without a version", s.Name, s.Uses)
		case s.Run == "" && s.Uses == "":
			t.Errorf("step %q: neither run nor uses", s.Name)
		}
		for _, m := range scriptRef.FindAllStringSubmatch(s.Run, -1) {
			scripts++
			info, err := os.Stat(filepath.Join("..", m[1]))
			if err != nil {
				t.Errorf("step %q runs %s: %v", s.Name, m[1], err)
			} else if info.Mode()&0o111 == 0 {
				t.Errorf("step %q runs %s, which is not executable", s.Name, m[1])
			}
		}
	}
	if scripts == 0 {
		t.Error("no step runs the script")
	}
	for _, m := range inputRef.FindAllStringSubmatch(text, -1) {
		if _, ok := a.Inputs[m[1]]; !ok {
			t.Errorf("inputs.%s is used but not declared", m[1])
		}
	}
	for _, m := range stepRef.FindAllStringSubmatch(text, -1) {
		if !ids[m[1]] {
			t.Errorf("steps.%s is used but no step has that id", m[1])
		}
	}
}

// TestExampleWorkflows parses the example workflows and checks the
// fork-safe split: the pull_request half reads only and uploads the diff;
// the workflow_run half follows it by name, may write pull requests, and
// never checks out or builds code.
func TestExampleWorkflows(t *testing.T) {
	var diff, comment workflow
	decodeYAML(t, "../examples/keyfindings-diff.yml", &diff)
	decodeYAML(t, "../examples/keyfindings-comment.yml", &comment)

	if _, ok := diff.On["pull_request"]; !ok || len(diff.On) != 1 {
		t.Errorf("diff workflow runs on %v, want pull_request only", keys(diff.On))
	}
	for scope, perm := range diff.Permissions {
		if perm != "read" && perm != "none" {
			t.Errorf("diff workflow has %s: %s; it must only read", scope, perm)
		}
	}
	var checkout, diffStep, upload bool
	for _, j := range diff.Jobs {
		for _, s := range j.Steps {
			switch {
			case strings.HasPrefix(s.Uses, "actions/checkout@"):
				checkout = s.With["fetch-depth"] == "0"
			case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
				upload = true
			case strings.Contains(s.Uses, "keyfindings@"):
				diffStep = s.With["mode"] == "diff"
			}
		}
	}
	if !checkout || !diffStep || !upload {
		t.Errorf("diff workflow: checkout with full history %v, keyfindings in mode diff %v, upload %v; want all", checkout, diffStep, upload)
	}

	run, ok := comment.On["workflow_run"].(map[string]any)
	if !ok || len(comment.On) != 1 {
		t.Fatalf("comment workflow runs on %v, want workflow_run only", keys(comment.On))
	}
	if names, _ := run["workflows"].([]any); len(names) != 1 || names[0] != diff.Name {
		t.Errorf("comment workflow follows %v, want [%q]", run["workflows"], diff.Name)
	}
	if comment.Permissions["pull-requests"] != "write" {
		t.Errorf("comment workflow permissions %v: want pull-requests: write", comment.Permissions)
	}
	var post bool
	for name, j := range comment.Jobs {
		if !strings.Contains(j.If, "github.event.workflow_run.event == 'pull_request'") || !strings.Contains(j.If, "conclusion == 'success'") {
			t.Errorf("job %s runs when %q; want only after a successful pull_request run", name, j.If)
		}
		for _, s := range j.Steps {
			if s.Run != "" || strings.HasPrefix(s.Uses, "actions/checkout@") || strings.HasPrefix(s.Uses, "actions/setup-") {
				t.Errorf("job %s step %q checks out, sets up or runs code: a workflow_run job must not", name, s.Name+s.Uses)
			}
			if strings.Contains(s.Uses, "keyfindings@") {
				post = s.With["mode"] == "comment" && s.With["expect-head"] == "${{ github.event.workflow_run.head_sha }}"
			}
		}
	}
	if !post {
		t.Error("comment workflow: no keyfindings step in mode comment that checks the pull request's head")
	}
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	return k
}
