//go:build !linux

package sentence

import "errors"

// cacheSupported: no cache is written where it would not be mapped.
const cacheSupported = false

// mapFile is not done where the layers are not mapped: every process
// dequantises them (see slab_other.go).
func mapFile(string) ([]byte, error) { return nil, errors.New("no weight cache on this system") }

func unmapFile([]byte) {}
