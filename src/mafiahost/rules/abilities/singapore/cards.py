"""The cards (визитки): three ministers' and the two thief-in-law cards.

«Покупка визиток - ночное действие, звонок по визитке осуществляется днём, до наступления
ночных ходов.» A card is a shop item (one of each in stock); it works once the night it was
bought is over, so it is called from the next day on, by a day move that spends it at once
(``immediate``). A minister's card makes another player's move of the coming night: the
engine's forced moves (``engine/mechanics/forced.py``) record it for him when the night
opens; he is told, and it fills his slot.

- Health (здравоохранения): «принудительно вызвать врача любому игроку или отправить к
  нему пьяницу» — the doctor heals the named player, or the drunk drinks with him.
- Interior (МВД): «принудительно вызвать прикрытие копами» — the cops cover the named
  player (a cop who is free; the sheriff first); «Прикрытие по звонку из министерства -
  2 монеты прикрывающему не зависимо от того удачно или нет».
- Press and tourism (печати и туризма): «заставить журналиста написать статью о выбранном
  персонаже или отправить персонажа в тур» — the journalist watches the named player, or
  the tour operator sends him on a tour.
- Thief in law, red or green (вора в законе): «Позволяет игроку, который может быть
  завербован по правилам игры, попроситься в любой клан мафии самому. Боссу мафии приходит
  сообщение …, дальше проводится стандартная вербовка» — the clan's boss is told; the
  recruiter may then invite him as usual (the lawyer, otherwise never recruitable, only so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mafiahost.engine.mechanics import constraint, mechanic
from mafiahost.engine.mechanics.forced import force
from mafiahost.engine.mechanics.items import take_item

from .common import ITEM_NAMES, counter, earn, is_clan, set_counter, usable

if TYPE_CHECKING:
    from mafiahost.engine.game import Game
    from mafiahost.engine.model import AbilitySpec
    from mafiahost.engine.state import Player

# a call: (the card it spends, the roles who must make the move, in order, their ability)
CALLS: Final = {
    "doctor": ("card_health", ("doctor",), "heal"),
    "drunk": ("card_health", ("drunk",), "drink"),
    "cover": ("card_mvd", ("sheriff", "investigator"), "cover"),
    "article": ("card_press", ("journalist",), "journal"),
    "tour": ("card_press", ("tour_operator",), "tour"),
}

THIEF_CARDS = ("card_thief_red", "card_thief_green")

# who cannot ask to join («игроку, который может быть завербован по правилам игры»); the
# lawyer can, and only so («Вербовщик может вербовать адвоката только в том случае, если
# адвокат попросится в клан используя визитку вора в законе»)
UNRECRUITABLE: Final = ("sheriff", "investigator", "journalist", "doctor", "priest", "vampire",
                 "turned_vampire")

ROLE_WORDS = {"doctor": ("Врача", "The doctor"), "drunk": ("Пьяницы", "The drunk"),
              "cover": ("Копов", "The cops"), "article": ("Журналиста", "The journalist"),
              "tour": ("Туроператора", "The tour operator")}


def _providers(g, call: str) -> list:
    roles = CALLS[call][1]
    return [q for r in roles for q in g.state.order if q.alive and q.role == r]


# (role, call) -> the key of the role's ability the call makes (``_callee``): made once
_CALL_KEYS: Final[dict[tuple[str, str], str]] = {}


@constraint("singapore_has_card", targets=False,
            gate=("singapore_items", lambda params: params.get("items") or (params["item"],)))
def has_card(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    items = params.get("items") or (params["item"],)
    for i in items:
        if usable(g, p, i):
            return None
    ru, en = ITEM_NAMES[items[0]]
    if len(items) > 1:
        ru, en = "Визитка вора в законе", "Thief-in-law card"
    return (f"«{ab.name_ru}»: нужна визитка «{ru}», купленная в магазине в одну из прошлых "
            f"ночей.",
            f"'{ab.name_en}': it needs the card '{en}', bought in the shop on an earlier "
            f"night.")


def _callee(g: Game, call: str) -> tuple:
    """(who answers ``call`` now, his ability for it): the first of its providers neither
    in jail nor away; (None, None) when there is nobody, (him, None) when his role has no
    such ability."""
    s = g.state
    for q in _providers(g, call):
        if not s.has(q, "jailed") and not s.has(q, "away"):
            k = (q.role, call)
            key = _CALL_KEYS.get(k)
            if key is None:
                key = _CALL_KEYS[k] = f"{q.role}.{CALLS[call][2]}"
            return q, g.rules.abilities.get(key)
    return None, None


def _card_call_pool(g: Game, p: Player, ab: AbilitySpec, names: list, params: dict) -> list:
    """``card_call`` asked of each of ``names`` as the call's one target, at once: who
    answers the call, and with what, found once; the targets his move may have are the
    engine's list of them (``Game.legal_targets``: exactly the ones ``why_not_targets``
    accepts), made once instead of judging each name."""
    q, spec = _callee(g, params["call"])
    if spec is None:
        return []
    if spec.targets != 1:
        why_not = g.why_not_targets
        return [n for n in names if why_not(q, spec, (n,)) is None]
    allowed = {ts[0] for ts in g.legal_targets(q, spec)}
    return [n for n in names if n in allowed]


@constraint("singapore_card_call", pool=_card_call_pool)
def card_call(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    """Someone must be there to answer the call, and the move must be one he may make on
    that player (the doctor's rest, the cops' cover rules, …)."""
    call = params["call"]
    q, spec = _callee(g, call)
    ru, en = ROLE_WORDS[call]
    if q is None:
        return (f"{ru} нет в игре (или он в тюрьме, в поездке): звонить некому.",
                f"{en} is not in the game (or is in jail, away): nobody to call.")
    if spec is None:
        return (f"{ru} сейчас не может этого сделать.", f"{en} cannot do it now.")
    why = g.why_not_targets(q, spec, tuple(ts))
    if why is not None:
        return (f"Звонок не пройдёт: {why[0]}", f"The call would fail: {why[1]}")
    return None


@mechanic("singapore_call", visits=False)
def call(dc, actor: Player, targets, params: dict):
    """A minister's card called by day: the card is spent; tonight the doctor / drunk /
    cops / journalist / tour operator makes that move on the named player."""
    g: Game = dc.g
    kind = params["call"]
    item, _roles, ability = CALLS[kind]
    if not take_item(g, actor, item, why="called"):
        return
    t = targets[0]
    night = g.state.idx + 1
    force(g, _providers(g, kind), ability, [t], "card_" + kind, night_idx=night, by=actor)
    if kind == "cover":
        set_counter(g, "ministry_cover", [t.name, night])
    g.emit("card_called", g.to(actor), to=actor.name, call=kind, target=t.name)


def ministry_cover_pay(n, coverer, t) -> None:
    """«Прикрытие по звонку из министерства - 2 монеты прикрывающему не зависимо от того
    удачно или нет»."""
    if counter(n.g, "ministry_cover") == [t.name, n.idx]:
        earn(n.g, coverer, 2, "ministry_cover")


@constraint("singapore_may_ask_clan", targets=False)
def may_ask_clan(g: Game, p: Player, ab: AbilitySpec, ts, params: dict):
    clan = params["clan"]
    if is_clan(p) or p.role in UNRECRUITABLE or p.role.startswith("apprentice"):
        return ("Попроситься в клан может только тот, кого можно завербовать по правилам "
                "(не мафия, не копы, не журналист, врач, священник или вампир).",
                "Only one who may be recruited by the rules can ask to join (not the mafia, "
                "cops, journalist, doctor, priest or a vampire).")
    if g.state.status_value(p, "apprentice_of") == clan:
        return ("Этот клан вас уже вербовал: повторно он вас не вербует.",
                "This clan recruited you before: it does not recruit you again.")
    if not g.faction_members(clan):
        return ("Этого клана больше нет в игре.", "That clan is no longer in the game.")
    return None


@mechanic("singapore_ask_clan", visits=False)
def ask_clan(dc, actor: Player, targets, params: dict):
    """The thief-in-law card: the boss of the named clan learns that ``actor`` would join;
    the recruiter may then invite him (the standard recruitment follows)."""
    g: Game = dc.g
    clan = params["clan"]
    card = next((c for c in THIEF_CARDS if usable(g, actor, c)), None)
    if card is None or not take_item(g, actor, card, why="called"):
        return
    g.set_status(actor, "asks_to_join", clan)
    members = g.faction_members(clan)
    bosses = [q for q in members if q.role.startswith("boss")] or members
    g.emit("join_request", g.to(*bosses, actor), player=actor.name, clan=clan)


def may_recruit_lawyer(g, t, clan: str) -> bool:
    """The lawyer is recruitable by the clan he asked to join with a thief-in-law card."""
    return t.role == "lawyer" and g.state.status_value(t, "asks_to_join") == clan
