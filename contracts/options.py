"""CLI options generated from a config model: one typed config per entry point, its fields typed once.

    @tasks_app.command("synthesize")
    @config_options(SynthConfig, names={"families": "--family"})
    def synthesize(config: SynthConfig, out: Path = typer.Option(...)) -> None: ...

Each field of the model becomes an option `--field-name` (or the name given in `names`) with the
field's description as its help and its default as the option's default; the command's own
parameters after `config` stay as they are. The model validates the values; a bad one is a
`typer.BadParameter` naming the option, which the root command prints as one line (exit code 2).
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal, Optional, TypeVar

import typer
from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

__all__ = ["config_options", "option_name"]

M = TypeVar("M", bound=BaseModel)


def option_name(field: str, names: dict[str, str] | None = None) -> str:
    """The option that sets a field: `--field-name`, unless `names` says otherwise."""
    return (names or {}).get(field) or "--" + field.replace("_", "-")


def _cli_type(annotation: Any) -> tuple[Any, bool]:
    """(the type Typer parses, whether the field is a tuple given as a repeated option)."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            kind, many = _cli_type(inner[0])
            return (kind if many else Optional[kind]), many
    if origin is tuple:
        return Optional[list[_cli_type(args[0])[0]]], True
    if origin is Literal:
        return str, False
    if annotation in (int, float, str, bool, Path):
        return annotation, False
    raise TypeError(f"config_options: no CLI type for {annotation!r}")


def config_options(model: type[M], names: dict[str, str] | None = None, exclude: Iterable[str] = ()) -> Callable:
    """Decorate `fn(config: model, ...)`: the command takes the model's fields as options and gets the config built."""
    exclude = set(exclude)
    fields = {name: info for name, info in model.model_fields.items() if name not in exclude}

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        hints = typing.get_type_hints(fn)  # the command's own options, their annotations resolved where fn lives
        own = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in list(inspect.signature(fn).parameters.values())[1:]]
        params, many = [], set()
        for name, info in fields.items():
            kind, is_many = _cli_type(info.annotation)
            if is_many:
                many.add(name)
            required = info.default is PydanticUndefined and info.default_factory is None
            default = ... if required else (None if is_many or info.default_factory else info.default)
            option = typer.Option(default, option_name(name, names), help=info.description or "", show_default=not is_many)
            params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind))
        params += [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]

        @functools.wraps(fn)
        def command(**values: Any) -> Any:
            given = {k: (tuple(v) if k in many else v) for k, v in values.items() if k in fields and v is not None}
            given = {k: v for k, v in given.items() if not (k in many and v == ())}  # no repeat given: the default
            try:
                config = model(**given)
            except ValidationError as err:
                first = err.errors()[0]
                where = option_name(str(first["loc"][0]), names) if first["loc"] else model.__name__
                raise typer.BadParameter(f"{where}: {first['msg']}") from None
            return fn(config, **{k: v for k, v in values.items() if k not in fields})

        command.__signature__ = inspect.Signature(params)
        command.__annotations__ = {p.name: p.annotation for p in params}
        del command.__wrapped__  # Typer must read the generated signature, not fn's
        return command

    return decorate
