"""What the shipped weights really are: the GGUF's mix of quantization types, read from the file itself."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

EMBEDDING_TENSOR = "token_embd.weight"  # also the output matrix: Gemma ties them


@dataclass(frozen=True)
class QuantMix:
    """How many weights each quantization type holds, and what that costs in bits per weight."""

    file_type: str  # the recipe the file is labelled with, "Q4_K_M"
    weights: tuple[tuple[str, int], ...]  # (type, number of weights), largest first: ("Q8_0", 169246720), ...
    bits: tuple[tuple[str, float], ...]  # (type, bits per weight of that type): Q4_K 4.5, Q8_0 8.5, F32 32
    embedding: str  # the type of the embedding matrix

    @property
    def total(self) -> int:
        return sum(n for _, n in self.weights)

    @property
    def bits_per_weight(self) -> float:
        """The file's mean: every type's bits weighted by how many weights it holds."""
        per = dict(self.bits)
        return sum(per[kind] * n for kind, n in self.weights) / self.total

    def share(self, kind: str) -> float:
        """Fraction of all weights stored as `kind`."""
        return dict(self.weights).get(kind, 0) / self.total

    def as_json(self) -> dict:
        return {"file_type": self.file_type, "embedding": self.embedding, "weights": dict(self.weights),
                "bits": dict(self.bits)}


def from_json(data: dict) -> QuantMix:
    """The catalogue's copy of read_gguf()'s answer (assets/models.json, checked against the file by a test)."""
    weights = sorted(((k, int(n)) for k, n in data["weights"].items()), key=lambda kv: -kv[1])
    return QuantMix(file_type=data["file_type"], weights=tuple(weights),
                    bits=tuple((k, float(b)) for k, b in data["bits"].items()), embedding=data["embedding"])


def read_gguf(path: Path) -> QuantMix:
    """Count the weights of each type in a GGUF file (reads the header and tensor table; no de-quantizing)."""
    import gguf  # the GGUF reader transformers itself uses to de-quantize

    reader = gguf.GGUFReader(str(path))
    weights: Counter[str] = Counter()
    bits: dict[str, float] = {}
    embedding = "?"
    for tensor in reader.tensors:
        kind = tensor.tensor_type.name
        weights[kind] += int(tensor.n_elements)
        block, size = gguf.GGML_QUANT_SIZES[tensor.tensor_type]  # weights per block, bytes per block
        bits[kind] = 8 * size / block
        if tensor.name == EMBEDDING_TENSOR:
            embedding = kind
    field = reader.fields["general.file_type"]
    file_type = gguf.LlamaFileType(int(field.parts[field.data[0]][0])).name.removeprefix("MOSTLY_")
    return QuantMix(file_type=file_type, weights=tuple(weights.most_common()), bits=tuple(sorted(bits.items())),
                    embedding=embedding)


K_BLOCK = 256  # weights per k-quant super-block (Q4_K, Q6_K): a row whose length it does not divide falls back
