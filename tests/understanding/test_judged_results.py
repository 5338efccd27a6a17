"""Issue 12, session 8 (weak8): a bad result told by the structure of the sentence, not by a phrase of blame. An effect
word a negation reaches in its clause (praise words denied the same way are left to the phrase lists: measured, the
structural reading of them cost check items; "not that great" is read by those) ("my lora doesn't really have any
effect", "no noto ninguna diferencia", "não faz diferença nenhuma", "n'a aucun effet", "hat keinen Effekt", "효과가
없어요"; `intents.yaml` `sentences.denied`, `understanding/judged.py`), or an ordinary word of blame
(`bad_word`: weird, vague, strange, raro, estranho, bizarre, komisch, 이상), said in one sentence of the trained result
(its outputs, samples, previews, the LoRA, an aspect trained, a thing depicted) is a weak result. The same words said
of something else (a card, the dataset, captions, an upscaler, the interface, a downloaded LoRA), or as a remark that
something is odd ("one weird thing is..."), are no weak result. The trained subject in every output even without its
trigger (`untriggered`) is an overfit LoRA, a weak result; "less detailed", "less responsive" deny a praise as a
negation does. A reply that opens by quoting a problem and says it has the same one (profile `sentences.agrees`:
"same issue here", "mismo problema", "même problème", "habe das gleiche Problem", "저도 같은 문제") tells the quoted
problem as its own; a reply that only thanks does not. Every sentence was written for this test, as forum
users write in each language (none is a line of the real-message corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.understanding.probes import diagnosed_symptom, search

WEAK = "weak-samples"

JUDGED_BAD = [
    ('en', 'trained a lora on 30 photos of my wife, the results are honestly not that great'),
    ('en', "my lora doesn't really have any effect on the image"),
    ('en', 'the lora has no noticeable effect even at strength 1'),
    ('en', "the outputs don't resemble her at all"),
    ('en', "can't see any difference between the base model and my lora"),
    ('en', "the face in the samples isn't even remotely similar to my dataset"),
    ('en', "the lora doesn't change the generated images at all"),
    ('en', "my character lora isn't consistent, every image is a different person"),
    ('en', "after 3000 steps the samples still aren't sharp"),
    ('en', "the trained lora doesn't make any difference to the output"),
    ('en', "loaded my lora in comfy after training and it doesn't seem to have any impact on the output"),
    ('en', 'the lora I made barely has any influence on the picture'),
    ('en', 'her face in the previews is not recognizable at all'),
    ('en', "the style from my dataset won't show up, images aren't similar to it"),
    ('en', 'trained a lora for flux and the outputs look weird'),
    ('en', 'my lora gives strange faces'),
    ('en', 'the samples are vague and washed out after 1500 steps'),
    ('en', 'the face comes out odd in every sample'),
    ('en', 'the images from my lora look horrible'),
    ('en', 'the previews are useless, they all look messy'),
    ('en', 'the style lora I trained is ruined, the colors are dull'),
    ('en', 'hands look disgusting in all the generated images'),
    ('es', 'entrené una lora de mi perro y los resultados no se parecen en nada'),
    ('es', 'la lora no tiene ningún efecto en las imágenes'),
    ('es', 'las muestras salen raras y borrosas después de 2000 pasos'),
    ('es', 'la cara no sale nada parecida en las muestras'),
    ('es', 'terminé el entrenamiento y las imágenes no son buenas'),
    ('es', 'no noto ninguna diferencia entre el modelo base y mi lora'),
    ('pt', 'treinei uma lora do meu rosto e as imagens não ficaram parecidas'),
    ('pt', 'a lora não faz diferença nenhuma nas imagens'),
    ('pt', 'as amostras ficam estranhas e borradas depois de 1500 passos'),
    ('pt', 'o resultado da lora não ficou bom, o rosto está feio'),
    ('pt', 'a lora que treinei não tem efeito nenhum nas imagens'),
    ('fr', "j'ai entraîné une lora sur mon chat et les images ressemblent pas du tout"),
    ('fr', "la lora n'a aucun effet sur les images générées"),
    ('fr', 'les samples sont bizarres, tout est flou après 2000 steps'),
    ('fr', "le visage n'est pas du tout ressemblant dans les résultats"),
    ('fr', 'les résultats de ma lora sont vraiment moches'),
    ('de', 'ich habe ein LoRA von meinem Hund trainiert, aber die Bilder sehen nicht gut aus'),
    ('de', 'das LoRA hat keinen Effekt auf die Bilder'),
    ('de', 'die Samples sind komisch und verschwommen nach 2000 Steps'),
    ('de', 'die Ergebnisse meines LoRAs sind echt schlecht'),
    ('ko', '로라 학습했는데 결과물이 전혀 안 닮았어요'),
    ('ko', '학습한 로라가 이미지에 효과가 없어요'),
    ('ko', '샘플 이미지가 흐릿하고 이상하게 나와요'),
    ('ko', '로라 결과물 얼굴이 별로 안 좋아요'),
    ('ko', '학습한 로라 넣어도 차이가 없어요'),
    ('en', "the lora i trained yesterday isn't good at all, faces are blurry"),
    ('en', 'samples from epoch 8 are not even close to my character'),
    ('en', "my outputs aren't realistic, skin looks like plastic"),
    ('en', "the lora didn't learn the style, images aren't similar to the dataset at all"),
    ('en', 'results after 4000 steps are still not good enough'),
    ('en', "trained it twice and the generated images still don't look like him"),
    ('en', 'no matter the strength, the lora makes no visible change to the image'),
    ('en', "my samples won't get sharp no matter how long I train"),
    ('en', "there's hardly any difference with or without my lora"),
    ('en', 'the trained lora gives weird eyes in every image'),
    ('en', 'the output of my lora is strange, the colors are off'),
    ('en', 'her face looks vague in the samples'),
    ('en', 'the character from my lora looks odd in every render'),
    ('en', 'the lora i made produces horrible hands'),
    ('en', 'my flux lora outputs look bland and lifeless'),
    ('en', 'every face looks like the woman I trained on, even without the trigger word'),
    ('en', 'the character shows up in every image even without the keyword'),
    ('es', 'sale la misma cara en todas las imágenes, incluso sin la palabra clave'),
    ('pt', 'o rosto dela aparece em todas as imagens mesmo sem o trigger'),
    ('fr', 'son visage apparaît dans toutes les images même sans le mot déclencheur'),
    ('de', 'ihr Gesicht taucht auf allen Bildern auf, auch ohne Triggerwort'),
    ('ko', '트리거 없이도 모든 이미지에 그 얼굴이 나와요'),
    ('en', 'the outputs of my lora are less detailed than the dataset'),
    ('es', 'las imágenes de mi lora salen menos detalladas que el dataset'),
    ('fr', 'les résultats de ma lora sont moins détaillés que le dataset'),
    ('de', 'die Bilder meines LoRAs sind weniger detailliert als der Datensatz'),
]

NOT_THE_RESULT = [
    ('en', "I don't have a good GPU, is it possible to train a lora on 8 GB?"),
    ('en', 'the upscaler makes faces look weird'),
    ('en', 'the web ui looks weird on my phone'),
    ('en', 'the install is broken, pip fails on xformers'),
    ('en', "the lora I downloaded from civitai doesn't have any effect"),
    ('en', 'one weird thing is that the training starts at step 0 again after resuming'),
    ('en', "I'm not sure the docs are accurate about the config format"),
    ('en', "it's weird, the job stops at step 5 with no error"),
    ('en', 'my captions are not accurate, how do I write better ones?'),
    ('es', 'la interfaz se ve rara en el navegador'),
    ('es', 'la lora que descargué no tiene ningún efecto'),
    ('pt', 'a interface está estranha no navegador'),
    ('fr', "l'interface est bizarre sur mon téléphone"),
    ('de', 'die Oberfläche sieht im Browser komisch aus'),
    ('ko', '웹 UI가 이상하게 보여요'),
    ('en', 'is there no good guide for captioning?'),
    ('en', 'the progress bar looks weird, it jumps from 10% to 50%'),
    ('en', 'a lora from civitai gives me strange faces in comfyui'),
    ('en', 'with gc on it uses less VRAM, is that expected?'),
]


@pytest.mark.parametrize(("lang", "text"), JUDGED_BAD)
def test_a_result_judged_bad_by_structure_is_weak_samples(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), NOT_THE_RESULT)
def test_the_same_judgement_of_something_else_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


QUOTED_AND_AGREED = [
    ('en', '> after training my lora the faces come out blurry and melted\n\nsame issue here, any fix?'),
    ('en', '> the samples look nothing like my character after 2000 steps\nI have the same problem with flux'),
    ('es', '> las muestras no se parecen en nada al personaje\nmismo problema, ¿alguna solución?'),
    ('pt', '> as imagens da lora saem borradas e estranhas\nestou com o mesmo problema'),
    ('fr', '> les résultats de ma lora ne ressemblent pas du tout au perso\nmême problème chez moi'),
    ('de', '> die Samples sehen überhaupt nicht wie mein Charakter aus\nhabe das gleiche Problem'),
    ('ko', '> 로라 결과물이 전혀 안 닮았어요\n저도 같은 문제가 있어요'),
]

QUOTED_AND_THANKED = [
    ('en', "> after training my lora the faces come out blurry and melted\n\nthanks, I'll try a lower learning rate"),
    ('es', '> las muestras no se parecen en nada al personaje\ngracias, voy a probar con otro learning rate'),
]


@pytest.mark.parametrize(("lang", "text"), QUOTED_AND_AGREED)
def test_a_quoted_result_the_reply_shares_is_its_own(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == WEAK


@pytest.mark.parametrize(("lang", "text"), QUOTED_AND_THANKED)
def test_a_quoted_result_the_reply_only_thanks_for_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
