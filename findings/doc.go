// Package findings is the data at the middle of keyfindings' flow
// (source → locate → records → site / diff / cite / verify / releases):
// the finding definitions (the embedded catalog in defs/, or a directory of
// them), the pin, and the records a build produces (findings.json's
// Document and Record), with their loading and validation. It needs
// neither git nor a parser; what reads or writes records lives in the
// packages after it.
package findings
