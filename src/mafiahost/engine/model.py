"""The ruleset model: plain objects the loader in ``mafiahost.rules`` builds from YAML.

The engine reads only these; it never parses files. A ruleset is data: factions, roles,
abilities (each a list of effects naming mechanics from the ability library), the night's
ordered steps, day rules, successions and the setup table.
"""

from __future__ import annotations

from typing import Any, Final

# mechanics that only make an attack (the dawn's settling judges it) and mechanics that
# only leave a protection for dawn (engine.night: who is removed before his move)
ATTACKS: Final = ("kill", "shoot")
PROTECTIONS: Final = ("heal", "guard")


class Effect:
    """One mechanic applied by an ability, with its parameters."""

    __slots__ = ("fn", "mechanic", "params")

    def __init__(self, mechanic: str, params: dict, fn=None):
        self.mechanic = mechanic
        self.params = params
        self.fn = fn


class AbilitySpec:
    __slots__ = (
        "after_gates",
        "blockable",
        "constraint_fns",
        "constraints",
        "counts_out",
        "cover_aware",
        "role",
        "distinct_targets",
        "effects",
        "gates",
        "id",
        "immediate",
        "key",
        "list_after",
        "list_gates",
        "mechs",
        "min_alive_self",
        "names_role",
        "name_en",
        "name_ru",
        "not_same_twice",
        "only_attacks",
        "only_protections",
        "owner",
        "phase",
        "pool_key",
        "positional",
        "reads_partners",
        "reads_targets",
        "requires_en",
        "requires_ru",
        "requires_status",
        "role_options",
        "self_not_twice",
        "self_target",
        "shared",
        "slot",
        "step",
        "target_faction",
        "targets",
        "targets_dead",
        "text_en",
        "text_ru",
        "uses_per_game",
        "visits",
        "wasted_if_doomed",
        "while_dead",
        "while_jailed",
    )

    def __init__(self, id: str, **kw):
        self.id = id
        self.key: str = kw.get("key", id)   # "role.ability": abilities are per role
        self.role: str = self.key.split(".", 1)[0] if "." in self.key else ""
        self.phase = kw.get("phase", "night")          # "night" | "day"
        self.step = kw.get("step")                     # night step id, or None for day
        self.effects: list[Effect] = kw.get("effects", [])
        self.targets: int = kw.get("targets", 1)
        self.self_target: str = kw.get("self_target", "allowed")  # allowed|forbidden|only_if_few
        self.min_alive_self: int = kw.get("min_alive_self", 3)
        self.not_same_twice: bool = kw.get("not_same_twice", False)
        self.self_not_twice: bool = kw.get("self_not_twice", False)
        self.target_faction: str | None = kw.get("target_faction")  # "own": fellow member
        self.shared: bool = kw.get("shared", False)    # one per faction per night
        self.slot: str = kw.get("slot", "main")
        self.constraints: list = kw.get("constraints", [])
        self.constraint_fns: list | None = None   # (fn, params, per target), on first use
        self.reads_targets = False                # a constraint reads the targets (with them)
        self.reads_partners = False               # a constraint reads others' moves (with them)
        # where every constraint that reads the targets reads them one at a time (any of
        # a one-target ability's; ``mechanics.constraint``'s ``position``): those
        # constraints as (fn, params, "first" or "each"), in order; else None (with
        # constraint_fns)
        self.positional: list[tuple[Any, dict, str]] | None = None
        # ``game.gate_entry``'s (fact fn, values, the fact's place in ``mechanics.
        # new_facts``, the least value): with constraint_fns
        self.gates: tuple[tuple[Any, tuple, int, int | None], ...] = ()
        # constraint_fns less those an exact gate of ``gates`` stands for
        self.after_gates: list = []
        # the gates the list of legal moves asks (every one: ``gates`` keeps them only for
        # an ability the random player draws from the list), and constraint_fns less those
        # an exact one of them stands for
        self.list_gates: tuple[tuple[Any, tuple, int, int | None], ...] = ()
        self.list_after: list = []
        # the per-target rules ``Game._pools`` reads, as one number (abilities alike
        # share their pools in one list of legal moves): found at its first use (-1 before)
        self.pool_key: int = -1
        self.requires_status: str | None = kw.get("requires_status")
        self.requires_ru: str = kw.get("requires_ru", "")   # the condition, in words
        self.requires_en: str = kw.get("requires_en", "")
        self.uses_per_game: int | None = kw.get("uses_per_game")
        self.while_dead: str | None = kw.get("while_dead")  # None | "lynched_last_day"
        # a move a jailed player may send: it is made only if he is free when its step
        # comes (freed earlier that night), like any move of a jailed player at its step
        self.while_jailed: bool = kw.get("while_jailed", False)
        self.blockable: bool = kw.get("blockable", True)
        self.distinct_targets: bool = kw.get("distinct_targets", True)
        self.owner: str | None = kw.get("owner")      # faction owning a shared action
        self.wasted_if_doomed: bool = kw.get("wasted_if_doomed", False)
        # a day ability that takes effect when sent (its result known before the count);
        # its mechanics leave statuses (vote_weight, voteless) that the count reads
        self.immediate: bool = kw.get("immediate", False)
        # None: living targets; "last_night": a player killed last night; "any": any dead
        self.targets_dead: str | None = kw.get("targets_dead")
        # a move that names a role as well as its targets (the maniac's guess): the role is
        # typed after the targets; ``role_options`` limits which roles (default: every role)
        self.names_role: bool = kw.get("names_role", False)
        self.role_options: tuple[str, ...] | None = tuple(kw["role_options"]) \
            if kw.get("role_options") else None
        # filled by ``bind``: (Mechanic, params) pairs and what they add up to
        self.mechs: tuple = ()
        self.visits = self.counts_out = False
        self.cover_aware = True
        self.only_attacks = self.only_protections = True
        self.name_ru: str = kw.get("name_ru", id)
        self.name_en: str = kw.get("name_en", id)
        self.text_ru: str = kw.get("text_ru", "")
        self.text_en: str = kw.get("text_en", "")

    def bind(self, registry: dict) -> None:
        """Resolve effect names to mechanics once, so the night loop does no lookups."""
        self.mechs = tuple((registry[e.mechanic], e.params) for e in self.effects)
        self.visits = any(m.visits for m, _ in self.mechs)
        self.counts_out = any(m.counts_as_out for m, _ in self.mechs)
        self.cover_aware = all(m.cover_aware for m, _ in self.mechs)
        names = [m.name for m, _ in self.mechs]
        self.only_attacks = all(n in ATTACKS for n in names)
        self.only_protections = all(n in PROTECTIONS for n in names)


class RoleSpec:
    __slots__ = (
        "abilities",
        "appears_as",
        "faction",
        "id",
        "initial_status",
        "name_en",
        "name_ru",
        "tags",
        "text_en",
        "text_ru",
    )

    def __init__(self, id, name_ru, name_en, faction, tags=(), abilities=(), text_ru="",
                 text_en="", initial_status=None, appears_as=None):
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.faction = faction
        self.tags = frozenset(tags)
        self.abilities: tuple[str, ...] = tuple(abilities)
        self.text_ru = text_ru
        self.text_en = text_en
        self.initial_status: dict = initial_status or {}
        self.appears_as = appears_as  # role id shown to checks (None: itself)


class FactionSpec:
    __slots__ = (
        "co_win",
        "posthumous",
        "goal_en",
        "goal_ru",
        "id",
        "knows_members",
        "name_en",
        "name_ru",
        "side",
        "solo",
        "win",
    )

    def __init__(self, id, name_ru, name_en, side, win, knows_members=False, solo=False,
                 goal_ru="", goal_en="", co_win=False):
        # a co-winner's condition is checked only when the game ends by another win, and
        # does not end the game by itself
        self.co_win = co_win
        self.posthumous = None   # a status that lets a dead member of a solo faction win
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.side = side              # town | criminal | single (the journalist's sides)
        self.win = win                # condition tree (see engine.victory)
        self.knows_members = knows_members
        self.solo = solo              # each member wins alone (singles); winner id = role id
        self.goal_ru = goal_ru
        self.goal_en = goal_en


class StepSpec:
    __slots__ = ("auto", "first_wins", "id", "name_en", "name_ru", "simultaneous")

    def __init__(self, id, name_ru="", name_en="", simultaneous=False, auto=(),
                 first_wins=False):
        self.id = str(id)
        self.name_ru = name_ru
        self.name_en = name_en
        self.simultaneous = simultaneous
        # "кто первый прислал, того и тапки": a killer whose death comes from a kill sent
        # earlier in this step (and not stopped) does not kill
        self.first_wins = first_wins
        self.auto: tuple = tuple(auto)     # (hook fn, params) run at the start of the step


_DAY_RULES_ATTRS = (
    "absent_rule",
    "against_all",
    "against_all_share",
    "first_vote_day",
    "judge_fallback",
    "lynch_executor",
    "lynch_holds",
    "nonvoters_against_self",
    "quorum",
    "tie",
    "tie_dice_at_most",
    "tie_shield_times",
    "vote_changes",
)


class DayRules:
    __slots__ = _DAY_RULES_ATTRS

    def __init__(self, **kw: Any) -> None:
        self.against_all: str = kw.get("against_all", "never")   # never | first_day | every_day
        self.against_all_share: int | float = kw.get("against_all_share", 0.5)
        self.quorum: bool = kw.get("quorum", False)
        self.nonvoters_against_self: bool = kw.get("nonvoters_against_self", False)
        self.absent_rule: bool = kw.get("absent_rule", False)
        self.tie: str = kw.get("tie", "no_lynch")     # a name in mechanics.TIE_POLICIES
        self.tie_shield_times: int = kw.get("tie_shield_times", 2)
        self.vote_changes: int | None = kw.get("vote_changes")  # None: unlimited
        self.judge_fallback: str = kw.get("judge_fallback", "next_most_votes")
        # a tie with at most this many players alive goes to the dice whatever the policy
        # (so two players who always vote for each other cannot stall the game)
        self.tie_dice_at_most: int = kw.get("tie_dice_at_most", 0)
        self.first_vote_day: int = kw.get("first_vote_day", 1)   # no vote before this day
        # the lynched is "killed by one of his voters chosen by dice" (a line for the post)
        self.lynch_executor: bool = kw.get("lynch_executor", False)
        # a status the condemned gets instead of leaving the game (jail until dawn)
        self.lynch_holds: str | None = kw.get("lynch_holds")

    def __copy__(self) -> DayRules:
        """``copy.copy``: compiled (mypyc), a class is made only through its ``__init__``,
        so the copy is made by it and then takes every attribute."""
        new = DayRules()
        _copy_attrs(self, new, _DAY_RULES_ATTRS)
        return new


class Succession:
    """When ``when_dies`` (a role) leaves, a living ``heir`` (a role) changes role."""

    __slots__ = ("becomes", "heir", "if_status", "otherwise", "when_dies")

    def __init__(self, when_dies, heir, becomes, if_status=None, otherwise=None):
        self.when_dies = when_dies
        self.heir = heir
        self.becomes = becomes
        self.if_status = if_status
        self.otherwise = otherwise


_RULESET_ATTRS = (
    "abilities",
    "ability_ids",
    "card",
    "by_phase",
    "choices",
    "day",
    "dead_movers",
    "factions",
    "first_phase",
    "forum",
    "hooks",
    "id",
    "options",
    "partner_reads",
    "plain_alive",
    "redirect_roles",
    "removed_earlier",
    "reveal_roles",
    "roles",
    "setup",
    "source",
    "step_index",
    "steps",
    "successions",
    "team_tables",
    "title_en",
    "title_ru",
    "version",
    "vote_hooks",
    "win_fns",
)


class RulesetSpec:
    __slots__ = _RULESET_ATTRS

    def __init__(self, **kw: Any) -> None:
        self.id: str = kw["id"]
        self.win_fns: list | None = None   # compiled victory conditions (engine.victory)
        # found on first use by the engine (engine.game): does any ability read partners'
        # moves; which roles may redirect a move
        self.partner_reads: frozenset | None = None
        self.redirect_roles: frozenset | None = None
        # role -> phase -> the abilities a living player of the role has in the phase when
        # none of them asks more than his slots of him (``engine.game._plain_alive``)
        self.plain_alive: dict[str, dict[str, list[AbilitySpec] | None]] | None = None
        self.team_tables: list | None = None     # engine.game._team_tables
        # the ``vote_check`` hooks sorted for the list of legal votes (engine.day.
        # _vote_hooks): (the hooks' list they were sorted from, voter-only, pool filters,
        # the others)
        self.vote_hooks: tuple | None = None
        self.version: int = kw.get("version", 1)
        self.title_ru: str = kw.get("title_ru", self.id)
        self.title_en: str = kw.get("title_en", self.id)
        self.source: str = kw.get("source", "")
        self.factions: dict[str, FactionSpec] = kw["factions"]
        self.roles: dict[str, RoleSpec] = kw["roles"]
        self.abilities: dict[str, AbilitySpec] = kw["abilities"]
        self.steps: list[StepSpec] = kw["steps"]
        # step id -> its place in the night (read with an ability's optional ``step``)
        self.step_index: dict[Any, int] = {s.id: i for i, s in enumerate(self.steps)}
        self.day: DayRules = kw["day"]
        self.options: dict = kw.get("options", {})
        self.successions: list[Succession] = kw.get("successions", [])
        self.setup: dict = kw.get("setup", {})
        self.first_phase: str = kw.get("first_phase", "night")
        self.choices: list = kw.get("choices", [])
        # kind -> [(fn, params)]: the ruleset's hooks (see engine.mechanics.HOOK_KINDS)
        self.hooks: dict[str, list] = kw.get("hooks", {})
        # how the role card shows abilities (render only): {"groups": [{ru, en, abilities,
        # list: names|full, strip_ru, strip_en}]}
        self.card: dict = kw.get("card", {})
        self.reveal_roles: bool = kw.get("reveal_roles", True)   # roles shown on elimination
        # a player killed by an attack made at an earlier night step: his attacks at later
        # steps still happen ("acts", most seeds) or are not made ("no_move", gemini)
        self.removed_earlier: str = kw.get("removed_earlier", "acts")
        # forum conventions: vote_markup (spoiler | red | ...), for the hosting layer
        self.forum: dict = kw.get("forum", {})
        self.ability_ids: list[str] = sorted({a.id for a in self.abilities.values()})
        # role -> phase -> its ability specs (a lookup table for legal-move generation)
        self.by_phase: dict[str, dict[str, list[AbilitySpec]]] = {
            r: {"night": [], "day": []} for r in self.roles}
        for spec in self.abilities.values():
            self.by_phase[spec.key.split(".", 1)[0]][spec.phase].append(spec)
        # (role, phase) pairs with an ability a dead player may use (``while_dead``): the
        # only dead players a move loop needs to look at
        self.dead_movers: set[tuple[str, str]] = {(r, ph) for r, by in self.by_phase.items()
                            for ph, specs in by.items() if any(a.while_dead for a in specs)}

    def __copy__(self) -> RulesetSpec:
        """``copy.copy`` (see ``DayRules.__copy__``)."""
        new = RulesetSpec(id=self.id, factions=self.factions, roles=self.roles,
                          abilities=self.abilities, steps=self.steps, day=self.day)
        _copy_attrs(self, new, _RULESET_ATTRS)
        return new


def _copy_attrs(old: object, new: object, names: tuple[str, ...]) -> None:
    for k in names:
        setattr(new, k, getattr(old, k))
