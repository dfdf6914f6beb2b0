//go:build cgo

// Package cmem returns the C heap's free memory to the operating system.
// tree-sitter allocates a file's syntax tree with C's malloc, and frees it
// when keyfindings is done with the file; glibc keeps what was freed in
// its arenas, so after a large file the process's resident memory stays
// that much higher, release after release of a releases run.
package cmem

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static int kf_trim(void) { return malloc_trim(0); }
#else
static int kf_trim(void) { return 0; }
#endif
*/
import "C"

// Trim returns the C heap's free memory to the operating system where the
// C library can (glibc's malloc_trim; elsewhere it does nothing), and
// reports whether any was returned.
func Trim() bool { return C.kf_trim() != 0 }
