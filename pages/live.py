"""The live class: the projector's room code and round, or a student's guess box (ui/live_class/draw.py)."""
from ui.live_class import draw

draw.page()
