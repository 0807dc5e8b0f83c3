package sqlite

import (
	"encoding/json"

	"github.com/recall-mem/recall/redact"
)

// redactFields redacts, in place, text fields, tags and metadata with the
// store's Redactor (redact.Fields).
func (db *DB) redactFields(meta *json.RawMessage, tags *[]string, fields ...*string) error {
	return redact.Fields(db.Redactor, meta, tags, fields...)
}
