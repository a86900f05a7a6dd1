"""The live class in the app: start or join a room, follow the teacher, and play "guess the next token" or vote.

The rooms themselves are `classroom/` (plain Python, on the in-process or the Redis store). Here is what the
browser sees of them, one module per role:
- `place`: who this session is in a room, a student's place kept in the address, the teacher's cookie;
- `sidebar`: the "Live class" panel on every page (start, join, follow, leave);
- `follow`: a following phone's timer, which opens the teacher's page with her settings, or reruns only the
  fragment that draws what she changed; and `lead`, which tells the room where the teacher is;
- `compute` and `draw`: the live-class page (pages/live.py), in the lesson pages' shape: compute holds the room's
  writes and the model's calls and draws nothing; draw holds the Streamlit and chart code. The teacher's
  round panels are timers that reread the room, and a student's board is drawn again when its timer finds the
  room changed, so draw calls compute's functions from them (the lesson pages' draw does not;
  tests/unit/test_page_shape.py says so).
The names app.py, the pages, ui.share and the tests use are exported here.
"""
from ui.live_class.draw import ROUND_S, page, pct
from ui.live_class.follow import (
                                  FOLLOW_S,
                                  IN_FRAGMENT,
                                  MAX_SWITCHES,
                                  RETRY_S,
                                  at,
                                  changed_in_fragment,
                                  follow,
                                  follow_in_fragment,
                                  follow_query,
                                  lead,
                                  own_change,
                                  ran,
                                  shows,
    took_teacher_values,
)
from ui.live_class.place import STATE, is_student, rejoin_from_link, resume_teacher, url_marks
from ui.live_class.sidebar import sidebar_panel

__all__ = ["FOLLOW_S", "IN_FRAGMENT", "MAX_SWITCHES", "RETRY_S", "ROUND_S", "STATE", "at", "changed_in_fragment",
           "follow", "follow_in_fragment", "follow_query", "is_student", "lead", "own_change", "page", "pct", "ran",
           "rejoin_from_link", "resume_teacher", "shows", "sidebar_panel", "took_teacher_values", "url_marks"]
