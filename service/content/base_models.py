"""What every model of the knowledge files shares (content layer): strict, frozen models and the ids they use. Each
module declares its own base on `FROZEN` (a linter sees a pydantic model only through a base of its own module)."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, StringConstraints

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64)]
FROZEN = ConfigDict(frozen=True, extra="forbid")
