"""The live class under load, as issue 31 measures it: 1 teacher and 30 phones, protocol clients (no browsers), on
the real server with the room in a real redis-server; then the same class on 2 replicas behind Debian's nginx.

- follow: the teacher's view changes (the room write her run ends with, `room.show`: T on the temperature page);
  each phone's time from that write until its own run of the teacher's page has finished, or, where only values
  that a fragment of the page draws changed (live_class.follow_in_fragment), that fragment's run with her values
  (it writes them into the phone's address); and how many page runs the phones made per change;
- histogram: 30 guesses go into an open round (`room.guess`, the write a phone's "Send guess" makes); the
  projector's time from the last guess until its round panel says all 30 are in;
- press: the same through the phones' pages, as a class presses: in a new round one phone types a guess and
  presses "Send guess" alone, then in another round all 30 press at once (each its own guess). A press is timed
  from sending it until the phone's round panel says what its guess counts as; the server's CPU per press over
  the 30; and the projector's time from the last press until it counts all 30;
- follow_step: the same for the teacher's step on the loop page (her session opens it at step 2, then 3, 4, 5);
  the phones show the step the teacher's own run made (ui.loop.compute.SharedRun: one run per settings);
- page_switches: the class follows the teacher to each other lesson page in turn: each phone's time until its run
  of the page finished (p95), and the server's CPU for the 30 page runs;
- idle: the 30 phones follow (their 0.5 s timers, FOLLOW_S, run) and nothing changes: the server's CPU per phone per
  second.

The phones join through the room (`room.join`), then open the class page from their own address
(`?class=&me=`), as a phone does after a reload; the teacher's session leads the room from the teacher's cookie.
Their timers (`auto_rerun`) are kept as a browser keeps them (support/phone.py). Writes the "live_class" key of
bench/results.json.
The failover itself (a replica killed mid-round) is a test with browsers: tests/deploy/test_live_class_replicas.py.

    python -m bench class_bench [--phones 30] [--changes 4] [--idle-s 20] [--no-replicas] [--no-write]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import urllib.parse
from pathlib import Path

import psutil

import classroom
from classroom.redis_store import RedisStore
from support import lb, redis_server, server
from support.phone import Client
from support.ports import free_port
from support.protoload import query_for, visit

ROOT = Path(__file__).resolve().parent.parent

RESULTS = ROOT / "bench" / "results.json"
ARTIFACTS = ROOT / "artifacts"
PROMPT = "A capital da França é a cidade de"
FOLLOW_WAIT_S = 30.0  # a phone not on the teacher's new page after this long counts as missed
GOALS = {"follow_p95_s": 1.5, "histogram_s": 1.0, "idle_cpu_per_phone_s": 0.02}


def titled_at(c: Client, since: float, page: str) -> float | None:
    """When `c` first showed the title of `page` (its run's first heading) at or after `since`."""
    return next((t for t, p in c.titled if t >= since and p == page), None)


def ran_at(c: Client, since: float, page: str, want: str = "") -> float | None:
    """When `c` first finished a full run of `page` (with `want` in its query string) at or after `since`."""
    return next((t for t, p, q in c.finished if t >= since and p == page and want in q), None)


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(round(q * (len(values) - 1))))], 3)


def _cpu(procs: list[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        c = p.cpu_times()
        total += c.user + c.system
    return total


async def _wait(check, timeout: float) -> bool:
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if check():
            return True
        await asyncio.sleep(0.05)
    return False


async def measure_class(base: str, redis_url: str, procs: list[psutil.Process], phones: int, changes: int,
                        idle_s: float, replicas: list[str] | None = None) -> dict:
    store = RedisStore.from_url(redis_url)
    for url in replicas or [base]:  # each replica's one-time work for the pages the class opens, on each replica
        # itself: through nginx, round robin may send visits to one
        for page in ("live", "temperature", "loop", *SWITCH_PAGES):
            await visit(url, page, query_for(page, PROMPT, "en"), timeout=300)
    code, token = classroom.create_room(store)
    canonical = classroom.normalize_code(code)
    teacher = Client(base, "live", "lang=en", cookie=f"tbt_teacher={canonical}.{token}")
    clients = []
    for i in range(phones):
        sid = f"bench-phone-{i:03d}"
        classroom.join(store, code, sid, f"Phone {i}")
        clients.append(Client(base, "live", f"lang=en&class={canonical}&me={sid}"))
    tasks = [asyncio.create_task(c.run()) for c in [teacher, *clients]]
    out: dict = {"phones": phones}
    try:
        t0 = time.perf_counter()
        if not await _wait(lambda: all(c.ready.is_set() for c in [teacher, *clients]), 600):
            late = [c for c in [teacher, *clients] if not c.ready.is_set()]
            raise RuntimeError(f"{len(late)} of {len(clients) + 1} clients never finished a run of their first page: "
                               + "; ".join(f"{c.page}?{c.query[:60]} errors={c.errors[-2:]}" for c in late[:5]))
        out["join_s"] = round(time.perf_counter() - t0, 2)
        await asyncio.sleep(3)  # every phone's timer running

        # idle: everyone on the class page, nothing changes
        c0, w0 = _cpu(procs), time.perf_counter()
        await asyncio.sleep(idle_s)
        cpu, wall = _cpu(procs) - c0, time.perf_counter() - w0
        out["idle"] = {"seconds": round(wall, 1), "server_cpu_s": round(cpu, 2),
                       "cpu_per_phone_per_s": round(cpu / wall / phones, 4)}

        # follow: the teacher's T changes on the temperature page, `changes` times (the first opens the page). A
        # session of hers (her cookie) runs the page with the new T, which warms the shared caches as her slider
        # does, and its run's end writes the view (app.py's lead); each phone's delay counts from her request.
        delays, missed, teacher_runs, after_hers, page_runs = [], 0, [], [], 0
        for k in range(changes + 1):
            t_value = f"{0.3 + 0.2 * k:.1f}"
            t_show = time.perf_counter()
            mover = Client(base, "temperature", urllib.parse.urlencode({"prompt": PROMPT, "t": t_value, "lang": "en"}),
                           cookie=teacher.cookie)  # her browser opens the page with the new T: a session of hers
            moving = asyncio.create_task(mover.run())
            await asyncio.wait_for(mover.ready.wait(), 60)
            teacher_runs.append(mover.finished[0][0] - t_show if mover.finished else None)
            moving.cancel()  # her run wrote the view (lead); her class-page session stays

            def arrived(c: Client, since=t_show, want=f"t={t_value}") -> float | None:
                return ran_at(c, since, "temperature", want)

            await _wait(lambda: all(arrived(c) is not None for c in clients), FOLLOW_WAIT_S)
            got = [arrived(c) for c in clients]
            late = [c for c, g in zip(clients, got) if g is None]
            print(f"change {k} (T {t_value}): {len(clients) - len(late)} of {len(clients)} phones in "
                  f"{max((g - t_show for g in got if g is not None), default=0):.1f} s", flush=True)
            for c in late[:3]:
                print("   not there:", c.finished[-1][1][:12] if c.finished else None,
                      f"last run {c.finished[-1][0] - t_show:.1f} s after the change" if c.finished else "",
                      f"timers {len(c.timers)}", [name for name, tk in c.timers.items() if tk.done()],
                      c.errors[-1:], flush=True)
            if k > 0:  # the first change opens the page on every phone at once: reported on its own
                delays += [g - t_show for g in got if g is not None]
                page_runs += sum(t >= t_show for c in clients for t in c.page_runs)
                if mover.finished:  # from the end of her run (the view was written just before it)
                    after_hers += [g - mover.finished[0][0] for g in got if g is not None]
                missed += sum(g is None for g in got)
            else:  # the whole class opens another page at once (each phone's page run, warm)
                out["page_switch_p95_s"] = _pct([g - t_show for g in got if g is not None], 0.95)
            await asyncio.sleep(2)
        out["follow"] = {"changes": changes, "p50_s": _pct(delays, 0.5), "p95_s": _pct(delays, 0.95),
                         "max_s": _pct(delays, 1.0), "missed": missed,
                         "teacher_run_s": _pct([r for r in teacher_runs if r is not None], 0.5),
                         "after_her_run_p50_s": _pct(after_hers, 0.5), "after_her_run_p95_s": _pct(after_hers, 0.95),
                         "phone_page_runs_per_change": round(page_runs / max(1, changes), 1)}

        out["follow_step"] = await follow_steps(base, teacher, clients)
        out["page_switches"] = await page_switches(base, teacher, clients, procs)

        # idle on a lesson page (the sidebar's follow timer)
        c0, w0 = _cpu(procs), time.perf_counter()
        await asyncio.sleep(idle_s)
        cpu, wall = _cpu(procs) - c0, time.perf_counter() - w0
        out["idle_lesson_page"] = {"seconds": round(wall, 1), "server_cpu_s": round(cpu, 2),
                                   "cpu_per_phone_per_s": round(cpu / wall / phones, 4)}

        # the round: back to the class page, a round opens, 30 guesses go in
        t_show = time.perf_counter()
        classroom.show(store, code, token, "live", {})
        await _wait(lambda: all(any(t >= t_show and p == "live" for t, p, _ in c.finished) for c in clients), 120)
        classroom.start_round(store, code, token, "guess", PROMPT)
        needle = f"Guesses so far: {phones}.".encode()
        teacher.needles[needle] = None
        await asyncio.sleep(2)
        for i in range(phones):
            classroom.guess(store, code, f"bench-phone-{i:03d}", ["Paris", "Lyon", "Roma"][i % 3])
        t_last = time.perf_counter()
        await _wait(lambda: teacher.needles[needle] is not None, 30)
        seen = teacher.needles[needle]
        out["histogram_s"] = round(seen - t_last, 3) if seen else None
        out["press"] = await measure_press(store, code, token, teacher, clients, procs, first_round=2)
        out["errors"] = sorted({e for c in [teacher, *clients] for e in c.errors})[:5]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return out


async def follow_steps(base: str, teacher: Client, clients: list[Client], steps: tuple[int, ...] = (2, 3, 4, 5)) -> dict:
    """The teacher's step on the loop page: a session of hers opens it at `steps[0]` (every phone runs the page and
    replays that many steps: reported on its own), then at each next step. A phone has it when a run of its (the
    page's, or the run's fragment: live_class.follow_in_fragment) finished with that step in its address."""
    delays, missed, page_runs, out, teacher_runs, after_hers = [], 0, 0, {}, [], []
    for k, step in enumerate(steps):
        t_show = time.perf_counter()
        mover = Client(base, "loop", urllib.parse.urlencode({"prompt": PROMPT, "steps": step, "lang": "en"}),
                       cookie=teacher.cookie)
        moving = asyncio.create_task(mover.run())
        await asyncio.wait_for(mover.ready.wait(), 120)
        her_end = mover.finished[0][0] if mover.finished else None
        moving.cancel()
        want = f"steps={step}&"
        await _wait(lambda since=t_show, want=want: all(ran_at(c, since, "loop", want) is not None for c in clients),
                    FOLLOW_WAIT_S)
        got = [ran_at(c, t_show, "loop", want) for c in clients]
        print(f"step {step}: {sum(g is not None for g in got)} of {len(clients)} phones in "
              f"{max((g - t_show for g in got if g is not None), default=0):.1f} s"
              + (f" (her own run of the page: {her_end - t_show:.2f} s)" if her_end else ""), flush=True)
        if k == 0:
            out["page_switch_p95_s"] = _pct([g - t_show for g in got if g is not None], 0.95)
        else:
            delays += [g - t_show for g in got if g is not None]
            if her_end is not None:  # from the end of her run (the view was written in it)
                teacher_runs.append(her_end - t_show)
                after_hers += [g - her_end for g in got if g is not None]
            missed += sum(g is None for g in got)
            page_runs += sum(t >= t_show for c in clients for t in c.page_runs)
        await asyncio.sleep(2)
    out.update({"changes": len(steps) - 1, "p50_s": _pct(delays, 0.5), "p95_s": _pct(delays, 0.95),
                "max_s": _pct(delays, 1.0), "missed": missed,
                "phone_page_runs_per_change": round(page_runs / max(1, len(steps) - 1), 1),
                "teacher_run_s": _pct(teacher_runs, 0.5), "after_her_run_p95_s": _pct(after_hers, 0.95)})
    return out


SWITCH_PAGES = ("home", "pipeline", "tokenizer", "attention", "why", "decoding", "nondeterminism", "hallucination",
                 "grokking")  # the lesson pages the class has not opened yet here (temperature and loop: above)


async def page_switches(base: str, teacher: Client, clients: list[Client], procs: list[psutil.Process],
                        pages: tuple[str, ...] = SWITCH_PAGES) -> dict:
    """The class follows the teacher to each page in turn (its one-time work done at the bench's start): a session
    of hers opens it with the prompt; each phone's time from her request until its own run of that page finished,
    and the server's CPU from her request until the last phone had it. Each phone runs the whole page: 30 page runs
    share one interpreter per replica."""
    out = {}
    for page in pages:
        c0, t_show = _cpu(procs), time.perf_counter()
        mover = Client(base, page, query_for(page, PROMPT, "en"), cookie=teacher.cookie)
        moving = asyncio.create_task(mover.run())
        await asyncio.wait_for(mover.ready.wait(), 120)
        moving.cancel()
        path = "" if page == "home" else page  # a phone's page is its URL path; the default page's is ""
        await _wait(lambda since=t_show, path=path: all(ran_at(c, since, path) is not None for c in clients),
                    FOLLOW_WAIT_S)
        got = [ran_at(c, t_show, path) for c in clients]
        titled = [titled_at(c, t_show, path) for c in clients]
        cpu = _cpu(procs) - c0
        out[page] = {"p95_s": _pct([g - t_show for g in got if g is not None], 0.95),
                     "p50_s": _pct([g - t_show for g in got if g is not None], 0.5),
                     "titled_p95_s": _pct([g - t_show for g in titled if g is not None], 0.95),
                     "server_cpu_s": round(cpu, 2), "missed": sum(g is None for g in got)}
        print(f"the class opens {page}: p95 {out[page]['p95_s']} s (its title on the phones: "
              f"{out[page]['titled_p95_s']} s), server CPU {cpu:.2f} s, "
              f"missed {out[page]['missed']}", flush=True)
        await asyncio.sleep(2)
    return out


COUNTS_AS = b"Your guess counts as this token"


async def _press(store, code: str, token: str, teacher: Client, phones: list[Client], number: int,
                 procs: list[psutil.Process]) -> dict:
    """Round `number` opens; once every phone shows its form, they all press "Send guess" at once."""
    classroom.start_round(store, code, token, "guess", PROMPT)
    if not await _wait(lambda: all(c.guess_form(number) for c in phones), 60):
        return {"error": f"{sum(not c.guess_form(number) for c in phones)} phones never showed round {number}'s form"}
    counted = f"Guesses so far: {len(phones)}.".encode()
    teacher.needles[counted] = None
    for c in phones:
        c.needles[COUNTS_AS] = None
    cpu0 = _cpu(procs)
    sent = await asyncio.gather(*(c.send_guess(number, ["Paris", "Lyon", "Roma"][i % 3] + f" {i}")
                                  for i, c in enumerate(phones)))
    await _wait(lambda: all(c.needles[COUNTS_AS] is not None for c in phones), 120)
    for i, c in enumerate(phones):
        if c.needles[COUNTS_AS] is None:  # say what that phone had: its page, and whether the room has its guess
            sid = f"bench-phone-{i:03d}"
            print(f"   phone {i} never showed its guess: room has {classroom.my_answer(store, code, sid, number)!r}; "
                  f"page {c.page} {c.query[:80]!r}, last runs {[(round(t - sent[i], 2), p) for t, p, _ in c.finished[-3:]]}, "
                  f"timers {len(c.timers)}, errors {c.errors[-2:]}", flush=True)
    times = [c.needles[COUNTS_AS] - t for c, t in zip(phones, sent) if c.needles[COUNTS_AS] is not None]
    last = max((c.needles[COUNTS_AS] for c in phones if c.needles[COUNTS_AS] is not None), default=None)
    await _wait(lambda: teacher.needles[counted] is not None, 30)
    cpu = _cpu(procs) - cpu0
    seen = teacher.needles[counted]
    return {"presses": len(phones), "answered": len(times), "p50_s": _pct(times, 0.5), "p95_s": _pct(times, 0.95),
            "max_s": _pct(times, 1.0), "server_cpu_s": round(cpu, 2),
            "projector_s": round(seen - last, 3) if seen and last else None}


async def measure_press(store, code: str, token: str, teacher: Client, phones: list[Client],
                        procs: list[psutil.Process], first_round: int) -> dict:
    """The live page's press: one phone alone in a round, then every phone at once in the next. The server's CPU
    during the together round includes the other phones' 0.5 s timers and the projector's (a class as it is)."""
    alone = await _press(store, code, token, teacher, phones[:1], first_round, procs)
    together = await _press(store, code, token, teacher, phones, first_round + 1, procs)
    out = {"alone_s": alone.get("p50_s"), "together": together}
    if alone.get("p50_s") and together.get("p95_s"):
        out["p95_over_alone"] = round(together["p95_s"] / alone["p50_s"], 1)
    if together.get("answered"):
        out["cpu_s_per_press"] = round(together["server_cpu_s"] / together["answered"], 3)
    return out


def one_replica(args) -> dict:
    proc_r, redis_url = redis_server.start_redis()
    proc, url, log = server.start_server(env={"TBT_REDIS_URL": redis_url}, log_path=ARTIFACTS / "class-bench.log",
                                         prepare=True)
    try:
        return asyncio.run(measure_class(url, redis_url, [psutil.Process(proc.pid)], args.phones, args.changes,
                                         args.idle_s))
    finally:
        server.stop_server(proc, log)
        redis_server.stop_redis(proc_r)


def two_replicas(args, workdir: Path) -> dict:
    proc_r, redis_url = redis_server.start_redis()
    launched = [server.launch(free_port(), env={"TBT_REDIS_URL": redis_url},
                              log_path=ARTIFACTS / f"class-bench-{n}.log") for n in ("A", "B")]
    port = free_port()
    conf = lb.write_nginx_conf(workdir, port, [int(u.rsplit(":", 1)[1]) for _, u, _ in launched])
    nginx = lb.start_nginx(lb.find_nginx() or lb.ensure_nginx(), conf)
    try:
        for p, u, _ in launched:
            server.wait_healthy(u, 180, p)
        base = f"http://127.0.0.1:{port}"
        server.wait_healthy(base, 10, path="/_lb/health")
        out = asyncio.run(measure_class(base, redis_url, [psutil.Process(p.pid) for p, _, _ in launched],
                                        args.phones, args.changes, args.idle_s, replicas=[u for _, u, _ in launched]))
        ports = {u.rsplit(":", 1)[1]: n for n, (_, u, _) in zip("AB", launched)}
        streams = [r for r in lb.access_log(workdir / "access.log") if r["uri"] == "/_stcore/stream"]
        out["sessions_per_replica"] = {n: sum(r["upstream"].endswith(":" + p) for r in streams)
                                       for p, n in ports.items()}
        return out
    finally:
        nginx.terminate()
        nginx.wait(10)
        for p, _, log in launched:
            server.stop_server(p, log)
        redis_server.stop_redis(proc_r)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--phones", type=int, default=30)
    ap.add_argument("--changes", type=int, default=4, help="changes of T measured (after the first, which opens "
                                                           "the page)")
    ap.add_argument("--idle-s", type=float, default=20.0)
    ap.add_argument("--no-replicas", action="store_true", help="one replica only")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    from model_backend import prepare

    prepare()
    report = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(), "goals": GOALS,
              "load_before": round(os.getloadavg()[0], 2), "one_replica": one_replica(args)}
    print(json.dumps(report["one_replica"], indent=1))
    if not args.no_replicas:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            report["two_replicas"] = two_replicas(args, Path(tmp))
        print(json.dumps(report["two_replicas"], indent=1))
    if not args.no_write:
        results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        results["live_class"] = report
        RESULTS.write_text(json.dumps(results, indent=1, default=str))
        print("wrote bench/results.json (key: live_class)")


if __name__ == "__main__":
    main()
