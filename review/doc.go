// Package review compares the facts of records with those each
// definition's claim was written against (reviewed), after the records
// (source → locate → records → review), and rewrites the reviewed section
// of definition files when a person accepts them. Which review a record
// carries is findings.ReviewOf.
package review
