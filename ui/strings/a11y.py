"""Strings read by assistive technology: chart text alternatives, live announcements, landmarks."""

STRINGS = {
    # a chart's text alternative (a visually hidden paragraph just before the chart; see ui/a11y.py)
    "a11y.chart": ("Gráfico", "Chart"),
    "a11y.chart.titled": ("Gráfico: {title}", "Chart: {title}"),
    "a11y.chart.bars": ("{n} barras de {value}. Maior: {top}", "{n} bars of {value}. Highest: {top}"),
    "a11y.chart.then": ("depois {rest}", "then {rest}"),
    "a11y.chart.curve": ("{n} pontos de {y} por {x}, de {x0} a {x1}. Pico: {peak} em {x} = {at}; último valor {last}",
                         "{n} points of {y} against {x}, from {x0} to {x1}. Peak: {peak} at {x} = {at}; last value {last}"),
    "a11y.chart.grid": ("Grade de {rows} × {cols} células de {value}. Maior: {peak} em {y} = {at_y}, {x} = {at_x}",
                        "Grid of {rows} × {cols} cells of {value}. Highest: {peak} at {y} = {at_y}, {x} = {at_x}"),
    "a11y.chart.values": ("{n} valores de {value}, de {low} a {high}", "{n} values of {value}, from {low} to {high}"),
    "a11y.chart.rows": ("{n} linhas de dados", "{n} rows of data"),
    "a11y.chart.empty": ("ainda sem dados", "no data yet"),
    "a11y.chart.keyboard": ("A mesma escolha pode ser feita pelo teclado no controle abaixo do gráfico.",
                            "The same choice can be made from the keyboard with the control below the chart."),
    "a11y.value": ("valor", "value"),
    # live announcements (a polite live region that the app keeps outside Streamlit's tree)
    "a11y.live.generated": ("Geração terminada: {n} tokens.", "Generation finished: {n} tokens."),
    "a11y.live.runs": ("As {n} execuções estão prontas.", "The {n} runs are ready."),
    "a11y.live.trained": ("Treino terminado: {n} passos.", "Training finished: {n} steps."),
    "a11y.live.step": ("Novo token: {token}.", "New token: {token}."),
    "a11y.scroll_region": ("Área com rolagem: {name}", "Scrolling area: {name}"),
}
