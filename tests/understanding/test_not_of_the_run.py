"""Issue 12, session 11 (ask11): what is asked of the authors or of the software is no symptom of the user's run.

Real posts read as a slow training or weak samples that tell no such thing of the user's own run: the training time
the authors needed for their released model ("I am interested in the training time required for X under 8 A100s"),
how someone else's LoRA was trained ("was this LoRA trained with the flux script?"), a feature request ("can we please
have the ability to set the pixel size of the samples?"), how to read the loss ("how do I interpret loss while
training?", with a pasted line's iteration time), an error of a path that does not exist, a crash over a traceback cut
before its exception. The guide answers none of them: `none` (`intents.yaml` `outside`: duration_question,
their_method, feature_request, other_error, loss_reading, the feature cut_traceback).

Words that misled the reading are read whole (`whole_phrases`): "pixel size" is no pixelated result (size_setting),
French "pourriez-vous" no "pourri" one (polite_ask). Their twins keep their symptom: the user's own duration, a weak
result or an OOM told beside the request or the question.

Every sentence was written for this test, as forum users write in each language (none is a line of the real-message
corpora)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from remedy.understanding.extract import Stated
from remedy.understanding.features import FEATURES, FeatureInput
from remedy.understanding.logs import read_log
from tests.understanding.probes import diagnosed_symptom, search

# A traceback pasted cut before its exception (its last line is a frame's code): no error is named.
CUT_TRACEBACK = (
    'Traceback (most recent call last):\n  File "/home/me/trainer/train.py", line 412, in <module>\n'
    '    model.enable_block_swap(blocks)\n  File "/home/me/trainer/utils/offload.py", line 88, in move\n'
    '    module.weight.data = module.weight.data.to(device, non_blocking=True)'
)

NOT_OF_THE_RUN = [
    # a duration asked of the authors
    ("en", "Training time of the released models\nHi, great work! I'm interested in the training time required for "
           "the 12B version on 8 A100s. Could you provide the details?"),
    ("es", "Tiempo de entrenamiento de los modelos\nHola, ¡gran trabajo! Me interesa el tiempo de entrenamiento "
           "necesario para la versión de 12B con 8 A100, ¿podrían dar los detalles? El entrenamiento es rápido?"),
    ("pt", "Tempo de treino dos modelos\nOi, ótimo trabalho! Queria saber o tempo de treinamento necessário para a "
           "versão de 12B em 8 A100. Poderiam passar os detalhes da velocidade?"),
    ("fr", "Temps d'entraînement des modèles\nBonjour, super travail ! Je voudrais connaître le temps "
           "d'entraînement nécessaire pour la version 12B sur 8 A100. Pourriez-vous donner les détails sur la "
           "vitesse ?"),
    ("de", "Trainingszeit der Modelle\nHallo, tolle Arbeit! Mich interessiert die benötigte Trainingszeit für die "
           "12B-Version auf 8 A100. Könnt ihr Details zur Geschwindigkeit nennen?"),
    ("ko", "모델 학습 시간\n안녕하세요, 좋은 작업 감사합니다! 8개 A100에서 12B 버전 학습에 필요한 시간이 "
           "궁금합니다. 학습 속도 관련 자세한 내용 알려주실 수 있나요?"),
    # how their LoRA was trained
    ("en", "Question about this lora\nHi, thanks for sharing it! Was this LoRA trained with the flux script or the "
           "wan script? And how did you caption the dataset to get these samples?"),
    ("es", "Pregunta sobre esta lora\nHola, gracias por compartirla. ¿Cómo se entrenó esta lora, con el script de "
           "flux o el de wan? ¿Y cómo pusiste los captions del dataset para sacar esas muestras?"),
    ("pt", "Pergunta sobre essa lora\nOi, obrigado por compartilhar! Como essa lora foi treinada, com o script de "
           "flux ou de wan? E como você fez as legendas do dataset pra sair essas amostras?"),
    ("fr", "Question sur cette lora\nSalut, merci du partage ! Comment cette lora a été entraînée, avec le script "
           "flux ou wan ? Et comment tu as légendé le dataset pour avoir ces samples ?"),
    ("de", "Frage zu dieser LoRA\nHi, danke fürs Teilen! Wie wurde diese LoRA trainiert, mit dem Flux-Skript oder "
           "dem Wan-Skript? Und wie hast du den Datensatz gecaptioned für diese Samples?"),
    ("ko", "이 로라 질문\n안녕하세요, 공유 감사합니다! 이 로라는 어떻게 학습하셨나요? flux 스크립트인가요 wan "
           "스크립트인가요? 이런 샘플 나오려면 데이터셋 캡션은 어떻게 하셨나요?"),
    # a feature request (the previews' pixel size)
    ("en", "sample settings\nThe sample options have no setting for the pixel size, so the previews come out at "
           "512x512 and don't represent an XL model. Can we please have the ability to set it? A folder option "
           "would be nice too."),
    ("es", "opciones de muestras\nLas opciones de las muestras no tienen ajuste del tamaño en píxeles, así que las "
           "previsualizaciones salen a 512x512 y no representan un modelo XL. ¿Podemos tener la opción de "
           "cambiarlo? También estaría bien elegir la carpeta."),
    ("pt", "opções de amostras\nAs opções de amostra não têm ajuste do tamanho em pixels, então as prévias saem em "
           "512x512 e não representam um modelo XL. Podemos ter a opção de mudar isso? Também seria bom escolher a "
           "pasta."),
    ("fr", "options des samples\nLes options des samples n'ont aucun réglage de la taille en pixels, donc les "
           "aperçus sortent en 512x512 et ne représentent pas un modèle XL. Pourrait-on avoir la possibilité de la "
           "régler ? Ce serait bien aussi de choisir le dossier."),
    ("de", "Sample-Optionen\nBei den Sample-Optionen gibt es keine Einstellung für die Pixelgröße, die Vorschauen "
           "kommen auch bei einem XL-Modell in 512x512. Können wir bitte die Möglichkeit bekommen, das "
           "einzustellen? Ein Ordner wäre auch schön."),
    ("ko", "샘플 옵션\n샘플 옵션에 픽셀 크기 설정이 없어서 미리보기가 512x512로만 나오고 XL 모델을 제대로 못 "
           "보여줘요. 픽셀 크기를 설정할 수 있게 해 주세요. 저장 폴더 설정도 있으면 좋겠어요."),
    # how to read the loss (a pasted line's iteration time beside it)
    ("en", "How do I interpret loss while training?\nThe loss jumps around a lot while training a lora on 1024px "
           "images, how small should it get before the lora is done?\nsteps: 80 loss: 0.0995 iter time (s): 18.3"),
    ("es", "¿Cómo interpretar la loss?\nLa loss sube y baja mucho entrenando una lora con imágenes de 1024px, ¿qué "
           "valor indica que la lora está lista?\nsteps: 80 loss: 0.0995 iter time (s): 18.3"),
    ("pt", "Como interpretar a loss?\nA loss oscila muito treinando uma lora com imagens de 1024px, qual valor "
           "indica que a lora está pronta?\nsteps: 80 loss: 0.0995 iter time (s): 18.3"),
    ("fr", "Comment interpréter la loss ?\nLa loss saute beaucoup en entraînant une lora sur des images 1024px, à "
           "partir de quelle valeur la lora est prête ?\nsteps: 80 loss: 0.0995 iter time (s): 18.3"),
    ("de", "Wie den Loss interpretieren?\nDer Loss springt beim Training einer LoRA mit 1024px-Bildern stark, ab "
           "welchem Wert ist die LoRA fertig?\nsteps: 80 loss: 0.0995 iter time (s): 18.3"),
    ("ko", "loss 해석 질문\n1024px 이미지로 로라 학습 중인데 로스가 오르락내리락 해요. 어느 값이면 로라가 완성된 "
           "건가요?\nsteps: 80 loss: 0.0995 iter time (s): 18.3"),
    # a path that does not exist (the trainer's status lines under it)
    ("en", "Images root doesn't exist\nI'm getting this error when I start the job, same dataset as with the other "
           "tool:\nUsing TF32 for faster training on Ampere GPUs\nLoading VAE\nLoading dataset"),
    ("es", "La carpeta no existe\nMe sale este error al arrancar el trabajo, mismo dataset que con la otra "
           "herramienta:\nUsing TF32 for faster training on Ampere GPUs\nLoading VAE\nLoading dataset"),
    ("pt", "A pasta não existe\nAparece esse erro quando começo o job, mesmo dataset da outra ferramenta:\nUsing "
           "TF32 for faster training on Ampere GPUs\nLoading VAE\nLoading dataset"),
    ("fr", "Le dossier n'existe pas\nJ'ai cette erreur au lancement du job, même dataset qu'avec l'autre outil :\n"
           "Using TF32 for faster training on Ampere GPUs\nLoading VAE\nLoading dataset"),
    ("de", "Ordner existiert nicht\nIch bekomme diesen Fehler beim Start des Jobs, gleicher Datensatz wie mit dem "
           "anderen Tool:\nUsing TF32 for faster training on Ampere GPUs\nLoading VAE\nLoading dataset"),
    ("ko", "폴더가 존재하지 않습니다\n작업 시작할 때 이 에러가 나요, 다른 툴이랑 같은 데이터셋이에요:\nUsing TF32 "
           "for faster training on Ampere GPUs\nLoading VAE\nLoading dataset"),
    # a crash over a traceback cut before its exception (`cut_traceback`): no OOM inferred
    ("en", "Block swap crashes\nNo matter how I change my dataset or the training config, the "
           "training crashes right away when I enable block swap. Please help\n" + CUT_TRACEBACK),
    ("es", "El block swap se cae\nCambie lo que cambie en el dataset o la config, el entrenamiento "
           "se cae nada más activar el block swap. Ayuda por favor\n" + CUT_TRACEBACK),
    ("pt", "Block swap trava\nNão importa o que eu mude no dataset ou na config, o treino cai logo "
           "que ativo o block swap. Alguém ajuda\n" + CUT_TRACEBACK),
    ("fr", "Le block swap plante\nQuoi que je change dans le dataset ou la config, l'entraînement "
           "plante dès que j'active le block swap. Aidez-moi svp\n" + CUT_TRACEBACK),
    ("de", "Block Swap stürzt ab\nEgal was ich am Datensatz oder an der Config ändere, das "
           "Training stürzt sofort ab, sobald ich Block Swap aktiviere. Hilfe bitte\n" + CUT_TRACEBACK),
    ("ko", "블록 스왑 켜면 튕겨요\n데이터셋이나 설정을 뭘 바꿔도 블록 스왑을 켜는 순간 학습이 바로 "
           "튕겨요. 도와주세요\n" + CUT_TRACEBACK),
]

KEEP_THEIR_SYMPTOM = [
    ("slow-training", "en", "my training takes 10 hours for 2000 steps, is that normal?"),
    ("slow-training", "es", "mi entrenamiento tarda 10 horas para 2000 pasos, ¿es normal?"),
    ("slow-training", "pt", "meu treino leva 10 horas para 2000 passos, é normal?"),
    ("slow-training", "fr", "mon entraînement prend 10 heures pour 2000 steps, c'est normal ?"),
    ("slow-training", "de", "mein Training braucht 10 Stunden für 2000 Steps, ist das normal?"),
    ("slow-training", "ko", "2000스텝에 10시간 걸려요, 이게 정상인가요?"),
    ("slow-training", "en", "how long should 3000 steps take? mine is at 8 s/it"),
    ("slow-training", "en", "my loss jumps around and the training is super slow, 20 s/it on a 3090"),
    ("weak-samples", "en", "the samples don't look like my character, any suggestion?"),
    ("weak-samples", "fr", "mes samples sont pourris après 2000 steps, pourriez-vous m'aider ?"),
    ("weak-samples", "fr", "pourriez-vous m'aider ? les visages de mes samples sont flous après 3000 steps"),
    ("weak-samples", "en", "the samples look pixelated after 1000 steps, what should I check?"),
    ("weak-samples", "de", "die Samples sind nach 1000 Steps total verpixelt, was soll ich prüfen?"),
    ("weak-samples", "en", "I trained this lora myself with the wan script and the face looks nothing like her"),
    ("weak-samples", "en", "how do I interpret the loss? it's at 0.05 but the samples look nothing like my "
                           "character"),
    ("weak-samples", "es", "¿cómo interpreto la loss? está en 0.05 pero las muestras no se parecen en nada a mi "
                           "personaje"),
    ("oom-early-steps", "en", "it would be nice to have an option for this: my run OOMs at step 2 with gradient "
                              "checkpointing off"),
    ("oom-early-steps", "es", "estaría bien tener esa opción: mi entrenamiento da OOM en el paso 2 con gradient "
                              "checkpointing desactivado"),
    ("oom-early-steps", "en", "the folder doesn't exist error is fixed, but now I get CUDA out of memory at step 2 "
                              "with batch 4"),
    ("oom-early-steps", "pt", "o erro de pasta não existe foi resolvido, agora dá CUDA out of memory no passo 2 "
                              "com batch 4"),
    ("oom-early-steps", "en", "it crashes with CUDA out of memory at step 2 as soon as I turn "
                              "gradient checkpointing off\n" + CUT_TRACEBACK),
    ("oom-early-steps", "es", "se cae con CUDA out of memory en el paso 2 en cuanto desactivo el "
                              "gradient checkpointing\n" + CUT_TRACEBACK),
    ("oom-early-steps", "en", "the training crashes at step 2 since I turned gradient checkpointing off\nTraceback "
                              "(most recent call last):\n  File \"/home/me/trainer/train.py\", line 412, in "
                              "<module>\n    loss.backward()"),
]


@pytest.mark.parametrize(("lang", "text"), NOT_OF_THE_RUN)
def test_what_is_asked_of_the_authors_or_the_software_is_no_symptom(client: TestClient, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) is None
    assert search(client, lang, text)["match"] != "confident"


@pytest.mark.parametrize(("symptom", "lang", "text"), KEEP_THEIR_SYMPTOM)
def test_the_run_told_beside_keeps_its_symptom(client: TestClient, symptom: str, lang: str, text: str) -> None:
    assert diagnosed_symptom(client, lang, text) == symptom


@pytest.mark.parametrize(("text", "cut"), [
    ("it crashes\n" + CUT_TRACEBACK, True),
    ("it crashes\n" + "\n".join(f"[rank0]: {line}" for line in CUT_TRACEBACK.splitlines()), True),
    ("it crashes\n" + CUT_TRACEBACK.rsplit("\n", 1)[0], True),  # ends on the frame line itself
    ("it crashes\n" + CUT_TRACEBACK + "\nRuntimeError: CUDA error: invalid argument", False),
    ("it crashes\n" + CUT_TRACEBACK + "\ntorch.OutOfMemoryError: CUDA out of memory.", False),
    ("it crashes at step 2, no traceback at all", False),
])
def test_a_traceback_cut_before_its_exception(text: str, cut: bool) -> None:
    f = FeatureInput(text, Stated(), read_log(text), 0)
    assert FEATURES["cut_traceback"](f) is cut
