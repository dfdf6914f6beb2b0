//go:build !cgo

package cmem

// Trim does nothing without cgo: there is no C heap.
func Trim() bool { return false }

// LimitArenas does nothing without cgo: there is no C heap.
func LimitArenas(int) bool { return false }
