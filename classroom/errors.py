"""What can go wrong in a live class, each with a message a teacher or a student can act on."""
from __future__ import annotations


class ClassroomError(Exception):
    """The base of every live-class error."""


class RoomNotFound(ClassroomError):
    """No class has this code (mistyped, or the class ended and expired)."""


class NotTeacher(ClassroomError):
    """The teacher's token is wrong: only the teacher's link can change the class."""


class RateLimited(ClassroomError):
    """Too many attempts in a short time; wait and try again."""


class NotJoined(ClassroomError):
    """This session has not joined the class (or the class forgot it)."""


class RoundClosed(ClassroomError):
    """No round is open for answers (none started yet, or the model's answer was revealed)."""


class BadAnswer(ClassroomError, ValueError):
    """An answer that cannot count: empty, or not one of a vote's options."""
