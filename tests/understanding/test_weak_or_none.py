"""Issue 12, session 9 (weak9): the boundary between `weak-samples` and `none`, both ways, six languages.

A quality complaint is the guide's case (rule 6: dataset, captions, rank, steps, preview parity) when its subject is
the user's own trained LoRA or finetune (my lora, trained, after N steps or epochs, the dataset, the captions, the
rank, the previews during training) and its outcome is judged poor (likeness, no effect, overcooked, artifacts,
different at inference than in the previews). It is `none` when the subject is a base model's or someone else's
output, an inference program's setting, a load or format error, a number gone NaN or 0, or a question about how to do
something (a how-to, a feature, a comparison of trainers) that names quality. On that side search gives no confident
hit on the weak-samples steps either. Every sentence was written for this test, as forum users write in each language
(none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom, search

WEAK = "weak-samples"

OWN_RESULT_POOR = [
    ("en", "trained a lora of my dog for 2000 steps and it looks nothing like him"),
    ("en", "my character lora is overcooked after epoch 10, everything comes out oversaturated"),
    ("en", "the samples during training looked fine but when I load the lora in comfy the face is totally different"),
    ("en", "I trained on 25 images with captions at rank 16 and the lora barely changes anything"),
    ("en", "after 3000 steps the likeness is still poor, the face is generic"),
    ("en", "my style lora learned nothing, the outputs are identical to the base model"),
    ("en", "the finetune I made produces artifacts on every image, grainy noise everywhere"),
    ("en", "the lora I trained with ai-toolkit on flux gives blurry faces, the dataset is 40 sharp photos"),
    ("en", "the previews at step 500 looked right, by step 2500 they are burnt"),
    ("en", "anyone know why my trained lora makes everyone look like the same person?"),
    ("en", "finished training a wan lora, the motion is gone and the subject just stands still"),
    ("es", "entrené una lora de mi perro 2000 pasos y no se parece en nada"),
    ("es", "mi lora de personaje quedó quemada después de 10 épocas, todo sale sobresaturado"),
    ("es", "las muestras durante el entrenamiento se veían bien pero en comfy la cara sale totalmente distinta"),
    ("es", "entrené con 25 imágenes con captions, rank 16, y la lora casi no cambia nada"),
    ("es", "después de 3000 pasos el parecido sigue siendo malo, la cara sale genérica"),
    ("es", "mi lora de estilo no aprendió nada, las imágenes son iguales que con el modelo base"),
    ("es", "el finetune que hice saca artefactos en todas las imágenes, ruido por todos lados"),
    ("es", "la lora que entrené con ai-toolkit en flux da caras borrosas, el dataset son 40 fotos nítidas"),
    ("es", "las previews en el paso 500 se veían bien, en el paso 2500 ya están quemadas"),
    ("es", "¿por qué mi lora entrenada hace que todos parezcan la misma persona?"),
    ("pt", "treinei uma lora do meu cachorro por 2000 passos e não ficou nada parecido"),
    ("pt", "minha lora de personagem ficou queimada depois de 10 épocas, tudo sai supersaturado"),
    ("pt", "as amostras durante o treino estavam boas mas no comfy o rosto sai totalmente diferente"),
    ("pt", "treinei com 25 imagens com legendas, rank 16, e a lora quase não muda nada"),
    ("pt", "depois de 3000 passos a semelhança continua ruim, o rosto sai genérico"),
    ("pt", "minha lora de estilo não aprendeu nada, as imagens são iguais às do modelo base"),
    ("pt", "o finetune que eu fiz gera artefatos em todas as imagens, granulado por todo lado"),
    ("pt", "a lora que treinei no ai-toolkit com flux dá rostos borrados, o dataset tem 40 fotos nítidas"),
    ("pt", "as prévias no passo 500 estavam certas, no passo 2500 já estão queimadas"),
    ("pt", "por que a lora que eu treinei faz todo mundo parecer a mesma pessoa?"),
    ("fr", "j'ai entraîné une lora de mon chien sur 2000 steps et ça ne lui ressemble pas du tout"),
    ("fr", "ma lora de perso est cramée après 10 epochs, tout sort sursaturé"),
    ("fr", "les samples pendant l'entraînement étaient bien mais dans comfy le visage est complètement différent"),
    ("fr", "j'ai entraîné sur 25 images avec captions, rank 16, et la lora ne change presque rien"),
    ("fr", "après 3000 steps la ressemblance est toujours mauvaise, le visage est générique"),
    ("fr", "ma lora de style n'a rien appris, les images sont identiques au modèle de base"),
    ("fr", "le finetune que j'ai fait sort des artefacts sur toutes les images, du bruit partout"),
    ("fr", "la lora que j'ai entraînée avec ai-toolkit sur flux donne des visages flous, le dataset c'est 40 photos "
           "nettes"),
    ("fr", "les previews au step 500 étaient bonnes, au step 2500 elles sont cramées"),
    ("fr", "pourquoi ma lora entraînée fait que tout le monde ressemble à la même personne ?"),
    ("de", "ich habe ein LoRA von meinem Hund mit 2000 Steps trainiert und es sieht ihm überhaupt nicht ähnlich"),
    ("de", "mein Charakter-LoRA ist nach 10 Epochen übertrainiert, alles kommt übersättigt raus"),
    ("de", "die Samples während des Trainings sahen gut aus, aber in Comfy ist das Gesicht komplett anders"),
    ("de", "ich habe mit 25 Bildern mit Captions und Rank 16 trainiert und das LoRA ändert fast nichts"),
    ("de", "nach 3000 Steps ist die Ähnlichkeit immer noch schlecht, das Gesicht ist generisch"),
    ("de", "mein Stil-LoRA hat nichts gelernt, die Bilder sind identisch mit dem Basismodell"),
    ("de", "das Finetune, das ich gemacht habe, erzeugt auf jedem Bild Artefakte, überall Rauschen"),
    ("de", "das LoRA, das ich mit ai-toolkit auf Flux trainiert habe, gibt verschwommene Gesichter, der Datensatz "
           "sind 40 scharfe Fotos"),
    ("de", "die Previews bei Step 500 sahen richtig aus, bei Step 2500 sind sie verbrannt"),
    ("de", "warum sieht mit meinem trainierten LoRA jeder wie dieselbe Person aus?"),
    ("ko", "우리 강아지 로라를 2000스텝 학습했는데 하나도 안 닮았어요"),
    ("ko", "캐릭터 로라가 10에폭 지나니까 과적합돼서 전부 채도가 너무 높게 나와요"),
    ("ko", "학습 중 샘플은 괜찮았는데 컴피에서 로라를 쓰면 얼굴이 완전히 달라요"),
    ("ko", "이미지 25장에 캡션 달고 랭크 16으로 학습했는데 로라가 거의 아무것도 안 바꿔요"),
    ("ko", "3000스텝 이후에도 닮은 정도가 여전히 별로고 얼굴이 평범하게 나와요"),
    ("ko", "스타일 로라가 아무것도 못 배웠어요, 결과물이 기본 모델이랑 똑같아요"),
    ("ko", "제가 만든 파인튜닝 모델이 모든 이미지에 아티팩트가 생겨요"),
    ("ko", "ai-toolkit으로 flux 로라 학습했는데 얼굴이 흐릿하게 나와요, 데이터셋은 선명한 사진 40장이에요"),
    ("ko", "500스텝 프리뷰는 괜찮았는데 2500스텝에서는 타버렸어요"),
    ("ko", "학습한 로라로 만들면 왜 다 같은 사람처럼 보이나요?"),
    ("en", "trained my controlnet for 40k steps and the loss is not converging, the condition is just ignored"),
    ("en", "my flux lora failed to converge after 3000 steps, the samples still look like the base model"),
    ("es", "entrené la lora 3000 pasos y el loss no baja, las muestras no cambian"),
    ("pt", "treinei a lora por 3000 passos e não converge, as amostras continuam iguais"),
    ("fr", "j'ai entraîné ma lora sur 3000 steps et ça ne converge pas, les samples restent pareils"),
    ("de", "ich habe mein LoRA 3000 Steps trainiert und es konvergiert nicht, die Samples bleiben gleich"),
    ("ko", "로라를 3000스텝 학습했는데 수렴하지 않아요, 샘플이 그대로예요"),
    ("en", "I trained two loras of my wife with 30 photos each and both look nothing like her"),
    ("es", "entrené dos loras de mi novia con 30 fotos cada una y la cara sale como otra persona"),
    ("en", "my lora looks nothing like her after 2000 steps, what am I doing wrong?"),
    ("es", "mi lora no se parece en nada a ella después de 2000 pasos, ¿qué estoy haciendo mal?"),
    ("de", "mein LoRA sieht ihr nach 2000 Steps überhaupt nicht ähnlich, was mache ich falsch?"),
    ("en", "the results look like the base model, nothing changed"),
    ("en", "the outputs are the same as the base model"),
    ("es", "las imágenes salen igual que el modelo base"),
    ("de", "die Bilder sehen aus wie das Basismodell"),
    ("ko", "결과가 기본 모델처럼 나와요"),
    ("en", "trained for 2000 steps and the results look like the base model"),
    ("es", "entrené 2000 pasos y las imágenes salen igual que el modelo base"),
    ("pt", "treinei 2000 passos e as imagens saem igual ao modelo base"),
    ("fr", "j'ai entraîné 2000 steps et les images sont comme le modèle de base"),
    ("de", "2000 Steps trainiert und die Bilder sehen aus wie das Basismodell"),
    ("ko", "2000스텝 학습했는데 결과가 기본 모델처럼 나와요"),
    ("en", "after 200 epochs my lora shows clear signs of overfitting, the face is burnt"),
    ("es", "después de 200 épocas mi lora está sobreajustada, la cara sale quemada"),
    ("en", "thanks for the tool, but my lora looks nothing like her after 2000 steps"),
    ("es", "gracias por la herramienta, pero mi lora no se parece en nada a ella después de 2000 pasos"),
]

NOT_THE_OWN_RESULT = [
    ("en", "flux dev base model gives plastic skin, which sampler do you recommend?"),
    ("en", "a lora I downloaded from civitai makes the images blurry in forge"),
    ("en", "lora key not loaded errors in comfyui when loading my safetensors"),
    ("en", "loss goes to nan after 200 steps and the samples are black"),
    ("en", "how do I get better quality from my loras? any tips on choosing the rank?"),
    ("en", "is ai-toolkit better than kohya for quality?"),
    ("en", "in comfyui, how many steps and what cfg should I use for the best quality with wan 2.2?"),
    ("en", "the generated images are black when I use the fp16 vae in automatic1111"),
    ("en", "does ai-toolkit support training with masks to improve quality?"),
    ("en", "my lora won't load in forge, it says unsupported format"),
    ("en", "avr_loss is 0 at every step, is the training broken?"),
    ("es", "el modelo base de flux da piel de plástico, ¿qué sampler me recomiendan?"),
    ("es", "una lora que bajé de civitai deja las imágenes borrosas en forge"),
    ("es", "me salen errores de lora key not loaded en comfyui al cargar mi safetensors"),
    ("es", "el loss se va a nan a los 200 pasos y las muestras salen negras"),
    ("es", "¿cómo consigo mejor calidad en mis loras? ¿algún consejo para elegir el rank?"),
    ("es", "¿ai-toolkit da mejor calidad que kohya?"),
    ("es", "en comfyui, ¿cuántos pasos y qué cfg uso para la mejor calidad con wan 2.2?"),
    ("es", "las imágenes generadas salen negras cuando uso el vae fp16 en automatic1111"),
    ("es", "¿ai-toolkit permite entrenar con máscaras para mejorar la calidad?"),
    ("es", "mi lora no carga en forge, dice que el formato no es compatible"),
    ("es", "la calidad de qwen image edit es mala comparada con otros modelos, ¿algún ajuste para arreglarlo?"),
    ("pt", "o modelo base do flux deixa a pele com cara de plástico, qual sampler vocês recomendam?"),
    ("pt", "uma lora que baixei do civitai deixa as imagens borradas no forge"),
    ("pt", "aparecem erros de lora key not loaded no comfyui quando carrego meu safetensors"),
    ("pt", "o loss vira nan depois de 200 passos e as amostras saem pretas"),
    ("pt", "como eu consigo mais qualidade nas minhas loras? alguma dica pra escolher o rank?"),
    ("pt", "o ai-toolkit dá mais qualidade que o kohya?"),
    ("pt", "no comfyui, quantos passos e qual cfg usar pra ter a melhor qualidade com o wan 2.2?"),
    ("pt", "as imagens geradas saem pretas quando uso o vae fp16 no automatic1111"),
    ("pt", "o ai-toolkit suporta treinar com máscaras pra melhorar a qualidade?"),
    ("pt", "minha lora não carrega no forge, diz que o formato não é suportado"),
    ("pt", "a qualidade do qwen image edit é ruim comparada com outros modelos, alguma configuração pra resolver?"),
    ("fr", "le modèle de base flux dev donne une peau en plastique, vous conseillez quel sampler ?"),
    ("fr", "une lora téléchargée sur civitai rend les images floues dans forge"),
    ("fr", "j'ai des erreurs lora key not loaded dans comfyui quand je charge mon safetensors"),
    ("fr", "la loss passe en nan après 200 steps et les samples sont noirs"),
    ("fr", "comment avoir une meilleure qualité avec mes loras ? des conseils pour choisir le rank ?"),
    ("fr", "ai-toolkit donne une meilleure qualité que kohya ?"),
    ("fr", "dans comfyui, combien de steps et quel cfg pour la meilleure qualité avec wan 2.2 ?"),
    ("fr", "les images générées sont noires quand j'utilise le vae fp16 dans automatic1111"),
    ("fr", "est-ce qu'ai-toolkit permet d'entraîner avec des masques pour améliorer la qualité ?"),
    ("fr", "ma lora ne se charge pas dans forge, il dit format non supporté"),
    ("de", "das Flux-Dev-Basismodell macht Plastikhaut, welchen Sampler empfehlt ihr?"),
    ("de", "ein LoRA, das ich von Civitai runtergeladen habe, macht die Bilder in Forge unscharf"),
    ("de", "ich bekomme lora key not loaded Fehler in ComfyUI, wenn ich meine safetensors lade"),
    ("de", "der Loss geht nach 200 Steps auf NaN und die Samples sind schwarz"),
    ("de", "liefert ai-toolkit bessere Qualität als kohya?"),
    ("de", "in ComfyUI, wie viele Steps und welchen CFG nehme ich für die beste Qualität mit Wan 2.2?"),
    ("de", "die generierten Bilder sind schwarz, wenn ich in Automatic1111 das fp16-VAE benutze"),
    ("de", "unterstützt ai-toolkit Training mit Masken, um die Qualität zu verbessern?"),
    ("de", "mein LoRA lädt nicht in Forge, es heißt Format nicht unterstützt"),
    ("de", "die Qualität von Qwen Image Edit ist schlecht im Vergleich zu anderen Modellen, gibt es Einstellungen "
           "dagegen?"),
    ("ko", "flux dev 기본 모델은 피부가 플라스틱 같아요, 어떤 샘플러 추천하세요?"),
    ("ko", "civitai에서 받은 로라를 포지에서 쓰면 이미지가 흐려져요"),
    ("ko", "comfyui에서 safetensors 불러올 때 lora key not loaded 에러가 나요"),
    ("ko", "200스텝 지나면 loss가 nan이 되고 샘플이 검은색으로 나와요"),
    ("ko", "로라 품질을 더 좋게 하려면 어떻게 해야 하나요? 랭크 고르는 팁 있나요?"),
    ("ko", "ai-toolkit이 kohya보다 품질이 더 좋나요?"),
    ("ko", "comfyui에서 wan 2.2로 최고 품질 내려면 스텝이랑 cfg를 얼마로 해야 하나요?"),
    ("ko", "automatic1111에서 fp16 vae 쓰면 생성된 이미지가 검게 나와요"),
    ("ko", "ai-toolkit에서 품질 높이려고 마스크로 학습하는 기능 지원하나요?"),
    ("ko", "제 로라가 포지에서 안 불러와져요, 지원하지 않는 형식이라고 나와요"),
    ("en", "my llama finetune loss is not converging, is the learning rate too high?"),
    ("en", "is it normal that the loss curve looks so noisy?"),
    ("es", "¿es normal que la curva de loss se vea tan ruidosa?"),
    ("fr", "c'est normal que la courbe de loss soit aussi bruitée ?"),
    ("de", "ist es normal, dass die Loss-Kurve so verrauscht aussieht?"),
    ("en", "my lora's samples are pure black and the loss is nan"),
    ("es", "las muestras de mi lora salen completamente negras"),
    ("pt", "as amostras da minha lora saem pretas e o loss vira nan"),
    ("fr", "les samples de ma lora sont noirs et la loss passe en nan"),
    ("de", "die Samples meines LoRAs sind komplett schwarz"),
    ("ko", "로라 샘플이 전부 검은 이미지로 나와요"),
    ("en", "when I stack my lora with two other loras the face turns into someone else, how do I balance the weights?"),
    ("es", "si uso mi lora con otras dos loras la cara sale de otra persona, ¿cómo ajusto los pesos?"),
    ("pt", "quando junto minha lora com outras duas loras o rosto vira outra pessoa, como acerto os pesos?"),
    ("fr", "quand je mets ma lora avec deux autres loras le visage devient quelqu'un d'autre, comment régler les "
           "poids ?"),
    ("de", "wenn ich mein LoRA mit zwei anderen LoRAs kombiniere, wird das Gesicht jemand anderes, wie stelle ich die "
           "Gewichte ein?"),
    ("ko", "제 로라를 다른 로라 두 개랑 같이 쓰면 얼굴이 딴 사람처럼 나와요, 가중치는 어떻게 맞추나요?"),
    ("en", "I followed the install steps but the trainer won't start, what am I doing wrong?"),
    ("es", "seguí los pasos de instalación pero el entrenador no arranca, ¿qué estoy haciendo mal?"),
    ("pt", "segui os passos da instalação mas o treinador não abre, o que estou fazendo de errado?"),
    ("fr", "j'ai suivi les étapes d'installation mais le trainer ne démarre pas, qu'est-ce que je fais mal ?"),
    ("de", "ich habe die Installationsschritte befolgt, aber der Trainer startet nicht, was mache ich falsch?"),
    ("ko", "설치 단계는 다 따라했는데 트레이너가 실행이 안 돼요, 제가 뭘 잘못한 걸까요?"),
    ("en", "how do I set the trigger word in the dataset config? what am I doing wrong"),
    ("es", "¿dónde pongo la palabra clave en la config del dataset? ¿qué hago mal?"),
    ("en", "trained my lora for 200 epochs and there is no sign of overfitting, sharing my config for anyone "
           "interested"),
    ("pt", "treinei minha lora por 200 épocas e nenhum sinal de overfitting, compartilhando minha config pra quem "
           "quiser"),
    ("fr", "j'ai entraîné ma lora sur 200 epochs et aucun signe d'overfitting, je partage ma config pour ceux que ça "
           "intéresse"),
    ("de", "ich habe mein LoRA 200 Epochen trainiert und keine Anzeichen von Overfitting, hier meine Config für "
           "Interessierte"),
    ("ko", "로라를 200에폭 학습했는데 과적합 징후가 없어요, 관심 있는 분들 위해 설정 공유해요"),
    ("en", "Hi, thank you so much for the detailed guide! I started training my first lora, where do I find the "
           "finished file?"),
    ("es", "Hola, muchas gracias por la guía tan detallada. Empecé a entrenar mi primera lora, ¿dónde encuentro el "
           "archivo final?"),
    ("pt", "Oi, muito obrigado pelo guia detalhado! Comecei a treinar minha primeira lora, onde acho o arquivo final?"),
    ("fr", "Salut, merci beaucoup pour le guide détaillé ! J'ai commencé à entraîner ma première lora, où je trouve "
           "le fichier final ?"),
    ("de", "Hi, vielen Dank für die detaillierte Anleitung! Ich habe mein erstes LoRA angefangen zu trainieren, wo "
           "finde ich die fertige Datei?"),
    ("ko", "자세한 가이드 정말 감사합니다! 첫 로라 학습을 시작했는데 완성된 파일은 어디서 찾나요?"),
]


@pytest.mark.parametrize(("lang", "text"), OWN_RESULT_POOR)
def test_a_poor_outcome_of_the_users_own_training_is_weak_samples(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), NOT_THE_OWN_RESULT)
def test_quality_of_something_else_or_asked_about_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


# A post titled with a training topic the guide does not teach (captions, a setting's choice) is about the user's own
# bad result its body tells, as it is about an OOM its body tells; a body that only asks the topic's question is not.
TITLED_OWN_RESULT = [
    ("en", "Question about captions\nI trained three loras of my wife with these captions and they look nothing like "
           "her"),
    ("es", "Duda con los captions\nentrené tres loras de mi mujer con estos captions y la cara sale como otra persona"),
    ("pt", "Dúvida sobre legendas\ntreinei três loras da minha esposa com essas legendas e o rosto sai como outra "
           "pessoa"),
    ("fr", "Question sur les captions\nj'ai entraîné trois loras de ma femme avec ces captions et elles ne lui "
           "ressemblent pas du tout"),
    ("de", "Frage zu Captions\nich habe drei LoRAs von meiner Frau mit diesen Captions trainiert und das Gesicht ist "
           "jedes Mal jemand anderes"),
    ("ko", "캡션 질문\n이 캡션으로 아내 로라를 세 번 학습했는데 얼굴이 딴 사람이에요"),
]

TITLED_QUESTION = [
    ("en", "Question about captions\nshould I use tags or full sentences for a style lora?"),
    ("es", "Duda con los captions\n¿uso tags o frases completas para una lora de estilo?"),
    ("pt", "Dúvida sobre legendas\nuso tags ou frases completas pra uma lora de estilo?"),
    ("fr", "Question sur les captions\nje mets des tags ou des phrases complètes pour une lora de style ?"),
    ("de", "Frage zu Captions\nnehme ich Tags oder ganze Sätze für ein Stil-LoRA?"),
    ("ko", "캡션 질문\n스타일 로라에는 태그를 써야 하나요 문장을 써야 하나요?"),
]


@pytest.mark.parametrize(("lang", "text"), TITLED_OWN_RESULT)
def test_an_own_bad_result_under_a_title_of_an_untaught_topic_is_weak_samples(client: TestClient, lang: str,
                                                                              text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), TITLED_QUESTION)
def test_the_titles_own_question_under_it_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


# Left (seen, not solved): a strength told as the only way to see the subject; a named model's look compared to other
# models where the question asks for a setting (its "settings" is read as the job's config, a training subject); German
# "aus" (from) read as "off", which keeps a wish for better quality in the guide; a sharing post whose "config" gets a
# confident search hit. Strict: a case that starts to pass must move to its table.
LEFT_WEAK = [
    ("en", "my lora only shows the character at strength 2, at 1 nothing of her shows up"),
]

LEFT_NONE = [
    ("en", "the quality of qwen image edit outputs is poor compared to other models, any settings to fix it?"),
    ("fr", "la qualité de qwen image edit est mauvaise comparée à d'autres modèles, un réglage pour corriger ça ?"),
    ("de", "wie bekomme ich bessere Qualität aus meinen LoRAs? Tipps zur Wahl des Ranks?"),
    ("ko", "qwen image edit 결과물 품질이 다른 모델보다 별로인데 해결할 설정 있나요?"),
    ("es", "entrené mi lora 200 épocas y ni rastro de sobreajuste, les comparto mi config por si a alguien le sirve"),
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


# Session 13 (batch 16's dev half): "thank you for sharing this repo" is a courtesy, not a post that shares (a
# tutorial, a config): the bad result told after it stays the user's own.
@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Low image quality even after 300k steps?\nFirst, thank you for sharing this repo. I ran your code for 300k "
           "steps but the quality is still much worse than yours."),
    ("es", "¿Calidad de imagen baja incluso tras 300k pasos?\nPrimero, gracias por compartir el repo. Entrené 300k "
           "pasos y la calidad sigue siendo mucho peor que la vuestra."),
    ("pt", "Qualidade de imagem ruim mesmo depois de 300k passos?\nPrimeiro, obrigado por compartilhar o repo. Treinei "
           "300k passos e a qualidade continua bem pior que a de vocês."),
    ("fr", "Qualité d'image faible même après 300k steps ?\nD'abord, merci pour le partage du repo. J'ai entraîné 300k "
           "steps et la qualité reste bien pire que la vôtre."),
    ("de", "Schlechte Bildqualität selbst nach 300k Steps?\nErstmal danke fürs Teilen des Repos. Ich habe 300k Steps "
           "trainiert und die Qualität ist immer noch viel schlechter als eure."),
    ("ko", "30만 스텝 후에도 이미지 품질이 낮아요?\n먼저 공유해 주셔서 감사합니다. 30만 스텝 학습했는데 품질이 여전히 "
           "훨씬 안 좋아요."),
])
def test_thanks_for_sharing_is_no_shared_post(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"


# Session 13 (batch 14's dev half): an identity that the LoRA does not keep is the likeness lost.
@pytest.mark.parametrize(("lang", "text"), [
    ("en", "when I generate a face with my lora, the identity does not keep"),
    ("es", "cuando genero una cara con mi lora no mantiene la identidad"),
    ("pt", "quando gero um rosto com o meu lora ele não mantém a identidade"),
    ("fr", "quand je génère un visage avec mon lora, il ne garde pas l'identité"),
    ("de", "wenn ich mit meinem LoRA ein Gesicht generiere, verliert es die Identität"),
    ("ko", "제 로라로 얼굴 생성하면 정체성을 잃어요"),
])
def test_an_identity_not_kept_is_a_weak_likeness(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == "weak-samples"
