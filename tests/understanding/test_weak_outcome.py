"""Issue 12, session 10 (weak10): a weak result read as a judged outcome, both ways, six languages.

Real users tell a weak result by what their trained adapter or fine-tune does, judged against what it should do,
seldom with the word "weak": the outputs are the same as the base model's, the LoRA has no effect, the samples do not
change from one step count to another, the loss does not move, a ControlNet ignores or copies its condition, a motion
LoRA gives no motion, the result is worse than a full fine-tune, the face drifts, the subject does not look like the
person trained. That is the guide's case (rule 6: dataset, captions, rank, steps, preview parity).

The other side looks alike and is `none`: black images or NaN, a base model's or an inference tool's own quality, a
better quality wished for or asked how to get, a comparison of tools, LoRAs stacked at generation, another training
domain (audio, an LLM), someone else's LoRA, a success told. On that side search gives no confident hit either.

Every sentence was written for this test, as forum users write in each language, before any dev item of the class was
read (none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom, search

WEAK = "weak-samples"

# The user's trained thing (named, or implied by the training told), judged against what it should do.
JUDGED_OUTCOME = [
    # the same as the base model
    ("en", "trained a lora on 30 photos of my cat, the outputs are identical to what the base model gives without it"),
    ("es", "entrené una lora con 30 fotos de mi gato y las imágenes salen idénticas a las del modelo base sin ella"),
    ("pt", "treinei uma lora com 30 fotos do meu gato e as imagens saem idênticas às do modelo base sem ela"),
    ("fr", "j'ai entraîné une lora sur 30 photos de mon chat, les images sont identiques à celles du modèle de base "
           "sans elle"),
    ("de", "ich habe ein LoRA mit 30 Fotos meiner Katze trainiert, die Bilder sind identisch mit denen vom Basismodell "
           "ohne LoRA"),
    ("ko", "고양이 사진 30장으로 로라를 학습했는데 결과가 로라 없이 기본 모델로 뽑은 거랑 똑같아요"),
    # no effect at all
    ("en", "the lora I trained has literally no effect, same images with it loaded or not"),
    ("es", "la lora que entrené no tiene ningún efecto, salen las mismas imágenes con ella o sin ella"),
    ("pt", "a lora que eu treinei não tem efeito nenhum, saem as mesmas imagens com ou sem ela"),
    ("fr", "la lora que j'ai entraînée n'a strictement aucun effet, mêmes images avec ou sans"),
    ("de", "das LoRA, das ich trainiert habe, hat null Wirkung, mit und ohne kommen dieselben Bilder raus"),
    ("ko", "제가 학습한 로라가 전혀 효과가 없어요, 로라를 넣으나 빼나 똑같은 이미지가 나와요"),
    # a step count with no change
    ("en", "no visible difference between the samples at 500 steps and at 3000 steps"),
    ("es", "no hay ninguna diferencia entre las muestras del paso 500 y las del paso 3000"),
    ("pt", "não vejo diferença nenhuma entre as amostras do passo 500 e as do passo 3000"),
    ("fr", "aucune différence entre les samples à 500 steps et ceux à 3000 steps"),
    ("de", "zwischen den Samples bei 500 Steps und bei 3000 Steps gibt es keinen sichtbaren Unterschied"),
    ("ko", "500스텝 샘플이랑 3000스텝 샘플이 전혀 차이가 없어요"),
    # the loss does not move while the samples do not change
    ("en", "the loss has been stuck around 0.15 since step 200 and the samples never change"),
    ("es", "el loss lleva atascado en 0.15 desde el paso 200 y las muestras no cambian nunca"),
    ("pt", "o loss está travado em 0.15 desde o passo 200 e as amostras nunca mudam"),
    ("fr", "la loss est bloquée vers 0.15 depuis le step 200 et les samples ne changent jamais"),
    ("ko", "loss가 200스텝부터 0.15에서 안 떨어지고 샘플도 전혀 안 바뀌어요"),
    # a ControlNet that ignores its condition
    ("en", "trained a controlnet on my depth maps but the generated images don't follow the condition at all"),
    ("pt", "treinei um controlnet com meus mapas de profundidade mas as imagens não seguem a condição de jeito nenhum"),
    ("fr", "j'ai entraîné un controlnet sur mes depth maps mais les images ne suivent pas du tout la condition"),
    ("de", "ich habe ein ControlNet auf meinen Tiefenkarten trainiert, aber die Bilder folgen der Bedingung überhaupt "
           "nicht"),
    ("ko", "뎁스맵으로 컨트롤넷을 학습했는데 생성된 이미지가 조건을 전혀 안 따라가요"),
    # ... or copies it
    ("en", "after training, my controlnet just copies the control image instead of generating a new picture"),
    ("es", "después de entrenar, mi controlnet solo copia la imagen de control en vez de generar una imagen nueva"),
    ("pt", "depois do treino, meu controlnet só copia a imagem de controle em vez de gerar uma imagem nova"),
    ("fr", "après l'entraînement mon controlnet recopie juste l'image de contrôle au lieu d'en générer une nouvelle"),
    ("de", "nach dem Training kopiert mein ControlNet einfach das Kontrollbild, statt ein neues Bild zu erzeugen"),
    ("ko", "학습하고 나니 컨트롤넷이 새 이미지를 만들지 않고 컨트롤 이미지를 그대로 복사해요"),
    # a motion LoRA with no motion
    ("en", "the motion lora I trained on 20 clips gives videos with no motion, everything stays still"),
    ("es", "la lora de movimiento que entrené con 20 clips da vídeos sin movimiento, todo se queda quieto"),
    ("pt", "a lora de movimento que treinei com 20 clipes gera vídeos sem movimento, tudo fica parado"),
    ("fr", "la lora de mouvement que j'ai entraînée sur 20 clips donne des vidéos sans aucun mouvement, tout reste "
           "figé"),
    # worse than a full fine-tune
    ("en", "my lora results are much worse than the full fine-tune I trained on the same dataset"),
    ("es", "los resultados de mi lora son mucho peores que el fine-tune completo que entrené con el mismo dataset"),
    ("pt", "os resultados da minha lora são bem piores que o fine-tune completo que treinei com o mesmo dataset"),
    ("fr", "les résultats de ma lora sont bien pires que le fine-tune complet que j'ai entraîné sur le même dataset"),
    ("de", "die Ergebnisse meines LoRAs sind viel schlechter als das volle Finetune, das ich mit demselben Datensatz "
           "trainiert habe"),
    ("ko", "같은 데이터셋으로 학습한 풀 파인튜닝보다 제 로라 결과가 훨씬 나빠요"),
    # the face drifts
    ("en", "the face drifts from frame to frame in every clip my wan lora makes"),
    ("es", "la cara va cambiando de un fotograma a otro en todos los clips que hace mi lora de wan"),
    ("pt", "o rosto vai mudando de um quadro pro outro em todos os clipes que minha lora de wan faz"),
    ("fr", "le visage dérive d'une frame à l'autre dans tous les clips que fait ma lora wan"),
    ("de", "das Gesicht verändert sich von Frame zu Frame in jedem Clip, den mein Wan-LoRA macht"),
    ("ko", "제 wan 로라로 만든 영상마다 프레임마다 얼굴이 계속 바뀌어요"),
    # overbaked
    ("en", "my lora came out overbaked, every image is contrasty and fried even at strength 0.6"),
    ("es", "mi lora salió pasada de cocción, todas las imágenes salen quemadas incluso con fuerza 0.6"),
    ("pt", "minha lora ficou passada do ponto, todas as imagens saem queimadas mesmo com força 0.6"),
    ("fr", "ma lora est surcuite, toutes les images sont cramées même à 0.6 de force"),
    ("de", "mein LoRA ist übertrainiert, jedes Bild ist verbrannt, selbst bei Stärke 0.6"),
    ("ko", "로라가 과하게 구워져서 강도 0.6에서도 모든 이미지가 타버린 것처럼 나와요"),
    # does not look like the person trained
    ("en", "doesn't look like the person at all, even after 4000 steps on 40 photos"),
    ("es", "no se parece a la persona para nada, incluso después de 4000 pasos con 40 fotos"),
    ("pt", "não se parece com a pessoa de jeito nenhum, mesmo depois de 4000 passos com 40 fotos"),
    ("fr", "ça ne ressemble pas du tout à la personne, même après 4000 steps sur 40 photos"),
    ("de", "sieht der Person überhaupt nicht ähnlich, selbst nach 4000 Steps mit 40 Fotos"),
    ("ko", "사진 40장으로 4000스텝이나 돌렸는데 그 사람이랑 전혀 안 닮았어요"),
    # several step counts, the same result
    ("en", "tried 1000, 2000 and 4000 steps and the results look exactly the same each time"),
    ("es", "probé con 1000, 2000 y 4000 pasos y los resultados salen exactamente iguales cada vez"),
    ("pt", "testei com 1000, 2000 e 4000 passos e os resultados saem exatamente iguais toda vez"),
    ("fr", "j'ai essayé 1000, 2000 et 4000 steps et les résultats sont exactement pareils à chaque fois"),
    ("de", "ich habe 1000, 2000 und 4000 Steps probiert und die Ergebnisse sehen jedes Mal genau gleich aus"),
    ("ko", "1000, 2000, 4000스텝 다 해봤는데 결과가 매번 완전히 똑같아요"),
    # a result judged worse, the reference left implied
    ("en", "I trained a new lora with a second dataset and the result is much worse, the faces are blurry"),
    ("es", "entrené otra lora con un dataset nuevo y los resultados salen mucho peores, las caras borrosas"),
    ("pt", "treinei de novo minha lora com outro dataset e os resultados ficaram bem piores"),
    ("fr", "j'ai réentraîné ma lora avec un nouveau dataset et le résultat est bien pire, les visages sont flous"),
    ("de", "ich habe mein LoRA mit einem neuen Datensatz neu trainiert und die Ergebnisse sind viel schlechter"),
    ("ko", "새 데이터셋으로 로라를 다시 학습했는데 결과가 훨씬 나빠요"),
    # fine details lost: the look's detail, not information
    ("en", "my lora lost all the fine details after 3000 steps, faces are blurry"),
    ("es", "mi lora perdió todos los detalles finos después de 3000 pasos, las caras salen borrosas"),
    ("de", "mein LoRA hat nach 3000 Steps alle feinen Details verloren, die Gesichter sind unscharf"),
]

# Alike in words, no judged outcome of the user's own training: the guide has no answer.
NOT_A_JUDGED_OUTCOME = [
    # a base model's own look
    ("en", "wan 2.2 base model gives blurry hands no matter what, any prompt tricks?"),
    ("es", "el modelo base de wan 2.2 da manos borrosas hagas lo que hagas, ¿algún truco de prompt?"),
    ("pt", "o modelo base do wan 2.2 faz mãos borradas não importa o que eu faça, algum truque de prompt?"),
    ("fr", "le modèle de base wan 2.2 fait des mains floues quoi qu'on fasse, une astuce de prompt ?"),
    ("de", "das Basismodell Wan 2.2 macht immer verschwommene Hände, egal was ich mache, gibt es Prompt-Tricks?"),
    ("ko", "wan 2.2 기본 모델은 뭘 해도 손이 흐릿하게 나와요, 프롬프트 팁 있나요?"),
    # NaN and black previews
    ("en", "the loss becomes nan at step 300 and the previews turn black"),
    ("es", "el loss se vuelve nan en el paso 300 y las previews salen negras"),
    ("pt", "o loss vira nan no passo 300 e as prévias ficam pretas"),
    ("fr", "la loss devient nan au step 300 et les previews deviennent noires"),
    ("de", "der Loss wird bei Step 300 NaN und die Previews werden schwarz"),
    ("ko", "300스텝에서 loss가 nan이 되고 프리뷰가 까맣게 나와요"),
    # a comparison of trainers
    ("en", "which gives better likeness for faces, onetrainer or kohya?"),
    ("es", "¿qué da mejor parecido en caras, onetrainer o kohya?"),
    ("pt", "qual dá mais semelhança em rostos, onetrainer ou kohya?"),
    ("fr", "lequel donne la meilleure ressemblance pour les visages, onetrainer ou kohya ?"),
    ("de", "was liefert bei Gesichtern bessere Ähnlichkeit, OneTrainer oder Kohya?"),
    ("ko", "얼굴 닮은 정도는 onetrainer랑 kohya 중에 뭐가 더 좋아요?"),
    # an inference tool's own output compared
    ("en", "comfyui gives worse images than forge with the same seed and the same settings"),
    ("es", "comfyui da peores imágenes que forge con la misma semilla y los mismos ajustes"),
    ("pt", "o comfyui gera imagens piores que o forge com a mesma seed e as mesmas configurações"),
    ("fr", "comfyui donne des images moins bonnes que forge avec la même seed et les mêmes réglages"),
    ("de", "ComfyUI liefert schlechtere Bilder als Forge mit demselben Seed und denselben Einstellungen"),
    ("ko", "같은 시드랑 같은 설정인데 comfyui가 forge보다 이미지가 더 안 좋게 나와요"),
    # someone else's LoRA with no effect
    ("en", "a lora I downloaded from civitai has no effect in my workflow"),
    ("es", "una lora que bajé de civitai no hace ningún efecto en mi workflow"),
    ("pt", "uma lora que baixei do civitai não faz efeito nenhum no meu workflow"),
    ("fr", "une lora téléchargée sur civitai n'a aucun effet dans mon workflow"),
    ("de", "ein LoRA, das ich von Civitai geladen habe, hat in meinem Workflow keine Wirkung"),
    ("ko", "civitai에서 받은 로라가 제 워크플로우에서 아무 효과가 없어요"),
    # another training domain
    ("en", "my llama 3 lora has no effect, the chatbot answers exactly like the base model"),
    ("es", "mi lora de llama 3 no tiene efecto, el chatbot responde igual que el modelo base"),
    ("pt", "minha lora do llama 3 não tem efeito, o chatbot responde igual ao modelo base"),
    ("fr", "ma lora llama 3 n'a aucun effet, le chatbot répond exactement comme le modèle de base"),
    ("de", "mein Llama-3-LoRA hat keine Wirkung, der Chatbot antwortet genau wie das Basismodell"),
    ("ko", "llama 3 로라가 효과가 없어요, 챗봇이 기본 모델이랑 똑같이 대답해요"),
    # a question of what to expect, no result
    ("en", "what loss value should I aim for when training a face lora?"),
    ("es", "¿qué valor de loss debería buscar al entrenar una lora de cara?"),
    ("pt", "qual valor de loss eu devo buscar ao treinar uma lora de rosto?"),
    ("fr", "quelle valeur de loss faut-il viser pour entraîner une lora de visage ?"),
    ("de", "welchen Loss-Wert sollte ich beim Training eines Gesichts-LoRAs anstreben?"),
    ("ko", "얼굴 로라 학습할 때 loss는 어느 정도를 목표로 해야 하나요?"),
    # a success told
    ("en", "trained my first lora yesterday and it looks exactly like her, thanks for the great tool!"),
    ("es", "ayer entrené mi primera lora y sale clavada a ella, ¡gracias por la herramienta!"),
    ("fr", "j'ai entraîné ma première lora hier et c'est elle trait pour trait, merci pour l'outil !"),
    ("de", "habe gestern mein erstes LoRA trainiert und es sieht ihr zum Verwechseln ähnlich, danke für das Tool!"),
    ("ko", "어제 첫 로라 학습했는데 완전 똑같이 나왔어요, 좋은 툴 감사합니다!"),
    # LoRAs stacked at generation
    ("en", "when I stack a detail lora and a style lora on top of mine, the face changes, what weights do you use?"),
    ("es", "cuando pongo una lora de detalle y una de estilo junto con la mía la cara cambia, ¿qué pesos usan?"),
    ("pt", "quando coloco uma lora de detalhe e uma de estilo junto com a minha o rosto muda, que pesos vocês usam?"),
    ("fr", "quand j'empile une lora de détails et une lora de style avec la mienne, le visage change, vous mettez "
           "quels poids ?"),
    ("de", "wenn ich ein Detail-LoRA und ein Stil-LoRA zusammen mit meinem benutze, ändert sich das Gesicht, welche "
           "Gewichte nehmt ihr?"),
    ("ko", "디테일 로라랑 스타일 로라를 제 로라랑 같이 쓰면 얼굴이 바뀌는데 가중치 어떻게 주세요?"),
    # a wish: will more steps help?
    ("en", "will training for more steps give better likeness, or is 2000 enough?"),
    ("es", "¿entrenar más pasos da mejor parecido o con 2000 basta?"),
    ("pt", "treinar mais passos dá mais semelhança ou 2000 já basta?"),
    ("fr", "est-ce qu'entraîner plus de steps donne une meilleure ressemblance, ou 2000 suffisent ?"),
    ("de", "bringt mehr Steps bessere Ähnlichkeit, oder reichen 2000?"),
    ("ko", "스텝을 더 돌리면 더 닮게 나오나요, 아니면 2000이면 충분한가요?"),
    # worse said of a base model against another, or of a speed
    ("en", "flux hands are much worse than sdxl hands, is there a sampler that helps?"),
    # (noneweak12: "sampler" kept as written in es, pt, fr, de: no longer the samples)
    ("es", "las manos de flux son mucho peores que las de sdxl, ¿algún sampler que ayude?"),
    ("de", "die Hände von Flux sind viel schlechter als bei SDXL, hilft ein anderer Sampler?"),
    # an audio LoRA with no effect: another training domain
    ("en", "trained a lora on 30 mp3 files of my band, it has no effect, nothing like my input songs"),
    ("en", "my voice model lora for text-to-speech has no effect, it sounds like the base voice"),
    ("es", "entrené una lora de modelo de voz y no tiene ningún efecto"),
    ("fr", "ma lora de modèle de voix n'a aucun effet, ça sonne comme la voix de base"),
    ("ko", "음성 모델 로라를 학습했는데 효과가 전혀 없어요"),
    # details asked of the authors: information, no look of a result
    ("en", "could you share more details about the dataset and the number of steps for your demo lora?"),
    ("es", "¿podrían dar más detalles sobre el dataset y los pasos de su lora de demo?"),
    ("pt", "vocês podem dar mais detalhes sobre o dataset e os passos da lora de demonstração?"),
    ("fr", "vous pouvez donner plus de détails sur le dataset et le nombre de steps de votre lora de démo ?"),
    ("de", "könnt ihr mehr Details zum Datensatz und zur Zahl der Steps eurer Demo-LoRA geben?"),
    ("ko", "데모 로라에 쓴 데이터셋이랑 스텝 수 자세한 내용 알려주실 수 있나요?"),
    # a trainer that breaks down: a crash wording, no broken look
    ("en", "when training a lora the app often breaks down halfway, any advice?"),
    # a loss that settles late in a long schedule, asked about: no result judged
    ("en", "the loss doesn't change much after 30k steps, is it really necessary to train for 300k?"),
    ("es", "el loss ya no cambia mucho después de 30k pasos, ¿de verdad hace falta entrenar 300k?"),
    ("de", "der Loss ändert sich nach 30k Steps kaum noch, muss man wirklich 300k trainieren?"),
]


@pytest.mark.parametrize(("lang", "text"), JUDGED_OUTCOME)
def test_a_judged_outcome_of_the_trained_thing_is_weak_samples(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), NOT_A_JUDGED_OUTCOME)
def test_alike_words_with_no_judged_outcome_are_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


# Left (seen, not solved): a German separable verb around the loss ("hängt ... fest"); Spanish "no siguen" read whole
# as a run that does not go on (`no_progress`), so its negation denies no following; a video "ohne Bewegung" /
# "움직임이 없어요" (motion absent, told with no subject of the result the denial rules name); a Portuguese success
# "ficou idêntica a ela" whose words read as a weak result. Strict: a case that starts to pass must move to its table.
LEFT_WEAK = [
    ("de", "der Loss hängt seit Step 200 bei 0.15 fest und die Samples ändern sich nie"),
    ("es", "entrené un controlnet con mis mapas de profundidad pero las imágenes no siguen la condición para nada"),
    ("de", "das Motion-LoRA, das ich mit 20 Clips trainiert habe, macht Videos ohne Bewegung, alles bleibt stehen"),
    ("ko", "클립 20개로 학습한 모션 로라로 만들면 영상에 움직임이 하나도 없어요"),
]

LEFT_NONE = [
    ("pt", "treinei minha primeira lora ontem e ficou idêntica a ela, valeu pela ferramenta!"),
]


@pytest.mark.xfail(strict=True, reason="left: see LEFT_WEAK")
@pytest.mark.parametrize(("lang", "text"), LEFT_WEAK)
def test_left_weak(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.xfail(strict=True, reason="left: see LEFT_NONE")
@pytest.mark.parametrize(("lang", "text"), LEFT_NONE)
def test_left_none(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"
