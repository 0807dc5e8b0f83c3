package main

import "github.com/recall-mem/recall/engine"

// Names the tests have used since the engine's code lived in this package.
const (
	dbFile     = engine.DBFile
	configFile = engine.ConfigFile
)

var (
	defaultConfig          = engine.DefaultConfig
	decodeMemoryLines      = engine.DecodeMemoryLines
	decodeObservationLines = engine.DecodeObservationLines
)
