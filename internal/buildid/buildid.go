// Package buildid names the running build of keyfindings, the one
// identity every cache keyed by build uses: the records and query facts
// locate keeps under the cache directory, and the releases a releases
// directory reuses (its manifest's tool).
package buildid

import (
	"debug/elf"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// ID names the running build of keyfindings, read once: the Go
// toolchain's build ID of the executable, which changes with any change
// to its code or dependencies; else (not ELF, or the ID stripped) the
// executable's path, size and time with the module versions. An error
// means the executable cannot be identified: nothing may be reused then.
var ID = sync.OnceValues(read)

func read() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("identify the keyfindings executable: %w", err)
	}
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if id := elfGoBuildID(f); id != "" {
			return "go-build-id " + id, nil
		}
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("identify the keyfindings executable: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "exe %s %d %d %s", exe, info.Size(), info.ModTime().UnixNano(), runtime.Version())
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&b, " %s@%s", bi.Main.Path, bi.Main.Version)
		for _, m := range bi.Deps {
			fmt.Fprintf(&b, " %s@%s", m.Path, m.Version)
		}
		for _, s := range bi.Settings {
			fmt.Fprintf(&b, " %s=%s", s.Key, s.Value)
		}
	}
	return b.String(), nil
}

// elfGoBuildID reads the Go build ID note the linker writes into ELF
// executables.
func elfGoBuildID(f *elf.File) string {
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	namesz := f.ByteOrder.Uint32(data[0:])
	descsz := f.ByteOrder.Uint32(data[4:])
	off := 12 + (int(namesz)+3)&^3
	if namesz != 4 || string(data[12:15]) != "Go\x00" || off+int(descsz) > len(data) {
		return ""
	}
	return string(data[off : off+int(descsz)])
}
