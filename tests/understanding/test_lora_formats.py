"""Issue 12, session 8 (blind set 6's dev half): a trained LoRA file that another program reads wrongly ("unmatched
keys" in Forge, "the same file works in ComfyUI", "hay que convertirlo") is the file's format, not a weak result of
the training (`load_compat`, `intents.yaml` `outside`); and a LoRA named by its kind after the noun, as Spanish,
Portuguese and French write it ("OOM con un lora de video", "uma lora de personagem"), is the LoRA being trained, not
one in use in a generation. Sentences written for the test, as forum users of each language write (none is a line of
a query set)."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import understand


def _symptom(index: Index, lang: str, text: str) -> str | None:
    return next((s.id for s in understand(index.matcher, text, lang).ranked if s.kind == "symptom"), None)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my lora from ai-toolkit does nothing in forge, console shows unmatched keys. works in comfy though"),
    ("en", "trained a flux lora with ai toolkit, in forge it has no effect at all but the same file works in comfyui. "
           "do I need to convert the lora?"),
    ("en", "lora has zero effect in A1111, works fine in comfy. same file. any conversion step needed?"),
    ("es", "mi lora de ai-toolkit no hace nada en forge, sale unmatched keys en la consola. en comfy funciona"),
    ("es", "entrene un lora con ai toolkit y en forge no tiene efecto, el mismo archivo funciona en comfy. hay que "
           "convertirlo?"),
    ("pt", "minha lora do ai-toolkit nao faz nada no forge, aparece unmatched keys. no comfy funciona"),
    ("pt", "treinei uma lora no ai toolkit e no forge ela nao muda nada, o mesmo arquivo funciona no comfy. precisa "
           "converter?"),
    ("fr", "mon lora fait avec ai-toolkit ne fait rien dans forge, la console affiche unmatched keys. dans comfy ca "
           "marche"),
    ("fr", "j'ai entraine une lora avec ai toolkit, dans forge aucun effet mais le meme fichier marche dans comfy. "
           "faut la convertir ?"),
    ("de", "mein LoRA aus ai-toolkit macht in Forge gar nichts, Konsole zeigt unmatched keys. In Comfy geht es"),
    ("de", "LoRA mit ai-toolkit trainiert, in Forge null Wirkung, die gleiche Datei funktioniert in Comfy. Muss man "
           "das konvertieren?"),
    ("ko", "ai-toolkit로 만든 로라가 포지에서 안 먹혀요. "
           "콘솔에 unmatched keys 떠요. 컴피에서는 잘 돼요"),
    ("ko", "ai toolkit으로 학습한 로라가 포지에서 효과가 없어요 "
           "같은 파일이 컴피에서는 잘 돼요 따로 변환해야 하나요?"),
])
def test_a_file_another_program_reads_wrongly_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my lora works in comfy but the face looks nothing like her, previews during training looked right"),
    ("en", "the lora does nothing, 2000 steps and the face doesn't look like me at all"),
    ("es", "la lora no se parece nada a la persona, 2000 pasos y nada"),
    ("de", "das LoRA funktioniert in Comfy, aber das Gesicht sieht ihr null ähnlich, die Samples im Training sahen gut "
           "aus"),
    ("ko", "컴피에서는 잘 돌아가는데 얼굴이 하나도 안 닮았어요. 학습 중 샘플은 괜찮았어요"),
    # the file loads and runs: what it makes is the LoRA's
    ("en", "my lora from ai toolkit works in comfy but the face looks nothing like her"),
    ("es", "mi lora de ai toolkit funciona en comfy pero la cara no se parece nada"),
    ("ko", "ai toolkit으로 만든 로라가 컴피에서는 잘 돌아가는데 얼굴이 하나도 안 닮았어요"),
    ("ko", "컴피에서는 잘 돌아가는데 얼굴이 하나도 안 닮았어요"),
])
def test_a_weak_result_stays_one(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "OOM con un lora de video de wan 2.1, clips de 81 frames, ni idea de si tengo el GC activado"),
    ("es", "me da OOM con un lora de personaje en flux, batch 1 a 1024"),
    ("pt", "OOM com uma lora de video do wan 2.1, clipes de 81 frames"),
    ("fr", "OOM avec un lora vidéo wan 2.1, clips de 81 frames"),
])
def test_a_lora_named_by_its_kind_is_the_one_trained(index: Index, lang: str, text: str) -> None:
    assert (_symptom(index, lang, text) or "").startswith("oom-")


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "OOM en comfyui al generar con un lora de personaje"),
    ("es", "comfy se queda sin memoria con un lora de estilo cargado"),
    ("pt", "o comfyui fica sem memoria quando gero com uma lora de personagem"),
    ("fr", "comfyui manque de memoire quand je genere avec une lora de personnage"),
])
def test_a_lora_of_a_kind_in_a_generation_stays_the_generations(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) is None
