"""App synthesis by coding agents."""
