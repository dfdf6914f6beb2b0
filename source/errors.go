package source

import (
	"errors"
	"fmt"
)

// Remedy is what a user can do about an Error, worded by whoever shows the
// error: the command line names its flags, Error's own text does not.
type Remedy int

// Remedies.
const (
	// NoRemedy: the problem's text says all there is.
	NoRemedy Remedy = iota
	// GiveSource: name a source; there is neither one nor a pin.
	GiveSource
	// UseGitRepository: read a git repository instead of a plain
	// directory.
	UseGitRepository
	// UseClone: the commit is missing; fetch it, or read a clone that has
	// it.
	UseClone
	// OtherCacheDir: the cache directory cannot be used; choose another.
	OtherCacheDir
	// CheckURL: the URL names no repository; check it, or read a local
	// copy.
	CheckURL
	// UsePublicURL: the server asks for credentials.
	UsePublicURL
	// RunAgain: a fetch broke off; the cache is kept and the next run
	// resumes.
	RunAgain
	// MoreTime: the network did not answer in the time allowed.
	MoreTime
	// WorkOffline: the server cannot be reached.
	WorkOffline
)

// remedyText words each Remedy without naming any flag.
var remedyText = map[Remedy]string{
	GiveSource:       "name a repository",
	UseGitRepository: "use a git repository",
	UseClone:         "fetch it, or use a clone that has it",
	OtherCacheDir:    "use another cache directory",
	CheckURL:         "check the URL or use a local copy",
	UsePublicURL:     "use a public URL or a local copy",
	RunAgain:         "run again to resume, or use a local copy",
	MoreTime:         "allow more time or use a local copy",
	WorkOffline:      "to work offline use a local copy",
}

// Error is a source that cannot be opened, resolved or fetched: what the
// problem is and what can be done about it.
type Error struct {
	// Repo is the repository as the user named it, when the problem is
	// with that name itself ("" otherwise).
	Repo string
	// Problem says what went wrong, with any advice that needs no flag.
	Problem string
	// Remedy is what the user can do beyond that.
	Remedy Remedy
	// Err is the cause, if any.
	Err error
}

func (e *Error) Error() string { return e.Text(remedyText) }

// Text is the error's one line with its remedy worded as words says.
func (e *Error) Text(words map[Remedy]string) string {
	s := e.Problem
	if e.Repo != "" {
		s = e.Repo + ": " + s
	}
	if w := words[e.Remedy]; w != "" {
		s += "; " + w
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// RefError is a ref that does not name a commit of the repository.
type RefError struct {
	Ref string
	msg string
}

func (e *RefError) Error() string { return e.msg }

func refErrorf(ref, format string, args ...any) error {
	return &RefError{Ref: ref, msg: fmt.Sprintf(format, args...)}
}

// ErrPlainDirectory is the cause of an Error about a plain directory asked
// for what only a git repository has (refs, tags, commits).
var ErrPlainDirectory = errors.New("a plain directory, not a git repository")
