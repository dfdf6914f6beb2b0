package site

import (
	"strconv"
)

// matrixColumn is one release on the axis of a picture across releases;
// X, Y anchor its rotated label.
type matrixColumn struct {
	Tag, Href string
	X, Y      int
}

// unionIDs returns every record id of the lists, one per document (oldest
// first), in the newest document's order; an id only in older ones follows
// the id before it there, as diff.Compare orders a diff.
func unionIDs(lists [][]string) []string {
	var order []string
	placed := map[string]bool{}
	for i := len(lists) - 1; i >= 0; i-- {
		after := -1
		for _, id := range lists[i] {
			if placed[id] {
				after = indexOf(order, id)
				continue
			}
			at := after + 1
			order = append(order, "")
			copy(order[at+1:], order[at:])
			order[at] = id
			placed[id] = true
			after = at
		}
	}
	return order
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// Count writes n and a noun with a regular plural: "1 release",
// "27 releases".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
