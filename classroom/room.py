"""A live class on top of any Store: the teacher's room, students joining by code, rounds, reveals, the score."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import Counter
from dataclasses import dataclass
from typing import Any

from classroom.codes import format_code, new_code, normalize_code
from classroom.errors import BadAnswer, NotJoined, NotTeacher, RateLimited, RoomNotFound, RoundClosed
from classroom.store import JSON, Doc, Store, dumps
from classroom.text import clean_answer, clean_nickname

ROOM_TTL_S = 4 * 3600  # a class is forgotten, every key of it, 4 h after its last write


@dataclass(frozen=True)
class RateLimit:
    """At most `limit` attempts per fixed window of `window_s` seconds."""

    limit: int
    window_s: float


# Guessing a code. There are 25**8 = 152,587,890,625 codes. Wrong codes are limited for the whole site
# (every replica, through the store) to BAD_CODES.limit a minute; once that is spent, every join waits for
# the window to end, so a flood of wrong codes learns nothing more. A window lets 121 through (the last one
# overspends it; joins racing that one between their check and their count add a few more, as many as run at
# that instant). In 4 h that is at most 241 windows x 121 = 29,161 wrong codes: the chance that they hit one
# given class is 29,161 / 152,587,890,625 = 1.9e-7, and 1.9e-4 with 1,000 classes live at once (a class kept
# alive for a whole day: 1.1e-6). The per-session limit (JOINS) only stops one tab from hammering;
# an attacker with many sessions meets the site-wide one. The price: such a flood pauses new joins for up to
# a minute (students already in are not affected).
JOINS = RateLimit(10, 60.0)  # join attempts per session, right or wrong
BAD_CODES = RateLimit(120, 60.0)  # wrong codes, all sessions together
ANSWERS = RateLimit(30, 60.0)  # guesses or votes per session (changing one's guess counts again)
_BAD_CODES_KEY = "tbt:limit:bad-codes"

KINDS = ("guess", "vote")  # guess: type the next token; vote: pick one of the teacher's options
OPTIONS_MAX = 10
SESSION_ID_MAX = 128
WHAT = ("guess", "nickname")  # what the teacher can hide from the projector


@dataclass(frozen=True)
class View:
    """What every phone shows: the teacher's page and its settings; `version` grows on every change."""

    version: int
    page: str | None
    params: dict[str, Any]


@dataclass(frozen=True)
class Round:
    """The current round; number 0 before the first one."""

    number: int
    kind: str | None  # "guess", "vote" or None
    prompt: str
    options: list[str] | None  # a vote's options
    open: bool  # accepting answers
    revealed: dict[str, Any] | None  # what the model measured, once revealed
    lead: int | None = None  # a vote's text: its first `lead` characters are the prompt, the rest the model's


@dataclass(frozen=True)
class Answers:
    """The round's answers as the projector shows them: counts per answer, most common first."""

    round: int
    open: bool
    counts: dict[str, int]  # answer -> students, sorted by count (descending), then text
    total: int  # answers counted
    hidden: int  # answers the teacher hid (not in counts unless asked for)


@dataclass(frozen=True)
class Score:
    """Class against model over the revealed rounds."""

    rounds: int  # guessing rounds revealed (a vote is not scored against the model)
    class_wins: int  # rounds where the class's most common answer was the model's top token
    matched: int  # students whose answer was the model's top token, summed over rounds

    @property
    def model_wins(self) -> int:
        return self.rounds - self.class_wins


@dataclass(frozen=True)
class Student:
    session_id: str
    nickname: str | None  # None: anonymous
    nickname_hidden: bool
    joined: float  # the store's clock, seconds
    last_seen: float | None


# Keys. The code in braces is a Redis Cluster hash tag: all of a room's keys share one slot, so a script may
# touch two of them (a guess and its round). answers:N holds round N's answers, one field per student.

def _key(code: str, part: str) -> str:
    return f"tbt:room:{{{code}}}:{part}"


def room_prefix(code: str) -> str:
    """The prefix of every key of the room (for store.keys)."""
    return _key(normalize_code(code), "")


def _room_keys(code: str, number: int) -> list[str]:
    return [_key(code, p) for p in ("meta", "view", "round", "students", "seen", "hidden", f"answers:{number}")]


def _touch(store: Store, code: str, number: int) -> None:
    """Activity: the room's every key lives ROOM_TTL_S from now."""
    store.touch(_room_keys(code, number), ttl_s=ROOM_TTL_S)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _not_found(code: str) -> RoomNotFound:
    return RoomNotFound(f"No class {format_code(code)}: check the code on the projector "
                        f"(a class ends {ROOM_TTL_S / 3600:g} hours after its last activity).")


def _round_doc(store: Store, code: str) -> Doc:
    """The round document; it exists exactly as long as the room (written last by create_room)."""
    doc = store.get_doc(_key(code, "round"))
    if doc.value is None:
        raise _not_found(code)
    return doc


def _teacher(store: Store, code: str, token: str) -> str:
    """The canonical code, after checking the teacher's token against the stored SHA-256 (in constant time)."""
    code = normalize_code(code)
    meta = store.get_doc(_key(code, "meta")).value
    if meta is None:
        raise _not_found(code)
    if not isinstance(token, str) or not hmac.compare_digest(_digest(token), meta["token_sha256"]):
        raise NotTeacher("Only the teacher's link can change this class (its token is not this one).")
    return code


def _session(session_id: str) -> str:
    if not isinstance(session_id, str) or not 0 < len(session_id) <= SESSION_ID_MAX:
        raise ValueError(f"session_id must be a string of 1 to {SESSION_ID_MAX} characters, got {session_id!r:.40}")
    return session_id


def _limit(store: Store, key: str, rate: RateLimit, message: str) -> None:
    if not store.hit(key, rate.limit, rate.window_s):
        raise RateLimited(message)


def _first_round() -> dict[str, JSON]:
    return {"n": 0, "kind": None, "prompt": "", "options": None, "open": False, "revealed": None,
            "score": {"rounds": 0, "class_wins": 0, "matched": 0}}


def _as_round(value: dict[str, JSON]) -> Round:
    return Round(value["n"], value["kind"], value["prompt"], value["options"], value["open"], value["revealed"],
                 value.get("lead"))


# The teacher's side

def create_room(store: Store) -> tuple[str, str]:
    """Open a class. Returns (code as people read it, "KDXP-7M3R"; the teacher's token).

    The token (secrets.token_urlsafe(32), 256 bits) is shown once, in the teacher's link; the store keeps
    only its SHA-256. A code already in use is never taken over (compare-and-set on an absent key)."""
    token = secrets.token_urlsafe(32)
    meta = {"token_sha256": _digest(token), "created": store.now()}
    for _ in range(20):
        code = new_code()
        if store.cas_doc(_key(code, "meta"), 0, meta, ttl_s=ROOM_TTL_S) is not None:
            break
    else:
        raise RuntimeError("20 fresh room codes were all taken; the store is not what it seems")
    store.set_doc(_key(code, "view"), {"page": None, "params": {}}, ttl_s=ROOM_TTL_S)
    store.set_doc(_key(code, "round"), _first_round(), ttl_s=ROOM_TTL_S)
    return format_code(code), token


def resume(store: Store, code: str, token: str) -> str:
    """The teacher back after a reload, or on another replica: the code as people read it when `token` is this
    room's teacher token; NotTeacher when it is not, RoomNotFound when the room is gone."""
    return format_code(_teacher(store, code, token))


def show(store: Store, code: str, token: str, page: str | None, params: dict[str, JSON]) -> int:
    """Make every phone show `page` with `params` (JSON); return the view's new version."""
    code = _teacher(store, code, token)
    if page is not None and not isinstance(page, str):
        raise TypeError(f"page must be a page's name or None, got {type(page).__name__}")
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict, got {type(params).__name__}")
    version = store.set_doc(_key(code, "view"), {"page": page, "params": params}, ttl_s=ROOM_TTL_S)
    _touch(store, code, _round_doc(store, code).value["n"])
    return version


def _options(kind: str, options: list[str] | None) -> list[str] | None:
    """A vote's options (or a guess round's candidates to tap), cleaned like answers: 2 to OPTIONS_MAX, distinct,
    none empty; None for a guess round without candidates."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if kind == "guess" and options is None:
        return None  # students type their guess; a guess round's options are only candidates to tap
    cleaned = [clean_answer(o) for o in options or []]
    if not 2 <= len(cleaned) <= OPTIONS_MAX or "" in cleaned or len(set(cleaned)) != len(cleaned):
        raise ValueError(f"a vote needs 2 to {OPTIONS_MAX} distinct, non-empty options, got {options!r:.80}")
    return cleaned


def start_round(store: Store, code: str, token: str, kind: str, prompt: str,
                options: list[str] | None = None, sealed: dict[str, JSON] | None = None,
                lead: int | None = None) -> Round:
    """Open the next round (the open one, if any, ends unscored); the previous round's answers are dropped.

    lead: for a text the model continued, how many of `prompt`'s first characters are the prompt it was given
    (the class sees the two parts apart); None: all of it is the round's prompt.

    sealed: what the teacher will reveal (a vote's answer, measured when the round starts), kept with the round
    for the teacher's token alone (`sealed`), so that a reload or another replica can still reveal it."""
    code = _teacher(store, code, token)
    options = _options(kind, options)
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be the text the class sees, got {type(prompt).__name__}")
    if sealed is not None and not isinstance(sealed, dict):
        raise TypeError(f"sealed must be a dict or None, got {type(sealed).__name__}")
    dumps(sealed)
    if lead is not None and (isinstance(lead, bool) or not isinstance(lead, int) or not 0 <= lead <= len(prompt)):
        raise ValueError(f"lead must be a character count within the prompt (0 to {len(prompt)}), got {lead!r:.40}")

    def change(cur: dict | None) -> dict:
        if cur is None:
            raise _not_found(code)
        return {**cur, "n": cur["n"] + 1, "kind": kind, "prompt": prompt, "options": options,
                "open": True, "revealed": None, "sealed": sealed, "lead": lead}

    doc = store.update_doc(_key(code, "round"), change, ttl_s=ROOM_TTL_S)
    number = doc.value["n"]
    store.delete(_key(code, f"answers:{number - 1}"))  # no late answer can land there: its round has moved on
    _touch(store, code, number)
    return _as_round(doc.value)


def sealed(store: Store, code: str, token: str) -> dict[str, JSON] | None:
    """The current round's sealed answer (see `start_round`), for the teacher's token only."""
    code = _teacher(store, code, token)
    return _round_doc(store, code).value.get("sealed")


def reveal(store: Store, code: str, token: str, payload: dict[str, JSON], matched: int = 0,
           class_top: bool = False) -> Score:
    """Close the round with what the model measured (`payload`, e.g. its top tokens and probabilities) and
    score it; return the running score. Once revealed, the round takes no more answers.

    Args:
        matched: how many students answered the model's top token (see `score`).
        class_top: whether the class's most common answer was the model's top token (see `score`).
    Raises RoundClosed when no round is open (it was revealed already, by this tab or another)."""
    code = _teacher(store, code, token)
    if not isinstance(payload, dict):
        raise TypeError(f"payload must be a dict, got {type(payload).__name__}")
    dumps(payload)  # not JSON: fail here, before anything is written
    if isinstance(matched, bool) or not isinstance(matched, int) or matched < 0:
        raise ValueError(f"matched must be a count of students (an int >= 0), got {matched!r}")

    def change(cur: dict | None) -> dict:
        if cur is None:
            raise _not_found(code)
        if not cur["open"]:
            raise RoundClosed("No round is open: start a round before revealing the model's answer.")
        s = cur["score"]
        scored = s if cur["kind"] != "guess" else {  # the class-against-model tally is over guessing rounds
            "rounds": s["rounds"] + 1, "class_wins": s["class_wins"] + bool(class_top), "matched": s["matched"] + matched}
        return {**cur, "open": False, "revealed": payload, "score": scored}

    doc = store.update_doc(_key(code, "round"), change, ttl_s=ROOM_TTL_S)  # one compare-and-set: counted once
    _touch(store, code, doc.value["n"])
    return Score(**doc.value["score"])


def hide(store: Store, code: str, token: str, session_id: str, what: str = "guess", hidden: bool = True) -> None:
    """Hide a student's answer in this round, or their nickname, from the projector (hidden=False: show again)."""
    code = _teacher(store, code, token)
    if what not in WHAT:
        raise ValueError(f"what must be one of {WHAT}, got {what!r}")
    sid, number = _session(session_id), _round_doc(store, code).value["n"]
    field = f"guess:{number}:{sid}" if what == "guess" else f"nickname:{sid}"
    if hidden:
        store.hset(_key(code, "hidden"), field, True, ttl_s=ROOM_TTL_S)
    else:
        store.hdel(_key(code, "hidden"), field)
    _touch(store, code, number)


def students(store: Store, code: str, token: str) -> list[Student]:
    """Everyone who joined, in the order they joined, with their last-seen time (the teacher's list)."""
    code = _teacher(store, code, token)
    joined, seen_at = store.hgetall(_key(code, "students")), store.hgetall(_key(code, "seen"))
    hidden = store.hgetall(_key(code, "hidden"))
    found = [Student(sid, s["nickname"], f"nickname:{sid}" in hidden, s["joined"], seen_at.get(sid))
             for sid, s in joined.items()]
    return sorted(found, key=lambda s: (s.joined, s.session_id))


@dataclass(frozen=True)
class Answer:
    """One student's answer in the current round, as the teacher's list shows it."""

    session_id: str
    nickname: str | None
    nickname_hidden: bool
    text: str
    hidden: bool  # left out of the projector's counts


def answers(store: Store, code: str, token: str) -> list[Answer]:
    """The current round's answers, one per student, in the order the students joined (the teacher's list,
    where each can be hidden from the projector)."""
    code = _teacher(store, code, token)
    number = _round_doc(store, code).value["n"]
    given = store.hgetall(_key(code, f"answers:{number}"))
    marked = store.hgetall(_key(code, "hidden"))
    return [Answer(s.session_id, s.nickname, s.nickname_hidden, given[s.session_id],
                   f"guess:{number}:{s.session_id}" in marked)
            for s in students(store, code, token) if s.session_id in given]


# The students' side

def join(store: Store, code: str, session_id: str, nickname: str | None = None) -> Student:
    """Join a class by its code, typed any way ("kdxp 7m3r"); joining again changes the nickname.

    Raises RateLimited after JOINS attempts by this session in a minute, or while the site's budget of wrong
    codes (BAD_CODES) is spent; RoomNotFound for a wrong or expired code. See the arithmetic above JOINS."""
    sid = _session(session_id)
    _limit(store, f"tbt:limit:join:{sid}", JOINS, "Too many tries to join: wait a minute, then check the code.")
    if not store.hit(_BAD_CODES_KEY, BAD_CODES.limit, BAD_CODES.window_s, cost=0):
        raise RateLimited("Joining is paused for a minute (too many wrong codes were tried); try again then.")
    code = normalize_code(code)  # a code that cannot exist costs the site's budget nothing: nothing is looked up
    try:
        number = _round_doc(store, code).value["n"]
    except RoomNotFound:
        store.hit(_BAD_CODES_KEY, BAD_CODES.limit, BAD_CODES.window_s)
        raise
    now, name = store.now(), clean_nickname(nickname)
    store.hset(_key(code, "students"), sid, {"nickname": name, "joined": now}, ttl_s=ROOM_TTL_S)
    store.hset(_key(code, "seen"), sid, now, ttl_s=ROOM_TTL_S)
    _touch(store, code, number)
    return Student(sid, name, False, now, now)


def rejoin(store: Store, code: str, session_id: str) -> Student:
    """A phone that lost its connection (a new browser session, a replica that died) comes back as the student it
    was, nickname kept, from the code and its id in its own address. NotJoined when the room does not know that
    id, RoomNotFound when the room is gone; limited like `join`."""
    sid = _session(session_id)
    _limit(store, f"tbt:limit:join:{sid}", JOINS, "Too many tries to join: wait a minute, then check the code.")
    code = normalize_code(code)
    number = _round_doc(store, code).value["n"]
    known = store.hget(_key(code, "students"), sid)
    if known is None:
        raise NotJoined("This class does not know this phone: join again with the code.")
    now = store.now()
    store.hset(_key(code, "seen"), sid, now, ttl_s=ROOM_TTL_S)
    _touch(store, code, number)
    marked = store.hgetall(_key(code, "hidden"))
    return Student(sid, known["nickname"], f"nickname:{sid}" in marked, known["joined"], now)


def _joined(store: Store, code: str, sid: str) -> None:
    """NotJoined for a session the room does not know; RoomNotFound when the room itself is gone."""
    if store.hget(_key(code, "students"), sid) is None:
        _round_doc(store, code)
        raise NotJoined("This phone is not in the class: join again with the code.")


def seen(store: Store, code: str, session_id: str) -> None:
    """The student's phone is still here (call it every so often); it also keeps the class alive."""
    code, sid = normalize_code(code), _session(session_id)
    _joined(store, code, sid)
    number = _round_doc(store, code).value["n"]
    store.hset(_key(code, "seen"), sid, store.now(), ttl_s=ROOM_TTL_S)
    _touch(store, code, number)


def count(store: Store, code: str, within_s: float = 60) -> int:
    """How many students were seen in the last `within_s` seconds (0 for a class that is gone)."""
    now = store.now()
    return sum(now - t <= within_s for t in store.hgetall(_key(normalize_code(code), "seen")).values())


def view_version(store: Store, code: str) -> int:
    """The view's version alone (one small read): a phone polls it and reruns only when it changed."""
    code = normalize_code(code)
    version = store.version(_key(code, "view"))
    if version == 0:
        raise _not_found(code)
    return version


def view(store: Store, code: str) -> View:
    """What the teacher shows now."""
    code = normalize_code(code)
    doc = store.get_doc(_key(code, "view"))
    if doc.value is None:
        raise _not_found(code)
    return View(doc.version, doc.value["page"], doc.value["params"])


def current_round(store: Store, code: str) -> Round:
    """The round as phones show it: its prompt, a vote's options, whether it is open, the reveal."""
    return _as_round(_round_doc(store, normalize_code(code)).value)


def guess(store: Store, code: str, session_id: str, text: str, round_number: int | None = None) -> str:
    """A student's answer to the open round (a guess, or a vote's option); a new one replaces theirs.

    `round_number`: the round the phone showed; if the teacher has moved on since, RoundClosed. The answer
    lands only if the round is still the one read (`Store.hset_if`), so a reveal on another replica at the
    same moment wins cleanly. Returns the answer as counted (`clean_answer`: case kept, outer spaces off)."""
    sid = _session(session_id)
    _limit(store, f"tbt:limit:answer:{sid}", ANSWERS, "Too many answers in a minute: wait a little.")
    code, answer = normalize_code(code), clean_answer(text)
    if not answer:
        raise BadAnswer("An empty answer does not count: type the token you expect.")
    _joined(store, code, sid)
    for _ in range(5):  # the round changes only when the teacher starts or reveals one: a retry or two at most
        doc = _round_doc(store, code)
        r = doc.value
        if not r["open"] or (round_number is not None and r["n"] != round_number):
            raise RoundClosed("This round is closed: the model's answer is on the projector.")
        if r["kind"] == "vote" and answer not in r["options"]:
            raise BadAnswer(f"Pick one of the {len(r['options'])} options.")
        if store.hset_if(_key(code, f"answers:{r['n']}"), sid, answer, ttl_s=ROOM_TTL_S,
                         guard=_key(code, "round"), guard_version=doc.version):
            _touch(store, code, r["n"])
            return answer
    raise RoundClosed("The round changed while answering: look at the projector and answer again.")


def my_answer(store: Store, code: str, session_id: str, round_number: int) -> str | None:
    """The answer this student gave in round `round_number`, or None: a phone back after a reload, or on another
    replica, shows its guess again (and what the model gave it) from the room, not from its lost session."""
    sid = _session(session_id)
    value = store.hget(_key(normalize_code(code), f"answers:{int(round_number)}"), sid)
    return value if isinstance(value, str) else None


# The projector's side

def tally_guesses(store: Store, code: str, include_hidden: bool = False) -> Answers:
    """The round's answers counted: one per student, as `clean_answer` left them, so "the" and "The" are two
    answers (tokens are case-sensitive). Answers the teacher hid are left out unless `include_hidden`."""
    code = normalize_code(code)
    r = _round_doc(store, code).value
    answers = store.hgetall(_key(code, f"answers:{r['n']}"))
    marked = store.hgetall(_key(code, "hidden"))
    hidden = {sid for sid in answers if f"guess:{r['n']}:{sid}" in marked}
    counted = Counter(text for sid, text in answers.items() if include_hidden or sid not in hidden)
    ordered = dict(sorted(counted.items(), key=lambda kv: (-kv[1], kv[0])))
    return Answers(r["n"], r["open"], ordered, sum(counted.values()), len(hidden))


def tally(store: Store, code: str) -> Score:
    """The running class-against-model score."""
    return Score(**_round_doc(store, normalize_code(code)).value["score"])


def score(answers: Answers, top_token: str) -> tuple[int, bool]:
    """(matched, class_top) for `reveal`, from the projector's counts and the model's top token.

    The token is cleaned as answers are (outer spaces off, case kept: " the" matches "the", not "The").
    The class wins the round when the model's token is among its most common answers (a tie counts)."""
    top = clean_answer(top_token)
    matched = answers.counts.get(top, 0)
    return matched, matched > 0 and matched == max(answers.counts.values())
