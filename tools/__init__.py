"""The allowlisted tools and everything they read: corpus, locator index, vector index, policy."""
