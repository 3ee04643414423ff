"""App specs: the declarative form of an app (entities, state machines, pages from archetypes, navigation, theme,
sample data) and the compiler that turns one into a running kit app."""

from .compile import DEFAULT_CLOCK, compile_spec, is_spec, load_spec_package, manifest_of, read_spec
from .formula import FormulaError, evaluate
from .model import AppSpec, EntitySpec, FieldSpec, PageSpec, SpecError, ThemeSpec, TransitionSpec, page_path, page_title
from .sample import SampleError, sample_seed

__all__ = ["AppSpec", "DEFAULT_CLOCK", "EntitySpec", "FieldSpec", "FormulaError", "PageSpec", "SampleError", "SpecError",
           "ThemeSpec", "TransitionSpec", "compile_spec", "evaluate", "is_spec", "load_spec_package", "manifest_of",
           "page_path", "page_title", "read_spec", "sample_seed"]
