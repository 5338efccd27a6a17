"""Issue 12, session 8 (the multilingual targets): a causal conjunction ends what a hypothetical or a negation
reaches, in every language (`sentences.cause`, Korean `cause_endings`): "I'm worried because it runs out of memory
at step 3" tells a fact, "if I raise the batch it would OOM" does not. And the time and hearsay words of a long post
about speed ("a few days ago it OOMed", "everyone says it OOMs"): the OOM told there is not the present state; an
ordinal step before its word beside a size after it ("OOM en el tercer paso, flux a 1024"). Sentences written for
the test, as forum users of each language write (none is a line of a query set). A setting put back after the
failure ("so I turned it back on", `reverted`) ends the failure told before it in its sentence, unless it is told
as still going on ("even though", "aunque", "obwohl")."""

from __future__ import annotations

import pytest

from remedy.index.build import Index
from remedy.understanding.matcher import understand


def _symptom(index: Index, lang: str, text: str) -> str | None:
    return next((s.id for s in understand(index.matcher, text, lang).ranked if s.kind == "symptom"), None)


# --- 1. the reason a worry or a refusal gives is told: the OOM after "because" is the present state --------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm scared since it OOMs on the first step"),
    ("en", "im hesitant because OOM at step 1 again, any idea?"),
    ("en", "I'm worried because it keeps running out of memory at step 3"),
    ("en", "afraid bc CUDA out of memory at step 2 every single run"),
    ("es", "me da miedo porque OOM en el paso 2 siempre"),
    ("es", "tengo miedo ya que se queda sin memoria en el paso 1"),
    ("es", "no quiero reiniciar porque peta por memoria en el paso 3"),
    ("es", "me preocupa porque se queda sin memoria en el paso 3 siempre"),
    ("pt", "preocupado já que sem memoria no passo 2"),
    ("pt", "receio pois OOM no passo 2 toda vez"),
    ("pt", "tenho medo pq estoura a memoria no passo 1"),
    ("fr", "j'ai peur car OOM au step 2 à chaque fois"),
    ("fr", "j'hésite vu que OOM au step 2"),
    ("fr", "peur puisque manque de mémoire au step 2"),
    ("de", "hab Angst weil OOM bei Step 2 jedes mal"),
    ("de", "Sorge weil Speicher voll bei step 1"),
    ("de", "will nicht neu starten weil OOM bei step 3"),
    ("ko", "2스텝에서 메모리가 부족해서 걱정이에요"),
    ("ko", "OOM이 계속 나니까 무서워요 1스텝에서요"),
    ("ko", "OOM 때문에 걱정 2스텝에서 계속"),
])
def test_a_cause_tells_the_oom(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) == "oom-early-steps"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "worried because it runs out of memory"),
    ("es", "miedo porque se queda sin memoria"),
    ("pt", "medo porque fica sem memoria"),
    ("fr", "peur car plus de mémoire"),
    ("de", "ich hab Sorge weil ständig der VRAM vollläuft"),
    ("ko", "걱정돼서 배치 줄였는데 OOM 나요"),
    ("ko", "걱정이에요. OOM 계속 나요"),
])
def test_a_worry_with_its_reason_keeps_an_oom(index: Index, lang: str, text: str) -> None:
    assert (_symptom(index, lang, text) or "").startswith("oom-")


# --- 2. what is supposed stays supposed, a reason after it or not -------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "if I raise the batch it would OOM"),
    ("en", "worried it will run out of memory because batch is 8"),
    ("es", "me da miedo que se quede sin memoria porque el batch es 8"),
    ("es", "si subo el batch podria quedarse sin memoria"),
    ("pt", "tenho medo de ficar sem memoria porque o batch é 8"),
    ("fr", "j'ai peur que ça manque de mémoire parce que le batch est à 8"),
    ("de", "ich hab Angst dass der Speicher ausgeht wenn ich batch 4 nehme"),
    ("ko", "배치 올리면 OOM 날까봐 걱정이에요"),
    ("ko", "만약 배치를 올려서 OOM 나면 어떡하죠"),
    ("ko", "OOM 날까봐 무서워서 배치 1로 했어요"),
])
def test_a_supposed_oom_stays_supposed(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) is None


# --- 3. a long post about speed: an OOM of a few days ago, one others report, or one a setting put back ended --

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "a few days ago it ran out of memory at step 3 so I turned GC back on. now it takes 9 hours, how to speed "
           "up?"),
    ("en", "I don't dare to turn off GC because everyone says it OOMs instantly. 6 s/it, what can I change?"),
    ("es", "Hace unos dias quite el GC y me dio OOM en la primera muestra, asi que lo volvi a activar. Ahora tarda 8 "
           "horas, como lo acelero?"),
    ("es", "me da miedo quitar el GC porque todo el mundo dice que da OOM al instante. va a 7 s/it, que cambio?"),
    ("pt", "uns dias atras deu OOM no passo 3 e liguei o GC de novo. agora demora 9 horas, como acelero?"),
    ("pt", "tenho medo de desligar o GC porque todo mundo diz que da OOM na hora. ta 7 s/it, o que mudo?"),
    ("fr", "il y a quelques jours ca a plante en OOM au step 3 donc j'ai remis le GC. maintenant ca prend 9 heures, "
           "comment accelerer?"),
    ("fr", "j'ose pas couper le GC car tout le monde dit que ca fait OOM direct. 7 s/it, je change quoi ?"),
    ("de", "vor ein paar Tagen gab es bei Step 3 OOM, also GC wieder an. jetzt dauert es 9 Stunden, wie geht das "
           "schneller?"),
    ("de", "Ich trau mich nicht GC auszumachen, weil hier ständig Leute von OOM berichten. 7 s/it, was kann ich "
           "drehen?"),
    ("ko", "며칠 전 3스텝에서 OOM 나서 GC 다시 켰어요. 지금은 9시간 걸리는데 어떻게 빠르게 하나요?"),
    ("ko", "다들 GC 끄면 OOM 난다고 하더라고요. 지금 7 s/it인데 뭘 바꿔야 하나요?"),
    # a setting put back after the OOM (`reverted`): the OOM is the story, across the commas of its sentence
    ("en", "turned off GC to go faster and it OOMed on the first preview so I turned it back on. now 9 hours for "
           "3000 steps, what else can I change?"),
    ("en", "i disabled gc, got OOM right away, re-enabled it. training takes forever now"),
    ("es", "quite el GC para ir mas rapido, me dio OOM en la primera muestra y lo volvi a activar. ahora tarda 9 "
           "horas, que cambio?"),
    ("es", "sin GC me daba OOM en el paso 1 asi que lo volvi a poner, ahora va a 8 s/it"),
    ("pt", "desliguei o GC pra ir mais rapido, deu OOM na primeira amostra e liguei de novo. agora demora 9 horas, o "
           "que mudo?"),
    ("pt", "sem GC dava OOM no passo 1 entao voltei a ligar, agora ta 8 s/it"),
    ("fr", "j'ai coupe le GC pour aller plus vite, OOM a la premiere preview donc je l'ai remis. maintenant 9 heures, "
           "je change quoi ?"),
    ("fr", "sans GC ca plantait en OOM au step 1 alors je l'ai reactive, maintenant 8 s/it"),
    ("de", "GC ausgemacht um schneller zu sein, OOM beim ersten Preview, also wieder angemacht. jetzt 9 Stunden, was "
           "kann ich ändern?"),
    ("de", "ohne GC gab es OOM bei Step 1, hab es wieder eingeschaltet, jetzt 8 s/it"),
    ("ko", "빨리 하려고 GC 껐다가 첫 프리뷰에서 OOM 나서 다시 켰어요. 지금 9시간 걸리는데 뭘 바꿔야 하나요?"),
    ("ko", "GC 끄니까 1스텝에서 OOM 나서 다시 켰는데 이제 8 s/it이에요"),
])
def test_a_past_reported_or_undone_oom_leaves_the_speed(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) == "slow-training"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "it still OOMs at step 3 even though I turned it back on"),
    ("en", "OOM at step 3 even after I turned it back on"),
    ("en", "OOM at step 3, should I turn it back on?"),
    ("es", "me da OOM en el paso 3 aunque lo volvi a activar"),
    ("pt", "da OOM no passo 3 mesmo depois que liguei de novo"),
    ("fr", "OOM au step 3 meme apres que je l'ai remis"),
    ("de", "OOM bei step 3 obwohl ich es wieder angemacht habe"),
    ("ko", "다시 켰는데도 3스텝에서 OOM 나요"),
    ("ko", "다시 켰어요 그래도 3스텝에서 OOM 나요"),
])
def test_an_oom_despite_the_setting_put_back_is_told(index: Index, lang: str, text: str) -> None:
    assert _symptom(index, lang, text) == "oom-early-steps"


# --- 4. an ordinal step before its word, a size after it -----------------------------------------------------------

@pytest.mark.parametrize(("lang", "text", "step"), [
    ("en", "OOM at the third step, flux at 1024", 3),
    ("es", "sigue dando OOM en el tercer paso, flux a 1024", 3),
    ("pt", "continua dando OOM no terceiro passo, flux em 1024", 3),
    ("fr", "toujours OOM au troisième step, flux en 1024", 3),
    ("de", "immer noch OOM beim dritten Step, Flux auf 1024", 3),
    ("en", "OOM at step 2, 1024 buckets", 2),
])
def test_an_ordinal_step_beside_a_size(index: Index, lang: str, text: str, step: int) -> None:
    assert understand(index.matcher, text, lang).stated.step == step
