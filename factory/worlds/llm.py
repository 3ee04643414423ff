"""Worlds written by an LLM: the model invents persona, scenario and facts as a `World` document,
and the same integrity checks as for procedural worlds decide; a world that breaks them goes back
to the model with every problem listed, a bounded number of times."""

from __future__ import annotations


from factory.providers.base import Provider, ProviderError

from .builder import build_world
from .integrity import WorldError, problems
from contracts.world import World


def _prompt(persona_hint: str, scenario_hint: str, seed: int) -> str:
    example = build_world("alex", "month_end", 0)
    return (
        "Invent a realistic world for testing office-software agents, as one JSON document of this schema. "
        f"Persona: {persona_hint}. Scenario: {scenario_hint}. Variation seed: {seed}.\n"
        "Rules: every id referenced exists; an invoice's amount equals the sum of quantity x unit_price of its items; "
        "paid invoices have exactly one transaction with reference = invoice number and amount = -invoice amount; "
        "unpaid ones have none; every invoice's vendor is a payee and some message carries its file (<number>.pdf); "
        "invoice numbers, file names and emails are unique; dates and times are not after scenario.clock; meetings end after they start; "
        "message attachments name an invoice filename (<number>.pdf) or a document name; the user is a person whose "
        "email equals persona.email; non-credit account balances stay non-negative.\n"
        f"A valid example (write a different world, same shape):\n{example.model_dump_json()}\n"
        "Reply with the JSON only."
    )


def generate_world(provider: Provider, persona_hint: str, scenario_hint: str, seed: int = 0, attempts: int = 3) -> World:
    """A world from the model that passes every integrity check, or ProviderError with the last problems."""
    messages = [{"role": "user", "content": _prompt(persona_hint, scenario_hint, seed)}]
    last: list[str] = []
    for _ in range(attempts):
        world = provider.structured(messages, World)
        last = problems(world)
        if not last:
            return world.model_copy(update={"provenance": f"llm:{getattr(provider, 'model', provider.name)}"})
        messages += [{"role": "assistant", "content": world.model_dump_json()},
                     {"role": "user", "content": "This world breaks its integrity rules:\n- " + "\n- ".join(last[:20])
                      + "\nReply with the corrected JSON only."}]
    raise ProviderError(provider.name, "invalid_world", str(WorldError("generated", last)))


__all__ = ["generate_world"]
