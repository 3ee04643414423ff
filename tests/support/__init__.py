"""Reusable test helpers (servers and fixtures shared by several test packages)."""
