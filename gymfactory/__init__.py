"""gymfactory: mocked apps, verified tasks and GRPO training for GUI agents. The CLI lives in `cli`."""

__version__ = "0.1.0"
__all__ = ["__version__"]
