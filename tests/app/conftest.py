"""Fixtures of the app tier."""
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


@pytest.fixture
def captured(monkeypatch):
    """What the page's download buttons would send, read back: AppTest keeps no media, so the storage is
    watched. A dict file name -> bytes of the latest run."""
    files: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def keep(self, path_or_data, mimetype, kind, filename=None):
        if filename and isinstance(path_or_data, bytes):
            files[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
    return files
