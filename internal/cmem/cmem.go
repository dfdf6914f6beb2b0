//go:build cgo

// Package cmem bounds the C heap: it returns the heap's free memory to the
// operating system, and limits how many arenas the heap spreads over.
// tree-sitter allocates a file's syntax tree with C's malloc, and frees it
// when keyfindings is done with the file; glibc keeps what was freed in
// its arenas, so after a large file the process's resident memory stays
// that much higher, release after release of a releases run; and glibc
// gives each thread that allocates while another holds an arena an arena
// of its own (up to eight per CPU), each keeping its own free memory.
package cmem

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
static int kf_trim(void) { return malloc_trim(0); }
static int kf_arenas(int n) { return mallopt(M_ARENA_MAX, n); }
#else
static int kf_trim(void) { return 0; }
static int kf_arenas(int n) { return 0; }
#endif
*/
import "C"

// Trim returns the C heap's free memory to the operating system where the
// C library can (glibc's malloc_trim; elsewhere it does nothing), and
// reports whether any was returned.
func Trim() bool { return C.kf_trim() != 0 }

// LimitArenas makes the C heap use at most n arenas from now on (glibc's
// M_ARENA_MAX; elsewhere it does nothing), and reports whether the C
// library took the setting. Threads that allocate at once then share
// arenas, waiting for each other's lock, rather than each keeping free
// memory of its own.
func LimitArenas(n int) bool { return C.kf_arenas(C.int(n)) != 0 }
