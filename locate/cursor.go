package locate

// #include <stdint.h>
// typedef struct TSQueryCursor TSQueryCursor;
// void ts_query_cursor_set_max_start_depth(TSQueryCursor *self, uint32_t max_start_depth);
// void ts_query_cursor_set_byte_range(TSQueryCursor *self, uint32_t start_byte, uint32_t end_byte);
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// A query cursor walks every node below the one it runs on, to start a
// match wherever a pattern's first step could. A query whose patterns all
// start at the program node (topLevelOnly) needs no match started below
// it: tree-sitter's max start depth 0 keeps the cursor to the nodes the
// patterns' own steps reach (a run of the import query over a tool's
// module then visits its top-level statements and the imports, not every
// function body). The binding does not expose the setting, so it is set
// on the cursor's C object, the binding's first field (go.mod pins the
// binding; TestStartAtRootOnly fails if that changes).

// startAtRootOnly keeps cur from starting a match below the node it runs
// on.
func startAtRootOnly(cur *sitter.QueryCursor) {
	c := *(**C.TSQueryCursor)(unsafe.Pointer(cur))
	C.ts_query_cursor_set_max_start_depth(c, 0)
}

// startWithin keeps cur from starting a match at a node that does not
// overlap the bytes [lo, hi) (the binding sets point ranges only). A match
// started at a node that does overlap them is followed wherever its steps
// lead, outside the range too: tree-sitter's byte range limits where
// matches start, not what they contain.
func startWithin(cur *sitter.QueryCursor, lo, hi int) {
	c := *(**C.TSQueryCursor)(unsafe.Pointer(cur))
	C.ts_query_cursor_set_byte_range(c, C.uint32_t(lo), C.uint32_t(hi))
}

// topLevelOnly reports whether every top-level pattern of the query text
// is a program node: "(program" first, captures after it. Anything else
// at the top level (an alternation, a wildcard, a sibling sequence, a
// quantifier) makes it false.
func topLevelOnly(text string) bool {
	depth, patterns := 0, 0
	expectRoot := false // the token after a top-level "(" must be "program"
	ok := true
	closed := queryTokens(text, func(t queryToken) {
		if !ok {
			return
		}
		if expectRoot {
			expectRoot = false
			if t.kind != tokName || text[t.at:t.end] != "program" {
				ok = false
			}
		}
		switch t.kind {
		case tokOpen:
			if depth == 0 {
				if text[t.at] != '(' {
					ok = false
				}
				patterns++
				expectRoot = true
			}
			depth++
		case tokClose:
			depth--
		case tokCapture:
		default:
			if depth == 0 {
				ok = false
			}
		}
	})
	return ok && closed && depth == 0 && patterns > 0 && !expectRoot
}
