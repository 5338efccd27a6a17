"""Issue 12, session 8 (`none` posts read as a symptom): a post's topic, read from its title line, outweighs a symptom
word its body tells in passing; a symptom stands under such a title only as an event of the user's own (an OOM, a
rate, a bad result of the user's own LoRA or previews: `intents.yaml` `topic_titles`, `topic_evidence`). A model's
name that holds a speed word is read whole; a generation program's log lines make its OOM the generation's; an
exception's repr is that exception. Sentences written for the test in six languages, as forum users write (none is a
line of the real-message corpora); each kind beside its twin that must keep its symptom."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.matcher import understand
from tests.understanding.probes import diagnose, diagnosed_symptom, search

OOMS = ("oom-general", "oom-early-steps", "oom-during-sampling", "oom-bucket-spike", "oom-persists-with-gc")


def _none(client: TestClient, lang: str, text: str) -> None:
    """No symptom, and no search hit that follows one."""
    assert diagnose(client, lang, text)["symptom"] is None
    assert search(client, lang, text)["match"] == "none"


# --- 1. a feature request's title ------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Anima support?\nYes please, a lot of the community loras are overcooked and block weights would "
           "help a ton"),
    ("en", "Feature request: Qwen Edit 2511\nWould love to train it, the old one gives blurry hands for everyone"),
    ("es", "¿Soporte para Anima?\nPorfa, muchas loras de la comunidad salen quemadas y poder tocar los pesos por "
           "bloque ayudaría un montón"),
    ("pt", "Suporte ao Anima?\nPor favor, várias loras da comunidade ficam queimadas e ajustar o peso por bloco "
           "ajudaria demais"),
    ("fr", "Support d'Anima ?\nSvp, plein de loras de la communauté sont cramées, régler les poids par bloc aiderait "
           "énormément"),
    ("de", "Feature-Wunsch: Anima\nBitte, viele LoRAs aus der Community sind verbrannt und Blockgewichte wären mega"),
    ("ko", "Anima 지원 계획 있나요?\n커뮤니티 로라들 보면 과적합된 게 많아서 블록 가중치 조절되면 좋겠어요"),
])
def test_a_feature_request_title_outweighs_a_bad_result_told_in_passing(client: TestClient, lang: str,
                                                                         text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Feature request: block swap for Wan\nright now I get CUDA out of memory at step 1 on my 3090"),
    ("es", "Petición de función: block swap para Wan\nahora mismo me sale CUDA out of memory en el paso 1 con mi 3090"),
    ("de", "Feature-Wunsch: Block Swap für Wan\naktuell bekomme ich CUDA out of memory bei Schritt 1 auf meiner 3090"),
])
def test_an_oom_told_under_a_feature_request_title_stays_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


# --- 2. a tutorial or a solution shared ------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Full tutorial for training video loras\nhe gets amazing quality with no hand issues or artifacts, so "
           "definitely give it a read"),
    ("en", "A possible solution to prevent the training slowdown\nDisabling the sysmem fallback policy in the NVIDIA "
           "panel fixed it, the remaining steps finished without issues"),
    ("es", "Tutorial completo para entrenar loras de video\nsaca una calidad increíble, sin manos raras ni artefactos, "
           "échenle un ojo"),
    ("pt", "Uma possível solução para a lentidão do treino\nDesativar o sysmem fallback no painel da NVIDIA "
           "resolveu pra mim, o resto dos passos rodou sem problema"),
    ("fr", "Tuto complet pour entraîner des loras vidéo\nil sort une qualité de fou, pas de mains ratées ni "
           "d'artefacts, à lire absolument"),
    ("de", "Mögliche Lösung gegen das langsame Training\nDas Abschalten des Sysmem-Fallbacks im NVIDIA-Panel hat es "
           "behoben, die restlichen Schritte liefen ohne Probleme durch"),
    ("ko", "비디오 로라 학습 팁 공유합니다\n손 깨짐이나 아티팩트 없이 퀄리티 좋게 나오는 설정이에요"),
])
def test_a_tutorial_or_a_solution_shared_tells_no_symptom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training slowdown after 600 steps\nthe iteration time goes from 2 s/it to 9 s/it and the GPU usage drops"),
    ("fr", "L'entraînement ralentit après 600 steps\nle temps par itération passe de 2 s/it à 9 s/it"),
])
def test_the_same_slowdown_told_as_ones_own_stays_a_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


# --- 3. a request for how to train -----------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "LoRA training details needed\nThe loras you shared work well but the other ones I tried don't look as "
           "good. Could you share the steps you used?"),
    ("en", "How to train a motion lora for Wan?\nI have 40 clips, all captioned, but I've never done a video concept "
           "and I'm not sure what quality to expect or which settings to use"),
    ("es", "¿Cómo entrenar una lora de movimiento para Wan?\nTengo 40 clips con caption, nunca hice un concepto de "
           "video y no sé qué calidad esperar ni qué parámetros usar"),
    ("pt", "Como treinar uma lora de movimento pro Wan?\nTenho 40 clipes legendados, nunca fiz um conceito de vídeo e "
           "não sei que qualidade esperar nem que parâmetros usar"),
    ("fr", "Comment entraîner une lora de mouvement pour Wan ?\nJ'ai 40 clips captionnés, jamais fait de concept "
           "vidéo, je sais pas quelle qualité attendre ni quels réglages prendre"),
    ("de", "Wie trainiere ich eine Motion-LoRA für Wan?\nIch habe 40 Clips mit Captions, noch nie ein Video-Konzept "
           "gemacht und weiß nicht, welche Qualität ich erwarten kann"),
    ("ko", "Wan 모션 로라 학습 방법 알려주세요\n캡션 단 클립 40개 있는데 영상 컨셉은 처음이라 "
           "퀄리티가 어느 정도 나올지 모르겠어요"),
])
def test_a_how_to_question_tells_no_symptom(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "How to train a face lora properly?\nI trained three loras of my wife and the samples look nothing like "
           "her, always some random woman", "weak-samples"),
    ("es", "¿Cómo entrenar bien una lora de cara?\nentrené tres loras de mi mujer y las muestras no se parecen nada a "
           "ella", "weak-samples"),
    ("en", "How to train Flux on 12GB?\nI keep getting CUDA out of memory at step 1 on my 3060", None),
    ("pt", "Como treinar Flux com 12GB?\nfico tomando CUDA out of memory no passo 1 na minha 3060", None),
    ("ko", "12GB로 Flux 학습 방법 있나요?\n3060에서 1스텝에 계속 CUDA out of memory 떠요", None),
])
def test_an_event_of_ones_own_under_a_how_to_title_keeps_its_symptom(client: TestClient, lang: str, text: str,
                                                                     symptom: str | None) -> None:
    found = diagnosed_symptom(client, lang, text)
    assert found == symptom if symptom else found in OOMS


# --- 4. a model's name that holds a speed word -----------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Flux schnell lora training\nHello, I would like to request a feature where we can train loras for flux "
           "schnell. Thank you very much."),
    ("es", "Entrenar loras de Flux schnell\nHola, ¿hay planes de soportar flux schnell? Gracias"),
    ("fr", "Entraînement de lora Flux schnell\nBonjour, est-il prévu de supporter flux schnell ? Merci"),
])
def test_a_model_named_with_a_speed_word_is_no_slowness(client: TestClient, index: Index, lang: str,
                                                        text: str) -> None:
    concepts = understand(index.matcher, text, lang).concepts
    assert "model_name" in concepts and "slow_run" not in concepts
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my flux schnell lora training is super slow, 12 s/it on a 3090"),
    ("de", "mein Flux-Schnell LoRA Training ist extrem langsam, 12 s/it auf einer 3090"),
    ("pt", "o treino da minha lora de flux schnell tá muito lento, 12 s/it numa 3090"),
])
def test_a_slow_run_of_such_a_model_stays_slow(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


# --- 5. a generation program's log, an exception's repr --------------------------------------------------------

COMFY_OOM = ("got prompt\nRequested to load WanVAE\nloaded completely 9210.3 242.1 True\n"
             "[ERROR] Got an OOM, unloading all loaded models.\ntorch.OutOfMemoryError: Allocation on device")
TRAINING_OOM = ("Traceback (most recent call last):\n  File \"/ai-toolkit/run.py\", line 90, in <module>\n"
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.20 GiB")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "when I add my lora the video always runs out of memory\n" + COMFY_OOM),
    ("es", "cuando le meto la lora el video siempre se queda sin memoria\n" + COMFY_OOM),
    ("de", "sobald ich die LoRA dazunehme, läuft das Video immer in OOM\n" + COMFY_OOM),
    ("ko", "로라 넣으면 영상 생성이 항상 메모리 부족으로 터져요\n" + COMFY_OOM),
])
def test_an_oom_in_a_generation_programs_log_is_the_generations(client: TestClient, lang: str, text: str) -> None:
    assert diagnose(client, lang, text)["symptom"] is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my lora training crashes right at the start\n" + TRAINING_OOM),
    ("fr", "mon entraînement de lora plante dès le début\n" + TRAINING_OOM),
])
def test_an_oom_in_a_training_log_stays_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Batch size 2 breaks the training loop\nRuntimeError('The size of tensor a (2) must match the size of "
           "tensor b (128) at non-singleton dimension 2')"),
    ("es", "con batch 2 se rompe el entrenamiento\nRuntimeError('The size of tensor a (2) must match the size of "
           "tensor b (128) at non-singleton dimension 2')"),
])
def test_an_exception_repr_told_is_no_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnose(client, lang, text)["symptom"] is None


def test_an_oom_exception_repr_stays_an_oom(client: TestClient) -> None:
    text = "training dies at step 30 with torch.OutOfMemoryError('CUDA out of memory. Tried to allocate 2 GiB')"
    assert diagnosed_symptom(client, "en", text) in OOMS


# --- 6. a question of how much memory a job needs --------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "VRAM requirements for Qwen Edit LoRA?\nGreat work! Without the cached text embeddings, roughly how much "
           "is needed to train at 1024?"),
    ("es", "¿Cuánta VRAM hace falta para una lora de Qwen Edit?\nsin cachear los embeddings, ¿cuánto se necesita "
           "más o menos para entrenar a 1024?"),
    ("pt", "Quanta VRAM precisa pra lora do Qwen Edit?\nsem cache dos embeddings, quanto precisa mais ou menos pra "
           "treinar em 1024?"),
    ("fr", "Combien de VRAM pour une lora Qwen Edit ?\nsans mettre les embeddings en cache, il faut combien à peu près "
           "pour entraîner en 1024 ?"),
    ("de", "Wie viel VRAM braucht eine Qwen-Edit-LoRA?\nohne gecachte Embeddings, wie viel braucht man ungefähr für "
           "1024?"),
    ("ko", "Qwen Edit 로라 최소 VRAM 얼마인가요?\n임베딩 캐시 안 쓰면 1024로 학습할 때 대충 얼마나 필요한가요?"),
])
def test_a_memory_requirement_title_is_a_capability_question(client: TestClient, lang: str, text: str) -> None:
    _none(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Textual inversion VRAM requirements\nI'm training on a 3080 10GB and CUDA runs out of memory at step 0"),
    ("es", "¿Cuánta VRAM hace falta para Flux?\nentreno en una 3080 de 10GB y me sale CUDA out of memory en el paso 0"),
])
def test_an_oom_told_under_a_memory_requirement_title_stays_an_oom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) in OOMS


# --- 7. the opening sentence after a title, or of a long post without one ---------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training objects\nStarting this thread to show how easy it is to overtrain an object. 200 reg images, 13 "
           "photos, 2000 steps, and by step 1500 every render is the same guitar"),
    ("es", "Entrenar objetos\nAbro este hilo para mostrar lo fácil que es sobreentrenar un objeto. 200 imágenes de "
           "regularización, 13 fotos, 2000 pasos, y para el paso 1500 todo sale con la misma guitarra"),
    ("pt", "Treinando objetos\nAbri esse tópico pra mostrar como é fácil supertreinar um objeto. 200 imagens de "
           "regularização, 13 fotos, 2000 passos, e no passo 1500 tudo sai a mesma guitarra"),
    ("fr", "Entraîner des objets\nJ'ouvre ce sujet pour montrer à quel point c'est facile de surentraîner un objet. "
           "200 images de régularisation, 13 photos, 2000 steps, et au step 1500 tout sort avec la même guitare"),
    ("de", "Objekte trainieren\nIch mache den Thread auf, um zu zeigen, wie leicht man ein Objekt übertrainiert. 200 "
           "Regularisierungsbilder, 13 Fotos, 2000 Schritte, und ab Schritt 1500 kommt überall dieselbe Gitarre"),
    ("ko", "사물 학습\n사물 과적합이 얼마나 쉬운지 보여드리려고 글 올려요. 정규화 이미지 200장, 사진 13장, "
           "2000스텝인데 1500스텝쯤 되면 전부 같은 기타만 나와요"),
])
def test_an_opening_that_shares_a_demonstration_tells_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnose(client, lang, text)["symptom"] is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Training objects\nMy guitar lora is overtrained, by step 1500 my samples are all the same guitar. What "
           "should I change?"),
    ("es", "Entrenar objetos\nMi lora de guitarra está sobreentrenada, para el paso 1500 las muestras salen todas "
           "iguales. ¿Qué cambio?"),
])
def test_the_same_result_told_as_ones_own_stays_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"


# --- 8. a pull request or a branch tested -----------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I tested this branch on my 4070 Ti and batch size 2 worked perfectly, no errors, training ran smoothly. "
           "About the slightly slower speed mentioned in the description: is that the LoKR part, or does batch > 1 add "
           "overhead too?"),
    ("es", "Probé esta rama en mi 4070 Ti y batch 2 funcionó perfecto, sin errores, el entrenamiento fue fluido. Sobre "
           "la velocidad un poco más lenta que dice la descripción: ¿es por LoKR o batch > 1 también añade algo?"),
    ("pt", "Testei essa branch na minha 4070 Ti e batch 2 funcionou perfeito, sem erro, o treino rodou liso. Sobre a "
           "velocidade um pouco mais lenta que a descrição fala: é do LoKR ou batch > 1 também pesa?"),
    ("fr", "J'ai testé cette branche sur ma 4070 Ti et le batch 2 marche nickel, aucune erreur, l'entraînement tourne "
           "bien. Pour la vitesse un peu plus lente dont parle la description : c'est la partie LoKR ou le batch > 1 "
           "coûte aussi ?"),
    ("de", "Ich habe diesen Branch getestet, auf meiner 4070 Ti lief Batch 2 perfekt, keine Fehler, das Training "
           "lief sauber. Zur etwas langsameren Geschwindigkeit aus der Beschreibung: liegt das an LoKR oder kostet "
           "Batch > 1 auch was?"),
    ("ko", "이 브랜치 테스트해봤는데 4070 Ti에서 배치 2도 에러 없이 학습 잘 돌아갔어요. "
           "설명에 있는 속도가 조금 느려진다는 부분은 LoKR 얘기인가요, "
           "아니면 배치를 2 이상으로 하면 오버헤드가 생기는 건가요? 아직 제대로 비교는 못 해봤어요"),
])
def test_a_branch_tested_and_shared_tells_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnose(client, lang, text)["symptom"] is None


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I updated to the latest commit and now my lora training is way slower than before, 4 s/it instead of 1.5 "
           "s/it on the same config and the same 4070 Ti. What changed?"),
    ("de", "Seit dem letzten Update ist mein LoRA-Training viel langsamer als vorher, 4 s/it statt 1,5 s/it mit "
           "derselben Config auf derselben 4070 Ti. Was hat sich geändert?"),
])
def test_a_slowdown_of_ones_own_after_an_update_stays_slow(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"
