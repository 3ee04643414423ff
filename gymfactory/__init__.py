"""gymfactory: mocked apps, verified tasks and GRPO training for GUI agents. The CLI lives in `cli`."""

__version__ = "0.1.0"
__all__ = ["__version__", "make"]


def make(env_id: str, **kwargs):
    """`gymnasium.make` with gymfactory's ids registered (`gymfactory.envs`); gymnasium loads only when this is called,
    not at every start of the `gymfactory` command."""
    import gymnasium

    import gymfactory.envs  # noqa: F401  registers the ids

    return gymnasium.make(env_id, **kwargs)
