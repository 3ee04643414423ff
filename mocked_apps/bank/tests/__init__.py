"""Tests of the bank app."""
