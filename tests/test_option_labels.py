"""Every value of every rule-set option has words for people in both languages
(render/labels.yaml), so no option id reaches a post or a page."""

from importlib import resources

import pytest
import yaml

from mafiahost.rules import available


def _yaml(package: str, *path: str) -> dict:
    return yaml.safe_load(resources.files(package).joinpath(*path).read_text(encoding="utf-8"))


@pytest.mark.parametrize("ruleset", available())
def test_every_option_value_has_words(ruleset):
    words = _yaml("mafiahost.render", "labels.yaml")
    raw = _yaml("mafiahost.rules", "data", f"{ruleset}.yaml")
    for name, spec in (raw.get("options") or {}).items():
        for value in spec.get("values") or {}:
            key = str(value).lower() if isinstance(value, bool) else str(value)
            for lang in ("ru", "en"):
                entry = words[lang]["option"].get(name) or {}
                assert entry.get("name") and entry.get(key), \
                    f"{ruleset}: option {name}={key} has no {lang} words in render/labels.yaml"
