// Bundles the Claude Code adapter into one file so its content digest covers every line it runs.
// (Filled in by the adapter-claude-code work; until then there is nothing to bundle.)
