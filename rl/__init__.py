"""GRPO training over the shared rollout path.

Modules (imported on use, so `rl.grpo` stays light): grpo (advantages, clipped objective, k3),
update (one GRPO step), sampler (task budgets), policy (load / build the tiny policy), chat
(harness prompts as token ids), agent (`policy` agent that records log-probs), samples (windowed
training samples), demos (golden demonstrations), sft (warm-up), checkpoint, config (TrainConfig),
train (`train(config) -> TrainReport`), cli (`gymfactory train`).
"""

__all__ = ["agent", "chat", "checkpoint", "cli", "config", "demos", "grpo", "policy", "sampler", "samples", "sft", "train", "update"]
