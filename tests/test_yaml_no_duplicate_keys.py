"""Every YAML file the project ships is read with duplicate keys refused.

PyYAML keeps the last of two equal keys without a word, so a text written twice by two
merges (one of them then never shown) or a rule field given twice goes unnoticed. This
test reads each shipped file with a loader that names the first duplicate it meets.
"""
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(
    p for folder in ("src/mafiahost/render", "src/mafiahost/rules/data", "src/mafiahost/web")
    for p in (ROOT / folder).glob("*.yaml")
)


class _StrictLoader(yaml.SafeLoader):
    pass


def _mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False):
    seen: dict = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":   # `<<: *anchor` may be overridden
            continue
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def test_there_are_files_to_check():
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_duplicate_keys(path: Path):
    yaml.load(path.read_text(encoding="utf-8"), Loader=_StrictLoader)


def test_the_check_sees_a_duplicate():
    with pytest.raises(yaml.constructor.ConstructorError, match="duplicate key 'a'"):
        yaml.load("terms:\n  a: 1\n  b: 2\n  a: 3\n", Loader=_StrictLoader)
    # a key given again over a merged anchor is an override, not a duplicate
    assert yaml.load("x: &x {a: 1}\ny:\n  <<: *x\n  a: 2\n", Loader=_StrictLoader)["y"] == {"a": 2}
