package findings

import (
	"testing"
	"testing/fstest"
)

func TestFingerprint(t *testing.T) {
	def := func(id, claim string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("id: " + id + "\npage: tools\nsection: S\ntitle: T\nclaim: " + claim + "\nwhen: W\npath: a.ts\nquery: (program) @finding\n")}
	}
	fp := func(fsys fstest.MapFS, dir string) string {
		t.Helper()
		cat, err := Load(fsys, dir)
		if err != nil {
			t.Fatal(err)
		}
		s, err := cat.Fingerprint()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := fp(fstest.MapFS{"a.yaml": def("a", "C"), "b.yaml": def("b", "C")}, "one")
	if len(base) != 64 {
		t.Fatalf("fingerprint %q is not a SHA-256", base)
	}
	if got := fp(fstest.MapFS{"a.yaml": def("a", "C"), "b.yaml": def("b", "C")}, "elsewhere"); got != base {
		t.Error("the same definitions in another directory give another fingerprint")
	}
	if got := fp(fstest.MapFS{"a.yaml": def("a", "C"), "b.yaml": def("b", "Other claim")}, "one"); got == base {
		t.Error("a changed claim keeps the fingerprint")
	}
	if got := fp(fstest.MapFS{"a.yaml": def("a", "C")}, "one"); got == base {
		t.Error("a removed definition keeps the fingerprint")
	}
}
