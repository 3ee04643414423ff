"""Tests of the drive app."""
