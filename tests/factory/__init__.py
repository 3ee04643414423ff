"""Tests of factory/: sandbox, providers, review, validation."""
