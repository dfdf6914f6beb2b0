package site

import (
	"fmt"

	"github.com/keyfindings/keyfindings/findings"
)

// Render returns the files of one commit's site: findings.json and the
// upstream licence, plus the rendered pages.
func Render(doc *findings.Document, license []byte) (Files, error) {
	data, err := doc.Marshal()
	if err != nil {
		return nil, fmt.Errorf("encode findings.json: %w", err)
	}
	files := Files{"findings.json": data}
	if license != nil {
		files["upstream-license.txt"] = license
	}
	return files, nil
}
