"""Verifier code: sandboxed execution, scoring, validation by execution, review."""
