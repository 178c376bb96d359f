"""Ruleset files: YAML, validated on load.

An error names the file, the entry (role, ability, faction...) and the field, and says
what is allowed. ``load(id)`` reads a bundled ruleset; ``load_file(path)`` any file.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import yaml

from ..engine import mechanics as _lib
from ..engine.errors import RulesetError
from ..engine.game import _constraint_fns
from ..engine.mechanics import CONSTRAINTS, MECHANICS, load_all
from ..engine.model import (
    AbilitySpec,
    DayRules,
    Effect,
    FactionSpec,
    RoleSpec,
    RulesetSpec,
    StepSpec,
    Succession,
)

load_all()

DATA = Path(__file__).parent / "data"
_CACHE: dict[tuple, RulesetSpec] = {}
# a bundled rule set's parsed YAML, shared by its option variants (``build`` patches a
# deep copy, never this): a web worker parses singapore's rules once, not once for every
# set of options its games use (the parse is 47 of the 84 ms its first load takes)
_RAW: dict[str, dict] = {}

_TOP = {"id", "version", "title_ru", "title_en", "source", "first_phase", "options", "steps",
        "factions", "abilities", "roles", "day", "successions", "setup", "choices", "hooks",
        "reveal_roles", "forum", "removed_earlier", "card"}
_ABILITY = {"ru", "en", "phase", "step", "effects", "targets", "self_target", "not_same_twice",
            "self_not_twice", "target_faction", "shared", "owner", "slot", "constraints",
            "requires_status", "uses_per_game", "while_dead", "blockable", "text_ru",
            "text_en", "min_alive_self", "distinct_targets", "wasted_if_doomed", "use", "id",
            "while_jailed",
            "requires_ru", "requires_en", "immediate", "targets_dead", "names_role",
            "role_options"}
_ROLE = {"ru", "en", "faction", "tags", "abilities", "text_ru", "text_en", "initial_status",
         "appears_as"}
_FACTION = {"ru", "en", "side", "win", "knows_members", "solo", "goal_ru", "goal_en", "co_win",
            "posthumous"}
_DAY = {"against_all", "against_all_share", "quorum", "nonvoters_against_self", "absent_rule",
        "tie", "tie_shield_times", "vote_changes", "judge_fallback", "first_vote_day",
        "lynch_executor", "tie_dice_at_most", "lynch_holds"}
_CHOICES = {
    ("ability", "phase"): ("night", "day"),
    ("ability", "self_target"): ("allowed", "forbidden", "only_if_few"),
    ("ability", "while_dead"): (None, "lynched_last_day", "killed_last_night", "always"),
    ("day", "against_all"): ("never", "first_day", "every_day"),
    ("day", "judge_fallback"): ("next_most_votes", "no_lynch"),
    ("faction", "side"): ("town", "criminal", "single"),
}


def available() -> list[str]:
    return sorted(p.stem for p in DATA.glob("*.yaml"))


def load(ruleset_id: str, options: dict | None = None) -> RulesetSpec:
    """The bundled ruleset ``ruleset_id`` with ``options`` applied (cached)."""
    key = (ruleset_id, tuple(sorted((options or {}).items(), key=str)))
    spec = _CACHE.get(key)
    if spec is None:
        path = DATA / f"{ruleset_id}.yaml"
        if not path.exists():
            raise RulesetError(f"Нет правил «{ruleset_id}»; есть: {', '.join(available())}. / "
                               f"No ruleset '{ruleset_id}'; available: {', '.join(available())}.")
        raw = _RAW.get(ruleset_id)
        if raw is None:
            raw = _RAW[ruleset_id] = _parse(path)
        spec = _CACHE[key] = build(raw, str(path), options)
    return spec


def _parse(path: Path):
    try:
        # libyaml's parser when PyYAML has it (the same safe loader, ten times faster: a
        # command-line call reads its rule set every time)
        return yaml.load(path.read_text(encoding="utf-8"),
                         Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as e:
        raise RulesetError(f"{path}: not valid YAML: {e}") from None


def load_file(path, options: dict | None = None) -> RulesetSpec:
    path = Path(path)
    return build(_parse(path), str(path), options)


def _apply_options(c, raw, options):
    """Options are data patches: each value of an option names dotted paths to replace."""
    declared = raw.get("options") or {}
    chosen = {}
    for name, o in declared.items():
        if not isinstance(o, dict) or "default" not in o or "values" not in o:
            c.fail(f"option '{name}'", "default", "an option needs 'default' and 'values'")
        chosen[name] = o["default"]
    for name, v in (options or {}).items():
        if name not in declared:
            raise RulesetError(f"В правилах «{raw.get('id')}» нет опции «{name}»; есть: "
                               f"{', '.join(declared) or 'нет'}. / Ruleset '{raw.get('id')}' "
                               f"has no option '{name}'; options: {', '.join(declared) or 'none'}.")
        if v not in declared[name]["values"]:
            allowed = ", ".join(str(x) for x in declared[name]["values"])
            raise RulesetError(f"Опция «{name}» не принимает «{v}»; можно: {allowed}. / "
                               f"Option '{name}' does not take '{v}'; allowed: {allowed}.")
        chosen[name] = v
    import copy
    raw = copy.deepcopy(raw)
    for name, v in chosen.items():
        for path, value in (declared[name]["values"][v] or {}).items():
            node = raw
            parts = path.split(".")
            for part in parts[:-1]:
                node = node[part]
            node[parts[-1]] = value
    return raw, chosen


class _Ctx:
    def __init__(self, where):
        self.where = where

    def fail(self, entry, field, msg):
        raise RulesetError(f"{self.where}: {entry}: field '{field}': {msg}")

    def keys(self, entry, d, allowed):
        if not isinstance(d, dict):
            raise RulesetError(f"{self.where}: {entry}: must be a mapping, got {type(d).__name__}")
        for k in d:
            if k not in allowed:
                self.fail(entry, k, f"unknown field; allowed: {', '.join(sorted(allowed))}")

    def choice(self, kind, entry, field, value):
        ok = _CHOICES[(kind, field)]
        if value not in ok:
            self.fail(entry, field, f"'{value}' is not allowed; use one of: "
                      f"{', '.join(str(x) for x in ok)}")


def _import_abilities(rid) -> None:
    """Import ``mafiahost.rules.abilities.<id>`` (mechanics next to the ruleset), if any;
    a dash in the id is an underscore in the module name (``mafia-yakuza`` →
    ``mafia_yakuza``)."""
    name = f"{__name__}.abilities.{rid.replace('-', '_')}"
    if importlib.util.find_spec(name) is not None:
        importlib.import_module(name)


def _hook_list(c, entry, kind, items):
    out = []
    for item in items or []:
        name, params = (item, {}) if isinstance(item, str) else next(iter(item.items()))
        fn = _lib.HOOKS.get((kind, name))
        if fn is None:
            known = sorted(n for k, n in _lib.HOOKS if k == kind)
            c.fail(entry, kind, f"no {kind} hook '{name}'; known: {', '.join(known) or 'none'}")
        out.append((fn, params or {}))
    return out


def build(raw, where="<ruleset>", options: dict | None = None) -> RulesetSpec:
    c = _Ctx(where)
    c.keys("ruleset", raw, _TOP)
    if isinstance(raw.get("id"), str) and raw["id"].replace("-", "_").isidentifier():
        _import_abilities(raw["id"])
    raw, chosen = _apply_options(c, raw, options)
    for req in ("id", "steps", "factions", "roles"):
        if req not in raw:
            c.fail("ruleset", req, "is required")
    steps = []
    for i, st in enumerate(raw["steps"]):
        if not isinstance(st, dict) or "id" not in st:
            c.fail(f"steps[{i}]", "id", "each step needs an id")
        for k in st:
            if k not in ("id", "ru", "en", "simultaneous", "auto", "first_wins"):
                c.fail(f"steps[{i}]", k, "unknown field; allowed: auto, en, first_wins, id, ru, "
                       "simultaneous")
        steps.append(StepSpec(st["id"], st.get("ru", ""), st.get("en", ""),
                              st.get("simultaneous", False),
                              _hook_list(c, f"steps[{i}]", "step", st.get("auto")),
                              st.get("first_wins", False)))
    step_ids = {s.id for s in steps}
    factions = {}
    for fid, f in raw["factions"].items():
        c.keys(f"faction '{fid}'", f, _FACTION)
        if "win" not in f:
            c.fail(f"faction '{fid}'", "win", "a victory condition is required")
        c.choice("faction", f"faction '{fid}'", "side", f.get("side", "town"))
        _check_condition(c, f"faction '{fid}'", f["win"])
        factions[fid] = FactionSpec(fid, f.get("ru", fid), f.get("en", fid), f.get("side", "town"),
                                    f["win"], f.get("knows_members", False), f.get("solo", False),
                                    f.get("goal_ru", ""), f.get("goal_en", ""),
                                    f.get("co_win", False))
        factions[fid].posthumous = f.get("posthumous")
    templates = raw.get("abilities", {}) or {}
    for aid, a in templates.items():
        c.keys(f"ability '{aid}'", a, _ABILITY)
    roles = {}
    abilities = {}
    # what the roles' abilities built from the same template share (``_ability``)
    shared: dict = {}
    for rid, r in raw["roles"].items():
        entry = f"role '{rid}'"
        c.keys(entry, r, _ROLE)
        if r.get("faction") not in factions:
            c.fail(entry, "faction", f"'{r.get('faction')}' is not a faction; factions: "
                   f"{', '.join(factions)}")
        ids = []
        for item in r.get("abilities", []) or []:
            if isinstance(item, str):
                aid, over = item, {}
            elif isinstance(item, dict) and "id" in item:
                aid, over = item["id"], item
            else:
                c.fail(entry, "abilities", "each item is an ability name or a mapping with 'id'")
            c.keys(f"{entry} ability '{aid}'", over, _ABILITY)
            base_name = over.get("use", aid)
            if base_name not in templates:
                c.fail(f"{entry} ability '{aid}'", "use", f"no ability template '{base_name}'; "
                       f"templates: {', '.join(templates)}")
            merged = {**templates[base_name], **{k: v for k, v in over.items()
                                                 if k not in ("use", "id")}}
            abilities[f"{rid}.{aid}"] = _ability(c, f"{entry} ability '{aid}'", aid, rid, merged,
                                                 step_ids, tuple(raw["roles"]), shared)
            ids.append(aid)
        roles[rid] = RoleSpec(rid, r.get("ru", rid), r.get("en", rid), r["faction"],
                              r.get("tags", []), ids, r.get("text_ru", ""), r.get("text_en", ""),
                              r.get("initial_status"), r.get("appears_as"))
    day = raw.get("day", {}) or {}
    c.keys("day", day, _DAY)
    for k in ("against_all", "judge_fallback"):
        if k in day:
            c.choice("day", "day", k, day[k])
    if day.get("tie", "no_lynch") not in _lib.TIE_POLICIES:
        c.fail("day", "tie", f"'{day.get('tie')}' is not a tie policy; known: "
               f"{', '.join(sorted(_lib.TIE_POLICIES))}")
    hooks_raw = raw.get("hooks") or {}
    c.keys("hooks", hooks_raw, set(_lib.HOOK_KINDS) - {"step"})
    hooks = {k: _hook_list(c, "hooks", k, v) for k, v in hooks_raw.items()}
    successions = []
    for i, sc in enumerate(raw.get("successions", []) or []):
        for k in ("when_dies", "heir", "becomes"):
            if sc.get(k) is not None and sc[k] not in roles:
                c.fail(f"successions[{i}]", k, f"'{sc[k]}' is not a role")
        successions.append(Succession(sc["when_dies"], sc["heir"], sc["becomes"],
                                      sc.get("if_status"), sc.get("otherwise")))
    first = raw.get("first_phase", "night")
    if first not in ("night", "day"):
        c.fail("ruleset", "first_phase", "use night or day")
    removed_earlier = raw.get("removed_earlier", "acts")
    if removed_earlier not in ("acts", "no_move"):
        c.fail("ruleset", "removed_earlier", "use acts or no_move")
    return RulesetSpec(id=raw["id"], version=raw.get("version", 1),
                       title_ru=raw.get("title_ru", raw["id"]),
                       title_en=raw.get("title_en", raw["id"]), source=raw.get("source", ""),
                       factions=factions, roles=roles, abilities=abilities, steps=steps,
                       day=DayRules(**day), options=chosen,
                       successions=successions, setup=raw.get("setup", {}) or {},
                       first_phase=first, choices=raw.get("choices", []) or [], hooks=hooks,
                       reveal_roles=raw.get("reveal_roles", True),
                       forum=raw.get("forum") or {}, removed_earlier=removed_earlier,
                       card=raw.get("card") or {})


def _ability(c, entry, aid, rid, a, step_ids, known_roles=(), shared=None) -> AbilitySpec:
    """The ability ``aid`` of role ``rid`` (``a``: its template with the role's overrides).

    What is made from the template's lists of effects and of constraints (the effects, the
    mechanics they bind to, the constraints' functions and gates) is made once for all the
    roles that take the list unchanged, and shared (``shared``: the rule set's, keyed by
    the list itself): none of it changes after the rule set is built. Singapore gives its
    103 abilities to 35 roles (1,843 abilities); each had its own copies, about 18,000
    objects that the garbage collector's full collections walked through as long as the
    rule set was loaded."""
    if shared is None:
        shared = {}
    phase = a.get("phase", "night")
    c.choice("ability", entry, "phase", phase)
    c.choice("ability", entry, "self_target", a.get("self_target", "allowed"))
    c.choice("ability", entry, "while_dead", a.get("while_dead"))
    step = a.get("step")
    if phase == "night":
        if step is None or str(step) not in step_ids:
            c.fail(entry, "step", f"'{step}' is not a night step; steps: {', '.join(step_ids)}")
        step = str(step)
    raw_effects = a.get("effects", []) or []
    # the key holds the list itself, so its id stays its own while the rule set is built
    got = shared.get(("effects", id(raw_effects)))
    effects = got[1] if got is not None else []
    for e in () if got is not None else raw_effects:
        name, params = (e, {}) if isinstance(e, str) else next(iter(e.items()))
        if name not in MECHANICS:
            c.fail(entry, "effects", f"no mechanic '{name}'; the library has: "
                   f"{', '.join(sorted(MECHANICS))}")
        effects.append(Effect(name, params or {}, MECHANICS[name].fn))
    if not effects:
        c.fail(entry, "effects", "an ability needs at least one effect")
    for con in a.get("constraints", []) or []:
        name = con if isinstance(con, str) else next(iter(con))
        if name not in CONSTRAINTS:
            c.fail(entry, "constraints", f"no constraint '{name}'; known: "
                   f"{', '.join(sorted(CONSTRAINTS))}")
    for r in a.get("role_options") or ():
        if r not in known_roles:
            c.fail(entry, "role_options", f"'{r}' is not a role; roles: {', '.join(known_roles)}")
    kw = {k: v for k, v in a.items() if k not in ("ru", "en", "effects", "step")}
    spec = AbilitySpec(aid, key=f"{rid}.{aid}", step=step, effects=effects,
                       name_ru=a.get("ru", aid), name_en=a.get("en", aid), **kw)
    spec.bind(MECHANICS)
    if got is None:
        shared[("effects", id(raw_effects))] = (raw_effects, effects, spec.mechs)
    else:
        spec.mechs = got[2]
    # its constraints' functions, gates and what they read, found once here with the rule
    # set (the registry is complete: every name was checked above), not at the first move
    # of each ability in each process
    cons = spec.constraints
    key = ("constraints", id(cons), spec.targets)
    made = shared.get(key)
    if made is None:
        _constraint_fns(spec)
        shared[key] = (cons, spec.constraint_fns, spec.gates, spec.after_gates,
                       spec.reads_targets, spec.reads_partners, spec.positional,
                       spec.list_gates, spec.list_after)
    else:
        (_, spec.constraint_fns, spec.gates, spec.after_gates, spec.reads_targets,
         spec.reads_partners, spec.positional, spec.list_gates, spec.list_after) = made
    return spec


_COND = {"all", "any", "none_alive", "cmp", "at_most", "only_with"}


def _cond_names():
    return _COND | set(_lib.CONDITIONS)


def _check_condition(c, entry, cond):
    if not isinstance(cond, dict) or len(cond) != 1:
        c.fail(entry, "win", "a condition is a mapping with one key of: "
               + ", ".join(sorted(_cond_names())))
    (k, v), = cond.items()
    if k not in _cond_names():
        c.fail(entry, "win", f"unknown condition '{k}'; use one of: "
               f"{', '.join(sorted(_cond_names()))}")
    if k in ("all", "any"):
        for x in v:
            _check_condition(c, entry, x)
