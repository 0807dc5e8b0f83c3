package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/recall-mem/recall"
	"github.com/rogpeppe/go-internal/diff"
)

// Diff shows what changed between versions from and to of the memory ref,
// as a unified diff of their fields and content.
func (e *Engine) Diff(ctx context.Context, ref string, from, to int) ([]byte, error) {
	old, err := e.Version(ctx, ref, from)
	if err != nil {
		return nil, err
	}
	cur, err := e.Version(ctx, ref, to)
	if err != nil {
		return nil, err
	}
	return diff.Diff(fmt.Sprintf("%s@%d", old.ID, from), renderForDiff(old), fmt.Sprintf("%s@%d", cur.ID, to), renderForDiff(cur)), nil
}

// renderForDiff shows a version as its fields then its content, so that a
// diff shows metadata changes as well as text changes.
func renderForDiff(m *recall.Memory) []byte {
	fields := *m
	fields.Content, fields.Version = "", 0
	fields.UpdatedAt = fields.CreatedAt
	b, _ := json.MarshalIndent(fields, "", "  ")
	content := m.Content
	if len(content) > 0 && content[len(content)-1] != '\n' {
		content += "\n"
	}
	return append(append(b, "\n---\n"...), content...)
}
