package main

import (
	"context"

	"github.com/recall-mem/recall/engine"
	"github.com/spf13/cobra"
)

func (a *app) commands() []*cobra.Command {
	return []*cobra.Command{
		a.initCommand(), a.whereCommand(),
		a.putCommand(), a.getCommand(), a.updateCommand(), a.deleteCommand(),
		a.listCommand(), a.searchCommand(),
		a.contextCommand(),
		a.versionsCommand(), a.diffCommand(), a.restoreCommand(),
		a.importCommand(), a.exportCommand(),
		a.backupCommand(), a.restoreBackupCommand(), a.migrateCommand(),
		a.demoCommand(),
		a.rollupCommand(),
		a.tiersCommand(),
		a.benchCommand(),
		a.purgeCommand(),
		a.sweepCommand(),
		a.statsCommand(),
		a.observationCommand(),
		a.mcpCommand(),
		a.serveCommand(),
		a.initIDsCommand(),
		a.syncCommand(),
		a.maintainCommand(),
		a.entryCommand("pin"),
		a.entryCommand("unpin"),
		a.entryCommand("snooze"),
		a.entryCommand("demote"),
		a.entryCommand("archive"),
		a.entryCommand("supersede"),
		a.entryCommand("review"),
		a.observeCommand(), a.timelineCommand(),
		a.hookCommand(),
		a.installCommand(),
		a.sessionCommand(),
		a.procedureCommand(),
		a.doctorCommand(),
		a.reindexCommand(),
		a.versionCommand(),
	}
}

func (a *app) initCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "init",
		Short: "Create a project store (.recall/) here, or the global store with --global",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			r, err := a.eng.Init(context.Background())
			if err != nil {
				return err
			}
			abs, existed, reason := r.Dir, !r.Created, r.Reason
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"dir": abs, "created": !existed, "reason": reason})
			}
			if existed {
				fprintf(a.stdout, "Store already initialised at %s\n", abs)
			} else {
				fprintf(a.stdout, "Initialised %s at %s\n", reason, abs)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}

func (a *app) whereCommand() *cobra.Command {
	var jsonOut bool
	c := &cobra.Command{
		Use:   "where",
		Short: "Print the store recall would use, why, and its config files",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			loc, err := engine.ResolveStore(a.eng.StoreFlag, a.eng.GlobalFlag)
			if err != nil {
				return err
			}
			statErr := engine.StoreExists(loc)
			configs := engine.ConfigFiles(loc.Dir)
			if jsonOut {
				return writeJSON(a.stdout, map[string]any{"dir": loc.Dir, "store": loc.Store(), "reason": loc.Reason, "kind": loc.Kind, "exists": statErr == nil,
					"config_files": append([]string{}, configs...), "user_config": engine.UserConfigPath()})
			}
			fprintf(a.stdout, "%s\n  (%s)\n", loc.Store(), loc.Reason)
			if statErr != nil {
				fprintf(a.stdout, "  not created yet: 'recall init' creates a project store, any write creates this one\n")
			}
			if len(configs) == 0 {
				fprintf(a.stdout, "  config: none, the defaults (a user config would be %s)\n", engine.UserConfigPath())
			}
			for _, p := range configs {
				fprintf(a.stdout, "  config: %s\n", p)
			}
			if len(configs) > 1 {
				fprintf(a.stdout, "  (read in this order: the later wins key by key)\n")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&jsonOut, "json", false, "print JSON")
	return c
}
