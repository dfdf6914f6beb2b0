package main

import (
	"errors"
	"strings"

	"github.com/keyfindings/keyfindings/mdtext"
	"github.com/keyfindings/keyfindings/releases"
	"github.com/keyfindings/keyfindings/site"
	"github.com/keyfindings/keyfindings/source"
)

// sourceRemedies words each source.Remedy with the flags that apply it.
var sourceRemedies = map[source.Remedy]string{
	source.GiveSource:       "pass --repo",
	source.UseGitRepository: "point --repo at a git repository",
	source.UseClone:         "fetch it, or point --repo at a clone that has it",
	source.OtherCacheDir:    "pass --cache DIR",
	source.CheckURL:         "check the URL or pass --repo PATH to a local copy",
	source.UsePublicURL:     "use a public URL or pass --repo PATH to a local copy",
	source.RunAgain:         "run again to resume, or pass --repo PATH to a local copy",
	source.MoreTime:         "raise --timeout or pass --repo PATH",
	source.WorkOffline:      "to work offline pass --repo PATH to a local copy",
}

// selectionFlags names the fields of releases.Selection by their flags.
var selectionFlags = map[releases.Field]string{releases.FieldMatch: "--match", releases.FieldFrom: "--from", releases.FieldTo: "--to"}

// dirFlags word site.DirError with the flags that name the directories.
var dirFlags = site.DirWords{
	Roles: map[site.DirRole]string{site.OutputDir: "--out", site.TemplatesDir: "--templates"},
	Remedies: map[site.DirRemedy]string{
		site.ChooseAnother:        "choose another --out",
		site.ChooseEmptyOrForce:   "choose an empty one or pass --force to replace it",
		site.ChooseAnotherOrForce: "choose another --out, or pass --force to replace it",
	},
}

// advise returns text, one line, with what the library errors in err's
// chain say reworded as advice that names this command's flags. text is
// err's message, or a message that quotes it.
func advise(text string, err error) string {
	var se *source.Error
	if errors.As(err, &se) {
		own := se.Text(sourceRemedies)
		if se.Repo != "" {
			own = "--repo " + own
		}
		text = strings.Replace(text, se.Error(), own, 1)
	}
	var de *site.DirError
	if errors.As(err, &de) {
		text = strings.Replace(text, de.Error(), de.Text(dirFlags), 1)
	}
	var sel *releases.SelectionError
	if errors.As(err, &sel) {
		text = strings.Replace(text, sel.Error(), sel.Text(selectionFlags), 1)
	}
	return mdtext.OneLine(text)
}

// errorLine is err as the one line a command prints.
func errorLine(err error) string { return advise(err.Error(), err) }
