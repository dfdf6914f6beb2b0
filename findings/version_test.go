package findings

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	for _, tt := range []struct {
		v        string
		settings []debug.BuildSetting
		want     string
	}{
		{"", nil, "(devel)"},
		{"(devel)", []debug.BuildSetting{rev}, "(devel) (0123456789ab)"},
		{"(devel)", []debug.BuildSetting{rev, dirty}, "(devel) (0123456789ab+dirty)"},
		{"v1.2.0", nil, "v1.2.0"},
		// Go stamps the revision into the version of a build from a checkout.
		{"v0.0.0-20260101000000-0123456789ab+dirty", []debug.BuildSetting{rev, dirty}, "v0.0.0-20260101000000-0123456789ab+dirty"},
	} {
		if got := formatVersion(tt.v, tt.settings); got != tt.want {
			t.Errorf("formatVersion(%q, %v) = %q, want %q", tt.v, tt.settings, got, tt.want)
		}
	}
	if Version == "" {
		t.Error("Version is empty")
	}
}

// TestDocumentKeyfindings: the build and catalog that wrote a document are
// recorded right after the schema, and documents without them still decode.
func TestDocumentKeyfindings(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	d := &Document{Schema: Schema, Source: Source{Repo: "https://example.com/r", Ref: "x"}}
	d.Keyfindings = &Tool{Version: "v1.2.0", Catalog: fp}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"schema":"` + Schema + `","keyfindings":{"version":"v1.2.0","catalog":"` + fp + `"},"source":`
	if !strings.HasPrefix(string(data), want) {
		t.Errorf("JSON starts %.160s, want %s", data, want)
	}
	back, err := DecodeDocument(data, "new.json")
	if err != nil || back.Keyfindings == nil || *back.Keyfindings != *d.Keyfindings {
		t.Errorf("decode: %+v, %v", back, err)
	}
	old := `{"schema":"` + Schema + `","source":{"repo":"r","ref":"v1","commit":null,"version":null,"committed_at":null},"findings":[]}`
	if back, err := DecodeDocument([]byte(old), "old.json"); err != nil || back.Keyfindings != nil {
		t.Errorf("older document: %+v, %v", back, err)
	}
}
