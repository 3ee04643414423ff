"""Synthesis: apps, worlds, tasks and verifiers, and the LLM providers they share."""
