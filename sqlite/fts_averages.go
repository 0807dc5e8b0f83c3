package sqlite

// ftsRowCount reads N, the rows of the full-text index, from FTS5's
// averages record (memories_fts_data id 1): a varint of the row count
// followed by one varint of tokens per column. bm25() takes its IDFs from
// this N, so a bound on a score must too. ok is false for a record that
// does not start with a whole varint.
func ftsRowCount(rec []byte) (n int64, ok bool) {
	v, size := sqliteVarint(rec)
	return int64(v), size > 0
}

// ftsTotals reads N and the tokens of all columns from the averages
// record; ok is false for a record that does not parse.
func ftsTotals(rec []byte) (n, tokens int64, ok bool) {
	v, size := sqliteVarint(rec)
	if size == 0 {
		return 0, 0, false
	}
	n, rec = int64(v), rec[size:]
	for len(rec) > 0 {
		v, size := sqliteVarint(rec)
		if size == 0 {
			return 0, 0, false
		}
		tokens, rec = tokens+int64(v), rec[size:]
	}
	return n, tokens, true
}

// sqliteVarint decodes SQLite's varint (the format FTS5 writes its
// records in): big-endian groups of 7 bits, each byte but the last with
// its high bit set, and a ninth byte, when there is one, giving all 8 of
// its bits. size is 0 when b ends before the varint does.
func sqliteVarint(b []byte) (v uint64, size int) {
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
