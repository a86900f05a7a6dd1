"""Check what a page's download buttons would send (the `captured` fixture in tests/app/conftest.py
records it): the CSV and the JSON of one download hold the same table."""
import io
import json

import pandas as pd


def both(files: dict[str, bytes], name: str) -> pd.DataFrame:
    """The CSV and the JSON of one download, checked to be well-formed and to hold the same table."""
    csv = pd.read_csv(io.BytesIO(files[f"{name}.csv"]), keep_default_na=False, na_values=[""])
    records = json.loads(files[f"{name}.json"].decode("utf-8"))
    assert isinstance(records, list) and len(records) == len(csv)
    assert list(records[0]) == list(csv.columns)
    from_json = pd.DataFrame.from_records(records)
    for col in csv.columns:
        for a, b in zip(csv[col], from_json[col]):
            assert _same(a, b), (name, col, a, b)
    return from_json


def _same(a, b) -> bool:
    a, b = ("" if x is None or (isinstance(x, float) and x != x) else x for x in (a, b))
    try:
        return abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b)))  # float32 values written twice
    except (TypeError, ValueError):
        return str(a) == str(b)
