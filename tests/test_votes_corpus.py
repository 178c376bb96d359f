"""The corpus of day threads (issue 10): every case occurs, the hand readings are sound."""

import pytest
from votes_corpus import ISSUE_CASES, THREADS, dump, meta, names

from mafiahost.forum import parse_dump


def test_the_corpus_has_five_threads_of_several_rule_sets_and_40_to_300_posts():
    threads = names()
    assert len(threads) >= 5
    assert len({meta(n)["ruleset"] for n in threads}) >= 5
    for n in threads:
        assert 40 <= len(parse_dump(dump(n))) <= 300, n


def test_every_case_of_the_issue_occurs_in_the_corpus():
    seen = {c for n in names() for post in meta(n)["posts"].values() for c in post["cases"]}
    missing = [case for case, tags in ISSUE_CASES.items() if not seen & set(tags)]
    assert not missing, missing


@pytest.mark.parametrize("name", names())
def test_each_tagged_post_is_in_the_dump_with_its_author_and_one_reading(name):
    m = meta(name)
    posts = {(p.id, p.author) for p in parse_dump(dump(name))}
    for pid, ann in m["posts"].items():
        assert (pid, ann["author"]) in posts, (name, pid)
        readings = [k for k in ("vote", "withdraw", "skip") if k in ann]
        assert len(readings) <= 1, (name, pid)
        assert readings or ann["cases"] == ["host_post"] or ann["cases"] == ["hint_spoiler"]
    living = [p for p in m["players"] if p not in m["removed"]]
    assert sorted(m["count"]) == sorted(living)
    assert (THREADS / m["dump"]).exists()
