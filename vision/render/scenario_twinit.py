"""The Twin It demo scenario: a 2 to 4 player table with every kind of claim.

Face-up piles in front of each seat; players turn their top card onto the table in turn; a
pair is slapped with two hands; a player slaps two near-identical patterns (a wrong claim, and
loses a capture under their pile); a third copy of a won pattern is stolen (triple steal); a
capture that takes a pile's top card reveals the next one, which makes a new pair at once
(chain reaction). Then every card is stacked, spread for the cooperative minute, and pairs and
triples are laid out. The intended referee actions are recorded in ``Scenario.actions`` in
the referee's own JSON vocabulary (``referee.twinit`` records), with the scene's card ids.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from vision.render.faces import twinit_deck
from vision.render.scenario import HandLook, HandPose, Scenario, aim_angle, default_base
from vision.render.scene_layout import _layout
from vision.render.scene_types import SKIN_TONES, CardPlacement

SEAT_ORDER = ("bottom", "top", "left", "right")
PILE_MM = {"bottom": (-70.0, 190.0), "top": (70.0, -190.0), "left": (-340.0, -60.0), "right": (340.0, 60.0)}
CAPTURE_MM = {
    "bottom": (70.0, 195.0),
    "top": (-70.0, -195.0),
    "left": (-340.0, 90.0),
    "right": (340.0, -90.0),
}
CAPTURE_STEP = {"bottom": (70.0, 0.0), "top": (-70.0, 0.0), "left": (0.0, 70.0), "right": (0.0, -70.0)}
FACING = {"bottom": 0.0, "top": 180.0, "left": 90.0, "right": 270.0}
SPOTS = [(x, y) for y in (0.0, -68.0, 68.0) for x in (-35.0, 35.0, -105.0, 105.0, -175.0, 175.0)]


@dataclass
class _Table:
    """The script's model of the table while it writes keys."""

    sc: Scenario
    rng: np.random.Generator
    seats: tuple[str, ...]
    looks: dict[tuple[int, bool], HandLook]
    piles: list[list[int]]  # card ids, top first
    faces: dict[int, str]
    where: dict[int, CardPlacement] = field(default_factory=dict)
    spots: dict[int, int] = field(default_factory=dict)  # card id -> spot index
    table_ids: dict[int, int] = field(default_factory=dict)  # card id -> referee table id
    captures: list[list[list[int]]] = field(default_factory=list)
    next_table_id: int = 0
    z: int = 1000

    def put(self, t: float, cid: int, x: float, y: float, angle: float, z: int | None = None) -> None:
        if z is None:
            self.z += 1
            z = self.z
        c = CardPlacement(cid, self.faces[cid], 0, x, y, angle, True, z)
        self.where[cid] = c
        self.sc.card_key(t, c)

    def hand(self, p: int, right: bool, keys: list[tuple[float, HandPose | None]]) -> None:
        hid = 2 * p + (0 if right else 1)
        for t, pose in keys:
            self.sc.hand_key(hid, self.looks[(p, right)], t, pose)

    def pose(self, p: int, right: bool, x: float, y: float, h: float = 0.0, curl: float = 0.0) -> HandPose:
        return HandPose(x, y, h, aim_angle(self.seats[p], right, x, y), curl, 0.35)

    def carry(
        self,
        t: float,
        p: int,
        cids: list[int],
        targets: list[tuple[float, float, float]],
        right: bool = True,
        fast: bool = False,
    ) -> float:
        """One hand comes, lands on the first card, carries ``cids`` to ``targets``, leaves."""
        k = 0.6 if fast else 1.0
        src = self.where[cids[0]]
        dst = targets[0]
        self.hand(
            p,
            right,
            [
                (t, None),
                (t + 0.6 * k, self.pose(p, right, src.x_mm, src.y_mm, 40.0, 0.2)),
                (t + 0.8 * k, self.pose(p, right, src.x_mm, src.y_mm, 0.0, 0.1)),
                (t + 1.7 * k, self.pose(p, right, dst[0], dst[1], 0.0, 0.1)),
                (t + 1.9 * k, self.pose(p, right, dst[0], dst[1], 50.0, 0.2)),
                (t + 2.5 * k, None),
            ],
        )
        base_z = self.z + 1
        for i, (cid, (x, y, a)) in enumerate(zip(cids, targets, strict=True)):
            c = self.where[cid]
            self.sc.card_key(t + 0.8 * k, c)  # still until the hand has landed
            self.put(t + 1.7 * k, cid, x, y, a, base_z + i)
        self.z = base_z + len(cids)
        return t + 2.5 * k

    def slap(
        self, t: float, p: int, a: tuple[float, float], b: tuple[float, float], hold: float = 1.2
    ) -> float:
        """Both hands of player ``p`` land at once on a and b; returns when they have gone.

        A slap is one sweep: each hand comes in from the player's edge, dropping as it goes, and
        lands on its card 0.5 s later without stopping on the way (hands that paused in the air
        over the cards looked, from above, like hands already down)."""
        side = math.radians({"bottom": 0.0, "top": 180.0, "left": 270.0, "right": 90.0}[self.seats[p]])
        # the right hand takes the target more to the player's right
        ra = a[0] * math.cos(side) + a[1] * math.sin(side)
        rb = b[0] * math.cos(side) + b[1] * math.sin(side)
        right_t, left_t = (a, b) if ra >= rb else (b, a)
        for right, target in ((True, right_t), (False, left_t)):
            self.hand(
                p,
                right,
                [
                    (t, None),
                    (t + 0.5, self.pose(p, right, target[0], target[1], 0.0, 0.0)),
                    (t + 0.5 + hold, self.pose(p, right, target[0], target[1], 0.0, 0.0)),
                    (t + 0.8 + hold, self.pose(p, right, target[0], target[1], 60.0, 0.2)),
                    (t + 1.3 + hold, None),
                ],
            )
        return t + 1.3 + hold

    def free_spot(self) -> int:
        used = set(self.spots.values())
        return next(i for i in range(len(SPOTS)) if i not in used)

    def play(self, t: float, p: int) -> tuple[float, dict]:
        """Player p turns their pile's top card onto the table."""
        cid = self.piles[p].pop(0)
        spot = self.free_spot()
        self.spots[cid] = spot
        x, y = SPOTS[spot]
        a = FACING[self.seats[p]] + float(self.rng.normal(0, 6))
        end = self.carry(t, p, [cid], [(x, y, a)])
        self.table_ids[cid] = self.next_table_id
        self.next_table_id += 1
        top = self.faces[self.piles[p][0]] if self.piles[p] else None
        action = {"type": "play", "player": p, "face": self.faces[cid], "top": top}
        return end, {"t": round(t + 1.7, 3), "action": action, "card_ids": [cid]}

    def loc(self, cid: int) -> dict:
        for p, pile in enumerate(self.piles):
            if pile and pile[0] == cid:
                return {"pile": p}
        for p, caps in enumerate(self.captures):
            for i, cap in enumerate(caps):
                if cid in cap:
                    return {"capture": [p, i]}
        return {"table": self.table_ids[cid]}

    def gather(self, t: float, p: int, cids: list[int]) -> float:
        """Player p takes ``cids`` into a new capture beside their pile."""
        seat = self.seats[p]
        n = len(self.captures[p])
        bx, by = CAPTURE_MM[seat]
        sx, sy = CAPTURE_STEP[seat]
        x, y = bx + sx * n, by + sy * n
        targets = [(x + 4 * i, y + 3 * i, FACING[seat] + 5 * i) for i in range(len(cids))]
        for cid in cids:
            self.spots.pop(cid, None)
            for pile in self.piles:
                if pile and pile[0] == cid:
                    pile.pop(0)
            for caps in self.captures:
                for cap in caps:
                    if cid in cap:
                        cap.remove(cid)
        for caps in self.captures:
            caps[:] = [c for c in caps if c]
        self.captures[p].append(list(cids))
        return self.carry(t, p, cids, targets)


def _pick_patterns(seed: int) -> dict[str, object]:
    deck = twinit_deck(0)
    rng = np.random.default_rng([0x7D3E0, seed])
    counts = Counter(deck.faces)
    near = [(a, b) for a, b, kind in deck.near_duplicates if kind != "mirrored"]
    n1, n2 = near[int(rng.integers(len(near)))]
    tied = {a for a, b, _ in deck.near_duplicates} | {b for a, b, _ in deck.near_duplicates}
    free = [p for p in deck.patterns if p not in tied]
    order = [free[int(i)] for i in rng.permutation(len(free))]
    triples = [p for p in order if counts[p] == 3]
    doubles = [p for p in order if counts[p] >= 2 and p != triples[0]]
    a, c, d = doubles[0], doubles[1], doubles[2]
    used = {a, c, d, triples[0], n1, n2}
    fillers = [p for p in order if p not in used]
    return {"A": a, "B": triples[0], "C": c, "D": d, "N1": n1, "N2": n2, "fillers": fillers}


@dataclass
class _Event:
    kind: str
    """play | pair | wrong | steal (claims name the cards; a claim after a pile reveal is a chain)."""
    player: int
    cards: list[int] = field(default_factory=list)
    chain: bool = False


def _simulate(
    piles: list[list[int]],
    faces: dict[int, str],
    n: int,
    near: tuple[str, str],
    rng: np.random.Generator,
    max_plays: int,
) -> list[_Event] | None:
    """Play the competitive game on card ids; None when three equal faces would show at once."""
    piles = [list(p) for p in piles]
    table: list[int] = []
    captures: list[list[list[int]]] = [[] for _ in range(n)]
    events: list[_Event] = []
    current, plays, wrong_done = 0, 0, False
    last_claimer = -1

    def visible() -> list[int]:
        return table + [p[0] for p in piles if p]

    def settle(chain: bool) -> bool:
        """Claims until nothing more shows; False on a triple at once."""
        nonlocal current, wrong_done, last_claimer
        while True:
            vis = visible()
            by_face: dict[str, list[int]] = {}
            for c in vis:
                by_face.setdefault(faces[c], []).append(c)
            if any(len(v) >= 3 for v in by_face.values()):
                return False
            cap_faces = {faces[cap[0]]: (p, i) for p in range(n) for i, cap in enumerate(captures[p])}
            steal = next((v[0] for f, v in by_face.items() if f in cap_faces), None)
            pair = next((v for v in by_face.values() if len(v) == 2), None)
            claimer = (last_claimer + 1 + int(rng.integers(n))) % n
            if steal is not None:
                owner, i = cap_faces[faces[steal]]
                if owner == claimer:
                    claimer = (claimer + 1) % n
                cap = captures[owner].pop(i)
                events.append(_Event("steal", claimer, [cap[-1], steal, *cap[:-1]], chain))
                taken = [steal]
                captures[claimer].append([*cap, steal])
            elif pair is not None:
                events.append(_Event("pair", claimer, list(pair), chain))
                taken = list(pair)
                captures[claimer].append(list(pair))
            elif not wrong_done and all(any(faces[c] == f for c in vis) for f in near):
                wrong_done = True
                cards = [next(c for c in vis if faces[c] == f) for f in near]
                owner = max(range(n), key=lambda p: len(captures[p]))
                claimer = owner if captures[owner] else claimer
                events.append(_Event("wrong", claimer, cards, False))
                if captures[claimer]:
                    piles[claimer].extend(captures[claimer].pop(0))
                current = claimer
                last_claimer = claimer
                return True
            else:
                return True
            from_pile = False
            for c in taken:
                if c in table:
                    table.remove(c)
                for p in piles:
                    if p and p[0] == c:
                        p.pop(0)
                        from_pile = True
            chain = from_pile  # a pile's next card shows: a claim that follows at once is a chain
            current = claimer
            last_claimer = claimer

    if not settle(False):
        return None
    while plays < max_plays and any(piles):
        if not piles[current]:
            current = (current + 1) % n
            continue
        c = piles[current].pop(0)
        table.append(c)
        events.append(_Event("play", current, [c]))
        plays += 1
        current = (current + 1) % n
        if not settle(False):
            return None
    return events


def _design(
    seed: int, n: int, pats: dict[str, object], rng: np.random.Generator
) -> tuple[list[list[int]], list[_Event], dict[int, str]]:
    """Pile orders whose play shows every kind of claim: pair, wrong, steal and a chain."""
    special = [pats["A"]] * 2 + [pats["B"]] * 3 + [pats["C"]] * 2 + [pats["D"]] * 2 + [pats["N1"], pats["N2"]]
    fillers = list(pats["fillers"])[: 3 * n + 2]  # type: ignore[call-overload]
    cards = [str(f) for f in special + fillers]
    faces = dict(enumerate(cards))
    near = (str(pats["N1"]), str(pats["N2"]))
    best: tuple | None = None
    for _ in range(1500):
        order = [int(i) for i in rng.permutation(len(cards))]
        piles = [order[p::n] for p in range(n)]
        events = _simulate(piles, faces, n, near, rng, max_plays=22)
        if events is None:
            continue
        kinds = {e.kind for e in events}
        chain = any(e.chain and e.kind in ("pair", "steal") for e in events)
        claims = sum(e.kind != "play" for e in events)
        if {"pair", "wrong", "steal"} <= kinds and chain:
            n_plays = sum(e.kind == "play" for e in events)
            score = n_plays - 2 * claims
            if best is None or score < best[0]:
                best = (score, piles, events)
    if best is None:
        raise RuntimeError(f"no Twin It demo design found for seed {seed}")
    _, piles, events = best
    return piles, events, faces


def twinit_demo_scenario(
    seed: int = 0, players: int | None = None, width: int = 1280, height: int = 720
) -> Scenario:
    """The demo table (see the module docstring). Deck seed 0; ``players`` 2..4 (default from seed)."""
    rng = np.random.default_rng([0xD3E0, seed])
    n = int(rng.integers(2, 5)) if players is None else players
    if not 2 <= n <= 4:
        raise ValueError(f"players {n}: expected 2..4")
    seats = SEAT_ORDER[:n]
    pats = _pick_patterns(seed)
    sim_piles, events, faces = _design(seed, n, pats, rng)

    base = default_base(seed, width, height)
    sc = Scenario(name=f"twinit_demo_{seed}", base=base, duration=0.0)
    looks: dict[tuple[int, bool], HandLook] = {}
    for p, seat in enumerate(seats):
        tone = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
        sleeve = tuple(int(v) for v in rng.integers(20, 235, 3))
        start = float(rng.uniform(60, 200))
        for right in (True, False):
            looks[(p, right)] = HandLook(seat, right, tone, sleeve, float(rng.uniform(0.92, 1.08)), start)
    tb = _Table(
        sc, rng, seats, looks, [list(p) for p in sim_piles], dict(faces), captures=[[] for _ in range(n)]
    )
    for p, seat in enumerate(seats):
        x, y = PILE_MM[seat]
        for depth, c in enumerate(tb.piles[p]):
            tb.put(
                0.0,
                c,
                x + float(rng.normal(0, 1.2)),
                y + float(rng.normal(0, 1.2)),
                FACING[seat] + float(rng.normal(0, 3)),
                500 - depth,
            )
    sc.actions.append(
        {
            "t": 0.0,
            "action": {
                "type": "deal",
                "piles": [len(pl) for pl in tb.piles],
                "first": 0,
                "tops": [faces[pl[0]] if pl else None for pl in tb.piles],
            },
        }
    )
    t = 1.0
    for e in events:
        if e.kind == "play":
            t, act = tb.play(t, e.player)
            sc.actions.append(act)
            t += 0.3
            continue
        w = e.player
        tops_before = [p[0] if p else None for p in tb.piles]
        if e.kind == "pair":
            t = _claim(tb, t, w, e.cards, "pair (chain reaction)" if e.chain else "pair")
            t = tb.gather(t, w, e.cards)
        elif e.kind == "steal":
            target, new, *rest = e.cards
            t = _claim(tb, t, w, [target, new], "steal")
            t = tb.gather(t, w, [*rest, target, new])
        else:  # wrong
            forfeit = [w, 0] if tb.captures[w] else None
            t = _claim(tb, t, w, e.cards, "wrong", forfeit=forfeit)
            if forfeit is not None:  # the lost capture goes under the claimer's own pile
                lost = tb.captures[w].pop(0)
                seat = seats[w]
                x, y = PILE_MM[seat]
                tb.piles[w].extend(lost)
                t = tb.carry(
                    t, w, lost, [(x + 2 * i, y - 2 * i, FACING[seat] + 2 * i) for i in range(len(lost))]
                )
                for i, c in enumerate(lost):  # slid under: below the pile
                    cur = tb.where[c]
                    tb.put(t, c, cur.x_mm, cur.y_mm, cur.angle_deg, 100 - i)
        for p, pile in enumerate(tb.piles):  # a pile whose top was taken shows its next card
            top = pile[0] if pile else None
            if top is not None and top != tops_before[p]:
                sc.actions.append(
                    {
                        "t": round(t, 3),
                        "action": {"type": "reveal", "player": p, "face": faces[top]},
                        "card_ids": [top],
                    }
                )
        t += 0.3
    t = _cooperative(tb, t + 0.5)
    sc.duration = round(t + 0.5, 3)
    sc.info = {
        "players": n,
        "seats": list(seats),
        "deck_seed": 0,
        "patterns": {k: pats[k] for k in ("A", "B", "C", "D", "N1", "N2")},
        "claims": [e.kind + (" (chain)" if e.chain else "") for e in events if e.kind != "play"],
    } | {"cooperative_score": sc.info.get("cooperative_score")}
    return sc


def _claim(
    tb: _Table,
    t: float,
    w: int,
    cids: list[int],
    expected: str,
    forfeit: list[int] | None = None,
    targets: list[tuple[float, float]] | None = None,
) -> float:
    locs = [tb.loc(c) for c in cids]
    pts = targets or [(tb.where[c].x_mm, tb.where[c].y_mm) for c in cids]
    end = tb.slap(t, w, pts[0], pts[1])
    action: dict = {"type": "claim", "player": w, "cards": locs}
    if forfeit is not None:
        action["forfeit"] = forfeit
    tb.sc.actions.append(
        {"t": round(t + 0.5, 3), "action": action, "expected": expected, "card_ids": list(cids)}
    )
    return end


def _cooperative(tb: _Table, t: float) -> float:
    """Stack every card, spread them, then lay out pairs and triples."""
    sc = tb.sc
    cids = sorted(tb.where)
    seat0 = 0
    # stack in the middle: cards slide in one after another while two hands sweep
    for right in (True, False):
        x = 60.0 if right else -60.0
        tb.hand(
            seat0,
            right,
            [
                (t, None),
                (t + 0.7, tb.pose(seat0, right, x, 20.0, 20.0)),
                (t + 2.6, tb.pose(seat0, right, x * 0.3, 0.0, 20.0)),
                (t + 3.3, None),
            ],
        )
    for i, c in enumerate(cids):
        cur = tb.where[c]
        t0 = t + 0.5 + 0.06 * i
        sc.card_key(t0, cur)
        tb.put(
            t0 + 0.8,
            c,
            float(tb.rng.normal(0, 1.5)),
            float(tb.rng.normal(0, 1.5)),
            float(tb.rng.normal(0, 4)),
            2000 + i,
        )
    t = t + 0.5 + 0.06 * len(cids) + 1.2
    # spread: apart, anywhere in the middle of the table
    spread = _layout(tb.rng, "scattered", "twinit", len(cids), (-290.0, -130.0, 290.0, 130.0))
    while len(spread) < len(cids):  # a crowded table: the rest lie at the edge
        spread.append((-380.0 + 55 * (len(spread) % 14), 230.0, 0.0, True))
    order = [int(i) for i in tb.rng.permutation(len(cids))]
    for k, i in enumerate(order):
        c = cids[i]
        x, y, a, _ = spread[k]
        sc.card_key(t + 0.03 * k, tb.where[c])
        tb.put(t + 0.03 * k + 1.0, c, x, y, a, 3000 + k)
    spread_ids = {cids[i]: k for k, i in enumerate(order)}
    faces_in_order = [tb.faces[cids[i]] for i in order]
    sc.actions.append(
        {
            "t": round(t + 1.0 + 0.03 * len(cids), 3),
            "phase": "cooperative",
            "action": {"type": "start", "faces": faces_in_order},
            "card_ids": [cids[i] for i in order],
        }
    )
    t = t + 1.5 + 0.03 * len(cids)
    # lay out sets along the bottom and top edges
    groups: dict[str, list[int]] = {}
    for c in cids:
        groups.setdefault(tb.faces[c], []).append(c)
    sets = [g for g in groups.values() if len(g) >= 2]
    score = 0
    n = len(tb.seats)
    for s_i, group in enumerate(sets):
        p = s_i % n
        seat = tb.seats[p]
        bx, by = {
            "bottom": (-250.0, 170.0),
            "top": (250.0, -180.0),
            "left": (-390.0, -150.0),
            "right": (390.0, 150.0),
        }[seat]
        step = {"bottom": (100.0, 0.0), "top": (-100.0, 0.0), "left": (0.0, 100.0), "right": (0.0, -100.0)}[
            seat
        ]
        k = s_i // n
        x, y = bx + step[0] * k, by + step[1] * k
        group = group[:3]
        targets = [(x + 12 * j, y + 4 * j, FACING[seat] + 4 * j) for j in range(len(group))]
        locs = [{"table": spread_ids[c]} for c in group]
        sc.actions.append(
            {
                "t": round(t + 0.5, 3),
                "phase": "cooperative",
                "action": {"type": "claim", "players": [p] * len(group), "cards": locs},
                "expected": "triple" if len(group) == 3 else "pair",
                "card_ids": list(group),
            }
        )
        score += 2 if len(group) == 3 else 1
        for j, c in enumerate(group):
            t = tb.carry(t, p, [c], [targets[j]], right=j % 2 == 0, fast=True) - 0.6
        t += 0.8
    sc.info["cooperative_score"] = score
    return t
