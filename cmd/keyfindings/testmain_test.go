package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/keyfindings/keyfindings/findings"
)

// testVersion stands in for the keyfindings version in the tests.
const testVersion = "v0.0.0-test"

// TestMain points the cache at a fresh directory, so the tests neither
// read records cached by earlier runs nor write into the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "keyfindings-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("KEYFINDINGS_CACHE", dir)
	// What the test binary's build info says varies; outputs must not.
	findings.Version = testVersion
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
