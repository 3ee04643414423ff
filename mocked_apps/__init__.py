"""Shipped mocked apps and the kit they stand on."""
