"""Named plug-ins (toolchains, generators): a name resolves to a ``module:Class`` string, imported only
when chosen.

Names come from three places, in this order of precedence:

1. the project's own table (``builtin``);
2. entry points of installed packages in the registry's group, so a third party can ship a toolchain
   or a model backend as its own package::

       [project.entry-points."npukernelbench.toolchains"]
       cann = "npukb_cann.toolchain:CannToolchain"

3. a ``module:Class`` string given directly (``--toolchain=my_pkg.chain:MyToolchain``).

An installed package cannot shadow a built-in name.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class RegistryError(ValueError):
    """An unknown name, or a target that cannot be imported."""


def is_target(text: str) -> bool:
    """True for a ``module.path:Class`` string (dotted identifiers on both sides of one colon)."""
    module, sep, attr = text.partition(":")
    return bool(sep) and all(part.isidentifier() for part in (*module.split("."), *attr.split(".")))


def import_target(target: str) -> Any:
    """The object a ``module:Class`` (or ``module:Outer.Inner``) string names."""
    module_name, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass
class Registry:
    kind: str                                  # "toolchain", "model backend": used in messages
    group: str                                 # entry-point group of installed plug-ins
    builtin: Mapping[str, str]                 # name -> "module:Class"
    _installed: dict[str, str] | None = field(default=None, init=False, repr=False)

    def installed(self) -> dict[str, str]:
        """Entry points of installed packages in this registry's group (read once; see ``refresh``)."""
        if self._installed is None:
            from importlib.metadata import entry_points

            self._installed = {ep.name: ep.value for ep in entry_points(group=self.group)
                               if ep.name not in self.builtin}
        return self._installed

    def refresh(self) -> None:
        """Forget the entry points read so far (after installing a package into a running process)."""
        self._installed = None

    def names(self) -> tuple[str, ...]:
        return (*self.builtin, *self.installed())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self.builtin or name in self.installed())

    def target(self, name: str) -> str:
        """``module:Class`` of a registered name, or ``name`` itself when it is such a string."""
        if name in self.builtin:
            return self.builtin[name]
        if name in self.installed():
            return self.installed()[name]
        if is_target(name):
            return name
        raise RegistryError(f"unknown {self.kind} {name!r}; choose one of: {', '.join(self.names())}, "
                            f"or give module:Class")

    def load(self, name: str) -> Any:
        """The class registered as ``name`` (imported now). ImportError propagates (a missing extra
        is the caller's message to give); a target naming nothing raises RegistryError."""
        target = self.target(name)
        try:
            return import_target(target)
        except AttributeError as exc:
            raise RegistryError(f"cannot load {self.kind} {name!r} ({target}): {exc}") from exc
