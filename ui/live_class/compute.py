"""The class page's data and model calls, nothing drawn: the class's guesses grouped by the token each counts as,
what the model measured for a round's prompt (the reveal), a guessing round's candidates, a vote's texts and its
sealed answer, and the QR code's image. Room writes happen here on the teacher's clicks."""
from __future__ import annotations

import io

import pandas as pd

import classroom as room
import model_backend as mb
from classroom.text import clean_answer
from model_backend.core.tokens import token_info
from model_backend.lessons import live as lv
from model_backend.lessons.live import guess_token, guess_tokens, next_token_probs
from ui import backend
from ui.live_class.place import store

MODEL_TOP = 10


def qr_png(text: str) -> bytes:
    """A QR code of `text` as a PNG (segno; error correction M, so a projector's glare does not stop a phone)."""
    import segno
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=10, border=2)
    return out.getvalue()


def token_rows(prompt: str, answers: dict[str, int]) -> pd.DataFrame:
    """The class's answers grouped by the token each counts as: token id, its display, how many, the texts."""
    tok = backend.bundle_for().tokenizer
    by_id: dict[int, list] = {}
    for text, n in answers.items():
        info = guess_token(tok, prompt, text)
        if info is None:
            continue
        entry = by_id.setdefault(info.id, [info.display, 0])
        entry[1] += n
    rows = sorted(by_id.items(), key=lambda kv: (-kv[1][1], kv[1][0]))
    return pd.DataFrame({"id": [i for i, _ in rows], "token": [v[0] for _, v in rows],
                         "guesses": [v[1] for _, v in rows]})


def guess_info(prompt: str, text: str) -> mb.TokenInfo | None:
    """What a guess counts as: its first token after the prompt (model_backend.lessons.live.guess_token), or None."""
    return guess_token(backend.bundle_for().tokenizer, prompt, text)


def guess_infos(prompt: str, text: str) -> list[mb.TokenInfo]:
    """Every token of a guess after the prompt (the first is what it counts as): empty for an empty guess."""
    return guess_tokens(backend.bundle_for().tokenizer, prompt, text)


def reveal_payload(prompt: str, rows: pd.DataFrame) -> tuple[dict, int, bool]:
    """What the model measured for the round's prompt: its top tokens, and the probability of each guessed
    token; with (students who guessed its top token, whether the class's most common token was it)."""
    tr = backend.trace(prompt)
    top = tr.top[-1][:MODEL_TOP]
    probs = next_token_probs(tr.last_logits, [int(i) for i in rows["id"]]) if len(rows) else []
    tok = backend.bundle_for().tokenizer
    payload = {"top": [{"id": c.id, "token": token_info(tok, c.id).display, "prob": c.prob} for c in top],
               "guessed": [{"id": int(i), "token": str(s), "guesses": int(n), "prob": p}
                           for i, s, n, p in zip(rows["id"], rows["token"], rows["guesses"], probs)]}
    top_id = top[0].id
    matched = int(rows.loc[rows["id"] == top_id, "guesses"].sum()) if len(rows) else 0
    class_top = bool(len(rows)) and matched > 0 and matched == int(rows["guesses"].max())
    return payload, matched, class_top

KINDS = ("guess", "temperature", "fact")  # the rounds a teacher can run: a guess, and the two votes
FACT_CLOSE = 0.10  # two mean probabilities closer than this: "confidence did not tell them apart"
FACT_OPTIONS = ["fact", "invention"]  # a fact vote's options as the room keeps them (each phone translates them)


def start_guess(me: dict, prompt: str) -> None:
    """Open a guessing round, with a few of the model's likely tokens for phones to tap (its most likely one
    among them, the others drawn from its top ten with a seed from the teacher's token)."""
    code = room.normalize_code(me["code"])
    number = room.current_round(store(), code).number + 1
    _, seed = lv.secret_pick(me["token"], code, number, lv.CANDIDATE_POOL)
    top = [c.id for c in backend.trace(prompt).top[-1]]
    taps = lv.candidate_answers(backend.bundle_for().tokenizer, prompt, top, seed, clean=clean_answer)
    room.start_round(store(), code, me["token"], "guess", prompt, taps or None)


def start_vote(me: dict, kind: str, prompt: str) -> None:
    """Open a vote: the model writes the text (its hidden setting picked from the teacher's token,
    `lv.secret_pick`), the room gets the text and the options, and the answer with what the model measured is
    sealed for the reveal."""
    code = room.normalize_code(me["code"])
    number = room.current_round(store(), code).number + 1
    if kind == "temperature":
        pick, seed = lv.secret_pick(me["token"], code, number, len(lv.VOTE_TEMPERATURES))
        runs = [(temp, backend.generation(prompt, mb.SamplingParams(temperature=temp, top_k=0, top_p=1.0,
                                                                    max_new_tokens=lv.VOTE_TOKENS, seed=seed)))
                for temp in lv.VOTE_TEMPERATURES]
        sealed = lv.temperature_vote(prompt, runs, pick)
        text, lead, options = prompt + runs[pick][1].completion, len(prompt), [row["t"] for row in sealed["rows"]]
    else:
        from ui.hallucination.compute import CONFIG, pair_params

        pairs = CONFIG["pairs"]
        pick, _ = lv.secret_pick(me["token"], code, number, 2 * len(pairs))
        pair, shown_real = pairs[pick // 2], pick % 2 == 0
        real, invented = (backend.generation(pair[w], pair_params()) for w in ("real", "invented"))
        sealed = lv.fact_vote(pair, real, invented, shown_real)
        shown = next(r for r in sealed["rows"] if r["shown"])
        text, lead, options = shown["prompt"] + shown["text"], len(shown["prompt"]), FACT_OPTIONS
    room.start_round(store(), code, me["token"], "vote", text, options, sealed=sealed, lead=lead)
