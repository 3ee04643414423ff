"""GRPO training over the shared rollout path."""
