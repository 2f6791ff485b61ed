"""Ratuki's calls as the engine reads them and the screen words them: presses by seat, the tie window's
refusals, the verdict claim a call carries and its check, and what a round's calls add up to (stacks and ties
per player, the round clock)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    Action,
    is_whole,
    require,
)
from companion.games.ratuki.referee import SEPARATE, TAKE, Press, Verdict, micros, valid_tick
from companion.games.ratuki.state import (
    RatukiState,
)
from companion.games.ratuki.wording import verdict_line
from companion.i18n import _


def player_for_seat(state: Mapping[str, Any], seat: int) -> dict[str, Any] | None:
    """The player dict sitting at ``seat`` (None if nobody)."""
    for player in state["players"]:
        if player["seat"] == seat:
            return dict(player)
    return None


def describe_verdict(state: Mapping[str, Any], verdict: Verdict) -> str:
    """:func:`verdict_line` for a verdict, with the players' names."""
    names = [seat_name(state, s) for s in verdict.seats]
    runner = seat_name(state, verdict.runner_up) if verdict.runner_up is not None else None
    return verdict_line(verdict.kind, names, verdict.margin_ms, runner)


def claim_for(state: Mapping[str, Any], verdict: Verdict) -> dict[str, Any]:
    """The ``verdict`` claim the screen puts in a call action (checked by the engine, read by describe)."""
    claim: dict[str, Any] = {
        "kind": verdict.kind,
        "seats": list(verdict.seats),
        "names": [seat_name(state, s) for s in verdict.seats],
    }
    if verdict.margin_ms is not None and verdict.runner_up is not None:
        claim["margin_ms"] = verdict.margin_ms
        claim["runner_up_name"] = seat_name(state, verdict.runner_up)
    return claim


def round_stats(state: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Stacks taken and ties per player name in the current round's calls."""
    stats = {p["name"]: {"stacks": 0, "ties": 0} for p in state["players"]}
    for call in state["calls"]:
        verdict = call["verdict"]
        for seat in verdict["seats"]:
            stats[seat_name(state, seat)]["stacks" if verdict["kind"] in (TAKE, SEPARATE) else "ties"] += 1
    return stats


def clock_seconds(state: Mapping[str, Any], now: float | None) -> float:
    """Round clock reading: elapsed time, plus ``now - since`` while running (never negative)."""
    clock = state["clock"]
    elapsed = float(clock["elapsed"])
    if clock["since"] is not None and now is not None:
        elapsed += max(0.0, now - clock["since"])
    return elapsed


def seat_mismatch(seat: object, name: str, claimed: object) -> str:
    """The refusal of an action whose name is not the seat's."""
    return _("seat {seat} is {name}, not {claimed!r}").format(seat=seat, name=name, claimed=claimed)


def tick_arg(action: Action, key: str) -> float:
    """``action[key]`` as a tick in seconds, else :class:`IllegalAction`."""
    value = action.get(key)
    require(valid_tick(value), _("{key} must be a number of seconds, not {value!r}").format(key=key, value=value))
    return float(value)  # type: ignore[arg-type]


def seat_name(state: Mapping[str, Any], seat: object) -> str:
    """The name of the player at ``seat``, else :class:`IllegalAction`."""
    require(is_whole(seat), _("seat must be a whole number, not {value!r}").format(value=seat))
    player = player_for_seat(state, seat)  # type: ignore[arg-type]
    require(player is not None, _("nobody sits at seat {seat}").format(seat=seat))
    assert player is not None
    return str(player["name"])


def parse_presses(state: RatukiState, raw: object, key: str) -> list[Press]:
    """A call's presses (``key``: presses or late) in tick order; each seat once."""
    require(isinstance(raw, list), _("'{key}' must be a list of {{seat, tick}} presses").format(key=key))
    assert isinstance(raw, list)
    out: list[Press] = []
    seen: set[int] = set()
    for item in raw:
        require(isinstance(item, dict), _("each of '{key}' must be an object with seat and tick").format(key=key))
        name = seat_name(state, item.get("seat"))
        require(valid_tick(item.get("tick")), _("{name}'s press needs a tick in seconds").format(name=name))
        require(item["seat"] not in seen, _("{name} appears twice in one call: a button counts once").format(name=name))
        seen.add(item["seat"])
        out.append(Press(float(item["tick"]), item["seat"]))
    return sorted(out)


def outside_reason(state: RatukiState, presses: list[Press], window: int) -> str:
    """Why a press is not part of the call: the first one outside the tie window."""
    first = presses[0]
    for press in presses[1:]:
        gap = micros(press.tick - first.tick) / 1000
        if micros(press.tick - first.tick) > window * 1000:
            return _(
                "{name} pressed {gap} ms after {first}, outside the {window} ms tie window: that press cannot be "
                "part of this call"
            ).format(
                name=seat_name(state, press.seat), gap=f"{gap:.0f}", first=seat_name(state, first.seat), window=window
            )
    return _("a press is outside the tie window")


def check_claim(state: RatukiState, claim: object, verdict: Verdict) -> None:
    """A recorded verdict claim must follow from the presses and the settings."""
    require(isinstance(claim, dict), _("the verdict claim must be an object"))
    assert isinstance(claim, dict)
    derived = describe_verdict(state, verdict)
    require(isinstance(claim.get("seats", []), list), _("the verdict claim's seats must be a list of seat numbers"))
    require(
        claim.get("kind") == verdict.kind and list(claim.get("seats", [])) == list(verdict.seats),
        _("the recorded verdict does not follow from the presses and the settings (they say: {verdict})").format(
            verdict=derived
        ),
    )
    names = claim.get("names")
    if names is not None:
        require(names == [seat_name(state, s) for s in verdict.seats], _("the verdict's names do not match the seats"))
    if "margin_ms" in claim or "runner_up_name" in claim:
        runner = seat_name(state, verdict.runner_up) if verdict.runner_up is not None else None
        require(
            claim.get("margin_ms") == verdict.margin_ms and claim.get("runner_up_name") == runner,
            _("the recorded margin does not follow from the late presses (they say: {verdict})").format(
                verdict=derived
            ),
        )
