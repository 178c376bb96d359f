"""``rules.load``: a bundled rule set's YAML is parsed once per process, whatever options
its games use, and an option variant never changes another variant's rules."""

import yaml

from mafiahost import rules


def test_option_variants_share_one_parse(monkeypatch):
    monkeypatch.setattr(rules, "_CACHE", {})
    monkeypatch.setattr(rules, "_RAW", {})
    parses = []
    real = yaml.load

    def counting(*a, **kw):
        parses.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(yaml, "load", counting)
    plain = rules.load("gemini")
    acts = rules.load("gemini", {"removed_earlier": "acts"})
    watcher = rules.load("gemini", {"watcher": True})
    assert len(parses) == 1
    assert plain.removed_earlier == "no_move" and acts.removed_earlier == "acts"
    assert "watcher" not in plain.setup["roles"].get(11, [])
    assert "watcher" in watcher.setup["roles"][11]
    # the shared parse is never patched: the default variant loaded again is the same
    monkeypatch.setattr(rules, "_CACHE", {})
    again = rules.load("gemini")
    assert again.removed_earlier == "no_move"
    assert again.setup["roles"] == plain.setup["roles"]
    assert len(parses) == 1


def _made_alone(spec):
    """What ``_constraint_fns`` and ``bind`` make for ``spec`` on its own (a fresh copy of
    the ability, sharing nothing), as values to compare."""
    from mafiahost.engine.game import _constraint_fns
    from mafiahost.engine.mechanics import MECHANICS
    from mafiahost.engine.model import AbilitySpec

    alone = AbilitySpec(spec.id, key=spec.key, step=spec.step, effects=list(spec.effects),
                        targets=spec.targets, constraints=list(spec.constraints))
    alone.bind(MECHANICS)
    _constraint_fns(alone)
    return (alone.mechs, alone.constraint_fns, alone.gates, alone.after_gates,
            alone.reads_targets, alone.reads_partners, alone.positional, alone.list_gates,
            alone.list_after)


def test_roles_share_what_one_template_makes():
    """Singapore gives its 103 abilities to 35 roles: what an ability's template makes (its
    effects and their mechanics, its constraints' functions and gates) is made once and
    shared by the roles that take it unchanged, and each role's ability still holds
    exactly what it would have been given alone (an ability with other targets, or
    another list of constraints, has its own)."""
    # built afresh (not the cached rules, whose abilities other tests may have handled)
    spec = rules.load_file(rules.DATA / "singapore.yaml")
    abilities = list(spec.abilities.values())
    assert len(abilities) > 1500
    assert len({id(a.effects) for a in abilities}) < 200
    assert len({id(a.constraint_fns) for a in abilities}) < 200
    for r in ("singapore", "gemini", "indians", "antem"):
        for a in rules.load_file(rules.DATA / f"{r}.yaml").abilities.values():
            assert (a.mechs, a.constraint_fns, a.gates, a.after_gates, a.reads_targets,
                    a.reads_partners, a.positional, a.list_gates,
                    a.list_after) == _made_alone(a), a.key


def test_an_ability_with_other_targets_has_its_own_gates():
    """A role that takes a template's constraints unchanged but changes its targets gets
    the gates those targets give (an ability without targets is gated), not the
    template's other roles' ones."""
    import copy

    raw = copy.deepcopy(rules._parse(rules.DATA / "mafia-yakuza.yaml"))
    takers = [rid for rid, r in raw["roles"].items()
              if any((x if isinstance(x, str) else x.get("id")) == "use_ampoule"
                     for x in r.get("abilities") or ())]
    assert len(takers) >= 2
    items = raw["roles"][takers[0]]["abilities"]
    i = next(i for i, x in enumerate(items)
             if (x if isinstance(x, str) else x.get("id")) == "use_ampoule")
    items[i] = {"id": "use_ampoule", "targets": 0}
    spec = rules.build(raw, "mafia-yakuza (changed)")
    changed = spec.abilities[f"{takers[0]}.use_ampoule"]
    kept = spec.abilities[f"{takers[1]}.use_ampoule"]
    assert changed.constraints is kept.constraints     # the same list, from the template
    assert changed.gates and not kept.gates
    for a in (changed, kept):
        assert (a.mechs, a.constraint_fns, a.gates, a.after_gates, a.reads_targets,
                a.reads_partners, a.positional, a.list_gates, a.list_after) == _made_alone(a), \
            a.key
