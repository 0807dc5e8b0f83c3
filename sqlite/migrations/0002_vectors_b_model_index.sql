-- Counting a model's vectors (a new process checking its cached index,
-- reindex status, dropping another model's vectors) reads this small
-- index instead of every vector row.
CREATE INDEX memory_vectors_model ON memory_vectors(model, dim);
