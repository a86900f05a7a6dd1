"""deploy/kubernetes/: every manifest valid against the Kubernetes schemas (offline, kubernetes-validate), and
what the manifests promise (probes, affinity, memory, security) agrees with docs/deploy.md and the Dockerfile."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from support import lb

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "kubernetes"
# The oldest Kubernetes the manifests are written for (the preStop `sleep` action is on by default from
# 1.30; 1.33 is the oldest minor with upstream support at the time of writing), and the newest schemas
# that kubernetes-validate ships.
VERSIONS = ["1.33.0", kubernetes_validate.latest_version()]
HEALTH = "/_stcore/health"


def _kustomization() -> dict:
    return yaml.safe_load((K8S / "kustomization.yaml").read_text())


def _manifests() -> dict[str, dict]:
    """kind -> the app's manifest of that kind, read from the files kustomization.yaml lists (the app's files come
    first; redis.yaml's Deployment and Service are `_redis()`'s)."""
    out = {}
    for name in _kustomization()["resources"]:
        for doc in yaml.safe_load_all((K8S / name).read_text()):
            out.setdefault(doc["kind"], doc)
    return out


def _redis() -> dict[str, dict]:
    return {doc["kind"]: doc for doc in yaml.safe_load_all((K8S / "redis.yaml").read_text())}


def _bytes(quantity: str) -> float:
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 1e3, "M": 1e6, "G": 1e9}
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMG]i?)?", quantity)
    assert m, quantity
    return float(m.group(1)) * units.get(m.group(2) or "", 1)


def _readme_gb(pattern: str) -> float:
    text = " ".join((ROOT / "docs" / "deploy.md").read_text().split())  # the doc wraps lines anywhere
    m = re.search(pattern, text)
    assert m, f"docs/deploy.md no longer says {pattern!r}"
    return float(m.group(1))


def _dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def _container() -> dict:
    return _manifests()["Deployment"]["spec"]["template"]["spec"]["containers"][0]


def test_kustomization_only_lists_the_manifests():
    kust = _kustomization()
    # No transformers: `kustomize build` gives these files unchanged, so validating them validates its output.
    assert set(kust) == {"apiVersion", "kind", "resources"}
    listed = set(kust["resources"])
    assert listed == {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(_manifests()) == {"Deployment", "Service", "Ingress", "HorizontalPodAutoscaler", "PodDisruptionBudget"}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", sorted(_kustomization()["resources"]))
def test_manifest_is_valid_for_kubernetes(name, version):
    for doc in yaml.safe_load_all((K8S / name).read_text()):
        kubernetes_validate.validate(doc, version, strict=True)  # raises on any schema error or unknown field


def test_the_validator_rejects_a_broken_manifest():
    bad = copy.deepcopy(_manifests()["Deployment"])
    bad["spec"]["template"]["spec"]["containers"][0]["securityContext"]["readOnlyRootFileSystem"] = True  # a typo
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, VERSIONS[0], strict=True)
    bad = copy.deepcopy(_manifests()["Deployment"])
    bad["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["periodSeconds"] = "often"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, VERSIONS[0], strict=True)


def test_probes_ask_streamlit_health_on_the_served_port():
    c = _container()
    port = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert port == {"http": int(re.search(r"^EXPOSE (\d+)", _dockerfile(), re.M).group(1))}
    env = {e["name"]: e["value"] for e in c["env"]}
    assert int(env["PORT"]) == port["http"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert c[probe]["httpGet"] == {"path": HEALTH, "port": "http"}, probe
    assert HEALTH in _dockerfile()  # the image's HEALTHCHECK asks the same
    # A busy replica must not be restarted for a slow answer: liveness waits longer than readiness.
    live, ready = c["livenessProbe"], c["readinessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] > ready["periodSeconds"] * ready["failureThreshold"]


def test_a_warming_replica_is_not_killed_before_its_warm_up_may_end():
    """The health check says 503 until the warm-up ends (ui/warm.py, at most DEADLINE_S): the startup probe and the
    image's HEALTHCHECK start period must wait longer than that, or a slow node would restart a replica forever."""
    from ui.warm import DEADLINE_S

    start = _container()["startupProbe"]
    assert start["periodSeconds"] * start["failureThreshold"] > DEADLINE_S
    period = re.search(r"HEALTHCHECK .*--start-period=(\d+)s", _dockerfile())
    assert period and int(period.group(1)) >= DEADLINE_S  # compose: nginx waits for a healthy replica


def test_memory_is_the_readmes_measured_figure():
    at_least = _readme_gb(r"Give a replica at least (\d+(?:\.\d+)?) GB")
    after_30 = _readme_gb(r"(\d+(?:\.\d+)?) GB after 30 visitors")
    res = _container()["resources"]
    request, limit = _bytes(res["requests"]["memory"]), _bytes(res["limits"]["memory"])
    assert request == limit  # memory is reserved as used; the pod is not the first evicted
    assert at_least * 1e9 <= limit <= 1.25 * at_least * 1e9  # docs/deploy.md's figure, not far above it
    assert limit > after_30 * 1e9  # room above the measured peak
    assert "cpu" not in res["limits"] and float(res["requests"]["cpu"]) >= 1
    env = {e["name"]: e["value"] for e in _container()["env"]}
    assert env["OMP_NUM_THREADS"] == env["MKL_NUM_THREADS"] == res["requests"]["cpu"]  # torch's threads = cores


def test_runs_as_the_dockerfiles_user_with_a_read_only_root():
    df = _dockerfile()
    uid = int(re.search(r"useradd [^\n]*--uid (\d+)", df).group(1))
    gid = int(re.search(r"groupadd [^\n]*--gid (\d+)", df).group(1))
    home = re.search(r"HOME=(\S+)", df).group(1)
    cache = re.search(r"TBT_CACHE_DIR=(\S+)", df).group(1)
    pod = _manifests()["Deployment"]["spec"]["template"]["spec"]
    sc = pod["securityContext"]
    assert sc["runAsNonRoot"] is True and sc["runAsUser"] == uid and sc["runAsGroup"] == gid
    assert pod["automountServiceAccountToken"] is False
    csc = _container()["securityContext"]
    assert csc["readOnlyRootFilesystem"] is True and csc["allowPrivilegeEscalation"] is False
    assert csc["capabilities"]["drop"] == ["ALL"]
    mounts = {m["mountPath"]: m["name"] for m in _container()["volumeMounts"]}
    assert set(mounts) == {home, "/tmp"}  # where Streamlit, Python and the grokking page write
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert all("emptyDir" in volumes[name] for name in mounts.values())
    assert not any(cache.startswith(path) for path in mounts)  # the model cache comes from the image


def test_ingress_keeps_a_visitor_on_one_pod_with_the_same_cookie_as_nginx():
    ing = _manifests()["Ingress"]
    a = ing["metadata"]["annotations"]
    p = "nginx.ingress.kubernetes.io/"
    assert a[p + "affinity"] == "cookie" and a[p + "affinity-mode"] == "persistent"
    assert a[p + "session-cookie-name"] == lb.COOKIE
    assert f"{lb.COOKIE}=$request_id" in lb.TEMPLATE.read_text()  # compose and the scaletest use the same name
    nginx_timeout = int(re.search(r"proxy_read_timeout (\d+)s;", lb.TEMPLATE.read_text()).group(1))
    assert int(a[p + "proxy-read-timeout"]) == int(a[p + "proxy-send-timeout"]) == nginx_timeout >= 600
    assert ing["spec"]["ingressClassName"] == "nginx"
    backend = ing["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    svc = _manifests()["Service"]
    assert backend["name"] == svc["metadata"]["name"]
    assert backend["port"]["name"] in {port["name"] for port in svc["spec"]["ports"]}


def test_service_hpa_and_pdb_point_at_the_deployment():
    m = _manifests()
    dep = m["Deployment"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert dep["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert m["Service"]["spec"]["selector"].items() <= labels.items()
    assert "sessionAffinity" not in m["Service"]["spec"]  # the Ingress's cookie does it, not client IPs
    assert m["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"].items() <= labels.items()
    hpa = m["HorizontalPodAutoscaler"]["spec"]
    assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": dep["metadata"]["name"]}
    assert "replicas" not in dep["spec"]  # the autoscaler owns the count
    cpu = hpa["metrics"][0]["resource"]
    assert cpu["name"] == "cpu" and 0 < cpu["target"]["averageUtilization"] < 100
    assert hpa["minReplicas"] >= 2 and m["PodDisruptionBudget"]["spec"]["minAvailable"] < hpa["minReplicas"]


def test_every_replica_reaches_the_one_redis_of_the_live_class():
    redis = _redis()
    env = {e["name"]: e["value"] for e in _container()["env"]}
    service = redis["Service"]
    assert env["TBT_REDIS_URL"] == f"redis://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}/0"
    assert service["spec"]["selector"].items() <= redis["Deployment"]["spec"]["template"]["metadata"]["labels"].items()
    args = redis["Deployment"]["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args[:4] == ["--save", "", "--appendonly", "no"]  # nothing about students on disk
    assert redis["Deployment"]["spec"]["replicas"] == 1
