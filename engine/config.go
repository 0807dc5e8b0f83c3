package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/recall-mem/recall"
)

// Config is config.toml in the store directory. Every field is optional;
// DefaultConfig gives the values a missing file or key means.
type Config struct {
	Working   WorkingConfig   `toml:"working"`
	Retrieval RetrievalConfig `toml:"retrieval"`
	Ranking   RankingConfig   `toml:"ranking"`
	Retention RetentionConfig `toml:"retention"`
	Rollup    RollupConfig    `toml:"rollup"`
	Redact    RedactConfig    `toml:"redact"`
	Hook      HookConfig      `toml:"hook"`
	Session   SessionConfig   `toml:"session"`
	Limits    LimitsConfig    `toml:"limits"`
	Store     StoreConfig     `toml:"store"`
}

// WorkingConfig configures the working set and managed files (seed 000).
type WorkingConfig struct {
	File        string `toml:"file"`
	BudgetWords int    `toml:"budget_words"`
}

// RetrievalConfig configures embedders and ranking.
type RetrievalConfig struct {
	Embedder  string `toml:"embedder"` // builtin (the sentence encoder), hashing, openai, model2vec, none
	Endpoint  string `toml:"endpoint"`
	Model     string `toml:"model"`
	APIKeyEnv string `toml:"api_key_env"`
	ModelPath string `toml:"model_path"` // model2vec: directory with model.safetensors and tokenizer.json
	// Dimensions asks an OpenAI-compatible provider for this many
	// dimensions (models that support it); 0 takes the model's own.
	Dimensions     int `toml:"dimensions"`
	BatchSize      int `toml:"batch_size"`      // texts per embedding request
	TimeoutSeconds int `toml:"timeout_seconds"` // per embedding request
	// QueueIntervalSeconds is how often a long-running server drains the
	// embedding queue; 0 means 1 for builtin and 30 for a remote embedder.
	QueueIntervalSeconds int `toml:"queue_interval_seconds"`
}

// RetentionConfig configures type-aware retention sweeps (seed 003).
type RetentionConfig struct {
	Enabled bool           `toml:"enabled"`
	Days    map[string]int `toml:"days"`
}

// RollupConfig configures time-tier rollups (seed 004).
type RollupConfig struct {
	RawRetentionDays int    `toml:"raw_retention_days"`
	Timezone         string `toml:"timezone"`
	// Summarizer is "rules" (deterministic, offline; the default) or
	// "chat": an OpenAI-compatible chat endpoint rewords new summaries,
	// falling back to the rules' summary when it fails.
	Summarizer    string `toml:"summarizer"`
	ChatEndpoint  string `toml:"chat_endpoint"` // e.g. http://127.0.0.1:11434/v1
	ChatModel     string `toml:"chat_model"`
	ChatAPIKeyEnv string `toml:"chat_api_key_env"` // name of the variable holding the key
	// SessionBudgetMS bounds the rollup run at session start (default 25:
	// the SessionStart hook must answer within 60 ms; a backlog is caught up
	// over several starts, or at once by `recall rollup` and `recall maintain`).
	SessionBudgetMS int `toml:"session_budget_ms"`
	// Keep4hDays and KeepDailyDays prune 4h and daily rollups, once taken
	// into the next tier, after so many days (defaults 30 and 90; 0 keeps
	// them forever). Weekly and monthly rollups are kept.
	Keep4hDays    int `toml:"keep_4h_days"`
	KeepDailyDays int `toml:"keep_daily_days"`
}

// RedactConfig configures secret redaction.
type RedactConfig struct {
	Enabled   *bool    `toml:"enabled"`
	Patterns  []string `toml:"patterns"`
	AllowList []string `toml:"allow"`
}

// HookConfig configures agent hooks.
type HookConfig struct {
	MaxOutputBytes int `toml:"max_output_bytes"`
	ContextTokens  int `toml:"context_tokens"`
	TimeoutMillis  int `toml:"timeout_ms"` // a hook gives up after this (SessionStart: 5/3 of it); 0 means 3000
}

// SessionConfig configures the session heartbeat (seed 001).
type SessionConfig struct {
	HotSessions int `toml:"hot_sessions"` // sessions kept hot; older ones are archived
	StaleDays   int `toml:"stale_days"`   // pinned memories unreviewed this long are flagged
}

// StoreConfig says where the memories live when not in the SQLite file
// beside config.toml.
type StoreConfig struct {
	// URL is a server's store, postgres://…; empty keeps the SQLite file.
	// Leave the password out (PGPASSWORD or ~/.pgpass supply it).
	URL string `toml:"url"`
}

// LimitsConfig caps sizes.
type LimitsConfig struct {
	MaxContentBytes int `toml:"max_content_bytes"`
}

// DefaultKeepDailyDays is how long daily rollups outlive their week.
const DefaultKeepDailyDays = 90

// DefaultConfig is the configuration of a store without config.toml.
func DefaultConfig() *Config {
	return &Config{
		Working:   WorkingConfig{File: "CLAUDE.local.md", BudgetWords: 1500},
		Retrieval: RetrievalConfig{Embedder: "builtin"},
		Rollup:    RollupConfig{RawRetentionDays: 30, Timezone: "UTC", Summarizer: "rules", SessionBudgetMS: 25, Keep4hDays: 30, KeepDailyDays: DefaultKeepDailyDays},
		Hook:      HookConfig{MaxOutputBytes: 4096, ContextTokens: 2000},
		Session:   SessionConfig{HotSessions: 5, StaleDays: 90},
		Limits:    LimitsConfig{MaxContentBytes: 1 << 20},
	}
}

// UserConfigPath is the user-level config, $XDG_CONFIG_HOME/recall/config.toml
// (by default ~/.config/recall/config.toml); "" without a home directory.
func UserConfigPath() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "recall", ConfigFile)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "recall", ConfigFile)
}

// ConfigFiles lists the config files that apply to the store in dir, in the
// order they are read: the user's, then the store's own. Only files that
// exist are listed.
func ConfigFiles(dir string) []string {
	var out []string
	for _, p := range []string{UserConfigPath(), filepath.Join(dir, ConfigFile)} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && (len(out) == 0 || out[0] != p) {
			out = append(out, p)
		}
	}
	return out
}

// LoadStoreConfig reads the config of the store in dir: the defaults, then
// the user's config.toml, then the store's own. Each file sets only the keys
// it names, so the store's file wins key by key and the user's fills in the
// rest (a list or a table value such as [retention] days is merged key by
// key too; a list is replaced whole).
func LoadStoreConfig(dir string) (*Config, error) {
	cfg := DefaultConfig()
	for _, p := range ConfigFiles(dir) {
		buf, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if err := parseConfig(buf, cfg); err != nil {
			return nil, recall.Errorf(recall.EINVALID, "%s: %s Fix the file and retry.", p, err)
		}
	}
	return cfg, nil
}

// LoadConfig reads path over the defaults; a missing file is no error.
func LoadConfig(path string) (*Config, error) {
	cfg := DefaultConfig()
	buf, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return cfg, nil
	} else if err != nil {
		return nil, err
	}
	if err := parseConfig(buf, cfg); err != nil {
		return nil, recall.Errorf(recall.EINVALID, "%s: %s Fix the file and retry.", path, err)
	}
	return cfg, nil
}

// parseConfig decodes TOML over cfg, refusing unknown keys.
func parseConfig(buf []byte, cfg *Config) error {
	dec := toml.NewDecoder(bytes.NewReader(buf))
	dec.DisallowUnknownFields()
	if err := dec.Decode(cfg); err != nil {
		var sm *toml.StrictMissingError
		var de *toml.DecodeError
		switch {
		case errors.As(err, &sm) && len(sm.Errors) > 0:
			first := sm.Errors[0]
			row, col := first.Position()
			return fmt.Errorf("unknown setting %q at line %d, column %d (see the configuration section of the README)", strings.Join(first.Key(), "."), row, col)
		case errors.As(err, &de):
			row, col := de.Position()
			return fmt.Errorf("%s at line %d, column %d", de.Error(), row, col)
		}
		return err
	}
	return checkConfig(cfg)
}

// checkConfig refuses settings no store can honour: every count, size and
// duration in config.toml is 0 or more (0 means the default, or off where
// the README says so), so a negative one is a typo to fix, not a value to
// guess about.
func checkConfig(cfg *Config) error {
	counts := []struct {
		name string
		v    int
	}{
		{"working.budget_words", cfg.Working.BudgetWords},
		{"retrieval.dimensions", cfg.Retrieval.Dimensions},
		{"retrieval.batch_size", cfg.Retrieval.BatchSize},
		{"retrieval.timeout_seconds", cfg.Retrieval.TimeoutSeconds},
		{"retrieval.queue_interval_seconds", cfg.Retrieval.QueueIntervalSeconds},
		{"rollup.raw_retention_days", cfg.Rollup.RawRetentionDays},
		{"rollup.session_budget_ms", cfg.Rollup.SessionBudgetMS},
		{"rollup.keep_4h_days", cfg.Rollup.Keep4hDays},
		{"rollup.keep_daily_days", cfg.Rollup.KeepDailyDays},
		{"hook.max_output_bytes", cfg.Hook.MaxOutputBytes},
		{"hook.context_tokens", cfg.Hook.ContextTokens},
		{"hook.timeout_ms", cfg.Hook.TimeoutMillis},
		{"session.hot_sessions", cfg.Session.HotSessions},
		{"session.stale_days", cfg.Session.StaleDays},
		{"limits.max_content_bytes", cfg.Limits.MaxContentBytes},
	}
	for typ, days := range cfg.Retention.Days {
		counts = append(counts, struct {
			name string
			v    int
		}{"retention.days." + typ, days})
	}
	for _, c := range counts {
		if c.v < 0 {
			return fmt.Errorf("%s = %d is negative: use 0 or more (see the configuration section of the README for what 0 means)", c.name, c.v)
		}
	}
	return nil
}
