"""Issue 12, session 7 (nonesearch6): an FAQ entry or a section answers what a text asks, not what its story names in
passing. A question about another subject (the loss, where the LoRA is saved, a trigger word, an optimizer) with GC or
a batch said beside it, and a post that asks nothing (sharing results or settings), get no hit when no symptom is told;
a question that names nothing of its own ("is that true?") refers back to its story, which keeps the hit; a story
told before a question about GC keeps it too. Diagnose gives no topic where search gives no hit, and search is not
confident on a symptom diagnose only infers from a crash. Sentences written for the test, as forum users write."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnose, diagnosed_symptom, hit_ids, search


def _no_hit(client: TestClient, lang: str, text: str) -> None:
    answer = search(client, lang, text)
    assert answer["match"] == "none", hit_ids(answer)
    assert answer["hits"] == []
    # diagnose reads the same subjects: no symptom, and no FAQ entry or section as its topic
    told = diagnose(client, lang, text)
    assert told["symptom"] is None
    assert told["match"] == "none"
    assert "topic" not in told


def _top_hit_in(client: TestClient, lang: str, text: str, wanted: set[str]) -> None:
    answer = search(client, lang, text)
    assert answer["match"] != "none"
    assert hit_ids(answer)[0] in wanted, hit_ids(answer)


# --- a question about another subject, GC or a batch said beside it ----------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Why does the loss jump around so much? GC is on, batch 1, lr 1e-4."),
    ("es", "¿Por qué el loss salta tanto? GC activado, batch 1, lr 1e-4."),
    ("pt", "Por que o loss pula tanto? GC ligado, batch 1, lr 1e-4."),
    ("fr", "Pourquoi la loss fait autant le yoyo ? GC activé, batch 1, lr 1e-4."),
    ("de", "Warum schwankt der Loss so stark? GC an, Batch 1, lr 1e-4."),
    ("ko", "로스가 왜 이렇게 튀나요? GC 켰고 배치 1, lr 1e-4예요."),
])
def test_a_question_about_the_loss_is_no_question_about_gc(client: TestClient, lang: str, text: str) -> None:
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Where are the trained LoRA files saved? I can't find the output folder. GC was on if that matters."),
    ("es", "¿Dónde se guardan los archivos de la LoRA entrenada? No encuentro la carpeta de salida. Tenía el GC "
           "activado, por si importa."),
    ("pt", "Onde ficam salvos os arquivos da LoRA treinada? Não acho a pasta de saída. O GC tava ligado, se isso "
           "importa."),
    ("fr", "Où sont enregistrés les fichiers de la LoRA entraînée ? Je ne trouve pas le dossier de sortie. Le GC était "
           "activé si ça compte."),
    ("de", "Wo werden die trainierten LoRA-Dateien gespeichert? Ich finde den Output-Ordner nicht. GC war an, falls "
           "das wichtig ist."),
    ("ko", "학습된 로라 파일은 어디에 저장되나요? 출력 폴더를 못 찾겠어요. GC는 켜져 있었어요."),
    ("en", "Where does the toolkit save the trained LoRA files?"),
])
def test_where_a_file_is_saved_is_no_question_of_where_gc_is_set(client: TestClient, lang: str, text: str) -> None:
    # "where" and the trainer ground the section on where GC is changed only when nothing else is asked of
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "How do I add a trigger word to my dataset? I'm training on a 3090 with GC on and batch 2."),
    ("es", "¿Cómo añado una palabra clave a mi dataset? Entreno en una 3090 con GC activado y batch 2."),
    ("pt", "Como eu adiciono uma trigger word no meu dataset? Tô treinando numa 3090 com GC ligado e batch 2."),
    ("fr", "Comment j'ajoute un mot déclencheur à mon dataset ? J'entraîne sur une 3090 avec GC activé et batch 2."),
    ("de", "Wie füge ich meinem Dataset ein Triggerwort hinzu? Ich trainiere auf einer 3090 mit GC an und Batch 2."),
    ("ko", "데이터셋에 트리거 워드는 어떻게 넣나요? 3090에서 GC 켜고 배치 2로 학습 중이에요."),
    ("en", "Which optimizer do you recommend for a style LoRA, prodigy or adamw8bit? I run with GC on and batch 1 on a "
           "4090."),
    ("fr", "Quel optimizer vous conseillez pour une LoRA de style, prodigy ou adamw8bit ? Je tourne avec GC activé et "
           "batch 1 sur une 4090."),
    ("de", "Welchen Optimizer empfehlt ihr für eine Style-LoRA, Prodigy oder AdamW8bit? Ich trainiere mit GC an und "
           "Batch 1 auf einer 4090."),
])
def test_a_how_to_question_with_gc_in_passing_gets_no_hit(client: TestClient, lang: str, text: str) -> None:
    # a dataset's trigger word and an optimizer are no subject an FAQ entry or a section rests on
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Is there a way to run two jobs at the same time on one 48GB card? Each one uses about 20GB with GC on and "
           "batch 1."),
    ("pt", "Tem como rodar dois jobs ao mesmo tempo numa placa de 48GB? Cada um usa uns 20GB com GC ligado e batch 1."),
    ("fr", "Est-ce qu'on peut lancer deux jobs en même temps sur une carte de 48 Go ? Chacun prend environ 20 Go avec "
           "GC activé et batch 1."),
    ("de", "Kann man zwei Jobs gleichzeitig auf einer 48GB-Karte laufen lassen? Jeder braucht etwa 20GB mit GC an und "
           "Batch 1."),
    ("ko", "48GB 카드 하나에서 작업 두 개를 동시에 돌릴 수 있나요? 각각 GC 켜고 배치 1로 20GB 정도 써요."),
])
def test_a_long_question_naming_none_of_the_guide_asks_of_its_own(client: TestClient, lang: str, text: str) -> None:
    # `search_asked.own_words`: a question this long that names no subject of the guide (running two jobs) is about
    # that; Spanish is left out: "a la vez" reads "la" as the pronoun that refers back (`refers_back`)
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("es", "donde esta esa opcion en la interfaz de RunComfy? no la encuentro entre los campos"),
    ("fr", "il est où ce réglage dans l'interface ? je vois batch size et steps mais pas le gradient checkpointing"),
    ("de", "wo stell ich das in der Oberfläche um? im Training-Panel find ichs nicht"),
])
def test_a_question_that_refers_back_keeps_where_gc_is_set(client: TestClient, lang: str, text: str) -> None:
    # "that option", "ce réglage" refer back (a pronoun, or a shorter question): the section on where GC is changed
    _top_hit_in(client, lang, text, {"where-to-change", "checklist"})


# --- a post that asks nothing --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Sharing my settings in case it helps someone. Wan 2.1 14B, 33 frames, GC on, low_vram true, rank 32. Ran "
           "overnight on a 4090 without issues."),
    ("es", "Comparto mi configuración por si le sirve a alguien. Wan 2.1 14B, 33 frames, GC activado, low_vram true, "
           "rank 32. Corrió toda la noche en una 4090 sin problemas."),
    ("pt", "Compartilhando minhas configs caso ajude alguém. Wan 2.1 14B, 33 frames, GC ligado, low_vram true, rank "
           "32. Rodou a noite toda numa 4090 sem problema."),
    ("fr", "Je partage mes réglages au cas où ça aide. Wan 2.1 14B, 33 frames, GC activé, low_vram true, rank 32. Ça a "
           "tourné toute la nuit sur une 4090 sans souci."),
    ("de", "Ich teile meine Einstellungen, falls es jemandem hilft. Wan 2.1 14B, 33 Frames, GC an, low_vram true, Rank "
           "32. Lief die ganze Nacht auf einer 4090 ohne Probleme."),
    ("en", "My LoRA works fine in ComfyUI but in Forge it says 'lora key not loaded'. I trained it with batch 2 and GC "
           "on."),
    ("en", "Just sharing my results: Flux LoRA on 20 images, 2000 steps, GC on, the samples look great. Thanks for the "
           "tool!"),
    ("fr", "J'utilise la LoRA dans ComfyUI avec le workflow Flux et la sortie du KSampler est bonne. Je l'ai entraînée "
           "ici avec GC activé, batch 1."),
])
def test_a_post_that_asks_nothing_gets_no_hit(client: TestClient, lang: str, text: str) -> None:
    # Korean is left out: "혹시 도움될까 해서" (in case it helps) reads as a question ("혹시", "~까"), and "설정" (the
    # settings) as where a thing is set (not traced yet)
    _no_hit(client, lang, text)


# --- a post whose questions name no subject ---------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm running the toolkit in Docker on Unraid. After a few minutes the container restarts on its own and the "
           "web page disconnects. VRAM was at 18 of 24 GB when it happened, GC on. Any ideas?"),
    ("es", "Estoy usando el toolkit en Docker sobre Unraid. A los pocos minutos el contenedor se reinicia solo y la "
           "página web se desconecta. La VRAM estaba en 18 de 24 GB cuando pasó, GC activado. ¿Alguna idea?"),
    ("pt", "Tô rodando o toolkit no Docker em cima do Unraid. Depois de alguns minutos o container reinicia sozinho e "
           "a página web desconecta. A VRAM tava em 18 de 24 GB quando aconteceu, GC ligado. Alguma ideia?"),
    ("fr", "Je fais tourner le toolkit dans Docker sur Unraid. Au bout de quelques minutes le conteneur redémarre tout "
           "seul et la page web se déconnecte. La VRAM était à 18 sur 24 Go quand c'est arrivé, GC activé. Une idée ?"),
    ("de", "Ich lasse das Toolkit in Docker auf Unraid laufen. Nach ein paar Minuten startet der Container von selbst "
           "neu und die Webseite trennt die Verbindung. Der VRAM lag bei 18 von 24 GB, als es passiert ist, GC an. Hat "
           "jemand eine Idee?"),
    ("ko", "Unraid에서 도커로 툴킷 돌리고 있어요. 몇 분 지나면 컨테이너가 혼자 재시작되고 웹 페이지 연결이 끊겨요. "
           "그때 VRAM은 24GB 중 18GB였고 GC 켜져 있었어요. 혹시 아시는 분 있나요?"),
])
def test_a_post_asking_only_any_ideas_gets_no_hit(client: TestClient, lang: str, text: str) -> None:
    # "any ideas?" names nothing: in a post (intents.yaml `search_post_words`) it asks of the story alone, whose
    # VRAM and GC are said in passing; no symptom is told
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Hi everyone, conceptual question, no error so far. Next week I start my very first LoRA training (Flux "
           "dev, 30 images) on a rented 48GB card, and a friend told me to turn gradient checkpointing off from the "
           "start to save time since the card is big. Does that make sense for a first run, or should I leave it on "
           "and test later? I'd hate to burn credits and find a crash at 3am."),
    ("es", "Hola a todos, pregunta conceptual, sin errores por ahora. La semana que viene empiezo mi primer "
           "entrenamiento "
           "de LoRA (Flux dev, 30 imágenes) en una tarjeta alquilada de 48GB, y un amigo me dijo que apagara el "
           "gradient "
           "checkpointing desde el principio para ganar tiempo porque la tarjeta es grande. ¿Tiene sentido para un "
           "primer entrenamiento o lo dejo activado y pruebo después?"),
    ("de", "Hallo zusammen, eher eine Verständnisfrage, bisher kein Fehler. Nächste Woche starte ich mein allererstes "
           "LoRA-Training (Flux dev, 30 Bilder) auf einer gemieteten 48GB-Karte, und ein Freund meinte, ich soll "
           "Gradient Checkpointing gleich ausschalten, um Zeit zu sparen. Ist das für einen ersten Lauf sinnvoll, oder "
           "lasse ich es an und teste später?"),
    ("ko", "안녕하세요, 아직 에러는 없고 개념적인 질문이에요. 다음 주에 48GB 카드 빌려서 첫 로라 학습 돌리려는데 "
           "친구가 카드가 크니까 처음부터 gradient checkpointing 끄고 하라고 하더라고요. 첫 학습부터 끄고 해도 괜찮은 "
           "건가요?"),
])
def test_a_long_post_asking_of_its_first_run_keeps_its_hit(client: TestClient, lang: str, text: str) -> None:
    # the question names a first run (`search_asked_states`), not GC: it asks of the guide ("괜찮은 건가요" asks)
    _top_hit_in(client, lang, text, {"faq-first-run-gc-off", "when-gc-off-ok"})


def test_where_beside_a_config_named_before_asks_where_gc_is_set(client: TestClient) -> None:
    # "¿Dónde se cambia?" names "where"; the config named before it makes it where the job's setting is changed
    text = ("Hola, copié la config de un amigo y en el foro me dijeron que revise el gradient checkpointing. En la "
            "interfaz veo Batch Size, Steps y Unload TE, pero el gradient checkpointing no aparece por ningún lado. "
            "¿Dónde se cambia?")
    _top_hit_in(client, "es", text, {"where-to-change", "checklist"})


# --- twins that keep their hits ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "A friend swears that turning gradient checkpointing off gives better likeness. Is that true?"),
    ("es", "Un amigo jura que apagar el gradient checkpointing da más parecido. ¿Es verdad?"),
    ("pt", "Um amigo jura que desligar o gradient checkpointing dá mais semelhança. É verdade?"),
    ("fr", "Un pote jure que couper le gradient checkpointing donne plus de ressemblance. C'est vrai ?"),
    ("de", "Ein Kumpel schwört, dass Gradient Checkpointing aus mehr Ähnlichkeit bringt. Stimmt das?"),
    ("ko", "친구가 gradient checkpointing 끄면 닮음이 더 좋아진다고 우기는데요. 진짜인가요?"),
])
def test_a_question_that_names_nothing_refers_back_to_its_story(client: TestClient, lang: str, text: str) -> None:
    _top_hit_in(client, lang, text, {"what-gc-off-is-not", "faq-gc-hurts-quality"})


@pytest.mark.parametrize(("lang", "text"), [
    ("fr", "GC activé, batch 1, lr 1e-4. Pourquoi la VRAM explose autant quand je coupe le GC ?"),
    ("de", "GC an, Batch 1, lr 1e-4. Warum schießt der VRAM so hoch, wenn ich GC ausschalte?"),
    ("ko", "GC 켰고 배치 1, lr 1e-4예요. GC 끄면 왜 VRAM이 이렇게 확 늘어나나요?"),
    ("en", "Problem is solved but I want to understand it. I had turned GC off, nothing else changed, same dataset, "
           "same batch, and suddenly an OOM. GC back on and everything runs. Why does one switch make such a "
           "difference?"),
    ("ko", "gc 끄면 왜 갑자기 메모리가 터지는지 궁금합니다. 다른 설정은 다 그대로였어요."),
])
def test_a_question_about_gc_after_its_settings_keeps_its_hit(client: TestClient, lang: str, text: str) -> None:
    # en/es/pt of the first wording rank when-gc-off-ok first (GC said both on and off; as before this change)
    _top_hit_in(client, lang, text, {"why-sudden-oom", "what-gc-does"})


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "honestly no idea why my LoRA trains at 12 s/it, GC is on. should I just switch it off"),
    ("ko", "옵션 하나 바꿨는데 학습이 엄청 느려졌어요 왜그런거죠"),
])
def test_a_sentence_asking_without_a_question_mark_still_asks(client: TestClient, lang: str, text: str) -> None:
    # "why", "should" ask without a question mark: the post is no story that asks nothing
    answer = search(client, lang, text)
    assert answer["match"] != "none"


# --- consistency with diagnose -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it crashes every time it starts generating the samples"),
    ("es", "el entrenamiento se crashea cada vez que genera las muestras"),
    ("pt", "o treino crasha toda vez que começa a gerar as amostras"),
    ("fr", "ça plante à chaque fois qu'il commence à générer les samples"),
    ("de", "es stürzt jedes Mal ab, wenn es anfängt, die Samples zu generieren"),
    ("ko", "샘플 생성 시작할 때마다 학습이 튕겨요"),
])
def test_search_is_not_confident_on_a_symptom_diagnose_only_infers(client: TestClient, lang: str, text: str) -> None:
    # no memory evidence: diagnose answers `ambiguous` (an OOM inferred from a crash), and search does not say more
    told = diagnose(client, lang, text)
    assert told["match"] == "ambiguous"
    assert diagnosed_symptom(client, lang, text) == "oom-during-sampling"
    answer = search(client, lang, text)
    assert answer["match"] == "ambiguous"
    assert hit_ids(answer)[0] == "oom-during-sampling"


# --- how long a hang lasts is no slowness --------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "The job hangs at 'Loading model' forever and never starts, no error at all. VRAM usage stays at 3GB."),
    ("es", "El trabajo se queda atascado en 'Loading model' una eternidad y nunca empieza, sin ningún error."),
    ("pt", "O treino fica travado em 'Loading model' uma eternidade e nunca começa, nenhum erro."),
    ("fr", "Le job reste bloqué à 'Loading model' une éternité et ne démarre jamais, aucune erreur."),
    ("de", "Der Job hängt bei 'Loading model' ewig und startet nie, keine Fehlermeldung."),
    ("ko", "'Loading model'에서 한참 멈춰 있고 시작을 안 해요, 에러도 없어요."),
])
def test_how_long_a_hang_lasts_is_no_slow_run(client: TestClient, lang: str, text: str) -> None:
    # intents.yaml `avoided`: "forever" after "hangs at" is the hang's, not a slowness (no slow-training, no hit)
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it's stuck at 25 s/it and takes forever, GC on, batch 1, is that normal on a 3090?"),
    ("es", "se queda atascado en 30 s/it y tarda una eternidad, GC activado, batch 1, ¿es normal en una 3090?"),
    ("de", "hängt bei 30 s/it fest und dauert ewig, GC an, Batch 1 auf einer 3090, ist das normal?"),
    ("en", "training gets stuck on generating samples forever every 250 steps"),
])
def test_a_rate_or_the_previews_after_stuck_keep_the_slow_run(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "slow-training"


# --- a version string ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Which torch version do you recommend? I have torch 2.4.0+cu121, xformers 0.0.27, GC on, on Ubuntu "
           "22.04."),
    ("es", "¿Qué versión de torch recomiendan? Tengo torch 2.4.0+cu121, xformers 0.0.27, GC activado, en Ubuntu "
           "22.04."),
    ("pt", "Qual versão do torch vocês recomendam? Tenho torch 2.4.0+cu121, xformers 0.0.27, GC ligado, no Ubuntu "
           "22.04."),
    ("fr", "Quelle version de torch vous conseillez ? J'ai torch 2.4.0+cu121, xformers 0.0.27, GC activé, sous Ubuntu "
           "22.04."),
    ("de", "Welche Torch-Version empfehlt ihr? Ich habe torch 2.4.0+cu121, xformers 0.0.27, GC an, unter Ubuntu "
           "22.04."),
    ("ko", "torch 버전 뭐 쓰는 게 좋나요? 지금 torch 2.4.0+cu121, xformers 0.0.27, GC 켜고 우분투 22.04예요."),
])
def test_a_question_about_versions_is_setup(client: TestClient, lang: str, text: str) -> None:
    # a torch or CUDA version asked is setting the tools up (`setup`), and "torch" is no typo of "touch"
    _no_hit(client, lang, text)


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "After updating torch to 2.5 I get CUDA out of memory at step 1 with GC on."),
    ("de", "Seit dem Update auf torch 2.5 bekomme ich bei Schritt 1 CUDA out of memory, GC ist an."),
])
def test_a_version_beside_an_oom_keeps_the_oom(client: TestClient, lang: str, text: str) -> None:
    assert (diagnosed_symptom(client, lang, text) or "").startswith("oom-")


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "trained my character lora here with batch 2 and gc on for 3000 steps and it works perfectly in comfyui but "
           "in forge every layer prints lora key not loaded and the face is ignored completely"),
    ("es", "entrené mi lora de personaje aquí con batch 2 y gc activado durante 3000 pasos y en comfyui funciona "
           "perfecto pero en forge cada capa dice lora key not loaded y la cara se ignora por completo"),
    ("de", "hab meine charakter lora hier mit batch 2 und gc an für 3000 schritte trainiert und in comfyui klappt "
           "alles aber in forge kommt bei jedem layer lora key not loaded und das gesicht wird komplett ignoriert"),
])
def test_a_run_on_post_that_asks_nothing_gets_no_hit(client: TestClient, lang: str, text: str) -> None:
    # one long sentence (`search_asked.post_words` words) that asks nothing is a post, not a query
    _no_hit(client, lang, text)
