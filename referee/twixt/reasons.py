"""Bilingual (English, French) rulings of the Twixt referee, one function per reason."""

from __future__ import annotations

from referee.french import de
from referee.types import JSON, Reason, Ruling, refused, valid

_FR_PEGS = {
    "red": "rouges",
    "black": "noirs",
    "white": "blancs",
    "grey": "gris",
    "gray": "gris",
    "blue": "bleus",
    "green": "verts",
    "yellow": "jaunes",
}
"""Common colour names, in French as they qualify "les picots" (plural masculine)."""


def pegs_fr(colour: str) -> str:
    """``"les picots rouges"`` for red; an uncommon colour keeps its given name."""
    return f"les picots {_FR_PEGS.get(colour.lower(), colour)}"


def game_over() -> Ruling:
    return refused("game_over", "The game is over.", "La partie est terminée.")


def not_your_turn(name: str) -> Ruling:
    return refused("not_your_turn", f"It is not {name}'s turn.", f"Ce n'est pas au tour {de(name)}.")


def already_placed(name: str) -> Ruling:
    return refused(
        "already_placed",
        f"{name} has already placed a peg this turn.",
        f"{name} a déjà placé un picot ce tour-ci.",
    )


def off_board(hole: str, size: int) -> Ruling:
    return refused(
        "off_board",
        f"{hole} is not on the {size} x {size} board.",
        f"{hole} n'est pas sur le plateau {size} x {size}.",
    )


def corner(hole: str) -> Ruling:
    return refused(
        "corner",
        f"{hole} is a corner: corners take no peg.",
        f"{hole} est un coin : on n'y place pas de picot.",
    )


def occupied(hole: str) -> Ruling:
    return refused("occupied", f"{hole} already holds a peg.", f"{hole} est déjà occupé par un picot.")


def opponent_border(hole: str, name: str, other: str) -> Ruling:
    return refused(
        "opponent_border",
        f"{hole} is on {other}'s border: {name} may not peg there.",
        f"{hole} est sur un bord {de(other)} : {name} ne peut pas y placer de picot.",
    )


def peg_first(name: str) -> Ruling:
    return refused(
        "peg_first",
        f"{name} must place a peg before changing links.",
        f"{name} doit placer son picot avant de toucher aux liens.",
    )


def not_own_peg(hole: str, name: str) -> Ruling:
    return refused(
        "not_own_peg", f"{hole} holds no peg of {name}.", f"Il n'y a pas de picot {de(name)} en {hole}."
    )


def not_knight(a: str, b: str) -> Ruling:
    return refused(
        "not_knight",
        f"{a} and {b} are not a knight's move apart.",
        f"{a} et {b} ne sont pas à un saut de cavalier l'un de l'autre.",
    )


def link_exists(link: str) -> Ruling:
    return refused("link_exists", f"{link} is already linked.", f"{link} est déjà relié.")


def crosses_opponent(link: str, other: str, theirs: str) -> Ruling:
    return refused(
        "crosses_opponent",
        f"{link} would cross {other}'s link {theirs}.",
        f"{link} croiserait le lien {theirs} {de(other)}.",
        crossed=theirs,
    )


def crosses_own(link: str, name: str, own: str) -> Ruling:
    return refused(
        "crosses_own",
        f"{link} would cross {name}'s own link {own}: standard rules forbid it (remove {own} first).",
        f"{link} croiserait le lien {own} {de(name)} : les règles standard l'interdisent "
        f"(retirez d'abord {own}).",
        crossed=own,
    )


def no_removal() -> Ruling:
    return refused(
        "no_removal",
        "Links are never removed under the PP rules.",
        "Avec les règles PP, on ne retire pas de lien.",
    )


def no_such_link(link: str, name: str) -> Ruling:
    return refused("no_such_link", f"{name} has no link {link}.", f"{name} n'a pas de lien {link}.")


def not_own_link(link: str, name: str) -> Ruling:
    return refused(
        "not_own_link",
        f"{link} is not {name}'s link: only own links may be removed.",
        f"{link} n'est pas un lien {de(name)} : on ne retire que ses propres liens.",
    )


def no_pie() -> Ruling:
    return refused("no_pie", "The pie rule is off in this game.", "La règle du gâteau n'est pas en jeu.")


def swap_unavailable() -> Ruling:
    return refused(
        "swap_unavailable",
        "Only the second player may swap, right after the first peg.",
        "Seul le second joueur peut échanger, juste après le premier picot.",
    )


def cannot_pass(name: str) -> Ruling:
    return refused(
        "cannot_pass",
        f"{name} still has holes to peg and may not pass.",
        f"{name} a encore des trous où placer un picot et ne peut pas passer.",
    )


def peg_placed(name: str, hole: str, new_links: list[str], /, **details: JSON) -> Ruling:
    en = f"{name} pegs {hole}"
    fr = f"{name} place un picot en {hole}"
    if new_links:
        en += f" and links {', '.join(new_links)}"
        fr += f" et relie {', '.join(new_links)}"
    return valid("peg", en + ".", fr + ".", **details)


def linked(name: str, link: str, /, **details: JSON) -> Ruling:
    return valid("link", f"{name} links {link}.", f"{name} relie {link}.", **details)


def unlinked(name: str, link: str, /, **details: JSON) -> Ruling:
    return valid("unlink", f"{name} removes the link {link}.", f"{name} retire le lien {link}.", **details)


def swapped(name: str, other: str, colour: str, other_colour: str, hole: str, /, **details: JSON) -> Ruling:
    return valid(
        "swap",
        f"{name} swaps: the peg at {hole} stays and becomes {name}'s; {name} now plays {colour}, "
        f"{other} plays {other_colour} and moves next.",
        f"{name} échange : le picot en {hole} reste et devient celui {de(name)} ; {name} joue maintenant "
        f"avec {pegs_fr(colour)} ; {other} prend {pegs_fr(other_colour)} et joue le coup suivant.",
        **details,
    )


def passed(name: str, /, **details: JSON) -> Ruling:
    return valid(
        "pass",
        f"{name} has no hole left to peg and passes.",
        f"{name} n'a plus de trou libre et passe.",
        **details,
    )


def resigned(name: str, other: str, /, **details: JSON) -> Ruling:
    return valid("resign", f"{name} resigns: {other} wins.", f"{name} abandonne : {other} gagne.", **details)


def agreed_draw(**details: JSON) -> Ruling:
    return valid(
        "agree_draw", "The players agree to a draw.", "Les joueurs conviennent d'une partie nulle.", **details
    )


def with_ending(ruling: Ruling, reason: Reason) -> Ruling:
    """``ruling`` with the sentence of the game's end appended (a win or a proven draw)."""
    return Ruling(
        ruling.verdict,
        Reason(reason.code, f"{ruling.reason.en} {reason.en}", f"{ruling.reason.fr} {reason.fr}"),
        ruling.applies,
        ruling.details,
    )


def connection(name: str) -> Reason:
    return Reason(
        "connection",
        f"A chain of links joins {name}'s two borders: {name} wins.",
        f"Une chaîne de liens relie les deux bords {de(name)} : {name} gagne.",
    )


def no_connection() -> Reason:
    return Reason(
        "no_connection",
        "Neither player can connect their borders any more: the game is drawn.",
        "Aucun joueur ne peut plus relier ses bords : la partie est nulle.",
    )


def resignation(name: str, other: str) -> Reason:
    return Reason("resignation", f"{name} resigned: {other} wins.", f"{name} a abandonné : {other} gagne.")


def draw_agreed() -> Reason:
    return Reason("agreed_draw", "Draw agreed by the players.", "Partie nulle d'un commun accord.")
