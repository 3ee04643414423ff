"""The ground floor: the data contracts every package may import, and that import no package above.

Dependencies point one way: flows -> rl / factory -> runtime -> mocked_apps -> contracts. Here:
the task (`task`, with the `Capability` vocabulary and task files in `taskfiles`), the world
(`world`), what a verifier sees and how it is scored (`scoring`, `footprint`), how an attempt ends
(`status`), a golden run's steps (`demonstration`), the task-family base (`family`), and the two
things every package shares: `InputError` (`errors`) and the name registry with did-you-mean (`registry`).
"""

from .demonstration import DemoStep
from .errors import InputError
from .family import Family, Requirements
from .registry import Registry, UnknownName, check_name, suggest
from .scoring import Final, Score, score, score_final
from .status import Status
from .task import CAPABILITIES, Capability, Criterion, Footprint, Task, TaskMeta
from .world import World

__all__ = [
    "CAPABILITIES",
    "Capability",
    "Criterion",
    "DemoStep",
    "Family",
    "Final",
    "Footprint",
    "InputError",
    "Registry",
    "Requirements",
    "Score",
    "Status",
    "Task",
    "TaskMeta",
    "UnknownName",
    "World",
    "check_name",
    "score",
    "score_final",
    "suggest",
]
