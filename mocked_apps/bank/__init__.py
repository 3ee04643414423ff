"""Meridian Business Online: a deterministic business online bank (accounts, bill pay, transfers, statements)."""
