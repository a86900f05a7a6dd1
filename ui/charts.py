"""Chart defaults: large labels for projectors and a colour-blind-safe palette (Okabe-Ito)."""
from __future__ import annotations

import altair as alt

OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
SEQUENTIAL = "viridis"  # perceptually uniform and colour-blind safe
MASKED = "#d9d9d9"  # cells that the causal mask hides, or bars a filter cut
PRIMARY = OKABE_ITO[0]


@alt.theme.register("token_by_token", enable=True)
def _theme() -> alt.theme.ThemeConfig:
    return {
        "config": {
            "font": "Source Sans Pro, sans-serif",
            "axis": {"labelFontSize": 14, "titleFontSize": 15, "labelLimit": 220},
            "legend": {"labelFontSize": 14, "titleFontSize": 14},
            "header": {"labelFontSize": 14, "titleFontSize": 15},
            "title": {"fontSize": 17},
            "text": {"fontSize": 14},
            "range": {"category": OKABE_ITO, "heatmap": {"scheme": SEQUENTIAL}, "ramp": {"scheme": SEQUENTIAL}},
        }
    }


def enable() -> None:
    """Importing this module registers and enables the theme; call to make the intent explicit."""
    alt.theme.enable("token_by_token")
