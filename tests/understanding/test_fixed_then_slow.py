"""Issue 12, session 13: an OOM told as fixed by what the user did ("turning GC back on fixed the OOM", "arregló el
OOM", "resolveu o OOM", "a réglé l'OOM", "hat den OOM behoben", "OOM 해결됐어요") is over: the slowness told after it
is the question, not an OOM that persists with GC on. Twins: the same fix denied keeps the OOM. Sentences written for
the test, in every language (none is a line of a query set)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "turning GC back on fixed the OOM. Now it's 6 s/it, slow, is that normal?"),
    ("es", "volver a activar el GC arregló el OOM. Ahora va a 6 s/it, lento, ¿es normal?"),
    ("pt", "religar o GC resolveu o OOM. Agora tá 6 s/it, lento, é normal?"),
    ("fr", "remettre le GC a corrigé l'OOM. Maintenant c'est 6 s/it, c'est lent, normal ?"),
    ("fr", "moi aussi OOM au step 1 avec Qwen Edit, remettre le GC a réglé ça. Maintenant c'est 6 s/it, c'est lent"),
    ("de", "GC wieder an hat den OOM behoben. Jetzt 6 s/it, langsam, ist das normal?"),
    ("ko", "GC 다시 켜니까 OOM 해결됐어요. 근데 이제 6 s/it이라 느려요, 정상인가요?"),
])
def test_an_oom_told_as_fixed_leaves_the_slowness(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "turning GC back on has not fixed the OOM, still OOM at step 3"),
    ("es", "volver a activar el GC no arregló el OOM, sigue dando OOM en el paso 3"),
    ("pt", "religar o GC não resolveu o OOM, continua dando OOM no passo 3"),
    ("fr", "remettre le GC n'a pas corrigé l'OOM, toujours OOM au step 3"),
    ("de", "GC wieder an hat den OOM nicht behoben, immer noch OOM bei Step 3"),
    ("ko", "GC 다시 켜도 OOM 해결 안 됐어요, 여전히 3스텝에서 OOM"),
])
def test_a_fix_denied_keeps_the_oom(client: TestClient, lang: str, text: str) -> None:
    assert answered_symptom(diagnose(client, lang, text)) in ("oom-persists-with-gc", "oom-early-steps")
