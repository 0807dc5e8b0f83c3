package sqlite

import (
	"encoding/json"
	"strconv"
)

// inList is the SQL that stands for a list of values given as one JSON
// array argument: "x IN (SELECT value FROM json_each(?))". Unlike
// "x IN (?, ?, …)" its text is the same for any length, so its statement
// is prepared once (SQLite still looks each value up by index).
const inList = "(SELECT value FROM json_each(?))"

// jsonStrings is the JSON array argument of inList for strings.
func jsonStrings(vs []string) string {
	b, _ := json.Marshal(vs) // a []string always encodes
	return string(b)
}

// jsonInts is the JSON array argument of inList for integers.
func jsonInts(vs []int64) string {
	b := make([]byte, 0, 2+8*len(vs))
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return string(append(b, ']'))
}
