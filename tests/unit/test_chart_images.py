"""Every chart can be saved as PNG or SVG: the server draws the image from the chart's spec."""
import altair as alt
import pandas as pd

from ui.charts import EXPORT_WIDTH, image_spec, to_image


def _chart():
    df = pd.DataFrame({"token": ["Paris", "Lyon", "<script>alert(1)</script>", "🙂"], "p": [0.15, 0.08, 0.02, 0.01]})
    return alt.Chart(df).mark_bar().encode(x=alt.X("token:N"), y=alt.Y("p:Q")).properties(title="Próximo token")


def test_png_is_a_real_image_at_twice_the_pixels():
    png = to_image(_chart(), "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")  # the IHDR chunk
    assert width >= 2 * EXPORT_WIDTH


def test_svg_holds_the_chart_text_escaped():
    svg = to_image(_chart(), "svg").decode("utf-8")
    assert svg.lstrip().startswith("<svg") and "Próximo token" in svg and "Paris" in svg
    assert "<script>" not in svg and "&lt;script&gt;" in svg  # data is text in the image, never markup


def test_layered_charts_get_a_width_and_a_white_background():
    layered = alt.layer(_chart(), _chart().mark_text())
    spec = image_spec(layered)
    assert spec["width"] == EXPORT_WIDTH and spec["config"]["background"] == "white"
    assert to_image(layered, "svg").startswith(b"<svg")
