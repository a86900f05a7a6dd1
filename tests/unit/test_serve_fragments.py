"""A following phone's timer tick that reaches the server after a switch to another page must not start a run:
Streamlit 1.67 would tell the browser the old page is back, the browser would clear the page it shows, and the new
page's fragment would then draw into nothing ("Bad delta path index"): a blank phone (ui/serve.py)."""
from __future__ import annotations

from types import SimpleNamespace

from streamlit.runtime.fragment import MemoryFragmentStorage
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

from ui.serve import stale_fragment_runs


def _runner(page: str, kept: list[str]) -> SimpleNamespace:
    storage = MemoryFragmentStorage()
    for key in kept:
        storage.register(key, lambda: None)
    return SimpleNamespace(_pages_manager=SimpleNamespace(current_page_script_hash=page), _fragment_storage=storage)


def _runs(runner, data: RerunData) -> bool:
    ran = []
    stale_fragment_runs(lambda r, d: ran.append(d))(runner, data)
    return bool(ran)


def test_a_tick_for_a_dropped_fragment_starts_no_run():
    runner = _runner("live", ["live_board"])
    assert not _runs(runner, RerunData(page_script_hash="temperature", fragment_id_queue=["temp_follow"],
                                       is_auto_rerun=True))
    assert not _runs(runner, RerunData(page_script_hash="live", fragment_id_queue=["gone"], is_auto_rerun=True))


def test_a_tick_from_another_page_starts_no_run_even_while_its_fragment_is_kept():
    # the new page's run was cut short before it dropped the old page's fragments
    runner = _runner("live", ["live_board", "temp_follow"])
    assert not _runs(runner, RerunData(page_script_hash="temperature", fragment_id_queue=["temp_follow"]))


def test_the_pages_own_fragments_and_every_full_run_still_run():
    runner = _runner("live", ["live_board"])
    assert _runs(runner, RerunData(page_script_hash="live", fragment_id_queue=["live_board"], is_auto_rerun=True))
    assert _runs(runner, RerunData(page_script_hash="live", fragment_id_queue=["gone", "live_board"]))
    assert _runs(runner, RerunData(page_script_hash="", fragment_id_queue=["live_board"]))
    assert _runs(runner, RerunData(page_script_hash="temperature"))  # a switch or a link: a full run
    assert _runs(runner, RerunData())


def test_streamlits_script_runner_still_has_what_the_rule_reads():
    # the rule steps aside when these names are gone (a newer Streamlit): then this test says so
    import inspect

    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

    init = inspect.getsource(ScriptRunner.__init__)
    assert "self._pages_manager" in init and "self._fragment_storage" in init
    assert "current_page_script_hash" in dir(PagesManager) and callable(MemoryFragmentStorage.contains)
    assert "rerun_data" in inspect.signature(ScriptRunner._run_script).parameters
