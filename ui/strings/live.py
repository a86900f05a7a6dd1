"""Strings for the live class: the sidebar panel, the projector, the guessing round and the phones."""

STRINGS = {
    "nav.live": ("Aula ao vivo", "Live class"),
    "live.title": ("Aula ao vivo", "Live class"),
    "live.intro": ("Quem ensina mostra esta página no projetor. A turma entra pelo celular com o código da sala ou "
                   "o QR code, e cada tela acompanha a página e as configurações que o projetor mostra.",
                   "Whoever teaches shows this page on the projector. The class joins from their phones with the "
                   "room code or the QR code, and each screen follows the page and the settings the projector shows."),
    "live.side.title": ("Aula ao vivo", "Live class"),
    "live.side.start": ("Começar uma aula", "Start a class"),
    "live.side.start.help": ("Abre uma sala com um código para o projetor. Os celulares da turma entram com ele e "
                             "acompanham as suas páginas.",
                             "Opens a room with a code for the projector. The class's phones join with it and "
                             "follow your pages."),
    "live.side.join": ("Entrar numa aula", "Join a class"),
    "live.side.teacher": ("Você conduz a sala {code}.", "You lead room {code}."),
    "live.side.student": ("Você está na sala {code}.", "You are in room {code}."),
    "live.side.follow": ("Acompanhar a aula", "Follow the class"),
    "live.side.follow.help": ("Ligado: a sua tela vai para a página e as configurações que o projetor mostra. "
                              "Desligue para explorar por conta própria; ligue de novo para voltar.",
                              "On: your screen goes to the page and the settings the projector shows. Turn it off "
                              "to explore on your own; turn it on again to come back."),
    "live.side.open": ("Abrir a página da aula", "Open the class page"),
    "live.side.leave": ("Sair da sala", "Leave the room"),
    "live.side.code": ("Código da sala", "Room code"),
    "live.side.nick": ("Apelido (opcional)", "Nickname (optional)"),
    "live.join.title": ("Entrar numa aula", "Join a class"),
    "live.teach.title": ("Ou conduza uma aula", "Or lead a class"),
    "live.join.go": ("Entrar", "Join"),
    "live.code.label": ("Código da sala:", "Room code:"),
    "live.link": ("Ou abra este link no celular:", "Or open this link on a phone:"),
    "live.count": ("Na turma (último minuto)", "In the class (last minute)"),
    "live.qr.alt": ("QR code do link para entrar na sala {code}", "QR code of the link to join room {code}"),
    "live.err.not_found": ("Não há sala com esse código. Confira o código no projetor (uma sala termina {h} horas "
                           "depois da última atividade).",
                           "There is no room with that code. Check the code on the projector (a room ends {h} hours "
                           "after its last activity)."),
    "live.err.bad_code": ("Um código tem 8 letras e algarismos, como ABCD-EFGH.",
                          "A code has 8 letters and digits, like ABCD-EFGH."),
    "live.err.limited": ("Muitas tentativas seguidas. Espere um minuto e tente de novo.",
                         "Too many tries in a row. Wait a minute and try again."),
    "live.err.closed": ("Esta rodada já terminou: olhe o projetor.", "This round has ended: look at the projector."),
    "live.err.answer": ("Escreva um palpite com pelo menos um caractere visível.",
                        "Type a guess with at least one visible character."),
    "live.err.teacher": ("Só quem começou a aula pode mudar a sala.", "Only whoever started the class can change the room."),
    "live.err.not_joined": ("Esta sala não conhece este celular: entre de novo com o código.",
                            "This room does not know this phone: join again with the code."),
    "live.round.title": ("Adivinhe o próximo token", "Guess the next token"),
    "live.cite": ("Num estudo, pessoas acertaram o token seguinte mais provável em cerca de 29% das vezes, em textos "
                  "da web, e foram piores que todos os modelos de linguagem testados, até um de 125 milhões de "
                  "parâmetros (Shlegeris et al., 2022, \"Language models are better than humans at next-token "
                  "prediction\").",
                  "In one study, people guessed the most likely next token about 29% of the time on web text, and "
                  "did worse than every language model tested, even one with 125 million parameters (Shlegeris et "
                  "al., 2022, \"Language models are better than humans at next-token prediction\")."),
    "live.round.prompt": ("Texto da rodada", "The round's text"),
    "live.round.start": ("Começar a rodada", "Start the round"),
    "live.round.none": ("Nenhuma rodada ainda. Escreva um texto e comece uma rodada: a turma adivinha o próximo "
                        "token.",
                        "No round yet. Type a text and start a round: the class guesses the next token."),
    "live.round.of": ("**Rodada {n}.** O texto:", "**Round {n}.** The text:"),
    "live.round.open": ("Palpites até agora: {k}.", "Guesses so far: {k}."),
    "live.round.reveal": ("Revelar a resposta do modelo", "Reveal the model's answer"),
    "live.hist.title": ("Palpites da turma", "The class's guesses"),
    "live.axis.guesses": ("palpites", "guesses"),
    "live.axis.token": ("token", "token"),
    "live.axis.prob": ("probabilidade do modelo", "the model's probability"),
    "live.model.title": ("Os tokens mais prováveis para o modelo", "The model's most likely tokens"),
    "live.model.picked": ("a turma escolheu", "the class picked it"),
    "live.model.not_picked": ("ninguém escolheu", "nobody picked it"),
    "live.result.matched": ("{m} de {n} palpites foram o token mais provável do modelo:",
                            "{m} of {n} guesses were the model's most likely token:"),
    "live.tally": ("Placar, turma × modelo, em {r} rodada(s): turma {c}, modelo {m}. A turma marca o ponto quando o "
                   "palpite mais comum é o token mais provável do modelo.",
                   "Score, class vs model, over {r} round(s): class {c}, model {m}. The class scores when its most "
                   "common guess is the model's most likely token."),
    "live.student.wait": ("Aguarde: a próxima rodada aparece aqui.", "Wait: the next round appears here."),
    "live.student.prompt": ("Qual é o próximo token depois deste texto?", "What is the next token after this text?"),
    "live.student.guess": ("Seu palpite", "Your guess"),
    "live.student.send": ("Enviar o palpite", "Send the guess"),
    "live.student.counts_as": ("Seu palpite conta como o token:", "Your guess counts as the token:"),
    "live.student.space": ("Um token no meio do texto costuma começar com um espaço, mostrado como ·.",
                           "A token in the middle of a text usually starts with a space, shown as ·."),
    "live.student.revealed": ("O modelo deu ao seu token a probabilidade {p}. O token mais provável era:",
                              "The model gave your token a probability of {p}. Its most likely token was:"),
    "live.student.missed": ("Esta rodada terminou antes do seu palpite. Aguarde a próxima.",
                            "This round ended before your guess. Wait for the next one."),
}
