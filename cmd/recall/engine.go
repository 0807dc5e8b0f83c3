package main

import "github.com/recall-mem/recall/engine"

// The engine's config and store location, under the names the commands
// have used since they lived here.
type (
	Config          = engine.Config
	RetrievalConfig = engine.RetrievalConfig
	RedactConfig    = engine.RedactConfig
	storeLocation   = engine.Location
)

const (
	projectDir = engine.ProjectDir
	dbFile     = engine.DBFile
	configFile = engine.ConfigFile

	defaultKeepDailyDays = engine.DefaultKeepDailyDays
)

var (
	resolveStore   = engine.ResolveStore
	storeExists    = engine.StoreExists
	globalStoreDir = engine.GlobalStoreDir
	loadConfig     = engine.LoadConfig
	defaultConfig  = engine.DefaultConfig
	lockFile       = engine.LockFile
	queueInterval  = engine.QueueInterval
	isBuiltin      = engine.IsBuiltin
	newRedactor    = engine.NewRedactor
)
