"""Catalogs: the site's words in one language, keyed by message id (``ui.undo``, ``step.gin``).

A message may hold ``{name}`` placeholders, and may have plural forms (chosen by the
``count`` parameter with the language's gettext plural rule). ``{name:form}`` asks for a form
of the value that the language's grammar needs:

- a number: ``unit.<form>``, a plural message: "{points:points}" is "25 points" in English and
  "25 de puncte" in Romanian, so no message spells a number's grammar by hand; a decimal
  (a float) is written as the language writes it (:meth:`Catalog.number`: "1,5") and takes
  the plural a visible decimal takes ("1,5 punti"; Romanian "1,5 puncte");
- a card or a player (a :class:`Named` value): ``card.<form>.<rank>`` or
  ``player.<form>.<number>``, e.g. an Italian "card.the.8" = "l'{card}" for "{card:the}", or a
  Romanian "player.of.0" = "jucătorului {player}" for "{player:of}".

Such forms (``unit.*``, ``card.<form>.*``, ``player.<form>.*``) may be a language's own: a
catalog may define them though the English has no use for them (:data:`OWN_FORMS`). A value
with no such form is written as it is. The source of every catalog is
``locales/*.po``: the build reads them (``sitegen.catalogs``) and registers them here with
:func:`install`; the wheel the browser runs carries them as ``ginview/locales/<lang>.json``,
made from the same files, and :func:`catalog` reads those when nothing was installed.

>>> cat = Catalog("en", {"ui.hello": "Hello, {name}", "unit.points": ("{count} point", "{count} points")})
>>> cat.text("ui.hello", name="<b>")
'Hello, <b>'
>>> cat.html("ui.hello", name="<b>")
Html('Hello, &lt;b&gt;')
>>> cat.text("unit.points", count=1), cat.text("unit.points", count=25)
('1 point', '25 points')
>>> Catalog("en", {"a": "Scores {points:points}.", "unit.points": ("{count} point", "{count} points")}).text("a", points=1)
'Scores 1 point.'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, overload

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
DEFAULT_PLURAL = "(n != 1)"


class Html(str):
    """Text that is already HTML: filled into markup as it is, never escaped again."""

    def __repr__(self) -> str:
        return f"Html({str(self)!r})"


class Named(str):
    """Text that has grammatical forms in the catalogs: ``forms`` is their key with ``{}`` for
    the form, e.g. ``"player.{}.0"``; the message of a form gets the value as ``slot``."""

    forms: str = ""
    slot: str = ""


class NamedHtml(Html, Named):
    """HTML (a drawn card) that has grammatical forms, as :class:`Named`."""


@overload
def named(value: Html, forms: str, slot: str) -> NamedHtml: ...
@overload
def named(value: str, forms: str, slot: str) -> Named: ...
def named(value: str, forms: str, slot: str) -> Named:
    """``value`` (text or :class:`Html`) with its forms' key (``"card.{}.7"``) and slot."""
    out = NamedHtml(value) if isinstance(value, Html) else Named(value)
    out.forms, out.slot = forms, slot
    return out


LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?")
"""What a language code looks like ("ro", "pt-BR"): anything else is not looked up."""
OWN_FORMS = re.compile(r"^(?:unit\.\w+|card\.\w+\.\d+|player\.\w+\.\d+)$")
"""The messages a language may have without the English: the forms its grammar needs."""


# What html.escape replaces, without the standard library's html package: it imports the table
# of every HTML entity, which the browser's engine would carry in its memory snapshot for nothing.
_ESCAPE_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_PUNCTUATION = re.compile(r"[.,;:!?)\]»”]+")
_CHIP, _CHIP_END = '<span class="gin-card ', "</span></span>"
_CLOSING = re.compile(r"([^<]*)((?:</span>)*)$")


def keep(html: Html, punctuation: str) -> Html:
    """``html`` with ``punctuation`` joined to its last card chip, so that a full stop never
    starts a line of its own after a row of cards (the two wrapped in ``gin-keep``, which does
    not break); ``html`` with no chip gets the punctuation after it."""
    start = html.rfind(_CHIP)
    end = html.find(_CHIP_END, start) + len(_CHIP_END)
    after = _CLOSING.match(html, end) if start >= 0 else None
    if after is None:  # no chip, or markup after it
        return Html(html + punctuation)
    ending, closing = after.groups()  # an ending after the chip ("‑et") stays before
    kept = f'<span class="gin-keep">{html[start:end]}{ending}{punctuation}</span>'
    return Html(html[:start] + kept + closing)


_ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})
_LOCALES = os.path.join(os.path.dirname(__file__), "locales")  # the wheel's catalogs


def esc(value: object) -> Html:
    """``value`` as HTML: escaped, unless it already is :class:`Html`.

    >>> esc("<a href='x'>&</a>"), esc(Html("<b>"))
    (Html('&lt;a href=&#x27;x&#x27;&gt;&amp;&lt;/a&gt;'), Html('<b>'))
    """
    return value if isinstance(value, Html) else Html(str(value).translate(_ESCAPE))


class MissingMessage(KeyError):
    """A strict catalog was asked for a message it does not have (a bug in the site)."""


class MissingValue(KeyError):
    """A strict catalog was asked to fill a message without a value one of its placeholders
    needs (a bug in the site: the reader would see "{card}")."""


@dataclass(frozen=True)
class Catalog:
    """The messages of one language. ``plural`` is the gettext plural expression of the
    language (``n`` is the count); ``strict`` makes an unknown message id, and a placeholder
    filled with no value, an error instead of showing the id or the placeholder (the build and
    the tests are strict; the browser never fails on a message)."""

    language: str
    messages: Mapping[str, str | tuple[str, ...]]
    plural: str = DEFAULT_PLURAL
    strict: bool = False
    _rule: list[Callable[[int], int]] = field(default_factory=list, compare=False, repr=False)

    def has(self, key: str) -> bool:
        return key in self.messages

    def template(self, key: str, count: int | None = None) -> str:
        """The message for ``key``; the plural form for ``count`` if it has forms."""
        message = self.messages.get(key)
        if message is None:
            if self.strict:
                raise MissingMessage(f"no message {key!r} in the {self.language} catalog")
            return key
        if isinstance(message, str):
            return message
        form = self._plural_form(count if isinstance(count, int) else 2)
        return message[min(form, len(message) - 1)]

    def text(self, key: str, /, **params: object) -> str:
        """The message as plain text, its placeholders filled (an unknown one stays as is)."""
        template = self.template(key, _count(params))
        return PLACEHOLDER.sub(lambda m: str(self._fill(m, params)), template)

    def html(self, key: str, /, **params: object) -> Html:
        """The message as HTML: the text escaped, each parameter escaped unless it is Html. A
        card drawn as a chip keeps the punctuation that follows it on its line (:func:`keep`)."""
        template = self.template(key, _count(params)).translate(_ESCAPE_TEXT)
        parts: list[str] = []
        at = 0
        for match in PLACEHOLDER.finditer(template):
            parts.append(template[at : match.start()])
            filled, at = esc(self._fill(match, params)), match.end()
            after = _PUNCTUATION.match(template, at)
            if after and isinstance(filled, Html):
                filled, at = keep(filled, after.group()), after.end()
            parts.append(filled)
        parts.append(template[at:])
        return Html("".join(parts))

    def number(self, value: float) -> str:
        """A decimal as the language writes it: one digit after the decimal mark
        (``unit.decimal_point``), none when it rounds to a whole number.

        >>> Catalog("it", {"unit.decimal_point": ","}).number(29.46), Catalog("en", {}).number(0.96)
        ('29,5', '1')
        """
        rounded = round(value, 1)
        if rounded.is_integer():
            return str(int(rounded))
        mark = self.template("unit.decimal_point") if "unit.decimal_point" in self.messages else "."
        return f"{rounded:.1f}".replace(".", mark)

    def _fill(self, match: re.Match[str], params: Mapping[str, object]) -> object:
        name, form = match.groups()
        if name not in params:
            if self.strict:  # a caller that gives a message less than it needs (a bug)
                raise MissingValue(f"the {self.language} message {match.string!r} needs {name!r}")
            return match.group(0)
        value = params[name]
        if isinstance(value, float):
            number = self.number(value)
            if not form:
                return number
            # a visible decimal is never singular: the form of 2 ("1,5 points", Romanian's few)
            count = int(number) if number.isdigit() else 2
            return self.template(f"unit.{form}", count).replace("{count}", number)
        if form and isinstance(value, int) and not isinstance(value, bool):
            return self.text(f"unit.{form}", count=value)
        key = form and isinstance(value, Named) and value.forms.format(form)
        if key and key in self.messages and isinstance(value, Named):
            make = self.html if isinstance(value, Html) else self.text
            filled = make(key, **{value.slot: value})
            # an ending joined by a hyphen ("a 6♥-ot") never breaks from its card at a line's end,
            # nor does an elided article before it ("l'8♣": a word joiner after the apostrophe)
            joined = filled.replace(f"{value}-", f"{value}\u2011", 1)
            for mark in ("'", "\u2019"):
                joined = joined.replace(f"{mark}{value}", f"{mark}\u2060{value}", 1)
            return Html(joined) if isinstance(filled, Html) else joined
        return value

    def _plural_form(self, n: int) -> int:
        if not self._rule:
            self._rule.append(plural_rule(self.plural))
        return int(self._rule[0](n))


def _count(params: Mapping[str, object]) -> int | None:
    """The ``count`` that chooses a message's plural form, if one is given."""
    count = params.get("count")
    return count if isinstance(count, int) else None


def plural_rule(expression: str) -> Callable[[int], int]:
    """The function of ``n`` for a gettext plural expression (``Plural-Forms: plural=…``)."""
    from gettext import c2py  # the standard library's checked converter of C plural rules

    return c2py(expression)


# --- the catalogs of this process --------------------------------------------------------------

_CATALOGS: dict[str, Catalog] = {}


def install(catalogs: Mapping[str, Catalog]) -> None:
    """Use these catalogs (the build installs the ones it read from ``locales/``)."""
    _CATALOGS.clear()
    _CATALOGS.update(catalogs)


def catalog(language: str) -> Catalog:
    """The catalog of ``language``: installed, else the one shipped in the package; English
    (the source text) for a language with no catalog."""
    for name in (language, "en"):
        found = _CATALOGS.get(name)
        if found is None and LANGUAGE_CODE.fullmatch(name) and (found := _shipped(name)):
            _CATALOGS[name] = found
        if found is not None:
            return found
    return Catalog("en", {})


def languages() -> tuple[str, ...]:
    """The languages with a catalog (installed or shipped)."""
    if _CATALOGS:
        return tuple(_CATALOGS)
    if not os.path.isdir(_LOCALES):
        return ()
    return tuple(sorted(name[:-5] for name in os.listdir(_LOCALES) if name.endswith(".json")))


def from_json(data: Mapping[str, Any]) -> Catalog:
    """A catalog from its JSON form (see :func:`to_json`): the wheel's own file, written by
    the build, so read as it is (``Any``)."""
    messages = {k: v if isinstance(v, str) else tuple(v) for k, v in data["messages"].items()}
    return Catalog(data["language"], messages, data.get("plural") or DEFAULT_PLURAL)


def to_json(cat: Catalog) -> dict[str, object]:
    """The JSON form of a catalog, as shipped in the wheel."""
    return {
        "language": cat.language,
        "plural": cat.plural,
        "messages": {k: v if isinstance(v, str) else list(v) for k, v in cat.messages.items()},
    }


def _shipped(language: str) -> Catalog | None:
    path = os.path.join(_LOCALES, f"{language}.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return from_json(json.load(f))
