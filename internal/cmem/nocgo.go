//go:build !cgo

package cmem

// Trim does nothing without cgo: there is no C heap.
func Trim() bool { return false }
