"""Plays complete Rat-a-Tat Roll games with a seeded random table and writes the example logs.

Run ``python tests/games/ratatat_logbot.py`` to regenerate ``tests/games/logs/ratatat-*.jsonl`` and their
``.expected.json`` sidecars. The bot deals real hidden cards from the deck so the final reveal is consistent.
"""

import json
import random
from pathlib import Path
from typing import Any

from companion.games.base import Player, Setup
from companion.games.ratatat import ENGINE
from companion.journal.replay import dump_lines


def play(names: list[str], settings: dict[str, Any], seed: int, p_balloon: float = 0.25) -> tuple[Any, list[Any], Any]:
    """One complete game: (setup, actions, final state)."""
    rng = random.Random(seed)
    setup = Setup("ratatat", tuple(Player(n, seat=i + 1) for i, n in enumerate(names)), settings, seed)
    s = ENGINE.setup(setup)
    actions = []
    deck_left = {int(v): c for v, c in s["deck"].items()}

    def draw():
        pool = [v for v, c in deck_left.items() for _ in range(c)]
        v = rng.choice(pool)
        deck_left[v] -= 1
        return v

    # secret starting cards + every pile card: known only to the generator, entered at the reveal
    hands = [[draw()] for _ in names]
    while not ENGINE.is_over(s):
        legal = ENGINE.legal(s)
        me = s["current"]
        if "reveal" in legal:
            r = s["to_reveal"][0]
            a = {"type": "reveal", "region": r, "value": draw(), "balloon": rng.random() < p_balloon}
        elif "hand" in legal:
            name = next(n for n in names if n not in s["hands"])
            a = {"type": "hand", "player": name, "values": hands[names.index(name)]}
        elif "roll" in legal:
            a = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(rng.randint(1, 3))]}
        elif "reroll" in legal and rng.random() < 0.3:
            if s["phase"] == "picture_rolled":
                a = {"type": "reroll", "picture": rng.choice(s["picture_faces"])}
            else:
                idx = sorted(rng.sample(range(len(s["dice"])), rng.randint(1, len(s["dice"]))))
                a = {"type": "reroll", "indices": idx, "values": [rng.randint(1, 6) for _ in idx]}
        elif "move" in legal:
            a = {"type": "move"}
        elif "pass" in legal:
            a = {"type": "pass"} if rng.random() < 0.5 else {"type": "picture", "face": rng.choice(s["picture_faces"])}
        elif "picture" in legal:
            a = {"type": "picture", "face": rng.choice(s["picture_faces"])}
        elif "take_pile" in legal and rng.random() < 0.3:
            a = {"type": "take_pile", "balloon": rng.random() < 0.25}
        elif "take_region" in legal:
            if s["phase"] == "picture_rolled":
                a = {"type": "take_region", "region": rng.choice(ENGINE.picture_choices(s))}
            else:
                a = {"type": "take_region"}
        elif "swap" in legal:
            if rng.random() < 0.5:
                other = rng.choice([i for i in range(len(names)) if i != me])
                a = {
                    "type": "swap",
                    "mine": rng.randrange(len(s["rows"][me])),
                    "other": names[other],
                    "theirs": rng.randrange(len(s["rows"][other])),
                }
            else:
                a = {"type": "no_swap"}
        elif "give_back" in legal:
            a = {"type": "give_back", "card": rng.randrange(len(s["rows"][me]) - 1)}
        elif "look" in legal:
            a = {"type": "look", "at": "own"}
        else:
            a = {"type": legal[0]}
        before = s
        s = ENGINE.apply(s, a)
        actions.append(a)
        # mirror the hidden card movements for the final reveal
        if a["type"] == "take_region":
            r = a.get("region")
            if r is None:
                r = before["board"]["spaces"][before["landing"]]["region"]
            hands[me].append(before["face_up"][r]["value"])
        elif a["type"] == "take_pile":
            hands[me].append(draw())
        elif a["type"] == "swap":
            o = names.index(a["other"])
            hands[me][a["mine"]], hands[o][a["theirs"]] = hands[o][a["theirs"]], hands[me][a["mine"]]
        elif a["type"] == "give_back":
            v = hands[me].pop(a["card"])
            deck_left[v] += 1
        if s["reshuffles"] > before["reshuffles"]:  # the five face-up cards went back into the pile
            for c in before["face_up"]:
                if c is not None:
                    deck_left[c["value"]] += 1
            deck_left[a["value"]] += 1
    return setup, actions, s


OUT = Path(__file__).parent / "logs"
GAMES = [
    ("ratatat-3p-korean", ["Ana", "Bob", "Cid"], {}, 11),
    ("ratatat-2p-english", ["Mia", "Noah"], {"edition": "en", "first_player": 1, "start": 2}, 5),
    ("ratatat-5p-korean", ["Ana", "Bob", "Cid", "Dee", "Eve"], {}, 3),
    ("ratatat-4p-balloons", ["Ana", "Bob", "Cid", "Dee"], {}, 8),
]


def main() -> None:
    """Write every example game and its expected result."""
    for name, names, settings, seed in GAMES:
        setup, actions, s = play(names, settings, seed, 0.5 if "balloons" in name else 0.25)
        (OUT / f"{name}.jsonl").write_text("\n".join(dump_lines(setup, actions)) + "\n")
        exp = {
            "actions": len(actions),
            "scores": ENGINE.scores(s),
            "row_sizes": [len(r) for r in s["rows"]],
            "bank": s["bank"],
            "tokens": s["tokens"],
            "statue": s["statue"],
            "reshuffles": s["reshuffles"],
            "pile": s["pile"],
        }
        (OUT / f"{name}.expected.json").write_text(json.dumps(exp, indent=1) + "\n")
        print(name, len(actions), exp["scores"])


if __name__ == "__main__":
    main()
