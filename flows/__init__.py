"""Prefect flows for each stage and the whole pipeline."""
