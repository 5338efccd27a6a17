"""Issue 12, session 11 (outcome11): a weak result told by its outcome, and its look-alikes that are `none`, six
languages.

Users tell a weak result by what the trained thing does against what they expected of it: it does not meet their
expectations, the inference is not aligned with (or feels worse than) the trainer's own validation samples (the guide's
preview-parity case), the previews came out well but another program makes something else, the training converges
slower than another one (a result, not a speed), the loss is not coming down. A post that tells a weak result and
denies an OOM ("OOM 같은 에러는 한 번도 없었고") is about the result.

The other side looks alike and is `none`: results alike by design (two copies of the same samples made with a fixed
seed, asked how to turn one set off), a bad result of a model not trained yet (noise at the first sampling, "this is
not trained": the base model's or the pipeline's). Twins keep their reading: a fixed seed with step counts compared is
still a training that changed nothing, noise after thousands of steps still a weak result, a slow step still a slow run.

Every sentence was written for this test, as forum users write in each language (none is a line of the query sets)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnose, diagnosed_symptom, search

WEAK = "weak-samples"

EXPECTATION_MISSED = [
    ("en", "trained a lora on my own photos, but the images it generates do not meet my expectations"),
    ("es", "entrené una lora con mis fotos pero las imágenes que genera no cumplen mis expectativas"),
    ("pt", "treinei uma lora com minhas fotos mas as imagens geradas não atendem às minhas expectativas"),
    ("fr", "j'ai entraîné une lora sur mes photos mais les images générées ne répondent pas à mes attentes"),
    ("de", "ich habe ein LoRA mit meinen Fotos trainiert, aber die Bilder entsprechen nicht meinen Erwartungen"),
    ("ko", "제 사진으로 로라를 학습했는데 생성된 이미지가 기대만큼 안 나와요"),
]

CONVERGES_SLOWER = [
    ("en", "my controlnet training on a custom dataset is converging slower than the original controlnet"),
    ("es", "mi controlnet entrenado converge más lento que el original con el mismo dataset"),
    ("pt", "meu treino de controlnet converge mais devagar que o controlnet original com o mesmo dataset"),
    ("fr", "mon entraînement controlnet converge plus lentement que le controlnet d'origine sur le même dataset"),
    ("de", "mein ControlNet-Training konvergiert langsamer als das normale ControlNet mit demselben Datensatz"),
    ("ko", "같은 데이터셋인데 제 컨트롤넷 학습이 원래 컨트롤넷보다 수렴이 느려요"),
]

# inference against the trainer's validation samples: the preview-parity case
PARITY_WITH_VALIDATION = [
    ("en", "the validation videos during training look great, but when I run inference with the saved lora the "
           "results are not aligned with them"),
    ("es", "los vídeos de validación durante el entrenamiento se ven bien, pero al hacer inferencia con la lora "
           "guardada los resultados no están alineados con ellos"),
    ("pt", "os vídeos de validação durante o treino ficam ótimos, mas na inferência com a lora salva os resultados "
           "não estão alinhados com eles"),
    ("fr", "les vidéos de validation pendant l'entraînement sont bien, mais en inférence avec la lora sauvegardée les "
           "résultats ne sont pas alignés avec elles"),
    ("de", "die Validierungsvideos im Training sehen gut aus, aber bei der Inferenz mit dem gespeicherten LoRA sind "
           "die Ergebnisse nicht deckungsgleich mit der Validierung"),
    ("ko", "학습 중 밸리데이션 영상은 좋은데 저장된 로라로 추론하면 결과가 밸리데이션이랑 맞지 않아요"),
    ("en", "loaded my trained lora with the same prompt and seed, the result always feels worse compared to the "
           "validation samples"),
    ("es", "cargué mi lora entrenada con el mismo prompt, el resultado sale peor comparado con las muestras de "
           "validación"),
    ("pt", "carreguei minha lora treinada com o mesmo prompt, o resultado sai pior comparado com as amostras de "
           "validação"),
    ("fr", "j'ai chargé ma lora entraînée avec le même prompt, le résultat est moins bien comparé à les samples de "
           "validation"),
    ("de", "ich habe mein trainiertes LoRA mit demselben Prompt geladen, das Ergebnis ist schlechter im Vergleich zu "
           "den Validierungs-Samples"),
    ("ko", "학습한 로라를 같은 프롬프트로 돌렸는데 밸리데이션 샘플에 비해 안 좋아요"),
]

# the previews came out well, another program makes something else ("잘 나왔는데" is no solved post)
PREVIEWS_WELL_ELSEWHERE_NOT = [
    ("en", "the samples during training came out great, but in comfy the lora feels completely different, much "
           "weaker"),
    ("es", "las muestras durante el entrenamiento salían geniales, pero en comfy la lora se siente muy distinta, "
           "mucho más débil"),
    ("pt", "as amostras durante o treino saíam ótimas, mas no comfy a lora fica bem diferente, muito mais fraca"),
    ("fr", "les samples pendant l'entraînement étaient super, mais dans comfy la lora est complètement différente, "
           "bien plus faible"),
    ("de", "die Samples im Training sahen super aus, aber in Comfy wirkt das LoRA völlig anders, viel schwächer"),
    ("ko", "프리뷰는 잘 나왔는데 포지에서 쓰면 얼굴이 완전 다르게 나와요"),
]

OTHER_WEAK = [
    # a weak result, an OOM denied with "not once" between them
    ("ko", "로라가 저랑 안 닮았어요. 학습 중에 OOM 같은 에러는 한 번도 없었고 끝까지 잘 돌았어요"),
    # the loss not coming down, the model's LLM text encoder named
    ("en", "my hunyuan video lora loss is not coming down after 5000 steps, using the fp8 llm text encoder, output "
           "is trash"),
    # twins: a fixed seed with step counts compared, noise after the training
    ("en", "with the same seed, the samples at step 500 and step 3000 look identical"),
    ("es", "con la misma semilla, las muestras del paso 500 y del paso 3000 salen idénticas"),
    ("ko", "같은 시드로 500스텝이랑 3000스텝 샘플이 똑같아요"),
    ("en", "my lora outputs pure noise after 3000 steps of training"),
    ("ko", "3000스텝 학습했는데 노이즈만 나와요"),
]

# results alike by design (a fixed seed), asked how to turn one set off
SEED_KEPT = [
    ("en", "At 220 steps it generates the samples twice, one set with the step number, one with the epoch number "
           "(with fixed seed, the two sets of samples are identical). Is there a way to disable the per-epoch "
           "samples?"),
    ("es", "en el paso 200 guarda las muestras dos veces (con semilla fija los dos juegos son idénticos), ¿cómo "
           "desactivo las de época?"),
    ("pt", "com a mesma seed os dois conjuntos de amostras saem idênticos, dá pra desligar as amostras por época?"),
    ("fr", "avec la même seed les deux séries de samples sont identiques, comment désactiver celles par epoch ?"),
    ("de", "mit festem Seed sind beide Sätze Samples identisch, kann ich die Epochen-Samples abschalten?"),
    ("ko", "200스텝에서 샘플이 두 번 저장돼요, 시드 고정이라 두 세트가 똑같아요. 에폭 샘플만 끌 수 있나요?"),
]

# a bad result of a model not trained yet
NOT_TRAINED_YET = [
    ("en", "LTX 2.3 train output noise, pls help. I use the trainer to train ltx 2.3, but it outputs noise in the "
           "first sampling (this is not trained). With ltx 2.0 it won't sample noise."),
    ("es", "entreno ltx 2.3 y la primera muestra ya sale solo ruido, y eso que aún no está entrenado; con ltx 2.0 no "
           "pasa"),
    ("pt", "treino o ltx 2.3 e a primeira amostra já sai só ruído, e ainda não foi treinado; no ltx 2.0 não acontece"),
    ("fr", "j'entraîne ltx 2.3 et le premier sample ne sort que du bruit, alors que ce n'est pas encore entraîné ; "
           "avec ltx 2.0 non"),
    ("de", "ich trainiere LTX 2.3 und das erste Sample ist nur Rauschen, obwohl noch nicht trainiert; mit LTX 2.0 "
           "passiert das nicht"),
    ("ko", "ltx 2.3 학습하는데 첫 샘플부터 노이즈만 나와요, 아직 학습 안 된 상태인데요. 2.0은 안 그래요"),
]

# twins of the Korean "came out well": a success told stays none
SUCCESS_TOLD = [
    ("ko", "끝났어요! 2000스텝에 1.2 it/s, 로라 아주 잘 나왔어요"),
    ("ko", "로라 잘 나왔어요 가이드 감사합니다!"),
]

SLOW_TWINS = [
    ("ko", "학습 속도가 느려요, 스텝당 10초 걸려요"),
    ("en", "training is really slow, 10 seconds per step on my 3090"),
]


@pytest.mark.parametrize(("lang", "text"), EXPECTATION_MISSED + CONVERGES_SLOWER + PARITY_WITH_VALIDATION
                         + PREVIEWS_WELL_ELSEWHERE_NOT + OTHER_WEAK)
def test_a_judged_outcome_is_weak_samples(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), SEED_KEPT + NOT_TRAINED_YET + SUCCESS_TOLD)
def test_alike_outcomes_that_tell_no_weak_result_are_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


@pytest.mark.parametrize(("lang", "text"), SLOW_TWINS)
def test_a_slow_step_stays_a_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


def test_an_oom_denied_not_once_states_no_step_of_a_failure(client: TestClient) -> None:
    """The steps of the schedule ("2000스텝") are no step the OOM came at: that OOM is denied."""
    text = ("FLUX dev, 2000스텝으로 학습했는데 로라가 저랑 안 닮았어요. "
            "학습 중에 OOM 같은 에러는 한 번도 없었고 끝까지 잘 돌았어요")
    answer = diagnose(client, "ko", text)
    assert answer["symptom"] is not None and answer["symptom"]["id"] == WEAK  # type: ignore[index]
    assert "step" not in answer["context"]  # type: ignore[operator]
