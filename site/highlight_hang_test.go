package site

import (
	"testing"
	"time"
)

// TestHighlightLoneSlashAtLineStart: a line that starts with a slash that
// opens no regular expression (valid as the tail of a division split over
// lines, or in any text cited as .ts) is highlighted, not looped on: the
// slash is read as an operator. Found by FuzzExcerptHTML.
func TestHighlightLoneSlashAtLineStart(t *testing.T) {
	for _, text := range []string{"/b>x\n", "/\n", "a\n/ 2\n", "  / x\n"} {
		done := make(chan error, 1)
		go func() {
			_, err := highlight("typescript", text)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%q: %v", text, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: highlighting did not finish", text)
		}
	}
}
