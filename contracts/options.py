"""CLI options generated from a config model: one typed config per entry point, its fields typed once.

    @tasks_app.command("synthesize")
    @config_options(SynthConfig, names={"families": "--family"})
    def synthesize(config: SynthConfig, out: Path = typer.Option(...)) -> None: ...

Each field of the model becomes an option `--field-name` (or the name given in `names`) with the
field's description as its help and its default as the option's default; the command's own
parameters after `config` stay as they are. The model validates the values; a bad one is a
`typer.BadParameter` naming the option, which the root command prints as one line (exit code 2).

A field that is itself a config model (`synth: SynthConfig`) is flattened: each of its fields is an
option of its own (`--seed`, or the name `names` gives `"synth.n"`), whose default is the value in
the outer field's default, so one model's fields are typed once however many entry points nest it.
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


def _nested(annotation: Any) -> type[BaseModel] | None:
    """The config model a field holds, when it holds one (flattened into options of its own)."""
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def config_options(model: type[M], names: dict[str, str] | None = None, exclude: Iterable[str] = (),
                   only: Iterable[str] | None = None, helps: dict[str, str] | None = None) -> Callable:
    """Decorate `fn(config: model, ...)`: the command takes the model's fields as options and gets the config built.

    `exclude` leaves fields out, `only` keeps just these (nested ones as "outer.field"); a field left out keeps
    its default. `helps` replaces a field's description where the command gives the field another meaning."""
    exclude = set(exclude)
    if only is not None:
        keep = set(only)
        exclude |= {n for n in model.model_fields if n not in keep and not any(k.startswith(n + ".") for k in keep)}
        exclude |= {f"{n}.{sub}" for n, info in model.model_fields.items() if (inner := _nested(info.annotation))
                    for sub in inner.model_fields if f"{n}.{sub}" not in keep and n not in keep}
    # option parameter -> (outer field or None, field, FieldInfo, default shown)
    leaves: dict[str, tuple[str | None, str, Any, Any]] = {}
    nested_defaults: dict[str, BaseModel] = {}
    for name, info in model.model_fields.items():
        if name in exclude:
            continue
        inner = _nested(info.annotation)
        if inner is None:
            leaves[name] = (None, name, info, info.default)
            continue
        nested_defaults[name] = info.get_default(call_default_factory=True)
        for sub, sub_info in inner.model_fields.items():
            if f"{name}.{sub}" not in exclude:
                leaves[f"{name}__{sub}"] = (name, sub, sub_info, getattr(nested_defaults[name], sub))

    def shown(outer: str | None, field: str) -> str:
        """The option of a field: `names` may name a nested one as "outer.field"; else as any field."""
        if outer and f"{outer}.{field}" in (names or {}):
            return names[f"{outer}.{field}"]
        return option_name(field, names)

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        hints = typing.get_type_hints(fn, localns={model.__name__: model})  # annotations resolved where fn lives
        own = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in list(inspect.signature(fn).parameters.values())[1:]]
        params, many = [], set()
        for param, (outer, field, info, default) in leaves.items():
            kind, is_many = _cli_type(info.annotation)
            if is_many:
                many.add(param)
            required = outer is None and info.default is PydanticUndefined and info.default_factory is None
            if outer is None and info.default_factory is not None:
                default = None
            flag = shown(outer, field)
            if kind is bool:  # on and off both: a field that defaults to True must be turned off somehow
                flag = f"{flag}/--no-{flag.removeprefix('--')}"
            described = (helps or {}).get(f"{outer}.{field}" if outer else field, info.description or "")
            option = typer.Option(... if required else (None if is_many else default), flag, help=described, show_default=not is_many)
            params.append(inspect.Parameter(param, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind))
        params += [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]

        @functools.wraps(fn)
        def command(**values: Any) -> Any:
            given = {k: (tuple(v) if k in many else v) for k, v in values.items() if k in leaves and v is not None}
            given = {k: v for k, v in given.items() if not (k in many and v == ())}  # no repeat given: the default
            top = {leaves[k][1]: v for k, v in given.items() if leaves[k][0] is None}
            for outer, default in nested_defaults.items():
                mine = {leaves[k][1]: v for k, v in given.items() if leaves[k][0] == outer}
                top[outer] = {**default.model_dump(), **mine}
            try:
                config = model(**top)
            except ValidationError as err:
                first = err.errors()[0]
                loc = [str(part) for part in first["loc"]]
                if not loc:  # the model's own check across fields: its message names the options
                    raise typer.BadParameter(first["msg"].removeprefix("Value error, ")) from None
                where = shown(loc[0], loc[1]) if len(loc) > 1 and loc[0] in nested_defaults else option_name(loc[0], names)
                given_value = first.get("input")
                value = " ".join(map(str, given_value)) if isinstance(given_value, (list, tuple)) else given_value
                msg = first["msg"][:1].lower() + first["msg"][1:]
                raise typer.BadParameter(f"{where} {value}: {msg}" if value is not None else f"{where}: {msg}") from None
            return fn(config, **{k: v for k, v in values.items() if k not in leaves})

        command.__signature__ = inspect.Signature(params)
        command.__annotations__ = {p.name: p.annotation for p in params}
        del command.__wrapped__  # Typer must read the generated signature, not fn's
        return command

    return decorate
