"""The player API: a program (or an LLM agent) plays a seat with the seat's private link.

    GET  /api/openapi.json              this API's OpenAPI 3.1 description (public)
    GET  /api/p/{token}                 the seat's observation (``mafiahost.agents.observation``)
    POST /api/p/{token}/act             a move:  {"ability": "check", "targets": ["Борис"]}
                                        (an answer: {"ability": "answer", "targets": [id, option]})
    POST /api/p/{token}/vote            a vote:  {"target": "Вера" | "against_all" | "abstain"}
    GET  /api/me, POST /api/me/act, POST /api/me/vote
                                        the same with ``Authorization: Bearer <token>``

The token is the one in the player's private link (``/p/{token}``). A move or vote goes
through the same ``Host`` command, checks and refusals as the player's page (never
``replace`` unless the rule set's ``forum.replace_moves`` says so; refused after the
phase's deadline). Bodies are JSON only (``application/json``): a cross-site form can
send none, so no anti-forgery token is needed. Answers: 200 with the new observation, 409
with the rule's sentence (ru and en) when the move is refused, 400 for a body that is not
JSON, 415 for another content type, 422 for JSON of the wrong shape, 401/404 for a
missing or unknown token. Nothing here decides a rule.
"""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..agents.observation import SCHEMA, observation
from ..engine.errors import Refused
from ..host import AccessDenied, Host

MAX_BODY = 16 * 1024
_TOKEN_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _pair(ru: str, en: str) -> dict:
    return {"ru": ru, "en": en}


def _error(status: int, ru: str, en: str) -> JSONResponse:
    return JSONResponse({"ok": False, "error": _pair(ru, en)}, status_code=status,
                        headers={"cache-control": "no-store"})


def _no_seat(bearer: bool) -> JSONResponse:
    if bearer:
        return JSONResponse({"ok": False, "error": _pair(
            "Нужна ссылка игрока: заголовок «Authorization: Bearer <токен из ссылки>».",
            "A player's token is needed: 'Authorization: Bearer <the token of the link>'.")},
            status_code=401, headers={"www-authenticate": "Bearer",
                                      "cache-control": "no-store"})
    return _error(404, "Такой ссылки игрока нет (или она заменена новой).",
                  "There is no such player link (or it was replaced by a new one).")


def _token(request: Request) -> tuple[str | None, bool]:
    """(token, came as a bearer header)."""
    if "token" in request.path_params:
        t = request.path_params["token"]
        bearer = False
    else:
        h = request.headers.get("authorization", "")
        scheme, _, t = h.partition(" ")
        if scheme.lower() != "bearer":
            return None, True
        t = t.strip()
        bearer = True
    if not 16 <= len(t) <= 64 or not set(t) <= _TOKEN_CHARS:
        return None, bearer
    return t, bearer


def _observe(w, token: str, gid: int, seat: str) -> dict:
    from . import views
    with w.host.reading(gid, Host.link_check(token, gid, seat)) as (row, g):
        return observation(g, seat, deadline=views.deadline_of(row, g))


async def read(request: Request):
    from .app import _with_seat, web
    w = web(request)
    token, bearer = _token(request)
    if token is None:
        return _no_seat(bearer)
    try:
        obs = await run_in_threadpool(
            _with_seat, w, token, lambda gid, seat, _c: _observe(w, token, gid, seat))
    except AccessDenied:
        return _no_seat(bearer)
    return JSONResponse(obs, headers={"cache-control": "no-store"})


async def _body(request: Request) -> dict | JSONResponse:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        return _error(415, "Тело запроса — только JSON (Content-Type: application/json).",
                      "The body must be JSON (Content-Type: application/json).")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return _error(400, "Тело запроса слишком велико.", "The body is too large.")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return _error(400, "Тело запроса — не JSON.", "The body is not valid JSON.")
    if not isinstance(data, dict):
        return _error(422, "Тело запроса — JSON-объект.", "The body must be a JSON object.")
    return data


def _shape_error(what_ru: str, what_en: str) -> JSONResponse:
    return _error(422, what_ru, what_en)


async def command(request: Request, kind: str):
    from .app import _both, _late_guard, _with_seat, web
    w = web(request)
    token, bearer = _token(request)
    if token is None:
        return _no_seat(bearer)
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin.split("://", 1)[-1] != \
            request.headers.get("host", ""):
        return _error(403, "Запрос с другого сайта не принимается.",
                      "A request from another site is not taken.")
    data = await _body(request)
    if isinstance(data, JSONResponse):
        return data
    if kind == "act":
        ability = data.get("ability")
        targets = data.get("targets", [])
        if not isinstance(ability, str) or not ability.strip() or len(ability) > 100:
            return _shape_error("Поле «ability» — строка: какая способность.",
                                "'ability' must be a string: which ability.")
        if not isinstance(targets, list) or len(targets) > 10 or not all(
                isinstance(t, str) and 0 < len(t) <= 200 for t in targets):
            return _shape_error("Поле «targets» — список имён игроков (строк).",
                                "'targets' must be a list of player names (strings).")
    else:
        target = data.get("target")
        if not isinstance(target, str) or not target.strip() or len(target) > 200:
            return _shape_error("Поле «target» — строка: имя игрока, against_all или "
                                "abstain.",
                                "'target' must be a string: a player's name, against_all "
                                "or abstain.")
    lang = "ru"

    def run(gid, seat, check):
        if kind == "act" and ability.strip() == "answer" and len(targets) == 2:
            # an answer to a question put to the seat, as the legal moves list it
            done = w.host.answer(gid, seat, targets[0].strip(), targets[1].strip(), lang,
                                 guard=_both(check, _late_guard(lang)))
        elif kind == "act":
            done = w.host.act(gid, seat, ability.strip(), [t.strip() for t in targets],
                              False, lang, hints=False,
                              guard=_both(check, _late_guard(lang)))
        else:
            done = w.host.vote(gid, seat, target.strip(), None, False, lang, hints=False,
                               guard=check, source="api")
        return done, _observe(w, token, gid, seat)

    try:
        done, obs = await run_in_threadpool(_with_seat, w, token, run)
    except AccessDenied:
        return _no_seat(bearer)
    except Refused as e:
        return _error(409, e.ru or e.en or str(e), e.en or e.ru or str(e))
    w.live.poke()
    said = done.data["said"]               # the host's answer in both languages
    return JSONResponse({"ok": True, "message": _pair(said["ru"], said["en"]),
                         "observation": obs},
                        headers={"cache-control": "no-store"})


async def act(request: Request):
    return await command(request, "act")


async def vote(request: Request):
    return await command(request, "vote")


async def openapi(request: Request):
    return JSONResponse(OPENAPI)


def routes() -> list:
    return [
        Route("/api/openapi.json", openapi, methods=["GET"]),
        Route("/api/p/{token}", read, methods=["GET"]),
        Route("/api/p/{token}/act", act, methods=["POST"]),
        Route("/api/p/{token}/vote", vote, methods=["POST"]),
        Route("/api/me", read, methods=["GET"]),
        Route("/api/me/act", act, methods=["POST"]),
        Route("/api/me/vote", vote, methods=["POST"]),
    ]


# ---- the OpenAPI description -----------------------------------------------------------------

_TEXT = {"type": "object", "required": ["ru", "en"],
         "properties": {"ru": {"type": "string"}, "en": {"type": "string"}}}
_ERROR = {"type": "object", "required": ["ok", "error"],
          "properties": {"ok": {"const": False}, "error": {"$ref": "#/components/schemas/Text"}}}

OBSERVATION = {
    "title": "Observation",
    "description": f"What one seat may know now ({SCHEMA}); docs/agents.md.",
    "type": "object",
    "required": ["schema", "ruleset", "seat", "name", "alive", "players", "role", "phase",
                 "deadline", "over", "winners", "events", "sent", "legal"],
    "properties": {
        "schema": {"const": SCHEMA},
        "ruleset": {"type": "object", "required": ["id", "title"],
                    "properties": {"id": {"type": "string"},
                                   "title": {"$ref": "#/components/schemas/Text"}}},
        "seat": {"type": "string"},
        "name": {"type": "string"},
        "alive": {"type": "boolean"},
        "players": {"type": "array", "items": {
            "type": "object", "required": ["seat", "name", "alive"],
            "additionalProperties": False,
            "properties": {"seat": {"type": "string"}, "name": {"type": "string"},
                           "alive": {"type": "boolean"}}}},
        "role": {"type": "object", "required": ["id", "name", "text", "faction", "abilities"],
                 "properties": {
                     "id": {"type": "string"},
                     "name": {"$ref": "#/components/schemas/Text"},
                     "text": {"$ref": "#/components/schemas/Text"},
                     "faction": {"type": "object", "required": ["id", "name", "goal"],
                                 "properties": {
                                     "id": {"type": "string"},
                                     "name": {"$ref": "#/components/schemas/Text"},
                                     "goal": {"$ref": "#/components/schemas/Text"}}},
                     "abilities": {"type": "array", "items": {
                         "type": "object",
                         "required": ["id", "name", "text", "phase", "targets"],
                         "properties": {
                             "id": {"type": "string"},
                             "name": {"$ref": "#/components/schemas/Text"},
                             "text": {"$ref": "#/components/schemas/Text"},
                             "phase": {"enum": ["night", "day"]},
                             "targets": {"type": "integer", "minimum": 0},
                             "uses_per_game": {"type": ["integer", "null"]}}}}}},
        "phase": {"type": "object", "required": ["kind", "number", "label"],
                  "properties": {"kind": {"enum": ["night", "day"]},
                                 "number": {"type": "integer"},
                                 "label": {"$ref": "#/components/schemas/Text"}}},
        "deadline": {"type": ["string", "null"]},
        "over": {"type": "boolean"},
        "winners": {"type": "array", "items": {"type": "string"}},
        "events": {"type": "array", "items": {
            "type": "object", "required": ["type", "when", "audience", "fields"],
            "additionalProperties": False,
            "properties": {"type": {"type": "string"}, "when": {"type": "string"},
                           "audience": {"enum": ["public", "private"]},
                           "fields": {"type": "object"}}}},
        "sent": {"type": "object", "required": ["moves", "vote"],
                 "properties": {
                     "moves": {"type": "array", "items": {
                         "type": "object", "required": ["ability", "targets"],
                         "properties": {"ability": {"type": "string"},
                                        "targets": {"type": "array",
                                                    "items": {"type": "string"}}}}},
                     "vote": {"type": ["string", "null"]}}},
        "legal": {"type": "object", "required": ["moves", "votes"],
                  "properties": {
                      "moves": {"type": "array", "items": {
                          "type": "object", "required": ["kind", "ability", "targets", "label"],
                          "properties": {"kind": {"const": "move"},
                                         "ability": {"type": "string"},
                                         "targets": {"type": "array",
                                                     "items": {"type": "string"}},
                                         "label": {"$ref": "#/components/schemas/Text"}}}},
                      "votes": {"type": "array", "items": {
                          "type": "object", "required": ["kind", "target", "label"],
                          "properties": {"kind": {"const": "vote"},
                                         "target": {"type": "string"},
                                         "label": {"$ref": "#/components/schemas/Text"}}}}}},
        "card": {"$ref": "#/components/schemas/Text"},
        "results": {"$ref": "#/components/schemas/Text"},
    },
}


def _op(summary: str, *, body=None, ok=None, codes=(), bearer=False) -> dict:
    responses: dict = {}
    if ok is not None:
        responses["200"] = {"description": "OK", "content": {"application/json": {
            "schema": ok}}}
    for code, why in codes:
        responses[str(code)] = {"description": why, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}}
    op: dict = {"summary": summary, "responses": responses}
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": body}}}
    if bearer:
        op["security"] = [{"player": []}]
    return op


_TOKEN = {"name": "token", "in": "path", "required": True,
          "description": "the token of the player's private link (/p/{token})",
          "schema": {"type": "string"}}
_DONE = {"type": "object", "required": ["ok", "message", "observation"],
         "properties": {"ok": {"const": True}, "message": {"$ref": "#/components/schemas/Text"},
                        "observation": {"$ref": "#/components/schemas/Observation"}}}
_MOVE = {"type": "object", "required": ["ability"],
         "properties": {"ability": {"type": "string", "description": "an ability id of the "
                                                                     "seat's role"},
                        "targets": {"type": "array", "items": {"type": "string"},
                                    "description": "seat names, in the ability's order"}}}
_VOTE = {"type": "object", "required": ["target"],
         "properties": {"target": {"type": "string",
                                   "description": "a seat, against_all or abstain"}}}
_OBS = {"$ref": "#/components/schemas/Observation"}
_POST_CODES = [(400, "the body is not JSON"), (403, "sent from another site"),
               (409, "the rules refuse the move or vote now (their sentence)"),
               (415, "the body is not application/json"),
               (422, "the JSON has the wrong shape")]


def _paths() -> dict:
    out = {"/api/openapi.json": {"get": {"summary": "This description",
                                         "responses": {"200": {
                                             "description": "OK", "content": {
                                                 "application/json": {"schema": {
                                                     "type": "object"}}}}}}}}
    for base, params, bearer, missing in (
            ("/api/p/{token}", [_TOKEN], False, (404, "no such player link")),
            ("/api/me", [], True, (401, "no or unknown bearer token"))):
        out[base] = {"get": {**_op("The seat's observation", ok=_OBS, codes=[missing],
                                   bearer=bearer), "parameters": params}}
        out[base + "/act"] = {"post": {**_op("Send a move", body=_MOVE, ok=_DONE,
                                             codes=[missing, *_POST_CODES], bearer=bearer),
                                       "parameters": params}}
        out[base + "/vote"] = {"post": {**_op("Cast a vote (day)", body=_VOTE, ok=_DONE,
                                              codes=[missing, *_POST_CODES], bearer=bearer),
                                        "parameters": params}}
    return out


OPENAPI = {
    "openapi": "3.1.0",
    "info": {"title": "mafiahost player API", "version": "1",
             "description": "A program plays one seat with that seat's private link. "
                            "See docs/agents.md."},
    "paths": _paths(),
    "components": {
        "schemas": {"Text": _TEXT, "Error": _ERROR, "Observation": OBSERVATION},
        "securitySchemes": {"player": {"type": "http", "scheme": "bearer",
                                       "description": "the token of the player's link"}},
    },
}
