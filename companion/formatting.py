"""Dates, times, numbers and durations in the current language's own way (CLDR data through Babel): "3 dic.
2026", "2026. 12. 3.", "1.234", "1,5 s", "fa 3 hores". Every number with a decimal or a thousands separator, every
date and every duration on screen goes through here."""

from __future__ import annotations

import datetime as _dt

from babel import dates as _dates
from babel import numbers as _numbers

from companion.i18n import current_locale


def number(value: float, *, decimals: int | None = None) -> str:
    """``1234.5`` -> "1,234.5" / "1.234,5" (``decimals`` fixes the number of digits after the point)."""
    if decimals is None:
        return _numbers.format_decimal(value, locale=current_locale())
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return _numbers.format_decimal(value, format=pattern, locale=current_locale())


def percent(fraction: float, *, decimals: int = 0) -> str:
    """``0.875`` -> "88 %" / "88%" as the language writes it."""
    if decimals <= 0:
        return _numbers.format_percent(fraction, locale=current_locale())
    locale = current_locale()
    from babel import Locale

    pattern = Locale.parse(locale).percent_formats[None].pattern.replace("#,##0", "#,##0." + "0" * decimals)
    return _numbers.format_percent(fraction, format=pattern, locale=locale)


def date(value: _dt.date | _dt.datetime | float, *, style: str = "medium") -> str:
    """A date ("3 Dec 2026", "2026. 12. 3.", "3 dic 2026", "3 de des. 2026"); a float is a Unix time."""
    if isinstance(value, int | float):
        value = _dt.datetime.fromtimestamp(value)
    return _dates.format_date(value, format=style, locale=current_locale())


def day(value: _dt.date | _dt.datetime | float, *, year: bool = False) -> str:
    """A short day as the language writes it ("3 Dec", "12월 3일", "3 dic", "3 de des."; ``year``: with the
    year); a float is a Unix time."""
    if isinstance(value, int | float):
        value = _dt.datetime.fromtimestamp(value)
    return _dates.format_skeleton("yMMMd" if year else "MMMd", value, locale=current_locale())


def time(value: _dt.datetime | _dt.time | float, *, style: str = "short") -> str:
    """A time of day ("14:05", "오후 2:05"); a float is a Unix time."""
    if isinstance(value, int | float):
        value = _dt.datetime.fromtimestamp(value)
    return _dates.format_time(value, format=style, locale=current_locale())


def datetime(value: _dt.datetime | float, *, style: str = "medium") -> str:
    """A date and time; a float is a Unix time."""
    if isinstance(value, int | float):
        value = _dt.datetime.fromtimestamp(value)
    return _dates.format_datetime(value, format=style, locale=current_locale())


def timedelta(seconds: float, *, ago: bool = True) -> str:
    """How long ago (or how long) ``seconds`` is, rounded as people say it: "5 minutes ago", "3시간 전",
    "hace 2 días", "fa 1 hora"."""
    delta = _dt.timedelta(seconds=max(0.0, seconds))
    if ago:
        return _dates.format_timedelta(-delta, add_direction=True, threshold=1, locale=current_locale())
    return _dates.format_timedelta(delta, threshold=1, locale=current_locale())


def duration(seconds: float) -> str:
    """A stopwatch-like length in whole seconds: "0:59", "12:05", "1:02:03" (the same in every language)."""
    total = max(0, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
