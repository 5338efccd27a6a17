"""How users write in the six languages (issue 12, brief `multi`), each mechanism on sentences written for the test:
German separable verbs and on/off words, installation questions, numbers bound to their own word, "without
getting an OOM", next to no effect, German looks and the computer's RAM."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.index.build import Index
from remedy.understanding.analysis import join_particles, normalize, split_tokens
from remedy.understanding.lexicon import size_width
from remedy.understanding.matcher import understand
from tests.understanding.probes import first_symptom
from tests.understanding.probes import top_symptom as _top_symptom

# --- 1. separable verbs and on/off words -----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "last"), [
    ("bei 1024 geht mir der VRAM aus", "ausgehen"),  # run out, not "off"
    ("und dann schmiert alles ab", "abschmieren"),
    ("ich schalte GC wieder ein", "einschalten"),
    ("ich nehme GC raus", "rausnehmen"),
    ("GC ist aus", "aus"),  # no verb of the particle in its clause: the particle keeps its meaning
    ("GC ist schon an", "an"),
    ("das Training geht, GC aus", "aus"),  # the verb is in another clause
    ("es geht, weil GC aus", "aus"),  # ... after a clause word
])
def test_a_german_particle_ending_its_clause_is_read_with_its_verb(index: Index, text: str, last: str) -> None:
    profile = index.matcher.analyzer.profiles["de"]
    normalized = normalize(text)
    assert join_particles(normalized, split_tokens(normalized), profile)[-1] == last


def test_a_language_without_separable_verbs_keeps_its_tokens(index: Index) -> None:
    text = normalize("the run goes fine, GC off")
    assert join_particles(text, split_tokens(text), index.matcher.analyzer.profiles["en"]) == split_tokens(text)


@pytest.mark.parametrize(("lang", "text", "symptom", "gc"), [
    ("de", "GC ist an und trotzdem geht mir beim Training der VRAM aus", "oom-persists-with-gc", True),
    ("de", "bei Schritt 2 geht der Grafikkarte der Speicher aus", "oom-early-steps", None),
    ("de", "hab GC rausgenommen und jetzt schmiert das Training bei Schritt 3 ab", "oom-early-steps", False),
    ("de", "GC reingenommen, aber der Speicher ist beim Training immer noch voll", "oom-persists-with-gc", True),
    ("de", "hab GC rausgenommen, um zu sehen ob es schneller geht, und jetzt OOM bei Schritt 2", "oom-early-steps",
     False),
    ("de", "bei den Previews ist der Speicher voll. GC ist schon an", "oom-during-sampling", True),
    ("es", "tengo el GC prendido y aun así me da OOM en el paso 2", "oom-persists-with-gc", True),
    ("es", "dejé el GC desactivao y me da OOM en el paso 2", "oom-early-steps", False),
    ("pt", "GC tá ligado e mesmo assim dá OOM em todo treino", "oom-persists-with-gc", True),
    ("pt", "deixei o GC desligado e estourou a memória no passo 2", "oom-early-steps", False),
    ("fr", "GC désac, OOM au step 2", "oom-early-steps", False),
    ("fr", "GC activé et toujours OOM pendant l'entraînement", "oom-persists-with-gc", True),
    ("de", "ich schalte GC aus und dann kackt das Training bei Schritt 3 ab", "oom-early-steps", False),
    ("ko", "gc 꺼놓음, 2스텝에서 oom", "oom-early-steps", False),
    ("ko", "gc 켜놓음 그래도 학습 중에 oom 나요", "oom-persists-with-gc", True),
])
def test_on_off_and_running_out_as_forums_write_them(
    index: Index, lang: str, text: str, symptom: str, gc: bool | None
) -> None:
    u = understand(index.matcher, text, lang)
    assert _top_symptom(index, text, lang) == symptom
    assert u.stated.gradient_checkpointing is gc


def test_a_switching_verb_asked_about_states_nothing(index: Index) -> None:
    assert understand(index.matcher, "schalte ich GC besser aus?", "de").stated.gradient_checkpointing is None


@pytest.mark.parametrize("text", [
    "in Comfy macht das LoRA fast nichts",
    "das Training ist fast fertig, die Samples sehen gut aus",
])
def test_german_fast_is_almost_not_speed(index: Index, text: str) -> None:
    u = understand(index.matcher, text, "de")
    assert "almost" in u.concepts and "speed" not in u.concepts


def test_english_fast_is_still_speed(index: Index) -> None:
    assert "speed" in understand(index.matcher, "how do I make training fast with GC on?", "en").concepts


# --- 2. installation and setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how do I install ai toolkit on linux? pip install errors out on requirements"),
    ("es", "cómo instalo ai toolkit? el pip install falla con las dependencias"),
    ("pt", "como instalar o ai toolkit no linux? o pip install dá erro nas dependências"),
    ("fr", "comment installer ai toolkit ? pip install plante sur les dépendances"),
    ("de", "wie installiere ich ai toolkit? pip install bricht mit Fehler ab"),
    ("ko", "ai toolkit 설치하는데 pip install 하면 에러가 나요"),
])
def test_installing_the_tools_is_not_the_guides(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert not understand(index.matcher, text, lang).ranked
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"
    assert client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how do I set up ai toolkit on runpod?"),
    ("es", "¿cómo actualizo ai toolkit a la última versión?"),
    ("pt", "como configuro o ai toolkit no runpod?"),
    ("fr", "comment mettre à jour ai toolkit ?"),
    ("de", "wie richte ich ai toolkit auf runpod ein?"),
    ("ko", "런팟에서 ai toolkit 세팅 어떻게 해요?"),
])
def test_setting_up_or_updating_the_tools_is_not_the_guides(client: TestClient, lang: str, text: str) -> None:
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


@pytest.mark.parametrize(("lang", "text", "target"), [
    ("en", "installed ai toolkit, where do I change gradient checkpointing?", "where-to-change"),
    ("fr", "ai toolkit sous windows, comment activer le gradient checkpointing ?", "where-to-change"),
    ("es", "ya instalé ai toolkit, ¿dónde cambio el gradient checkpointing?", "where-to-change"),
    ("de", "AI Toolkit installiert, wo stelle ich Gradient Checkpointing um?", "where-to-change"),
    ("ko", "ai toolkit 설치했는데 gradient checkpointing 어디서 바꿔요?", "where-to-change"),
    ("en", "after installing the update I get CUDA out of memory at step 2", "oom-early-steps"),
    ("pt", "depois de reinstalar o ai toolkit dá OOM no passo 2", "oom-early-steps"),
])
def test_the_guides_own_subjects_beside_an_install_are_answered(
    index: Index, lang: str, text: str, target: str
) -> None:
    ranked = understand(index.matcher, text, lang).ranked
    assert ranked and ranked[0].id == target


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "runs fine for a while and then OOM, I think when the 1536 bucket comes up"),
    ("es", "va bien un buen rato y luego OOM, creo que cuando le toca el bucket de 1536"),
    ("pt", "roda de boa por um tempão e aí dá OOM, acho que no bucket de 1536"),
    ("fr", "ça tourne bien un bon moment puis OOM, je crois quand il tombe sur le bucket 1536"),
    ("de", "läuft eine ganze Weile gut und dann OOM, ich glaub wenn der 1536er Bucket kommt"),
    ("ko", "한참 잘 돌다가 oom 나요, 1536 버킷 걸릴 때 같아요"),
])
def test_fine_for_a_while_then_oom_is_a_bucket_spike(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "oom-bucket-spike"


# --- 3. numbers bound to their own word ------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text", "frames", "resolutions"), [
    ("en", "wan 2.2 i2v, 81 frames at 512, OOM", 81, (512,)),
    ("es", "wan 2.2 con 81 frames a 512 y me da OOM", 81, (512,)),
    ("fr", "wan 2.2, 81 frames en 512, OOM direct", 81, (512,)),
    ("de", "Wan 2.2 mit 81 Frames bei 512, OOM", 81, (512,)),
    ("ko", "wan 2.2 81프레임 512 해상도에서 oom", 81, (512,)),
    ("en", "num_frames 81, resolution 512, OOM", 81, (512,)),  # the number after the word, as before
])
def test_a_count_before_its_noun_is_its_number(
    index: Index, lang: str, text: str, frames: int, resolutions: tuple[int, ...]
) -> None:
    stated = understand(index.matcher, text, lang).stated
    assert (stated.num_frames, stated.resolutions) == (frames, resolutions)


@pytest.mark.parametrize(("text", "step", "batch"), [
    ("oom 3스텝 flux bs 4 gc 끔", 3, 4),
    ("flux 배치 2, 2스텝에서 oom", 2, 2),
    ("oom bs 4 스텝 3", 3, 4),  # the number right after the batch word is the batch's
])
def test_korean_counts_before_the_counter(index: Index, text: str, step: int, batch: int) -> None:
    stated = understand(index.matcher, text, "ko").stated
    assert (stated.step, stated.batch_size) == (step, batch)


@pytest.mark.parametrize(("lang", "text", "step"), [
    ("en", "OOM while generating samples, sample_steps 30", None),
    ("en", "OOM while sampling, sample_steps 30, at step 2", 2),
    ("es", "OOM al generar las muestras, uso 30 pasos de muestreo", None),
    ("pt", "OOM nas amostras com 30 passos de amostragem", None),
    ("fr", "OOM pendant les previews, 30 étapes d'échantillonnage", None),
    ("de", "OOM bei den Previews, 30 Sampling-Steps", None),
    ("ko", "미리보기 만들 때 oom 나요. 샘플은 1024에 30스텝으로 해놨어요", None),
    ("ko", "샘플 생성하다가 3스텝에서 oom", 3),  # the failure told right after the count: the failing step
    ("en", "OOM during sampling at step 30", 30),
])
def test_a_previews_own_step_count_is_not_the_failing_step(
    index: Index, lang: str, text: str, step: int | None
) -> None:
    u = understand(index.matcher, text, lang)
    assert u.stated.step == step
    assert _top_symptom(index, text, lang) == "oom-during-sampling"


# --- 4. "without getting an OOM" -------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "how can I train faster without getting an OOM?"),
    ("es", "¿cómo entreno más rápido sin que me dé un OOM?"),
    ("pt", "como treinar mais rápido sem tomar OOM?"),
    ("fr", "comment entraîner plus vite sans me prendre un OOM ?"),
    ("de", "wie trainiere ich schneller, ohne OOM zu kriegen?"),
    ("ko", "OOM 안나게 학습 속도 올리는 방법 있나요?"),
])
def test_an_oom_only_to_avoid_is_not_stated(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" not in u.concepts
    assert u.ranked and u.ranked[0].id in {"slow-training", "speed-alternatives"}


# --- 7. next to no effect, the looks of a thing, the computer's RAM (session 5, brief `langs`) -----------------


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the previews were fine, but in forge my lora does almost nothing"),
    ("es", "en el entrenamiento las previews bien, pero en forge la lora casi no hace nada"),
    ("pt", "no treino as previews ficaram boas, mas no forge a lora quase não faz diferença"),
    ("fr", "les previews étaient bien mais dans forge ma lora ne fait quasiment rien"),
    ("de", "die Previews waren gut, aber in Forge macht meine LoRA so gut wie nichts"),
    ("ko", "프리뷰는 괜찮았는데 forge에서 로라 쓰면 변화가 거의 없어요"),
])
def test_next_to_no_effect_of_the_lora_is_a_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" in u.concepts
    assert _top_symptom(index, text, lang) == "weak-samples"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I changed almost nothing and now it runs out of memory at step 2"),
    ("fr", "j'ai presque rien changé et maintenant OOM au step 2"),
    ("de", "hab fast nichts geändert und jetzt OOM bei Schritt 2"),
])
def test_almost_nothing_said_of_something_else_is_no_weak_result(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "weak" not in u.concepts
    assert _top_symptom(index, text, lang) == "oom-early-steps"


@pytest.mark.parametrize(("text", "joined"), [
    ("die Samples sehen komisch aus", "aussehen"),  # how it looks, never "off"
    ("das sieht gut aus", "aussehen"),
    ("GC sieht man in der Config, GC aus", "aus"),  # the particle of another clause keeps its own meaning
])
def test_a_german_look_is_no_switch(index: Index, text: str, joined: str) -> None:
    normalized = normalize(text)
    assert join_particles(normalized, split_tokens(normalized), index.matcher.analyzer.profiles["de"])[-1] == joined


def test_a_german_phrase_is_matched_joined_and_as_written(index: Index) -> None:
    analyzer = index.matcher.analyzer
    assert len(analyzer.phrase_variants("de", "sehen anders aus")) == 2  # "aus" joined to `aussehen`, and as written
    assert len(analyzer.phrase_variants("de", "gc aus")) == 1  # no verb of the particle: one form
    assert len(analyzer.phrase_variants("en", "looks different")) == 1
    u = understand(index.matcher, "die Vorschaubilder sehen super aus, aber die fertige LoRA sieht anders aus", "de")
    assert "off" not in u.concepts and "weak" in u.concepts


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "my pc ram fills up completely when the model loads and then the process is killed"),
    ("es", "la RAM del PC se llena entera cuando carga el modelo y se cierra el proceso"),
    ("pt", "a RAM do computador enche toda quando carrega o modelo e o processo fecha"),
    ("fr", "la RAM de mon PC est pleine au chargement du modèle et le process se ferme"),
    ("de", "der RAM vom PC ist beim Laden des Modells voll und der Prozess stirbt"),
    ("ko", "모델 불러올때 램 64기가가 꽉 차고 프로세스가 죽어요"),
])
def test_the_computers_own_ram_in_prose_is_no_gpu_oom(client: TestClient, index: Index, lang: str, text: str) -> None:
    assert "host_ram" in understand(index.matcher, text, lang).concepts
    d = client.post("/v1/diagnose", json={"query": text, "lang": lang}).json()
    assert d["symptom"] is None
    assert client.get("/v1/search", params={"q": text, "lang": lang}).json()["match"] == "none"


def test_a_korean_size_keeps_its_particle(index: Index) -> None:
    tokens = index.matcher.analyzer.tokens("램 32기가가 꽉", "ko")[1]
    assert [size_width(tokens, i) for i in range(len(tokens))][1] == 2  # "32" + "기가가" spell one size
    assert size_width(index.matcher.analyzer.tokens("32 steps", "en")[1], 0) == 0


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the resemblance is weak, honestly"),
    ("es", "el parecido es bastante pobre"),
    ("pt", "a semelhança ficou fraca"),
    ("fr", "la ressemblance est faible"),
    ("de", "die Ähnlichkeit ist schwach"),
    ("ko", "유사도가 낮아요"),
])
def test_a_weak_likeness_alone_is_a_weak_result(index: Index, lang: str, text: str) -> None:
    assert _top_symptom(index, text, lang) == "weak-samples"


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("es", "no queda vram en la tarjeta en el paso 2", "oom-early-steps"),
    ("pt", "não sobra memória na placa quando gera as amostras", "oom-during-sampling"),
    ("fr", "y a plus de vram sur la carte au step 2", "oom-early-steps"),
    ("de", "die Karte hat keinen VRAM mehr, sobald das Training startet", "oom-early-steps"),
    ("de", "beim Sampling läuft der VRAM über", "oom-during-sampling"),
    ("ko", "샘플 뽑을때 vram 없다고 떠요", "oom-during-sampling"),
])
def test_no_memory_left_as_forums_write_it(index: Index, lang: str, text: str, symptom: str) -> None:
    assert "oom" in understand(index.matcher, text, lang).concepts
    assert _top_symptom(index, text, lang) == symptom


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "OOM en cuanto empieza el entrenamiento"),
    ("pt", "OOM logo no arranque do treino"),
    ("fr", "OOM dès que l'entraînement démarre"),
    ("de", "OOM, sobald das Training losgeht"),
])
def test_as_soon_as_it_starts_is_early(index: Index, lang: str, text: str) -> None:
    assert "early" in understand(index.matcher, text, lang).concepts
    assert _top_symptom(index, text, lang) == "oom-early-steps"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the card fills up while it makes the preview images"),
    ("es", "la gráfica se llena cuando genera las imágenes de muestra"),
    ("pt", "a placa lota quando gera as imagens de amostra"),
    ("fr", "le gpu sature pendant la génération des aperçus"),
    ("de", "die Karte läuft voll, während die Vorschaubilder erstellt werden"),
    ("ko", "프리뷰 이미지 만들때 그래픽카드 꽉 차요"),
])
def test_the_card_itself_filling_up_is_its_memory(index: Index, lang: str, text: str) -> None:
    assert "gpu_memory" in understand(index.matcher, text, lang).concepts
    assert _top_symptom(index, text, lang) == "oom-during-sampling"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it's so slow, thinking of turning gc off but scared of an OOM"),
    ("de", "ist so lahm, überlege GC auszuschalten, hab aber Schiss vor OOM"),
    ("fr", "c'est trop lent, je pense couper le GC mais je flippe d'avoir un OOM"),
])
def test_a_feared_oom_in_a_speed_question_is_not_told(index: Index, lang: str, text: str) -> None:
    u = understand(index.matcher, text, lang)
    assert "oom" not in u.concepts
    assert _top_symptom(index, text, lang) == "slow-training"


def test_a_sentence_markers_word_is_never_corrected(index: Index) -> None:
    analyzer = index.matcher.analyzer
    assert analyzer.typos.correct("scared", "en") == "scared"  # a word of English: no vocabulary word one letter off


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("en", "memory issues at step 2 since gc is off", "oom-early-steps"),
    ("es", "problemas de memoria en el paso 2 desde que apagué el GC", "oom-early-steps"),
    ("pt", "problema de memória no passo 2 depois de desligar o GC", "oom-early-steps"),
    ("fr", "souci de mémoire au step 2 depuis que le GC est désactivé", "oom-early-steps"),
    ("de", "Speicherprobleme bei Schritt 2, seit GC aus ist", "oom-early-steps"),
    ("ko", "gc 끄고 나서 2스텝에서 메모리 문제 생겨요", "oom-early-steps"),
])
def test_a_memory_problem_is_an_oom(index: Index, lang: str, text: str, symptom: str) -> None:
    assert _top_symptom(index, text, lang) == symptom


def test_a_weak_quality_of_something_else_is_not_the_guides(client: TestClient) -> None:
    d = client.post("/v1/diagnose", json={"query": "a qualidade da webcam está ruim", "lang": "pt"}).json()
    assert d["symptom"] is None


def test_french_where_without_its_accent_is_still_where(index: Index) -> None:
    assert "where" in understand(index.matcher, "le réglage du GC il est où ?", "fr").concepts


@pytest.mark.parametrize(("lang", "text", "symptom"), [
    ("de", "in Forge sieht das Ergebnis völlig anders aus als die Samples im Training", "weak-samples"),
    ("ko", "forge에서 쓰면 결과물이 프리뷰랑 딴판이에요", "weak-samples"),
    ("ko", "로라가 완전히 타버리고 색도 과포화예요", "weak-samples"),
    ("pt", "os resultados saem torrados e supersaturados", "weak-samples"),
    ("ko", "학습 한 번 돌리는데 한세월이에요", "slow-training"),
])
def test_outcomes_and_durations_in_forum_words(index: Index, lang: str, text: str, symptom: str) -> None:
    assert _top_symptom(index, text, lang) == symptom


@pytest.mark.parametrize(("word", "parts"), [
    ("letape", ["l", "etape"]),  # l'étape written without its apostrophe
    ("dentrainement", ["d", "entrainement"]),
    ("lora", ["lora"]),  # a known word stays whole
    ("letraining", ["letraining"]),  # no known word after the letter
])
def test_a_french_elision_without_its_apostrophe(index: Index, word: str, parts: list[str]) -> None:
    assert index.matcher.analyzer.split_elision(word, "fr") == parts
    assert index.matcher.analyzer.split_elision(word, "en") == [word]  # English elides nothing


def test_a_glued_elision_keeps_its_number(index: Index) -> None:
    u = understand(index.matcher, "jai un oom a letape 2", "fr")
    assert u.stated.step == 2


@pytest.mark.parametrize(("word", "head"), [
    ("vorschaugenerierung", "vorschau"),  # a compound of a known word and a process noun: two known words
    ("bilderzeugung", "bild"),
])
def test_a_german_process_compound_is_split(index: Index, word: str, head: str) -> None:
    assert index.matcher.analyzer.split_compound(word)[0] == head


def test_a_german_oom_verb(index: Index) -> None:
    assert _top_symptom(index, "es geoomt bei jedem Sampling", "de") == "oom-during-sampling"


@pytest.mark.parametrize(("word", "form"), [
    ("효과가", "효과"),  # a known word plus a case particle reads as the known word
    ("배치에", "배치"),
    ("할까요", "할까요"),  # a polite ending is no case particle: the word stays as known
])
def test_a_korean_case_particle_on_a_known_word(index: Index, word: str, form: str) -> None:
    assert index.matcher.analyzer.korean_form(word) == form


def test_a_korean_phrase_reads_with_or_without_its_particle(index: Index) -> None:
    for text in ("로라 효과 없어요", "로라 효과가 없어요"):
        assert "weak" in understand(index.matcher, text, "ko").concepts


@pytest.mark.parametrize(("lang", "text", "step"), [
    ("en", "cuda oom at steo 3", 3),  # one edit from "step", right before the number
    ("es", "me da oom en el pao 2", 2),
    ("fr", "oom à l'etpae 2", 2),
    ("de", "OOM bei Schrtt 3", 3),
])
def test_a_misspelt_word_before_a_number_keeps_the_number(index: Index, lang: str, text: str, step: int) -> None:
    assert understand(index.matcher, text, lang).stated.step == step


def test_a_word_before_a_number_is_corrected_only_towards_number_words(index: Index) -> None:
    analyzer = index.matcher.analyzer
    assert analyzer.typos.correct_before_number("steo", "en") == "step"
    assert analyzer.typos.correct_before_number("wan", "en") == "wan"  # a model name, nothing near it
    assert analyzer.typos.correct_before_number("xyzzy", "en") == "xyzzy"


@pytest.mark.parametrize(("text", "batch"), [
    ("배치 두개로 하니까 세번째 스텝에서 OOM", 2),  # a count of things before a particle keeps its value
    ("배치 세개로 올리니까 바로 OOM", 3),
])
def test_a_korean_count_with_its_particle(index: Index, text: str, batch: int) -> None:
    assert understand(index.matcher, text, "ko").stated.batch_size == batch


def test_a_korean_number_word_the_vocabulary_uses_as_a_word_is_no_number(index: Index) -> None:
    tokens = index.matcher.analyzer.tokens("로라가 하나도 안 닮았어요", "ko")[1]
    assert all(t.number is None for t in tokens)  # "하나도": not at all, not "one"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "ran out of GPU memory while training a LoRA. I'm a beginner, sorry"),
    ("es", "me quedé sin memoria de GPU entrenando un LoRA. Soy principiante, perdón"),
    ("pt", "fiquei sem memória de GPU treinando uma LoRA. Sou iniciante, desculpa"),
    ("fr", "manque de mémoire GPU pendant l'entraînement d'un LoRA. Je débute, désolé"),
    ("de", "beim LoRA-Training geht der GPU-Speicher aus. Bin Anfänger, sorry"),
    ("ko", "로라 학습 중에 GPU 메모리 부족. 초보라서 죄송해요"),
])
def test_a_beginner_is_no_start_of_the_run(index: Index, lang: str, text: str) -> None:
    # French "je débute" (I'm new) is no "début" (the start): read whole, it tells no early step
    u = understand(index.matcher, text, lang)
    assert "beginner" in u.concepts and "early" not in u.concepts
    assert first_symptom(u) == "oom-general"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it runs out of memory at step 3 but it used to work fine last week"),
    ("es", "se queda sin memoria en el paso 3 pero la semana pasada funcionaba bien"),
    ("pt", "fica sem memória no passo 3 mas semana passada funcionava"),
    ("fr", "plus de mémoire à l'étape 3 mais la semaine dernière ça marchait"),
    ("de", "der Speicher läuft bei Schritt 3 voll, aber letzte Woche ging es noch"),
    ("ko", "3스텝에서 메모리 부족 나요 하지만 지난주에는 잘 됐어요"),
])
def test_the_past_after_a_contrast_leaves_the_failure_before_it_now(index: Index, lang: str, text: str) -> None:
    # the past marker's clause starts after the contrast ("but"): what is told before it is the present
    assert _top_symptom(index, text, lang) == "oom-early-steps"
