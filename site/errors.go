package site

// DirRole says which directory a DirError is about.
type DirRole int

// Directory roles.
const (
	// OutputDir is the directory a site or releases directory is written
	// to.
	OutputDir DirRole = iota
	// TemplatesDir is a directory of templates that override the
	// embedded ones.
	TemplatesDir
)

// DirRemedy is what a user can do about a DirError.
type DirRemedy int

// Directory remedies.
const (
	// NoDirRemedy: the problem says all there is.
	NoDirRemedy DirRemedy = iota
	// ChooseAnother: write somewhere else.
	ChooseAnother
	// ChooseEmptyOrForce: choose an empty directory, or ask to replace
	// this one.
	ChooseEmptyOrForce
	// ChooseAnotherOrForce: write somewhere else, or ask to replace it.
	ChooseAnotherOrForce
)

// DirWords word a DirError: how it names each role and each remedy.
type DirWords struct {
	Roles    map[DirRole]string
	Remedies map[DirRemedy]string
}

// dirWords are DirError's own words, which name no command-line flag.
var dirWords = DirWords{
	Roles: map[DirRole]string{OutputDir: "output directory", TemplatesDir: "templates directory"},
	Remedies: map[DirRemedy]string{
		ChooseAnother:        "choose another output directory",
		ChooseEmptyOrForce:   "choose an empty one or have it replaced",
		ChooseAnotherOrForce: "choose another output directory, or have it replaced",
	},
}

// DirError is an output or templates directory that cannot be used.
type DirError struct {
	Role DirRole
	Dir  string
	// Problem follows the directory's name: ": why" or " is …".
	Problem string
	Remedy  DirRemedy
	Err     error
}

func (e *DirError) Error() string { return e.Text(dirWords) }

// Text is the error's one line in the given words.
func (e *DirError) Text(w DirWords) string {
	s := w.Roles[e.Role] + " " + e.Dir + e.Problem
	if r := w.Remedies[e.Remedy]; r != "" {
		s += "; " + r
	}
	return s
}

func (e *DirError) Unwrap() error { return e.Err }
