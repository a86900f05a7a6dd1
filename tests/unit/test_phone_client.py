"""support/phone.py drops its fragments' timers when a full run starts (new_session), as Streamlit's frontend does."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from support.phone import Client


def _navigation(page_hash: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.navigation.page_script_hash = page_hash
    for h, path in (("hash-pipeline", "pipeline"), ("hash-why", "why")):
        page = msg.navigation.app_pages.add()
        page.page_script_hash, page.url_pathname = h, path
    return msg


def _auto_rerun(fragment_id: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.auto_rerun.fragment_id, msg.auto_rerun.interval = fragment_id, 60.0
    return msg


def _new_session(page_hash: str, fragment_ids: tuple[str, ...] = ()) -> ForwardMsg:
    msg = ForwardMsg()
    msg.new_session.page_script_hash = page_hash
    msg.metadata.run.script_run_id = "run"
    msg.metadata.run.fragment_ids.extend(fragment_ids)
    return msg


def _feed(client: Client, msg: ForwardMsg) -> None:
    client._on(msg, msg.SerializeToString())


def test_a_full_run_drops_the_old_page_s_timers_when_it_starts():
    async def play():
        phone = Client("http://127.0.0.1:1", "pipeline", "")
        _feed(phone, _new_session("hash-pipeline"))
        _feed(phone, _navigation("hash-pipeline"))
        _feed(phone, _auto_rerun("follow-on-pipeline"))
        assert set(phone.timers) == {"follow-on-pipeline"} and phone.page == "pipeline"

        _feed(phone, _new_session("hash-pipeline", ("follow-on-pipeline",)))  # a fragment's run: timers stay
        assert set(phone.timers) == {"follow-on-pipeline"}

        ticking = phone.timers["follow-on-pipeline"]
        _feed(phone, _new_session("hash-pipeline"))  # a full run of the same page: its timers register again
        await asyncio.sleep(0)
        assert phone.timers == {} and ticking.cancelled()
        _feed(phone, _navigation("hash-pipeline"))
        _feed(phone, _auto_rerun("follow-on-pipeline"))

        # The switch's full run starts. It may be cut short right here, before its navigation message: the old
        # page's timers must not tick on with the old page's hash (that phone never ran again).
        ticking = phone.timers["follow-on-pipeline"]
        _feed(phone, _new_session("hash-why"))
        await asyncio.sleep(0)
        assert phone.timers == {} and ticking.cancelled()
        assert phone.hash == "hash-why" and phone.page == "why"
        assert len(phone.page_runs) == 2  # a page run is counted at its navigation message

    with ThreadPoolExecutor(1) as pool:  # its own thread: the browser tests' Playwright keeps a loop running here
        pool.submit(asyncio.run, play()).result(timeout=30)


def _heading(text: str) -> ForwardMsg:
    msg = ForwardMsg()
    msg.delta.new_element.heading.body = text
    return msg


def test_a_full_run_s_first_heading_says_when_the_page_was_on_the_phone():
    phone = Client("http://127.0.0.1:1", "pipeline", "")
    _feed(phone, _navigation("hash-pipeline"))  # the page names it knows
    _feed(phone, _new_session("hash-why"))
    _feed(phone, _heading("Why"))
    _feed(phone, _heading("A subheader"))  # only the run's first heading counts
    assert [p for _, p in phone.titled] == ["why"]
    _feed(phone, _new_session("hash-why", ("follow",)))  # a fragment's run draws no title
    _feed(phone, _heading("In a fragment"))
    assert len(phone.titled) == 1
    _feed(phone, _new_session("hash-pipeline"))
    _feed(phone, _heading("Pipeline"))
    assert [p for _, p in phone.titled] == ["why", "pipeline"]
