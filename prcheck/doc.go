// Package prcheck holds the tests of the pull-request check that ships at
// the repository root: action.yml, the script it runs
// (.github/keyfindings-comment.sh) and the example workflows in examples/.
// It has no code of its own.
package prcheck
