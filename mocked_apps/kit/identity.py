"""The signed-in identity: who the agent acts for, from the world's persona, owned by the kit.

An app's seed carries it under the reserved key `_identity` (one row: name, email, company); the kit
keeps it beside the clock, out of state dumps (it never changes), and gives every template an
`identity` global. A projection writes it with `identity_seed(world.persona)`; an app's default
seed.json may carry one too. Without one, templates get `Identity()` (empty strings): an app shows
the user from here, never from a hard-coded name.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from contracts.world import Persona

__all__ = ["IDENTITY_KEY", "Identity", "identity_seed", "split_seed"]

IDENTITY_KEY = "_identity"


class Identity(BaseModel):
    """The signed-in user as every app shows them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = ""
    email: str = ""
    company: str = ""

    @property
    def initials(self) -> str:
        return "".join(part[0] for part in self.name.split()[:2]).upper()


def identity_seed(persona: Persona) -> dict[str, list[dict]]:
    """The seed entry that signs the persona in: merge it into a projection's records."""
    return {IDENTITY_KEY: [Identity(name=persona.name, email=persona.email, company=persona.company).model_dump()]}


def split_seed(seed: dict) -> tuple[dict, Identity | None]:
    """(the seed's table records, its identity or None); ValueError naming the field when the identity is malformed."""
    if IDENTITY_KEY not in seed:
        return seed, None
    rows = seed[IDENTITY_KEY]
    if not isinstance(rows, list) or len(rows) != 1 or not isinstance(rows[0], dict):
        raise ValueError(f"seed.{IDENTITY_KEY}: must be a list of one row {{name, email, company}}")
    tables = {k: v for k, v in seed.items() if k != IDENTITY_KEY}
    return tables, Identity.model_validate(rows[0])
