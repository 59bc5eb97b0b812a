"""Report writers: JSON (the contract), text (terminal), HTML (decision makers), CSV (machines)."""
