package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

type routeOut struct {
	Prompt struct {
		Path string `json:"path"`
	} `json:"prompt"`
	Tools []struct {
		ID         string `json:"id"`
		Advertised string `json:"advertised"`
	} `json:"tools"`
	Tokens *struct {
		O200k int `json:"o200k_base"`
	} `json:"tokens"`
}

func routeJSON(t *testing.T, args ...string) routeOut {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"route", "--quiet", "--format", "json"}, args...), &out, &errb); code != 0 {
		t.Fatalf("route %v: exit %d: %s", args, code, errb.String())
	}
	var r routeOut
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func advertised(r routeOut, state string) string {
	var ids []string
	for _, tl := range r.Tools {
		if tl.Advertised == state {
			ids = append(ids, tl.ID)
		}
	}
	return strings.Join(ids, " ")
}

// TestRouteFixture evaluates the catalog fixture's rules: the nested rule,
// the lower-cased subject, the model-id filter between patch and
// edit/write, and the gates that depend on run-time flags.
func TestRouteFixture(t *testing.T) {
	cases := []struct{ model, provider, prompt, yes, depends string }{
		{"wide-quick", "acme", "wide-fast.txt", "invalid shell read edit write", "question search map"},
		{"big-LOWER", "acme", "lower.txt", "invalid shell read patch", "question search map"},
		{"big-mini", "house", "plain.txt", "invalid shell read edit write search", "question map"},
	}
	for _, c := range cases {
		r := routeJSON(t, c.model, "--provider", c.provider, "--repo", "../../testdata/catalog")
		if !strings.HasSuffix(r.Prompt.Path, "/"+c.prompt) {
			t.Errorf("%s: prompt %s, want %s", c.model, r.Prompt.Path, c.prompt)
		}
		if got := advertised(r, "yes"); got != c.yes {
			t.Errorf("%s: advertised %q, want %q", c.model, got, c.yes)
		}
		if got := advertised(r, "depends"); got != c.depends {
			t.Errorf("%s: depends %q, want %q", c.model, got, c.depends)
		}
	}
}

// TestRouteRealHistory checks the routes of the representative models at
// releases of the real history. Add a release here once the routing and
// tool definitions locate there.
func TestRouteRealHistory(t *testing.T) {
	repo := realRepo(t)
	const common = "invalid shell read glob grep task webfetch todowrite skill"
	editWrite := "invalid shell read glob grep edit write task webfetch todowrite skill"
	cases := []struct{ ref, model, provider, prompt, yes string }{
		{"v1.18.3", "claude-sonnet-4-5", "anthropic", "anthropic.txt", editWrite},
		{"v1.18.3", "gpt-5", "openai", "gpt.txt", common + " apply_patch"},
		{"v1.18.3", "gpt-5.1-codex", "openai", "codex.txt", common + " apply_patch"},
		{"v1.18.3", "gpt-4.1", "openai", "beast.txt", editWrite},
		{"v1.18.3", "o3", "openai", "beast.txt", editWrite},
		{"v1.18.3", "openai/gpt-oss-120b", "openrouter", "gpt.txt", editWrite},
		{"v1.18.3", "gemini-2.5-pro", "google", "gemini.txt", editWrite},
		{"v1.18.3", "kimi-k2-0905-preview", "moonshotai", "kimi.txt", editWrite},
		{"v1.18.3", "qwen/qwen3-coder", "openrouter", "default.txt", editWrite},
		// At v1.14.20 the shell tool is still bash.ts with its own .txt.
		{"v1.14.20", "gpt-5", "openai", "gpt.txt", "invalid bash read glob grep task webfetch todowrite skill apply_patch"},
		{"v1.14.20", "gpt-4.1", "openai", "beast.txt", "invalid bash read glob grep edit write task webfetch todowrite skill"},
		// v1.4.7: the last namespace-era system.ts, the Effect registry.
		{"v1.4.7", "gpt-5", "openai", "gpt.txt", "invalid bash read glob grep task webfetch todowrite skill apply_patch"},
		{"v1.4.7", "gpt-4.1", "openai", "beast.txt", "invalid bash read glob grep edit write task webfetch todowrite skill"},
		// v1.0.0: provider(modelID) in namespace SystemPrompt; tools
		// advertised unless enabled()'s map turns them off, and the
		// entries for edit, write, bash and webfetch depend on the agent's
		// permissions (run time), so only these are a plain yes.
		{"v1.0.0", "gpt-5", "openai", "codex.txt", "glob grep list read task"},
		{"v1.0.0", "gpt-4.1", "openai", "beast.txt", "glob grep list read task"},
		{"v1.0.0", "claude-sonnet-4-5", "anthropic", "anthropic.txt", "glob grep list read task"},
	}
	for _, c := range cases {
		t.Run(c.ref+"/"+c.model, func(t *testing.T) {
			r := routeJSON(t, c.model, "--provider", c.provider, "--repo", repo, "--ref", c.ref)
			if !strings.HasSuffix(r.Prompt.Path, "/prompt/"+c.prompt) {
				t.Errorf("prompt %s, want %s", r.Prompt.Path, c.prompt)
			}
			if got := advertised(r, "yes"); got != c.yes {
				t.Errorf("advertised %q\nwant %q", got, c.yes)
			}
			if r.Tokens == nil || r.Tokens.O200k == 0 {
				t.Errorf("no token total")
			}
		})
	}
}
