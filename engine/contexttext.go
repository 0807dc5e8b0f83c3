package engine

import (
	"strings"
	"time"

	"github.com/recall-mem/recall"
)

// ContextText formats a memory for injection into an AI conversation, as
// seed 002 specifies: heading, id, creation, context, tags, related, a blank
// line, then the content. The CLI's get and the demo print it alike.
func ContextText(m *recall.Memory) string {
	title := m.Title
	if title == "" {
		title = m.Key
	}
	if title == "" {
		title = m.ID
	}
	created := "Created: -"
	if !m.CreatedAt.IsZero() {
		created = "Created: " + m.CreatedAt.UTC().Format(time.RFC3339)
	}
	if m.CreatedBy != "" {
		created += " by " + m.CreatedBy
	}
	parts := []string{"# " + title, "ID: " + m.ID, created}
	if m.Context != "" {
		parts = append(parts, "Context: "+m.Context)
	}
	if len(m.Tags) > 0 {
		parts = append(parts, "Tags: "+strings.Join(m.Tags, ", "))
	}
	if len(m.Related) > 0 {
		parts = append(parts, "Related: "+strings.Join(m.Related, ", "))
	}
	parts = append(parts, "", m.Content)
	s := strings.Join(parts, "\n")
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
