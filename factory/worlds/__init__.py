"""Worlds: persona + scenario -> people, organisations, events, documents -> per-app seeds."""
