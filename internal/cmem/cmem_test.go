//go:build cgo

package cmem

import (
	"os"
	"runtime"
	"testing"
)

// On Linux with glibc (what CI and the benchmarks run) both settings take;
// elsewhere they may do nothing, and say so.
func TestGlibcTakesSettings(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's malloc is a Linux matter")
	}
	if _, err := os.Stat("/lib/x86_64-linux-gnu/libc.so.6"); err != nil {
		if _, err := os.Stat("/lib/aarch64-linux-gnu/libc.so.6"); err != nil {
			t.Skip("not a Debian-style glibc system")
		}
	}
	if !LimitArenas(runtime.GOMAXPROCS(0)) {
		t.Error("glibc refused M_ARENA_MAX")
	}
	Trim() // may have nothing to return; it must not fail
}
