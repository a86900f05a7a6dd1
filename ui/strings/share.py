"""Strings for links, downloads and projection mode."""

STRINGS = {
    "share.title": ("Link para esta visualização", "Link to this view"),
    "share.caption": ("Este link (o mesmo da barra de endereço) abre a mesma página com as mesmas configurações: "
                      "selecione-o e copie.",
                      "This link (the same as in the address bar) opens this page with the same settings: "
                      "select it and copy it."),
    "share.rejected": ("Alguns valores do link eram inválidos e foram trocados pelo padrão: {names}.",
                       "Some values in the link were invalid and were replaced by defaults: {names}."),
    "export.csv": ("Baixar CSV", "Download CSV"),
    "export.json": ("Baixar JSON", "Download JSON"),
    "export.png": ("PNG", "PNG"),
    "export.svg": ("SVG", "SVG"),
    "export.png.help": ("Salvar este gráfico como imagem PNG (para slides e documentos).",
                        "Save this chart as a PNG image (for slides and documents)."),
    "export.svg.help": ("Salvar este gráfico como SVG (vetorial: nítido em qualquer tamanho).",
                        "Save this chart as SVG (vector: sharp at any size)."),
    "side.projection": ("Modo projeção (letras grandes, alto contraste)", "Projection mode (large text, high contrast)"),
}
