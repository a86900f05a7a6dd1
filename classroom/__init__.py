"""The live class (issue 31), model-free: rooms, codes, rounds and the score, on an in-process or Redis store.

No Streamlit and no model here: pages call these functions and draw what they return; the model's numbers
arrive as plain JSON in `reveal`'s payload.
"""
from __future__ import annotations

from classroom.codes import ALPHABET, format_code, normalize_code
from classroom.errors import (
    BadAnswer,
    ClassroomError,
    NotJoined,
    NotTeacher,
    RateLimited,
    RoomNotFound,
    RoundClosed,
)
from classroom.room import (
    ROOM_TTL_S,
    Answer,
    Answers,
    Round,
    Score,
    Student,
    View,
    answers,
    count,
    create_room,
    current_round,
    guess,
    hide,
    join,
    my_answer,
    rejoin,
    resume,
    reveal,
    room_prefix,
    score,
    sealed,
    seen,
    show,
    start_round,
    students,
    tally,
    tally_guesses,
    view,
    view_version,
)
from classroom.store import REDIS_URL_ENV, ContentionError, Doc, MemoryStore, Store, open_store

__all__ = [
    "ALPHABET", "REDIS_URL_ENV", "ROOM_TTL_S",
    "Answer", "Answers", "Doc", "Round", "Score", "Store", "MemoryStore", "Student", "View",
    "BadAnswer", "ClassroomError", "ContentionError", "NotJoined", "NotTeacher", "RateLimited", "RoomNotFound",
    "RoundClosed",
    "answers", "count", "create_room", "current_round", "format_code", "guess", "hide", "join", "my_answer", "normalize_code",
    "open_store", "rejoin", "resume", "reveal", "room_prefix", "score", "sealed", "seen", "show", "start_round", "students", "tally",
    "tally_guesses", "view", "view_version",
]
