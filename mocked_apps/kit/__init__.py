"""The kit: the one home of every app's instances, reset, state dump, clock and base templates."""

from pathlib import Path

from .context import Gym, GymDep
from .derive import Defect, DeriveError, Edit, derive_app
from .instances import InstanceStore, SeedError, UnknownInstance
from .manifest import AppManifest, PageSpec
from .package import AppPackage, AppPackageError, load_manifest, load_package
from .client import AdminClient, AdminError
from .process import AppServer, AppServerError, free_port
from .server import SERVER_ERROR_MARK, TOKEN_HEADER, create_server
from .package import add_source
from .compiler import load_spec_package, spec_part
from .spec import is_spec

add_source(is_spec, lambda ref: load_spec_package(str(Path(ref).resolve())),  # spec files compile into apps
           lambda ref, name: spec_part(str(Path(ref).resolve()), name))

__all__ = [
    "AdminClient",
    "AdminError",
    "AppServer",
    "AppServerError",
    "Defect",
    "DeriveError",
    "Edit",
    "derive_app",
    "free_port",
    "AppManifest",
    "AppPackage",
    "AppPackageError",
    "Gym",
    "GymDep",
    "InstanceStore",
    "PageSpec",
    "SeedError",
    "SERVER_ERROR_MARK",
    "TOKEN_HEADER",
    "UnknownInstance",
    "create_server",
    "load_manifest",
    "load_package",
]
