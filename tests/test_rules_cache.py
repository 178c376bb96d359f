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
