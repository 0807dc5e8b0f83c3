-- Vectors are stored as int8 with a scale (vector_codec.go): the float16
-- vectors of older stores, and float32 ones from before those, are
-- rewritten in place, so their store shrinks as a new one would be (the
-- freed pages are reused, or returned by VACUUM: docs/performance.md).
-- An int8 blob has an odd length; the others are even.
UPDATE memory_vectors SET vec = recall_vector_int8(vec, dim) WHERE length(vec) % 2 = 0;
