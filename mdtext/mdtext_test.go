package mdtext

import "testing"

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
