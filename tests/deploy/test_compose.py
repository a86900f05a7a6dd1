"""compose.yaml: N app replicas behind nginx, with the nginx settings the scaletest runs. No Docker engine runs
here, so its structure is checked: the services, the shared template and its variables, the app's user,
read-only root and memory, against the Dockerfile and docs/deploy.md."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from support import lb

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def _interpolate(value: str) -> str:
    """Compose's ${NAME:-default}, with no variable set."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))


def test_services_are_the_app_and_nginx_in_front():
    services = _compose()["services"]
    assert set(services) == {"app", "nginx", "redis"}
    app, nginx = services["app"], services["nginx"]
    assert app["build"] == "." and int(_interpolate(app["deploy"]["replicas"])) >= 2
    assert "ports" not in app and app["expose"] == ["8501"]  # only nginx is published
    assert nginx["depends_on"]["app"]["condition"] == "service_healthy"  # the image's HEALTHCHECK
    assert nginx["image"].startswith("nginx:")


def test_nginx_mounts_the_same_template_the_scaletest_renders():
    nginx = _compose()["services"]["nginx"]
    mounts = [v.split(":") for v in nginx["volumes"]]
    sources = {(ROOT / src).resolve(): dst for src, dst, *_ in mounts}
    assert sources == {lb.TEMPLATE.resolve(): "/etc/nginx/templates/default.conf.template"}
    assert all(m[-1] == "ro" for m in mounts)
    env = nginx["environment"]
    assert lb.template_variables() <= set(env)  # the image's envsubst fills in every ${TBT_...}
    assert env["NGINX_ENVSUBST_FILTER"] == "^TBT_"  # and nothing else: nginx's own $names stay
    listen = int(env["TBT_LISTEN"])
    assert _interpolate(nginx["ports"][0]).split(":")[1] == str(listen)
    assert "server app:8501" in env["TBT_UPSTREAM_SERVERS"] and "resolve" in env["TBT_UPSTREAM_SERVERS"]
    rendered = lb.render_template({k: str(v) for k, v in env.items() if k.startswith("TBT_")})
    assert "${" not in rendered and "$http_upgrade" in rendered and "hash $tbt_affinity consistent" in rendered


def test_app_runs_as_the_dockerfiles_user_read_only_with_the_readmes_memory():
    app = _compose()["services"]["app"]
    df = (ROOT / "Dockerfile").read_text()
    uid = re.search(r"useradd [^\n]*--uid (\d+)", df).group(1)
    gid = re.search(r"groupadd [^\n]*--gid (\d+)", df).group(1)
    home = re.search(r"HOME=(\S+)", df).group(1)
    assert app["user"] == f"{uid}:{gid}" and app["read_only"] is True
    assert {t.split(":")[0] for t in app["tmpfs"]} == {home, "/tmp"}
    readme = " ".join((ROOT / "docs" / "deploy.md").read_text().split())  # the deploy doc
    gb = float(re.search(r"Give a replica at least (\d+(?:\.\d+)?) GB", readme).group(1))
    memory = app["deploy"]["resources"]["limits"]["memory"]
    assert float(memory.rstrip("g")) >= gb and memory.endswith("g")
    assert app["environment"]["OMP_NUM_THREADS"] == app["deploy"]["resources"]["limits"]["cpus"]


def test_the_replicas_share_one_redis_for_the_live_class():
    services = _compose()["services"]
    app, redis = services["app"], services["redis"]
    assert app["environment"]["TBT_REDIS_URL"] == "redis://redis:6379/0"
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    assert redis["image"].startswith("redis:") and "ports" not in redis  # reachable from the replicas only
    assert redis["command"][:5] == ["redis-server", "--save", "", "--appendonly", "no"]
