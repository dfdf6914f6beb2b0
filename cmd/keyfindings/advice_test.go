package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/keyfindings/keyfindings/releases"
	"github.com/keyfindings/keyfindings/site"
	"github.com/keyfindings/keyfindings/source"
)

// TestAdviceNamesFlags: the source's errors name no flag; the command
// words their remedies with its flags, also where the error is wrapped or
// quoted inside a longer message.
func TestAdviceNamesFlags(t *testing.T) {
	for _, tc := range []struct {
		err     error
		library string
		command string
	}{
		{&source.Error{Problem: "fetch https://x: no answer within 1s; the cache is kept and the next run resumes", Remedy: source.MoreTime},
			"allow more time or use a local copy",
			"fetch https://x: no answer within 1s; the cache is kept and the next run resumes; raise --timeout or pass --repo PATH"},
		{&source.Error{Repo: "/tmp/f", Problem: "is a file, not a git repository or directory; give the repository's directory"},
			"/tmp/f: is a file",
			"--repo /tmp/f: is a file, not a git repository or directory; give the repository's directory"},
		{fmt.Errorf("open: %w", &source.Error{Problem: "no user cache directory (x)", Remedy: source.OtherCacheDir}),
			"use another cache directory",
			"open: no user cache directory (x); pass --cache DIR"},
		{&source.Error{Problem: "commit abababa is not in this repository", Remedy: source.UseClone},
			"use a clone that has it",
			"commit abababa is not in this repository; fetch it, or point --repo at a clone that has it"},
		{fmt.Errorf("write: %w", &site.DirError{Role: site.OutputDir, Dir: "out", Problem: " is a non-empty directory that keyfindings did not write", Remedy: site.ChooseEmptyOrForce}),
			"output directory out is a non-empty directory",
			"write: --out out is a non-empty directory that keyfindings did not write; choose an empty one or pass --force to replace it"},
		{&site.DirError{Role: site.TemplatesDir, Dir: "t", Problem: " is not a directory"},
			"templates directory t is not a directory",
			"--templates t is not a directory"},
	} {
		if msg := tc.err.Error(); strings.Contains(msg, "--") || !strings.Contains(msg, tc.library) {
			t.Errorf("library text %q names a flag or lacks %q", msg, tc.library)
		}
		if got := errorLine(tc.err); got != tc.command {
			t.Errorf("command text\n got %q\nwant %q", got, tc.command)
		}
	}
	// Every remedy has words on both sides.
	for r := source.GiveSource; r <= source.WorkOffline; r++ {
		e := &source.Error{Problem: "p", Remedy: r}
		if e.Error() == "p" || sourceRemedies[r] == "" {
			t.Errorf("remedy %d is not worded: %q / %q", r, e.Error(), sourceRemedies[r])
		}
	}
	_, err := releases.SelectReleases([]string{"v1.0.0", "v2.0.0"}, releases.Selection{From: "v2.0.0", To: "v1.0.0"})
	if msg := err.Error(); strings.Contains(msg, "--") || errorLine(err) != "--from v2.0.0 is a later version than --to v1.0.0" {
		t.Errorf("selection error %q, as the command words it %q", msg, errorLine(err))
	}
	if errors.Unwrap(&source.Error{Err: source.ErrPlainDirectory}) != source.ErrPlainDirectory {
		t.Error("Error does not unwrap to its cause")
	}
}
