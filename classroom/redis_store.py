"""The Redis backend of the class store: every write is one atomic step (a Lua script or a MULTI/EXEC)."""
from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable

import redis

from classroom.store import JSON, Doc, Store, dumps

# A document is a Redis hash {"v": version, "json": value}, as in MemoryStore. Each script runs alone on the
# server (Redis runs one script at a time), so a read and the write that depends on it cannot be split by
# another replica's write: no read-modify-write race. Times to live are milliseconds (PEXPIRE).
_SET_DOC = """
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[1], 'json', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return v
"""
_CAS_DOC = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'v', v + 1, 'json', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return v + 1
"""
_BUMP = """
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return v
"""
_HSET_IF = """
local v = tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
if v ~= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""
_HIT = """
local n = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return n
"""


def _ms(seconds: float) -> int:
    """A time to live in whole milliseconds, at least 1 (PEXPIRE 0 would delete the key at once)."""
    return max(1, math.ceil(seconds * 1000))


def _glob_escape(text: str) -> str:
    """text as a literal in a Redis MATCH pattern."""
    return "".join("\\" + c if c in "\\*?[]" else c for c in text)


class RedisStore(Store):
    """The store on a Redis server that every app replica shares (a class spread over replicas is one room).

    Keys that one script touches together (a guess and its round) must share a Redis Cluster hash slot: the
    room layer puts the room's code in braces, `tbt:room:{CODE}:...`, which does that."""

    def __init__(self, client: redis.Redis, now: Callable[[], float] = time.time) -> None:
        self.client = client  # decode_responses=True: str in, str out
        self.now = now
        self._scripts = {name: client.register_script(src) for name, src in
                         (("set", _SET_DOC), ("cas", _CAS_DOC), ("bump", _BUMP), ("hset_if", _HSET_IF),
                          ("hit", _HIT))}

    @classmethod
    def from_url(cls, url: str, now: Callable[[], float] = time.time) -> RedisStore:
        """A store on `redis://host:port/db` (a pool of connections, safe to share between threads)."""
        client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5, socket_connect_timeout=5,
                                      health_check_interval=30)
        return cls(client, now)

    # documents

    def get_doc(self, key: str) -> Doc:
        version, text = self.client.hmget(key, ["v", "json"])
        return Doc(int(version or 0), None if text is None else json.loads(text))

    def version(self, key: str) -> int:
        return int(self.client.hget(key, "v") or 0)

    def set_doc(self, key: str, value: JSON, *, ttl_s: float) -> int:
        return int(self._scripts["set"](keys=[key], args=[dumps(value), _ms(ttl_s)]))

    def cas_doc(self, key: str, expected_version: int, value: JSON, *, ttl_s: float) -> int | None:
        version = int(self._scripts["cas"](keys=[key], args=[int(expected_version), dumps(value), _ms(ttl_s)]))
        return None if version < 0 else version

    def bump(self, key: str, *, ttl_s: float) -> int:
        return int(self._scripts["bump"](keys=[key], args=[_ms(ttl_s)]))

    # hashes

    def hset(self, key: str, field: str, value: JSON, *, ttl_s: float) -> None:
        with self.client.pipeline(transaction=True) as pipe:  # MULTI/EXEC: the field and its TTL together
            pipe.hset(key, field, dumps(value))
            pipe.pexpire(key, _ms(ttl_s))
            pipe.execute()

    def hset_if(self, key: str, field: str, value: JSON, *, ttl_s: float, guard: str, guard_version: int) -> bool:
        args = [field, dumps(value), _ms(ttl_s), int(guard_version)]
        return bool(self._scripts["hset_if"](keys=[key, guard], args=args))

    def hget(self, key: str, field: str) -> JSON:
        text = self.client.hget(key, field)
        return None if text is None else json.loads(text)

    def hgetall(self, key: str) -> dict[str, JSON]:
        return {field: json.loads(text) for field, text in self.client.hgetall(key).items()}

    def hdel(self, key: str, *fields: str) -> int:
        return int(self.client.hdel(key, *fields)) if fields else 0

    # every kind

    def touch(self, keys: Iterable[str], *, ttl_s: float) -> None:
        ms = _ms(ttl_s)
        with self.client.pipeline(transaction=False) as pipe:  # one round trip; each PEXPIRE sets the same TTL
            for key in keys:
                pipe.pexpire(key, ms)
            pipe.execute()

    def delete(self, *keys: str) -> None:
        if keys:
            self.client.delete(*keys)

    def hit(self, key: str, limit: int, window_s: float, cost: int = 1) -> bool:
        return int(self._scripts["hit"](keys=[key], args=[int(cost), _ms(window_s)])) <= limit

    def keys(self, prefix: str) -> list[str]:
        return sorted(self.client.scan_iter(match=_glob_escape(prefix) + "*", count=500))

    def ttl(self, key: str) -> float | None:
        ms = self.client.pttl(key)
        return None if ms == -2 else math.inf if ms == -1 else ms / 1000
