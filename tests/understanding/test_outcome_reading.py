"""Issue 12, session 7 (weak6): the outcome reading. Real users tell a bad result of their training by what they see,
often with no evaluative word: a predicate of the look (melted, mangled, flickering, baked in), an arbitrary someone
or something else in place of the subject, a thing gone, a subject it cannot get or seldom gets, a trigger or prompt
ignored, a LoRA told as trained that does not work, one look in every output, a decline or a "worse than" beside the
steps, a verdict on the result, a praise word denied ("not that good"; "not bad" is none). Said in one sentence of
the result's subject (the output, an aspect trained, a thing depicted, the LoRA, the previews, "it"), each is a weak
result (`intents.yaml` `implies`). The same words said of a generation-side tool (an upscaler, hires fix, TeaCache)
or of a base model's own limits, and how-to questions, stay no symptom; a rate said bad is no weak result. Every
sentence was written for this test, in the six languages (none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnose, diagnosed_symptom, search

WEAK = "weak-samples"
SLOW = "slow-training"

# --- 1. a result of the training told by what is seen -------------------------------------------------------------

SEEN = [
    ("en", "trained a new model last week and now the prompts just dont work on it"),
    ("en", "i trained a lora of my brother but it just generates some random guy"),
    ("en", "the face is melted in pretty much every image I get from the lora"),
    ("en", "my lora ignores the trigger word, no matter where I put it in the prompt"),
    ("en", "all outputs have the same pose, like it only knows one photo"),
    ("en", "finished the training, looks like a drawing of her at best"),
    ("en", "the images from my lora are noisy and grainy"),
    ("en", "it only works at strength 1.5, at 1.0 you barely see anything"),
    ("en", "the character is there but the outfit is baked in, I can't change her clothes"),
    ("en", "after 3000 steps it's worse than at 1000"),
    ("en", "trained on 25 photos of my dog, the results show some other dog"),
    ("en", "the hands are mangled in every sample"),
    ("en", "my lora makes everyone look like plastic"),
    ("en", "outputs are oversaturated and the skin looks waxy"),
    ("en", "the lora finished but the style just isnt there"),
    ("en", "after step 2000 the samples turn into a brown blur"),
    ("en", "it keeps putting the same face on every person in the picture"),
    ("en", "the trained model completely ignores my prompts"),
    ("en", "generated images have weird artifacts all over the face"),
    ("en", "the eyes come out crossed and the teeth are a mess since I trained it"),
    ("en", "the lora only changes the background, the person stays the same"),
    ("en", "results look nothing like my training images"),
    ("en", "the trigger word does nothing at all"),
    ("en", "when I load my lora the whole image turns to static"),
    ("en", "epoch 10 looked fine but the final lora is fried"),
    ("en", "my style lora just spits out copies of the training images"),
    ("en", "the likeness is kinda there but not really, she looks like her cousin"),
    ("en", "the samples keep getting uglier with every save"),
    ("en", "the lora output is just brown mush"),
    ("en", "videos from my wan lora flicker and the motion is gone"),
    ("en", "my character lora turns every woman into the same person"),
    ("en", "samples at step 500 already look burned"),
    ("en", "hair color is always wrong in the outputs"),
    ("en", "text comes out as gibberish since I trained this lora"),
    ("en", "faces are smeared in the previews"),
    ("en", "the lora barely changes anything unless I push it to 2"),
    ("en", "the samples during training look nothing like the person"),
    ("en", "the product lora gets the logo wrong every time"),
    ("en", "The training runs fine, but the lora just doesn't work, the pictures are the same as without it"),
    ("en", "every image has a weird purple tint after training"),
    ("en", "it learned the background of my photos instead of the face"),
    ("en", "trained 2000 steps, the output is a blurry mess"),
    ("en", "sample images are garbage after epoch 5, before that they were ok"),
    ("en", "my lora results are far from ideal"),
    ("en", "the new model doesn't recognize my instance prompt"),
    ("en", "it doesn't pick up the trigger word"),
    ("en", "it produces patches and spots on the face"),
    ("en", "the result just shows the character, it ignores the rest of the prompt"),
    ("en", "the quality went down a lot as the steps increased"),
    ("en", "the textual inversion gives me creepy clown faces every time"),
    ("en", "the videos I get from my trained lora have no motion"),
    ("en", "the trained lora makes the video jittery"),
    ("es", "entrené una lora de mi hermano y solo me genera un tipo cualquiera"),
    ("es", "las manos salen derretidas en todas las imágenes de la lora"),
    ("es", "la lora ignora la palabra clave, da igual dónde la ponga"),
    ("es", "todas las imágenes salen con la misma pose"),
    ("es", "el personaje sale pero la ropa está pegada, no puedo cambiarle el outfit"),
    ("es", "a los 3000 pasos está peor que a los 1000"),
    ("es", "los resultados de mi lora están lejos de lo ideal"),
    ("es", "los vídeos de mi lora parpadean y el movimiento ha desaparecido"),
    ("es", "los prompts no funcionan con el modelo nuevo que entrené"),
    ("es", "la calidad de las muestras empeoró mucho después del paso 2000"),
    ("pt", "treinei uma lora do meu irmão e ela só gera um cara qualquer"),
    ("pt", "as mãos saem derretidas em todas as imagens da lora"),
    ("pt", "a lora ignora a palavra-gatilho, não importa onde eu coloque"),
    ("pt", "todas as imagens saem com a mesma pose"),
    ("pt", "o personagem aparece mas a roupa fica grudada, não consigo trocar"),
    ("pt", "com 3000 passos ficou pior do que com 1000"),
    ("pt", "os resultados da minha lora estão longe do ideal"),
    ("pt", "os prompts não funcionam no modelo novo que eu treinei"),
    ("fr", "j'ai entraîné une lora de mon frère et ça sort juste un mec au hasard"),
    ("fr", "les mains sortent fondues sur toutes les images de la lora"),
    ("fr", "la lora ignore le mot déclencheur, peu importe où je le mets"),
    ("fr", "toutes les images sortent avec la même pose"),
    ("fr", "le perso est là mais la tenue est incrustée, impossible de la changer"),
    ("fr", "à 3000 steps c'est pire qu'à 1000"),
    ("fr", "les résultats de ma lora sont loin d'être idéaux, franchement décevants"),
    ("fr", "les prompts ne marchent pas sur le nouveau modèle que j'ai entraîné"),
    ("de", "hab ein LoRA von meinem Bruder trainiert, es kommt nur irgendein Typ raus"),
    ("de", "die Hände sind auf allen Bildern vom LoRA verschmiert"),
    ("de", "das LoRA ignoriert das Triggerwort komplett"),
    ("de", "alle Bilder haben die gleiche Pose"),
    ("de", "der Charakter ist da, aber das Outfit ist eingebrannt, ich kann die Kleidung nicht ändern"),
    ("de", "nach 3000 Steps ist es schlechter als bei 1000"),
    ("de", "die Ergebnisse von meinem LoRA sind enttäuschend"),
    ("de", "die Videos von meinem LoRA flackern und die Bewegung ist weg"),
    ("ko", "동생 로라를 학습했는데 그냥 아무 남자나 나와요"),
    ("ko", "로라로 뽑은 이미지마다 손이 녹아내린 것 같아요"),
    ("ko", "로라가 트리거 단어를 무시해요"),
    ("ko", "결과물이 전부 같은 포즈로 나와요"),
    ("ko", "3000스텝 로라가 1000스텝보다 더 나빠요"),
    ("ko", "제 로라 결과가 기대 이하예요"),
    ("ko", "로라로 만든 영상이 깜빡거리고 움직임이 사라졌어요"),
    ("ko", "새로 학습한 모델에서 프롬프트가 안 먹혀요"),
    # a LoRA told as trained that does not work, a result never or seldom reached, something in place of the subject
    ("en", "the lora I trained doesn't work at all"),
    ("en", "my trained lora is not working, the faces are the same as without it"),
    ("en", "I can't get the lora to look like her no matter what settings I use"),
    ("en", "couldn't get the face right after 5 trainings"),
    ("en", "only 1 out of 10 images looks like the person"),
    ("en", "the trained lora gives me anime faces instead of realistic ones"),
    ("en", "the person looks older and fatter than in the photos"),
    ("en", "the results look low resolution even at 1024"),
    ("en", "all my generations have watermarks from the dataset"),
    ("en", "the results are really inconsistent between seeds"),
    ("en", "samples look broken after epoch 3"),
    ("es", "la lora que entrené no funciona para nada"),
    ("es", "no consigo que la cara se parezca, da igual lo que toque"),
    ("es", "la lora me da caras de anime en vez de caras realistas"),
    ("es", "las imágenes de mi lora salen con marcas de agua del dataset"),
    ("pt", "a lora que eu treinei não funciona de jeito nenhum"),
    ("pt", "não consigo acertar o rosto, não importa o que eu mude"),
    ("pt", "a lora me dá rostos de anime em vez de rostos realistas"),
    ("pt", "os resultados da lora são muito inconsistentes entre seeds"),
    ("fr", "la lora que j'ai entraînée ne marche pas du tout"),
    ("fr", "j'arrive pas à avoir le bon visage, peu importe les réglages"),
    ("fr", "la lora me sort des visages d'anime au lieu de visages réalistes"),
    ("fr", "les résultats de ma lora sont super incohérents d'une seed à l'autre"),
    ("de", "das trainierte LoRA funktioniert überhaupt nicht"),
    ("de", "ich kriege es nicht hin, dass das Gesicht stimmt, egal was ich einstelle"),
    ("de", "das LoRA gibt mir Anime-Gesichter statt realistischer Gesichter"),
    ("de", "die Bilder von meinem LoRA haben Wasserzeichen aus dem Datensatz"),
    ("ko", "학습한 로라가 전혀 작동 안 해요"),
    ("ko", "뭘 바꿔도 얼굴이 제대로 안 나와요"),
    ("ko", "로라 결과물이 시드마다 들쭉날쭉해요"),
    ("ko", "로라로 뽑은 이미지에 데이터셋 워터마크가 나와요"),
    ("en", "Trained on 40 images of my wife. The result looks like a cartoon."),
    ("en", "I trained a character lora for 2000 steps. It looks melted."),
    ("en", "the previews during training looked perfect but the final lora in comfy gives a different person"),
    ("en", "at strength 1 it's fried, at 0.6 the face is gone"),
    ("es", "entrené la lora con fotos de mi mujer y el resultado parece un dibujo"),
    ("fr", "j'ai entraîné la lora sur des photos de ma femme, le résultat on dirait un dessin"),
    # a praise word denied
    ("en", "the images from my lora don't look good"),
    ("en", "my lora outputs aren't good"),
    ("en", "the samples are not that good"),
    ("en", "the lora isn't good at all"),
    ("en", "my lora is not looking like her"),
    ("en", "the generated images are not looking right"),
    ("en", "my character lora is not accurate"),
    ("es", "las imágenes de mi lora no se ven bien"),
    ("es", "los resultados de la lora no son buenos"),
    ("es", "mi lora no se parece a ella para nada"),
    ("pt", "as imagens da minha lora não ficam boas"),
    ("pt", "os resultados da lora não são bons"),
    ("pt", "a minha lora não parece com ela"),
    ("fr", "les images de ma lora sont pas terribles"),
    ("fr", "ma lora est pas ressemblante du tout"),
    ("fr", "les résultats de la lora ne sont pas bons"),
    ("de", "die Bilder von meinem LoRA sind nicht so gut"),
    ("de", "die Ergebnisse vom LoRA sind gar nicht ähnlich"),
    ("ko", "로라 결과물이 별로 안 좋아요"),
    ("ko", "제 로라 결과물이 전혀 정확하지 않아요"),
]


@pytest.mark.parametrize(("lang", "text"), SEEN)
def test_a_result_told_by_what_is_seen_is_weak_samples(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


# --- 2. the same words of a generation-side tool, a base model's limits, how-to questions: no symptom ------------

NOT_THE_TRAINING = [
    ("en", "in comfyui flux dev gives me blurry images even without any lora"),
    ("en", "the upscaler makes the faces look melted"),
    ("en", "a lora I downloaded from civitai makes everything noisy"),
    ("en", "is the upper limit of wan's motion quality too low?"),
    ("en", "how do I train a motion lora?"),
    ("en", "need help training wan, never done a video lora"),
    ("en", "base sdxl makes ugly hands, is that a known limitation of the model?"),
    ("en", "generating with wan 2.2 in comfy gives grainy videos"),
    ("en", "what rank should I use for a character lora?"),
    ("en", "hires fix gives me artifacts on the eyes"),
    ("en", "the vae decode gives colour banding in comfyui"),
    ("en", "ultimate sd upscale adds seams to the picture"),
    ("en", "teacache makes the wan video blurry in comfy"),
    ("en", "no errors, the results look good"),
    ("en", "the results are not bad at all, thanks for the guide"),
    ("es", "los resultados no están nada mal, gracias"),
    ("fr", "les résultats sont pas mal du tout, merci"),
    ("de", "die Ergebnisse sind gar nicht schlecht, danke"),
    ("es", "el upscaler deja las caras derretidas"),
    ("es", "¿cómo entreno una lora de movimiento para wan?"),
    ("pt", "o upscaler deixa os rostos derretidos"),
    ("pt", "como eu treino uma lora de movimento pro wan?"),
    ("fr", "l'upscaler rend les visages tout fondus"),
    ("fr", "comment j'entraîne une lora de mouvement pour wan ?"),
    ("de", "der Upscaler macht die Gesichter total verschmiert"),
    ("de", "wie trainiere ich ein Bewegungs-LoRA für Wan?"),
    ("ko", "업스케일러 쓰면 얼굴이 뭉개져요"),
    ("ko", "wan 모션 로라는 어떻게 학습하나요?"),
]


@pytest.mark.parametrize(("lang", "text"), NOT_THE_TRAINING)
def test_the_same_words_not_of_the_training_are_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


# --- 3. slowness against a weak result ------------------------------------------------------------------------------

@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the results are slowly getting worse with each checkpoint"),
    ("es", "los resultados van empeorando poco a poco con cada checkpoint"),
])
def test_a_result_slowly_getting_worse_is_weak_samples(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "training is super slow and the results are bad too"),
    ("en", "the outputs are bad and it also takes 10 hours per run"),
    ("es", "el entrenamiento va lentísimo y encima los resultados son malos"),
    ("de", "das Training ist extrem langsam und die Ergebnisse sind auch schlecht"),
])
def test_slow_and_bad_results_is_one_of_the_two(client: TestClient, lang: str, text: str) -> None:
    answer = diagnose(client, lang, text)
    told = {diagnosed_symptom(client, lang, text)} | {a["id"] for a in answer.get("alternatives", [])}  # type: ignore[union-attr]
    assert diagnosed_symptom(client, lang, text) in (WEAK, SLOW)
    assert told >= {WEAK, SLOW} or answer["match"] == "confident"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "I'm at 4.5 s/it on a 3090, is that bad?"),
    ("en", "training went from 1.2 it/s to 3 s/it, something is wrong"),
    ("en", "it takes forever, 12 hours for 2000 steps, way worse than before"),
    ("en", "the speed is terrible since the update, 8 s/it"),
    ("es", "voy a 4.5 s/it en una 3090, ¿es malo?"),
    ("pt", "tô com 4.5 s/it numa 3090, isso é ruim?"),
    ("fr", "je suis à 4.5 s/it sur une 3090, c'est mauvais ?"),
    ("de", "ich habe 4.5 s/it auf einer 3090, ist das schlecht?"),
    ("ko", "3090에서 4.5 s/it 나오는데 이거 나쁜 건가요?"),
])
def test_a_rate_said_bad_is_slowness_not_a_weak_result(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == SLOW
