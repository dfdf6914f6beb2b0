// Package cite is the citation codec, after the records
// (source → locate → records → cite): the one-line citation of a located
// record, its text and permalink forms (GitHub, GitLab, Gitea layouts),
// parsing them back, finding them in a text, and BlobURL, the one
// function every blob URL is made by.
package cite
