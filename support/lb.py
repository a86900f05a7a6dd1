"""nginx in front of app replicas on loopback: install Debian's nginx, fill in the shared template
(deploy/nginx/token-by-token.conf.template, the same file compose.yaml mounts), run it, read its access log.
Used by bench/scaletest.py and tests/deploy/."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx" / "token-by-token.conf.template"
NGINX = "/usr/sbin/nginx"
COOKIE = "tbt_affinity"  # the affinity cookie's name, here and in deploy/kubernetes/ingress.yaml
_VAR = re.compile(r"\$\{(TBT_[A-Z0-9_]+)\}")


def find_nginx() -> str | None:
    return shutil.which("nginx") or (NGINX if Path(NGINX).exists() else None)


def template_variables(template: Path = TEMPLATE) -> set[str]:
    """The ${TBT_...} names the template needs."""
    return set(_VAR.findall(template.read_text()))


def ensure_nginx() -> str:
    """Debian's nginx, installed the way .ci/run installs Chromium when it is missing."""
    found = find_nginx()
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("nginx is missing; as root: apt-get install -y --no-install-recommends nginx")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends", "nginx"], check=True, env=env)
    return find_nginx() or NGINX


def render_template(values: dict[str, str], template: Path = TEMPLATE) -> str:
    """Fill in the template's ${TBT_...} variables as the nginx image's envsubst does (and only those:
    nginx's own $variables stay). Every variable must be given."""
    text = template.read_text()
    missing = sorted(template_variables(template) - set(values))
    if missing:
        raise KeyError(f"no value for {', '.join(missing)}")
    return _VAR.sub(lambda m: values[m.group(1)], text)


def upstream_servers(ports: list[int]) -> str:
    """The replicas as `server` lines; a replica that refuses is left alone for 10 s, then tried again."""
    return " ".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;" for p in ports)


def nginx_main_conf(workdir: Path, site: Path) -> str:
    """A main nginx.conf for a private, unprivileged-paths instance that includes the rendered template."""
    temp = "\n".join(f"    {kind}_temp_path {workdir / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers write the private temp paths
    return (f"{user}worker_processes 1;\npid {workdir / 'nginx.pid'};\nerror_log {workdir / 'error.log'} warn;\n"
            f"events {{ worker_connections 1024; }}\nhttp {{\n{temp}\n    include {site};\n}}\n")


def write_nginx_conf(workdir: Path, listen: int, ports: list[int]) -> Path:
    site = workdir / "token-by-token.conf"
    site.write_text(render_template({"TBT_LISTEN": f"127.0.0.1:{listen}",
                                     "TBT_UPSTREAM_SERVERS": upstream_servers(ports),
                                     "TBT_ACCESS_LOG": str(workdir / "access.log")}))
    main = workdir / "nginx.conf"
    main.write_text(nginx_main_conf(workdir, site))
    return main


def start_nginx(nginx: str, conf: Path) -> subprocess.Popen:
    check = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(conf.parent)], capture_output=True, text=True)
    if check.returncode != 0:
        raise RuntimeError(f"nginx -t failed:\n{check.stderr}")
    return subprocess.Popen([nginx, "-c", str(conf), "-p", str(conf.parent), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def access_log(path: Path) -> list[dict]:
    """The access log's lines: request, status, upstream (the replica that answered last), affinity key."""
    rows = []
    pattern = re.compile(r'"(?P<method>\S+) (?P<uri>\S+) [^"]*" (?P<status>\d+) \d+ '
                         r'upstream=(?P<upstream>\S+(?:, \S+)*) affinity=(?P<key>\S*)')
    for line in path.read_text().splitlines() if path.exists() else []:
        if m := pattern.search(line):
            row = m.groupdict()
            row["upstream"] = row["upstream"].split(", ")[-1]
            rows.append(row)
    return rows
