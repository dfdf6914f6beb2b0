package source

import "fmt"

// LineStarts indexes the first byte of every line of data.
func LineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// SpanBytes returns the bytes of lines start..end (1-based, inclusive) of
// data: from the first byte of line start through the end of line end,
// including its newline. This is the hash rule.
func SpanBytes(data []byte, start, end int) ([]byte, error) {
	from, to, err := SpanRange(data, LineStarts(data), start, end)
	if err != nil {
		return nil, err
	}
	return data[from:to], nil
}

// SpanRange is the hash rule on an existing line index: the byte range
// [from, to) of lines start..end of data, whose line starts are starts.
func SpanRange(data []byte, starts []int, start, end int) (from, to int, err error) {
	n := len(starts)
	if len(data) == 0 {
		n = 0
	}
	if start < 1 || end < start || end > n {
		return 0, 0, fmt.Errorf("lines %d-%d outside a %d-line file", start, end, n)
	}
	to = len(data)
	if end < n {
		to = starts[end]
	}
	return starts[start-1], to, nil
}
