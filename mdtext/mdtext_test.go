package mdtext

import (
	"strings"
	"testing"
)

// TestTextEscapesOnlyWhatItMust: text that cannot start or end a construct
// where it stands is written as it is (a version, a negative number); a
// character that could is escaped. Round trips through goldmark, at the
// start of a line and after text, are in package site (TestMdTextRoundTrip,
// FuzzMdText).
func TestTextEscapesOnlyWhatItMust(t *testing.T) {
	for in, want := range map[string]string{
		"1.18.3":       "1.18.3",
		"v1.18.3":      "v1.18.3",
		"2.0)":         "2.0)",
		"-5":           "-5",
		"+1":           "+1",
		"= x":          "= x",
		"a.b-c+d":      "a.b-c+d",
		"1. item":      `1\. item`,
		"1) item":      `1\) item`,
		"1.":           `1\.`,
		"- item":       `\- item`,
		"---":          `\---`,
		"+ x":          `\+ x`,
		"==":           `\==`,
		"# h":          `\# h`,
		"\x1c   0":     "0",
		"a\nb":         "a b",
		"<b>*x*</b>":   `\<b\>\*x\*\</b\>`,
		"[l](u) `c` |": "\\[l\\](u) \\`c\\` \\|",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLineHelpers(t *testing.T) {
	if got := OneLine("  a\n\tb \r\n c  "); got != "a b c" {
		t.Errorf("OneLine = %q", got)
	}
	long := strings.Repeat("é", 50) // 100 bytes: the cut falls inside a rune
	if got := Clip(long); got != strings.Repeat("é", 40)+"…" {
		t.Errorf("Clip(100 bytes) = %q", got)
	}
	if got := Clip("a\xffb"); got != "a\uFFFDb" {
		t.Errorf("Clip(invalid UTF-8) = %q", got)
	}
	for in, want := range map[string]string{"added in v2": "Added in v2", "Ok": "Ok", "": "", "élan": "élan", "1 more": "1 more"} {
		if got := Capitalize(in); got != want {
			t.Errorf("Capitalize(%q) = %q, want %q", in, got, want)
		}
	}
}
