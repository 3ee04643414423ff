"""App specs: the declarative form of an app (entities, state machines, pages from archetypes, navigation, theme,
sample data). `mocked_apps.kit.compiler` turns one into a running kit app; `spec.derive` derives its task families."""

from .files import SPEC_SUFFIXES, is_spec, read_spec
from .formula import FormulaError, evaluate
from .model import AppSpec, EntitySpec, FieldSpec, PageSpec, SpecError, ThemeSpec, TransitionSpec, page_path, page_title
from .sample import SampleError, sample_seed

__all__ = ["AppSpec", "EntitySpec", "FieldSpec", "FormulaError", "PageSpec", "SPEC_SUFFIXES", "SampleError", "SpecError",
           "ThemeSpec", "TransitionSpec", "evaluate", "is_spec", "page_path", "page_title", "read_spec", "sample_seed"]
