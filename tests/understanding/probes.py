"""What the mechanism tests of tests/understanding ask of an understanding or of the API, in one place."""

from __future__ import annotations

from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import Understanding, understand


def first_symptom(u: Understanding) -> str | None:
    """The best-ranked symptom of an understanding (FAQ entries and sections passed over), or None."""
    return next((s.id for s in u.ranked if s.kind == "symptom"), None)


def top_symptom(index: Index, text: str, lang: str) -> str | None:
    """The best-ranked symptom of a text."""
    return first_symptom(understand(index.matcher, text, lang))


def search(client: TestClient, lang: str, text: str) -> dict[str, object]:
    """The `/v1/search` answer to a text."""
    answer: dict[str, object] = client.get("/v1/search", params={"q": text, "lang": lang}).json()
    return answer
