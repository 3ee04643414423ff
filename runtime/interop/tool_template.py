"""A chat template with tool calling for the local policies (the tiny one and the reference SmolLM2), for TRL.

`GRPOTrainer(environment_factory=...)` refuses a tokenizer whose template cannot render
user -> assistant(tool_calls) -> tool, and parses tool calls only for templates it knows. The local
policies have none (the tiny one) or ChatML without tools (SmolLM2-Instruct), so they get TRL's own
ChatML template with tools (`<tool_call>{"name": ..., "arguments": ...}</tool_call>`, Qwen2.5's): its
framing is SmolLM2's `<|im_start|>`/`<|im_end|>`, and TRL recognises it, so it sets the response parser
and the prefix-preserving training variant itself.
"""

from __future__ import annotations

from trl.chat_template_utils import qwen2_5_chat_template

__all__ = ["TOOL_CHAT_TEMPLATE", "with_tool_template"]

TOOL_CHAT_TEMPLATE = qwen2_5_chat_template


def with_tool_template(tokenizer):
    """The tokenizer with the tool-calling template (and a pad token), ready for `GRPOTrainer(processing_class=...)`."""
    tokenizer.chat_template = TOOL_CHAT_TEMPLATE
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"  # TRL generates from left-padded prompts
    return tokenizer
