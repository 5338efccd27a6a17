"""The ASGI shapes the middleware and guards of the HTTP layer are written against."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..errors import RemedyError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
# A problem as an answer: status, headers and body of its problem+json.
ProblemWriter = Callable[[Scope, RemedyError], tuple[int, list[tuple[bytes, bytes]], bytes]]
