package sqlite

import (
	"database/sql/driver"

	sqlite3 "modernc.org/sqlite"
)

// Migration 0016 rewrites the float16 and float32 vectors of older stores
// in the int8 form through this SQL function, in the migration's
// transaction. Each row keeps its seq, so in-memory indexes and their
// cache files stay valid: they hold the same int8 quantisation.
func init() {
	if err := sqlite3.RegisterDeterministicScalarFunction("recall_vector_int8", 2, vectorInt8); err != nil {
		panic(err)
	}
}

// vectorInt8 is recall_vector_int8(vec, dim): the int8 form of a stored
// vector, or vec itself when it is already int8 or of no known length.
func vectorInt8(_ *sqlite3.FunctionContext, args []driver.Value) (driver.Value, error) {
	b, ok := args[0].([]byte)
	dim, isInt := args[1].(int64)
	if !ok || !isInt || dim <= 0 || len(b)%2 == 1 {
		return args[0], nil
	}
	v := make([]float32, dim)
	if !decodeVector(v, b) {
		return args[0], nil
	}
	return encodeVector(make([]byte, 0, dim+5), v), nil
}
