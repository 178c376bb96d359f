"""Vote mechanics: abilities that act on the day's vote.

Night effects set a status for the coming day (``silence``, ``puppet``); day effects run
while the day's votes are counted (``switch_vote``, ``acquit``) with the ``DayCount`` of
``engine.day`` as their context.
"""

from __future__ import annotations

from ..events import HOST, PUBLIC
from . import constraint, mechanic


@mechanic("silence")
def silence(n, actor, targets, params):
    """The target may not vote next day; announced in the morning (the godfather)."""
    t = targets[0]
    n.g.set_status(t, "silenced", actor.name, until=n.idx + 1)
    n.g.emit("vote_lost", PUBLIC, player=t.name, why="silenced")


@mechanic("puppet")
def puppet(n, actor, targets, params):
    """Next day the target's vote is whatever the actor votes (the swindler)."""
    n.g.set_status(targets[0], "puppet", actor.name, until=n.idx + 1)


@mechanic("switch_vote", visits=False)
def switch_vote(dc, actor, targets, params):
    """Move one player's vote to another candidate; revealed only with the count, and not
    who did it (the boss)."""
    voter, new = targets
    if voter.name in dc.votes and dc.votes[voter.name] not in ("abstain",):
        dc.votes[voter.name] = new.name
        dc.g.emit("vote_switched", PUBLIC, voter=voter.name, target=new.name)
    else:
        dc.g.emit("no_effect", HOST, player=actor.name, why="voter did not vote")


@mechanic("acquit", visits=False)
def acquit(dc, actor, targets, params):
    """If the target is condemned today he is acquitted; the next condemned is lynched."""
    dc.acquit.add(targets[0].name)


@constraint("voted_against_actor")
def voted_against_actor(g, p, ab, ts, params):
    voters = g.state.status_value(p, "lynch_voters") or ()
    for t in ts:
        if t not in voters:
            return (f"«{ab.name_ru}»: можно выбрать только того, кто голосовал против вас "
                    f"(голосовали: {', '.join(voters) or 'никто'}).",
                    f"'{ab.name_en}': only one who voted against you "
                    f"(they were: {', '.join(voters) or 'nobody'}).")
    return None


@constraint("after_shared", targets=False)
def after_shared(g, p, ab, ts, params):
    want = params.get("ability", "kill")
    fac = ab.owner or p.faction
    abilities = g.rules.abilities
    if not any(abilities[a.ability].id == want
               and (abilities[a.ability].owner or g.state.players[a.actor].faction) == fac
               for a in g.state.pending):
        return (f"«{ab.name_ru}» отправляется только после общего выстрела.",
                f"'{ab.name_en}' can only be sent after the common shot.")
    return None
