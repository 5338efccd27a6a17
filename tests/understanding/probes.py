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


def diagnose(client: TestClient, lang: str, text: str) -> dict[str, object]:
    """The `/v1/diagnose` answer to a text."""
    answer: dict[str, object] = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    return answer


def answered_symptom(answer: dict[str, object]) -> str | None:
    """The symptom id of a `/v1/diagnose` answer, or None."""
    symptom = answer.get("symptom")
    return symptom.get("id") if isinstance(symptom, dict) else None


def diagnosed_context(client: TestClient, lang: str, text: str) -> dict[str, object]:
    """The context `/v1/diagnose` understood from a text."""
    context = diagnose(client, lang, text)["context"]
    assert isinstance(context, dict)
    return context


def diagnosed_symptom(client: TestClient, lang: str, text: str) -> str | None:
    """The symptom `/v1/diagnose` answers a text with, or None."""
    return answered_symptom(diagnose(client, lang, text))


def hit_ids(answer: dict[str, object]) -> list[str]:
    """The ids of a `/v1/search` answer's hits, best first."""
    hits = answer["hits"]
    assert isinstance(hits, list)
    return [h["id"] for h in hits]
