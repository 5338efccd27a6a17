"""Issue 12, session 12 (lang12): how speakers of each language write a post, each read as it is meant.

A single switch told in the user's own word for it (a toggle, a checkbox, a flag, one option: `un solo toggle`,
`um único toggle`, `une seule case`, `ein einziges Häkchen`, `체크박스 하나`) is the sudden change (`sudden`,
vocabulary.yaml), and "how can one ... make so much difference" asks why (`why`: `cómo un solo`, `comment une
seule`, `wie kann ein einziges`): "why does one toggle make a heavy config impossible?" asks why-sudden-oom, not
where a setting is. Its twins keep their reading: an OOM of the user's run after that switch is the first steps' OOM
with GC stated off, asking where the toggle is stays where-to-change, and "how can I make it faster?" a slow run.

Beside it, probes of the ordinary ways of telling a run in six languages, which hold as the vocabularies grow: the
verbs of running a job (`correr`, `rodar`, `돌리다`, `laufen lassen`) with an OOM, a slow run or weak samples keep
their symptom; "ran out of memory" told as speakers say it (`fiquei sem memória`, `plus de mémoire`, `메모리가
모자라`); a poor likeness; a typo in the word before a step number; an OOM at a later step with nothing said of
buckets is the general OOM, and its twin with several buckets and a random OOM is the spike.

A step told unknown (`não sei em que passo foi`, `몇 스텝인지 몰라요`: `step_unknown`, read whole) tells no early
OOM, whatever step word a pasted line has ("OOM during training step"): the general OOM; its twin with step 2 told
and the cause unknown stays the first steps' OOM.

An OOM at a different step each time (`cada vez num passo diferente`, `jedes Mal bei einem anderen Step`,
`매번 다른 지점`: `intermittent`) comes and goes, even with GC on: the spike; its twin at the same step each time with
GC off stays the first steps' OOM.

Every sentence was written for this test, as forum users write in each language (none is a line of a corpus)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import answered_symptom, diagnose, diagnosed_symptom, hit_ids, search

ONE_SWITCH = [
    (
        "en",
        "honest question: why does a single toggle (gc) turn a config that was heavy but ok into one that can't run "
        "at all? same data, same batch",
    ),
    (
        "es",
        "duda sincera: por qué un solo toggle (el gc) convierte una config que era pesada pero iba en una que no "
        "arranca? mismo dataset, mismo batch",
    ),
    (
        "es",
        "solo por curiosidad, cómo una sola casilla cambia tanto la vram? desmarqué el gradient checkpointing y pasó "
        "de ir bien a ser imposible",
    ),
    (
        "pt",
        "pergunta sincera: por que um único toggle (o gc) transforma uma config que era pesada mas rodava numa que "
        "nem roda? mesmo dataset, mesmo batch",
    ),
    (
        "pt",
        "Só pra entender: por que mexer só no GC faz uma config pesada que rodava virar impossível? mesmo dataset, "
        "mesmo batch",
    ),
    (
        "fr",
        "question sincère : pourquoi un seul toggle (le gc) rend impossible une config qui était lourde mais passait "
        "? même dataset, même batch",
    ),
    (
        "de",
        "ehrliche frage: warum macht ein einziger schalter (gc) aus einer config, die schwer war aber lief, eine die "
        "gar nicht mehr geht? gleiches dataset, gleiche batch",
    ),
    (
        "de",
        "nur aus neugier, wie kann ein einziges häkchen so viel vram ausmachen? gradient checkpointing rausgenommen "
        "und von läuft zu unmöglich",
    ),
    (
        "ko",
        "궁금해서요: GC 토글 한 개 바꿨을 뿐인데 왜 무겁지만 되던 설정이 아예 안 돌아가요? "
        "데이터셋이랑 배치는 그대로예요",
    ),
    (
        "ko",
        "그냥 궁금한데 체크박스 하나로 VRAM 차이가 왜 이렇게 커요? gradient checkpointing 체크 해제했더니 잘 되다가 "
        "불가능해졌어요",
    ),
    (
        "en",
        "why would unticking one checkbox (gc) make a config that was heavy but working need more vram than the card "
        "has? nothing else changed",
    ),
    (
        "en",
        "just curious, how can one checkbox make that much vram difference? I unticked gradient checkpointing and it "
        "went from fine to impossible",
    ),
    (
        "pt",
        "só curiosidade, como uma flag só muda tanto a vram? desmarquei o gradient checkpointing e foi de rodar de "
        "boa pra impossível",
    ),
    (
        "fr",
        "juste par curiosité, comment une seule case change autant la vram ? j'ai décoché le gradient checkpointing "
        "et c'est passé de ok à impossible",
    ),
]

ONE_SWITCH_OOM = [
    (
        "en",
        "flipped a single toggle (gradient checkpointing off) and now flux crashes with CUDA out of memory at step 2. "
        "how do I fix it",
    ),
    (
        "es",
        "cambié un solo toggle (gradient checkpointing off) y ahora flux peta con CUDA out of memory en el paso 2. "
        "como lo arreglo",
    ),
    (
        "pt",
        "mudei um único toggle (gradient checkpointing off) e agora o flux dá CUDA out of memory no passo 2. como "
        "resolvo",
    ),
    (
        "fr",
        "j'ai changé un seul toggle (gradient checkpointing off) et maintenant flux plante en CUDA out of memory au "
        "step 2. comment je règle ça",
    ),
    (
        "de",
        "nur einen toggle umgestellt (gradient checkpointing aus) und jetzt crasht flux mit CUDA out of memory bei "
        "step 2. wie behebe ich das",
    ),
    (
        "ko",
        "토글 한 개만 바꿨는데 (gradient checkpointing 끔) 이제 flux가 2스텝에서 CUDA out of memory로 죽어요. 어떻게 "
        "고치나요",
    ),
]

WHERE_TOGGLE = [
    ("en", "where is the gradient checkpointing toggle in the ai toolkit ui?"),
    ("es", "dónde está el toggle de gradient checkpointing en la ui de ai toolkit?"),
    ("pt", "onde fica o toggle do gradient checkpointing na interface do ai toolkit?"),
    ("fr", "où est le toggle du gradient checkpointing dans l'interface d'ai toolkit ?"),
    ("de", "wo finde ich den toggle für gradient checkpointing in der ai toolkit oberfläche?"),
    ("ko", "ai toolkit 화면에서 gradient checkpointing 토글은 어디 있어요?"),
]

OOM = {"oom-general", "oom-early-steps", "oom-bucket-spike", "oom-during-sampling", "oom-persists-with-gc"}

# the verbs of running a job, with the symptom of the user's own run
RUN_VERBS = [
    ("es", "corrí el entrenamiento de flux anoche y me salió CUDA out of memory en el paso 500", OOM),
    ("es", "estoy corriendo un lora de z-image y va lentísimo, 9 s/it en la 3090", {"slow-training"}),
    (
        "es",
        "quiero correr el lora en comfy despues, pero primero: por que mis samples salen borrosos?",
        {"weak-samples"},
    ),
    ("pt", "rodei o treino do flux ontem e deu CUDA out of memory no passo 500", OOM),
    ("fr", "j'ai lancé le training flux hier soir et ça m'a sorti CUDA out of memory au step 500", OOM),
    ("de", "hab gestern das flux training laufen lassen und bei step 500 kam CUDA out of memory", OOM),
    ("en", "ran the flux training last night and got CUDA out of memory at step 500", OOM),
    ("ko", "flux 로라 학습 돌리는데 500스텝에서 CUDA out of memory 떠요", OOM),
    ("ko", "z-image 로라 돌리는 중인데 너무 느려요 3090에서 9초/it", {"slow-training"}),
    ("ko", "학습 다 돌렸는데 샘플이 흐릿하고 얼굴이 안 닮았어요", {"weak-samples"}),
]

# running a model to make images, asked with no symptom: no symptom
RUN_TO_GENERATE = [
    ("es", "quiero correr flux en mi 3060 12gb, que settings uso?"),
    ("ko", "3060에서 flux 돌리려면 어떻게 해야 하나요"),
]

# "ran out of memory" as speakers say it, and a poor likeness
ORDINARY = [
    ("pt", "fiquei sem memória na placa quando rodei o treino do flux lora, 24gb", OOM),
    ("pt", "ficou sem memoria na gpu no passo 200", OOM),
    ("fr", "plus de mémoire sur la carte au bout de 300 steps, 4090", OOM),
    ("fr", "j'ai plus de memoire vram quand je lance le training flux", OOM),
    ("ko", "학습 돌리다가 메모리가 모자라서 멈췄어요 4090", OOM),
    ("ko", "메모리가 모자라요 flux lora 학습할 때", OOM),
    ("es", "me quedé sin memoria en la gpu al entrenar flux lora", OOM),
    ("de", "mir geht der speicher aus beim flux lora training auf der 4090", OOM),
    ("en", "likeness is poor after 3000 steps, flux lora", {"weak-samples"}),
    ("pt", "a semelhança ficou ruim depois de 3000 passos", {"weak-samples"}),
    ("fr", "la ressemblance est mauvaise après 3000 steps", {"weak-samples"}),
    ("ko", "닮은 정도가 별로예요 3000스텝 후", {"weak-samples"}),
    ("es", "el parecido es malo despues de 3000 pasos", {"weak-samples"}),
    ("de", "die ähnlichkeit ist schlecht nach 3000 steps", {"weak-samples"}),
]

# a typo in the word before the step number: the step is still read
TYPO_STEP = [
    ("es", "me quede sin vram en el pasoo 500 entrenando flux"),
    ("pt", "fiquei sem vram no pssso 500 treinando flux"),
    ("fr", "plus de vram au setp 500 en entraînant flux"),
    ("de", "kein vram mehr bei schirtt 500 im flux training"),
    ("ko", "flux 학습하다가 스탭 500에서 vram 부족"),
    ("en", "ran out of vram at stpe 500 training flux"),
]

# an OOM at a later step, nothing said of buckets: the general OOM; the twin with buckets and a random OOM: the spike
LATE_PLAIN = [
    ("en", "training flux lora on my 4090, it got to step 800 and then CUDA out of memory. what should I change?"),
    ("es", "entrenando un lora de flux en la 4090, llegó al paso 800 y luego CUDA out of memory. qué cambio?"),
    ("pt", "treinando lora de flux na 4090, chegou no passo 800 e aí deu CUDA out of memory. o que eu mudo?"),
    ("fr", "entraînement d'un lora flux sur ma 4090, arrivé au step 800 puis CUDA out of memory. je change quoi ?"),
    ("de", "flux lora auf meiner 4090, kam bis step 800 und dann CUDA out of memory. was soll ich ändern?"),
    ("ko", "4090에서 flux 로라 학습하는데 800스텝에서 CUDA out of memory 났어요. 뭘 바꿔야 하나요?"),
]
LATE_SPIKE = [
    ("en", "flux lora, buckets 512 768 1024 1536, runs fine then at step 800 random OOM, sometimes later"),
    ("es", "lora de flux, buckets 512 768 1024 1536, va bien y en el paso 800 OOM aleatorio, a veces más tarde"),
    ("pt", "lora de flux, buckets 512 768 1024 1536, roda de boa e no passo 800 OOM aleatório, às vezes mais tarde"),
    ("fr", "lora flux, buckets 512 768 1024 1536, ça tourne bien puis au step 800 OOM aléatoire, parfois plus tard"),
    ("de", "flux lora, buckets 512 768 1024 1536, läuft gut und bei step 800 zufällig OOM, manchmal später"),
    ("ko", "flux 로라, 버킷 512 768 1024 1536, 잘 돌다가 800스텝에서 가끔 OOM 나요, 어떨 땐 더 늦게"),
]

# the step not known: the general OOM; the step told early, the cause unknown: the first steps
STEP_UNKNOWN = [
    (
        "en",
        'the job just dies and the log only says "OOM during training step". no idea '
        "at which step, the terminal closed. what do I change first?",
    ),
    (
        "es",
        'el job se muere y en el log solo sale "OOM during training step". no sé en '
        "qué paso fue porque se cerró la terminal. qué cambio primero?",
    ),
    (
        "pt",
        'o job morre e no log só aparece "OOM during training step". não sei em '
        "qual passo foi, o terminal fechou. o que mudo primeiro?",
    ),
    (
        "fr",
        'le job meurt et dans le log il y a juste "OOM during training step". aucune idée '
        "à quel step, le terminal s'est fermé. je change quoi d'abord ?",
    ),
    (
        "de",
        'der job stirbt einfach und im log steht nur "OOM during training step". keine '
        "ahnung bei welchem schritt, das terminal ist zu. was zuerst ändern?",
    ),
    (
        "ko",
        '잡이 그냥 죽고 로그에는 "OOM during training step"만 있어요. '
        "터미널이 닫혀서 몇 스텝인지 몰라요. 뭐부터 바꿔야 하죠?",
    ),
]
EARLY_CAUSE_UNKNOWN = [
    ("en", "OOM at step 2 every time, no idea why. which step of the guide do I start with?"),
    ("es", "OOM en el paso 2 siempre, no sé por qué. flux lora en la 4090"),
    ("pt", "OOM no passo 2 toda vez, não sei o motivo. flux lora na 4090"),
    ("fr", "OOM au step 2 à chaque fois, je sais pas pourquoi. lora flux sur 4090"),
    ("de", "OOM bei schritt 2 jedes mal, keine ahnung warum. flux lora auf der 4090"),
    ("ko", "매번 2스텝에서 OOM 나요, 이유를 모르겠어요. 4090 flux 로라"),
]

# a "how can I" asks how to do a thing, no why: a slow run keeps its symptom
HOW_CAN_I = [
    ("en", "how can I make my flux lora train faster? 6 s/it on a 4090"),
    ("es", "cómo puedo hacer que mi lora de flux entrene más rápido? 6 s/it en la 4090"),
    ("pt", "como eu faço o treino do meu lora de flux ficar mais rápido? 6 s/it na 4090"),
    ("fr", "comment je peux accélérer le training de mon lora flux ? 6 s/it sur la 4090"),
    ("de", "wie kann ich mein flux lora training schneller machen? 6 s/it auf der 4090"),
    ("ko", "flux 로라 학습을 어떻게 더 빠르게 할 수 있나요? 4090에서 6 s/it"),
]

# a different step each time: the spike; the same early step each time: the first steps
EACH_TIME_ANOTHER = [
    ("en", "z-image lora, gc is on, batch 2. CUDA OOM at a different step each time, 350 then 900 then 610"),
    ("es", "lora de z-image, gc activado, batch 2. CUDA OOM cada vez en un paso distinto, 350, luego 900, luego 610"),
    ("pt", "lora de z-image, gc ligado, batch 2. CUDA OOM cada vez num passo diferente, 350 depois 900 depois 610"),
    ("fr", "lora z-image, gc activé, batch 2. CUDA OOM chaque fois à un step différent, 350 puis 900 puis 610"),
    ("de", "z-image lora, gc an, batch 2. CUDA OOM jedes mal bei einem anderen step, 350 dann 900 dann 610"),
    (
        "ko",
        "z-image 로라, gc 켜져 있고 배치 2. CUDA OOM이 매번 다른 지점에서 나요, "
        "350스텝, 그다음 900스텝, 그다음 610스텝",
    ),
]
EACH_TIME_THE_SAME = [
    ("en", "OOM at step 2 each time, same step every run, gc off"),
    ("es", "OOM en el paso 2 cada vez, siempre el mismo paso, gc desactivado"),
    ("pt", "OOM no passo 2 toda vez, sempre no mesmo passo, gc desligado"),
    ("fr", "OOM au step 2 à chaque fois, toujours le même step, gc désactivé"),
    ("de", "OOM bei step 2 jedes mal, immer derselbe schritt, gc aus"),
    ("ko", "매번 2스텝에서 OOM 나요, 항상 같은 스텝이에요, gc 끔"),
]


def _context(answer: dict[str, object]) -> dict[str, object]:
    context = answer["context"]
    assert isinstance(context, dict)
    return context


@pytest.mark.parametrize(("lang", "text"), ONE_SWITCH)
def test_one_switch_asks_why_it_ran_out(client: TestClient, lang: str, text: str) -> None:
    answer = search(client, lang, text)
    assert hit_ids(answer)[0] in {"why-sudden-oom", "what-gc-does"}, hit_ids(answer)


@pytest.mark.parametrize(("lang", "text"), ONE_SWITCH_OOM)
def test_an_oom_after_one_switch_is_the_first_steps(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) == "oom-early-steps"
    assert _context(answer).get("gradient_checkpointing") is False


@pytest.mark.parametrize(("lang", "text"), WHERE_TOGGLE)
def test_where_the_toggle_is_stays_where(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert hit_ids(search(client, lang, text))[0] == "where-to-change"


@pytest.mark.parametrize(("lang", "text", "wanted"), RUN_VERBS + ORDINARY)
def test_ordinary_words_keep_their_symptom(client: TestClient, lang: str, text: str, wanted: set[str]) -> None:
    assert diagnosed_symptom(client, lang, text) in wanted


@pytest.mark.parametrize(("lang", "text"), RUN_TO_GENERATE)
def test_running_a_model_asked_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None


@pytest.mark.parametrize(("lang", "text"), TYPO_STEP)
def test_a_typo_before_the_step_keeps_the_step(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    assert answered_symptom(answer) in OOM
    assert _context(answer).get("step") == 500


# Each table's texts read as one symptom: the table, and what each of its texts must read as.
READ_AS = {
    "a later step alone is the general OOM": (LATE_PLAIN, "oom-general"),
    "a random OOM with buckets is the spike": (LATE_SPIKE, "oom-bucket-spike"),
    "a step not known is the general OOM": (STEP_UNKNOWN, "oom-general"),
    "an early step with the cause unknown stays early": (EARLY_CAUSE_UNKNOWN, "oom-early-steps"),
    "how can I keeps the slow run": (HOW_CAN_I, "slow-training"),
    "another step each time is the spike": (EACH_TIME_ANOTHER, "oom-bucket-spike"),
    "the same early step each time stays early": (EACH_TIME_THE_SAME, "oom-early-steps"),
}


@pytest.mark.parametrize(("lang", "text", "wanted"), [
    pytest.param(lang, text, wanted, id=f"{why}-{lang}-{i}")
    for why, (table, wanted) in READ_AS.items() for i, (lang, text) in enumerate(table)
])
def test_each_table_reads_as_its_symptom(client: TestClient, lang: str, text: str, wanted: str) -> None:
    assert diagnosed_symptom(client, lang, text) == wanted
