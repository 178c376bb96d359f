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


def import_thread(name):
    """The thread imported on its game by the engine-level reader, the votes applied."""
    import votes_corpus as vc

    from mafiahost.forum import find_votes
    g = vc.game(name)
    m = meta(name)
    rep = find_votes(parse_dump(dump(name)), g, vc.deadline(name), aliases=m["aliases"],
                     host_nicks=[m["host"]])
    for voter, target, _post in rep.votes:
        if target is None:
            g.unvote(voter)
        else:
            g.vote(voter, target)
    current = {p.name: g.state.votes.get(p.name) for p in g.state.order if p.alive}
    return g, rep, current


@pytest.mark.parametrize("name", names())
def test_every_seat_is_counted_as_the_careful_host_counts(name):
    import votes_corpus as vc
    _g, _rep, current = import_thread(name)
    right, total, wrong = vc.accuracy(name, current)
    assert not wrong, wrong


@pytest.mark.parametrize("name", names())
def test_every_tagged_post_is_read_as_the_host_reads_it(name):
    m = meta(name)
    _g, rep, _current = import_thread(name)
    counted = {}
    for c in rep.counted:
        counted.setdefault(c["post"], []).append(c["target"])
    skipped = {}
    for s in rep.skipped:
        skipped.setdefault(s["post"], []).append(s["reason"])
    for pid, ann in m["posts"].items():
        if "vote" in ann and "same_vote_again" not in ann["cases"]:
            assert counted.get(pid) == [ann["vote"]], (pid, ann, skipped.get(pid))
        elif "withdraw" in ann:
            assert counted.get(pid) == [None], (pid, ann, skipped.get(pid))
        elif "skip" in ann:
            assert skipped.get(pid) == [ann["skip"]], (pid, ann, counted.get(pid))
            assert any(f"#{pid} " in p for p in rep.problems)
        else:                         # the host's own posts, a hint: neither counted nor told
            assert pid not in counted and pid not in skipped, pid
    # a post the host does not tag is discussion: never counted, never reported
    tagged = set(m["posts"])
    assert {c["post"] for c in rep.counted} <= tagged
    assert {s["post"] for s in rep.skipped} <= tagged


def test_impostors_are_reported_and_never_counted():
    for name in names():
        m = meta(name)
        _g, rep, _c = import_thread(name)
        for pid, ann in m["posts"].items():
            if any(c.startswith("impostor") for c in ann["cases"]):
                reasons = [s for s in rep.skipped if s["post"] == pid]
                assert [s["reason"] for s in reasons] == ["impostor"], (name, pid)
                assert "самозванец" in reasons[0]["why"]
                assert pid not in {c["post"] for c in rep.counted}


@pytest.mark.parametrize("name", names())
def test_the_same_thread_as_a_json_dump_reads_the_same(name):
    import json

    import votes_corpus as vc

    from mafiahost.forum import find_votes
    posts = parse_dump(dump(name))
    as_json = json.dumps([{"id": p.id, "author": p.author, "time": p.time.isoformat(),
                           "text": p.text} for p in posts], ensure_ascii=False)
    m = meta(name)
    a = find_votes(posts, vc.game(name), vc.deadline(name), aliases=m["aliases"],
                   host_nicks=[m["host"]])
    b = find_votes(parse_dump(as_json), vc.game(name), vc.deadline(name),
                   aliases=m["aliases"], host_nicks=[m["host"]])
    assert a.counted == b.counted and a.problems == b.problems and a.notes == b.notes
