"""Model adapters: every model, offline or remote, drafts through the same `DraftingModel` protocol."""
