"""The app contract checker: drives a real app server with a real browser and judges each law of Contract 1."""

from .check import CheckerError, check_app
from .report import LAWS, CheckReport, Coverage, LawResult, render

__all__ = ["LAWS", "CheckReport", "CheckerError", "Coverage", "LawResult", "check_app", "render"]
