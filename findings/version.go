package findings

import (
	"runtime/debug"
	"strings"
)

// Version identifies the keyfindings build that writes documents and
// answers --version: the main module's version from the build info, with
// the VCS revision when the build recorded one the version does not
// already name (Go stamps it into the version of a build from a checkout),
// and "(devel)" without build info. Tests set it to a fixed value so that
// golden files do not depend on the test binary.
var Version = buildVersion()

func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return formatVersion(info.Main.Version, info.Settings)
}

// formatVersion writes a module version and the build's VCS settings as
// Version shows them: "v1.2.0", "(devel) (0123456789ab+dirty)".
func formatVersion(v string, settings []debug.BuildSetting) string {
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !strings.Contains(v, rev) {
		if modified == "true" {
			rev += "+dirty"
		}
		v += " (" + rev + ")"
	}
	return v
}

// Tool is the keyfindings build and catalog that wrote a document.
type Tool struct {
	// Version is Version of the build that wrote the document.
	Version string `json:"version"`
	// Catalog is the catalog's Fingerprint (64 hex digits).
	Catalog string `json:"catalog"`
}
