"""Fixtures of the app tier."""
import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


class Downloads(dict):
    """File name -> bytes of what a click on a download button would send. Buttons with deferred data
    (a callable, run on click) are kept as callables and run only when a test reads them."""

    def __getitem__(self, name: str) -> bytes:
        value = super().__getitem__(name)
        if callable(value):
            value = value()
            value = value.encode("utf-8") if isinstance(value, str) else value
            self[name] = value
        return value


@pytest.fixture
def captured(monkeypatch):
    """What the page's download buttons would send, read back: AppTest keeps no media, so the storage and
    the deferred downloads are watched. Downloads of the latest runs."""
    files = Downloads()
    original = MemoryMediaFileStorage.load_and_get_id
    original_deferred = MediaFileManager.add_deferred

    def keep(self, path_or_data, mimetype, kind, filename=None):
        if filename and isinstance(path_or_data, bytes):
            files[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    def keep_deferred(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        if file_name:
            files[file_name] = data_callable
        return original_deferred(self, data_callable, mimetype, coordinates, file_name=file_name, **kwargs)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
    monkeypatch.setattr(MediaFileManager, "add_deferred", keep_deferred)
    return files


@pytest.fixture(autouse=True)
def no_loop_run_from_an_earlier_test():
    """The loop page's runs are shared by every session of the process (ui.loop.compute.SharedRun): a test that
    counts forward passes starts with none made by an earlier test."""
    from ui.loop import compute

    compute._shared.clear()
    yield
