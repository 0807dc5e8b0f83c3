package parse

// changed since the memory was written
