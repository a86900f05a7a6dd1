"""The live class: the projector's room code and round, or a student's guess box (ui/live_class.py)."""
from ui import live_class

live_class.page()
