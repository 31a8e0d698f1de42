"""Twin It's table geometry: which hidden cards two arm tips lie on, and when a hand touches a card."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tests.web.tableobs import H, W, card, hand_on, obs
from web.adapters.twinit_table import (
    Spot,
    alone_in_reach,
    card_at_tip,
    clipped,
    hand_off_the_cards,
    hidden_under_hands,
    nearest,
    past_the_tip,
    tip_pair,
    touched_by_hands,
    visible_spots,
)


def spot(x: float, y: float) -> Spot:
    quad = np.array([[x - 36, y - 36], [x + 36, y - 36], [x + 36, y + 36], [x - 36, y + 36]])
    return Spot(np.array([x, y], np.float64), quad, np.zeros((8, 8, 3), np.uint8), 0)


def test_an_arm_tip_never_takes_a_card_lying_past_it() -> None:
    """Seed 5's first slap as vision saw it: Ben's long arm from the top crosses the table card on
    its way to Ana's pile; his other hand lies on his own pile, its fingers reaching down short of
    the table card. The table card lies past that tip: it is not under that hand."""
    table, ana, ben = spot(590, 358), spot(525, 635), spot(744, 108)
    hidden = {0: (1, "top"), 1: (1, "top"), 2: (2, "top")}
    tips = [(np.array([586.0, 718.0]), "top", 0.0), (np.array([720.0, 300.0]), "top", 0.0)]
    assert tip_pair(tips, hidden, [table, ana, ben], 72.0) == [1, 2]


def test_a_hand_on_a_pile_whose_fingers_lie_on_the_next_card_takes_the_pile() -> None:
    """Seed 2's slap at 56.3 s as vision saw it: Ben (top) lays one hand on his pile by his edge,
    its fingertips on the centre of the table card below it, the other hand on Chloe's pile (left).
    The card under the fingertips is not the claimed one: the pile under the palm is."""
    ben, table, chloe = spot(713, 100), spot(690, 265), spot(152, 317)
    hidden = {0: (1, "top"), 1: (1, "top"), 2: (1, "top")}
    tips = [(np.array([700.0, 275.0]), "top", 0.0), (np.array([160.0, 490.0]), "top", 0.0)]
    assert tip_pair(tips, hidden, [ben, table, chloe], 72.0) == [0, 2]
    # with no hidden card where a palm would lie, the card under the fingertips is the one
    assert tip_pair(tips, {1: (1, "top"), 2: (1, "top")}, [ben, table, chloe], 72.0) == [1, 2]


def test_a_whole_hand_lies_on_the_card_under_its_palm_not_the_one_under_its_fingers() -> None:
    """Offline replays as vision saw them: the palm lies on the claimed card 2.2 to 3.5 cards behind
    the fingertips, the fingers over the next card a card or so from the tip; the nearest card to
    the tip was claimed instead (seed 2 at 69.7 s, seed 4 at 67.2 s, seed 1 at 39.8 s)."""
    size = (W, H)
    # seed 2, 69.7 s: Ben (top), fingers on the table card at (887, 340), palm on the one at (875, 247)
    fingers, beside, palm, chloe = spot(887, 340), spot(778, 255), spot(875, 247), spot(160, 314)
    hidden = {0: (1, "top"), 1: (1, "top"), 2: (1, "top"), 3: (2, "top")}
    tips = [(np.array([134.0, 486.0]), "top", 0.0), (np.array([878.0, 434.0]), "top", 0.0)]
    assert tip_pair(tips, hidden, [fingers, beside, palm, chloe], 68.0, size) == [2, 3]
    # seed 4, 67.2 s: an arm from the bottom, fingers on (881, 270), palm on (886, 361); beside it (788, 361)
    fingers, beside, palm, pile = spot(881, 270), spot(788, 361), spot(886, 361), spot(174, 280)
    hidden = {0: (1, "bottom"), 1: (1, "bottom"), 2: (1, "bottom"), 3: (2, "bottom")}
    tips = [(np.array([174.0, 114.0]), "bottom", 0.0), (np.array([858.0, 198.0]), "bottom", 0.0)]
    assert tip_pair(tips, hidden, [fingers, beside, palm, pile], 68.0, size) == [2, 3]
    # seed 1, 39.8 s: the fingertips just past a table card's centre, the palm on the pile 3 cards
    # behind (farther from the tip than a fingertip reaches); the other hand's tip cut off by the
    # image's bottom edge lies on its pile 1.1 cards behind it
    fingers, pile_1, pile_0 = spot(684, 263), spot(722, 88), spot(551, 645)
    hidden = {0: (1, "top"), 1: (1, "top"), 2: (1, "top")}
    tips = [(np.array([566.0, 718.0]), "top", 0.0), (np.array([670.0, 294.0]), "top", 0.0)]
    assert tip_pair(tips, hidden, [fingers, pile_1, pile_0], 68.0, size) == [1, 2]


def test_a_tip_cut_off_by_the_image_edge_takes_the_card_nearest_it() -> None:
    """A hand reaching past the image's edge: its palm lies nearer the tip the image shows than a
    whole hand's would, so the card nearest that tip is the hand's (the clipped tips of the offline
    replays lay 1.1 to 1.6 cards from their claimed cards); the same tip seen whole takes the card
    where its palm lies."""
    near, far = spot(690, 650), spot(713, 480)
    hidden = {0: (1, "top"), 1: (1, "top")}
    tip = np.array([700.0, 716.0])
    assert clipped(tip, "top", (W, H)) and not clipped(tip, "top", (W, H + 40))
    assert card_at_tip(tip, "top", hidden, [near, far], 72.0, (W, H)) == 0
    assert card_at_tip(tip, "top", hidden, [near, far], 72.0, (W, H + 40)) == 1
    assert card_at_tip(tip, "top", hidden, [near, far], 72.0) == 1  # the image's size not known


def test_past_the_tip_is_measured_from_the_arm_s_edge() -> None:
    tip = np.array([100.0, 100.0])
    beyond = {"top": (100, 130), "bottom": (100, 70), "left": (130, 100), "right": (70, 100)}
    for seat, point in beyond.items():
        assert past_the_tip(tip, seat, np.array(point, np.float64)) == 30.0
        assert past_the_tip(tip, seat, 2 * tip - np.array(point, np.float64)) == -30.0


def test_a_hand_touching_a_card_s_corner_touches_it() -> None:
    target = card(1, "twinit:p035", 640, 360)
    far = card(2, "twinit:p047", 200, 360)
    hand = hand_on(1, "bottom", target)
    assert touched_by_hands(obs(1, 0.0, [target, far], hands=(hand,)), target.quad)
    assert not touched_by_hands(obs(1, 0.0, [target, far], hands=(hand,)), far.quad)
    mask = np.zeros((720, 1280), bool)
    mask[395:720, 675:700] = True  # a finger on the card's lower right corner, not its centre
    view = replace(obs(1, 0.0, [target, far]), hand_mask=mask)
    assert touched_by_hands(view, target.quad) and not touched_by_hands(view, far.quad)


def test_a_card_the_hands_mask_rings_all_round_is_hidden_though_a_card_is_seen_there() -> None:
    """Seed 3's slap at 26.1 s: the player's palms are the colour of the cards' paper; the hands'
    mask leaves a hole over each card and the finder finds a card there, so the slap was never
    seen. The mask all round the card's outline says a hand lies on it. A card beside the arm,
    its outline masked on one side only, stays in sight."""
    under, beside = card(1, "twinit:p035", 640, 500), card(2, "twinit:p047", 640, 300)
    snapshot = visible_spots(obs(1, 0.0, [under, beside]))
    mask = np.zeros((H, W), bool)
    mask[430:H, 560:720] = True  # the arm from the bottom edge, the palm over the lower card
    mask[462:539, 602:679] = False  # the palm's hole: the card's own colour
    mask[250:350, 560:590] = True  # the other arm's sleeve along the upper card's left side
    hand = replace(hand_on(1, "bottom", under), covers=())
    seen = replace(obs(2, 0.1, [under, beside], hands=(hand,)), hand_mask=mask)
    assert hidden_under_hands(seen, snapshot, 20.0) == {0: (1, "bottom")}
    plain = replace(seen, hand_mask=np.zeros((H, W), bool))
    assert hidden_under_hands(plain, snapshot, 20.0) == {}


def test_two_hands_on_a_pair_among_more_hidden_cards_claim_it_when_the_others_lie_out_of_reach() -> None:
    """Seed 0's wrong claim at 64.4 s as vision saw it when it was judged: Ben's two hands lie on
    a table card and Chloe's pile, his arms hide two more cards far behind his fingertips. Only
    the two cards under his palms are within a hand's reach: the claim is theirs (a penalty may
    rest on them). A card beside a palm (seed 1 at 77.9 s), or a claimed card under the fingers
    rather than the palm (seed 0 at 77.8 s: the palm's card unseen), leaves it to the table."""
    size = (W, H)
    table, pile, arm_1, arm_2 = spot(490, 356), spot(161, 257), spot(494, 260), spot(556, 93)
    snapshot = [table, pile, arm_1, arm_2]
    hidden = dict.fromkeys(range(4), (1, "top"))
    tips = [
        (np.array([118.0, 426.0]), "top", 0.0),
        (np.array([158.0, 426.0]), "top", 0.0),
        (np.array([434.0, 534.0]), "top", 0.0),
    ]
    assert tip_pair(tips, hidden, snapshot, 70.0, size) == [0, 1]
    assert alone_in_reach(tips, [0, 1], hidden, snapshot, 70.0, size)
    # another hidden card beside the table card's palm: which two is the table's call
    beside = spot(400, 356)
    assert not alone_in_reach(tips, [0, 1], {**hidden, 4: (1, "top")}, [*snapshot, beside], 70.0, size)
    # seed 1, 77.9 s: an arm from the left, its palm between the claimed table card and another
    pile_1, claimed, other = spot(728, 87), spot(796, 439), spot(696, 451)
    tips = [(np.array([850.0, 62.0]), "left", 0.0), (np.array([922.0, 458.0]), "left", 0.0)]
    hidden = dict.fromkeys(range(3), (1, "left"))
    assert not alone_in_reach(tips, [0, 1], hidden, [pile_1, claimed, other], 70.0, size)
    # seed 0, 77.8 s: the card an arm tip found lies under its fingers, a card from the tip
    fingers, pile_1 = spot(141, 581), spot(750, 96)
    tips = [(np.array([738.0, 2.0]), "bottom", 0.0), (np.array([142.0, 510.0]), "bottom", 0.0)]
    hidden = dict.fromkeys(range(3), (1, "bottom"))
    far = spot(791, 364)
    assert tip_pair(tips, hidden, [fingers, pile_1, far], 70.0, size) == [0, 1]
    assert not alone_in_reach(tips, [0, 1], hidden, [fingers, pile_1, far], 70.0, size)


def test_nearest_is_the_closest_spot_within_reach_and_visible_spots_are_made_once_per_frame() -> None:
    spots = [spot(100, 100), spot(300, 100), spot(200, 400)]
    assert nearest(spots, np.array([290.0, 110.0]), 20.0) == 1
    assert nearest(spots, np.array([200.0, 250.0]), 20.0) is None
    assert nearest(spots, np.array([200.0, 250.0]), 160.0) == 2
    assert nearest([], np.array([0.0, 0.0]), 1e9) is None
    view = obs(1, 0.0, [card(1, "twinit:p035", 640, 360), card(2, "twinit:p047", 200, 360)])
    first, second = visible_spots(view), visible_spots(view)
    assert first is not second and [s.track for s in first] == [s.track for s in second] == [1, 2]
    first.append(spot(0, 0))  # a caller's list is its own
    assert len(visible_spots(view)) == 2
    moved = obs(2, 0.1, [card(1, "twinit:p035", 500, 360)])
    assert [tuple(s.center) for s in visible_spots(moved)] == [(500.0, 360.0)]


def test_one_hand_s_fingertips_point_its_palm_from_their_middle() -> None:
    """Seed 5's slap at 47.9 s as vision saw it: Ana's right hand (from the bottom) shows two
    fingertips 44 px apart above two table cards side by side; its palm lies on the right one.
    From the first fingertip alone the palm lies as near the left card; from their middle it lies
    on the right one."""
    snapshot = [spot(690, 362), spot(594, 264), spot(692, 267), spot(149, 474), spot(168, 262)]
    hidden = dict.fromkeys(range(5), (1, "bottom"))
    tips = [
        (np.array([170.0, 94.0]), "bottom", 0.0),
        (np.array([642.0, 98.0]), "bottom", 0.0),
        (np.array([686.0, 98.0]), "bottom", 0.0),
    ]
    assert tip_pair(tips, hidden, snapshot, 68.0, (W, H)) == [2, 4]


def test_a_hand_cut_off_by_the_image_edge_showing_two_tips_is_one_hand() -> None:
    """Seed 7's steal at 69.4 s as vision saw it (not a bench game): Ben (top) reaches past the
    bottom edge with both hands, one on Ana's pile, the other on her capture; that hand's cut along
    the edge splits in two tips 1.7 cards apart, both on the capture. One hand: the pair is the pile
    and the capture (before: two hands on one card, no pair, and the claim was missed)."""
    size = (W, H)
    centres = {2: (492, 354), 6: (885, 369), 10: (499, 264), 11: (947, 657), 13: (530, 626), 14: (521, 624)}
    snapshot = [spot(*centres.get(i, (1000 + 30 * i, 60))) for i in range(15)]
    hidden = dict.fromkeys(centres, (1, "top"))
    tips = [(np.array([x, 718.0]), "top", 0.0) for x in (538.0, 838.0, 950.0)]
    assert tip_pair(tips, hidden, snapshot, 67.2, size) == [11, 13]
    # the same two tips seen whole (the image taller): two hands on one card, no pair
    assert tip_pair(tips, hidden, snapshot, 67.2, (W, H + 200)) is None
    # cut off, but farther apart than one hand is wide: two hands on one card, no pair
    wide = [tips[0], (np.array([760.0, 718.0]), "top", 0.0), tips[2]]
    assert tip_pair(wide, hidden, snapshot, 67.2, size) is None


def test_two_hands_landed_one_where_no_known_card_lies() -> None:
    """Seed 7's slap at 28.6 s as vision saw it: Ben (top) lays one hand on his pile, the other on
    Ana's pile past the bottom edge, a card the finder lost; his arm hides a table card on the way.
    One hand lies on no card the referee knows: the pair is not the two hidden cards (the table was
    asked about the table card and his pile)."""
    size = (W, H)
    snapshot = [spot(300, 100), spot(400, 100), spot(492, 354), spot(600, 100), spot(740, 116)]
    hidden = {2: (1, "top"), 4: (1, "top")}
    tips = [(np.array([526.0, 718.0]), "top", 0.0), (np.array([722.0, 278.0]), "top", 0.0)]
    assert tip_pair(tips, hidden, snapshot, 69.4, size) is None
    assert hand_off_the_cards(tips, hidden, snapshot, 69.4, size)
    # Ana's pile known and hidden: both hands on cards
    snapshot.append(spot(527, 622))
    assert not hand_off_the_cards(tips, {**hidden, 5: (1, "top")}, snapshot, 69.4, size)
    # one hand alone (one arm's tips) lies on no card: not this sign
    assert not hand_off_the_cards(tips[:1], hidden, snapshot, 69.4, size)
    # nor another player's hand (from another edge) lying on no card
    other = [(tips[0][0], "bottom", 0.0), tips[1]]
    assert not hand_off_the_cards(other, hidden, snapshot[:5], 69.4, size)
