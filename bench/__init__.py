"""Benchmarks behind `gymfactory bench`."""
