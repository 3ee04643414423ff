"""The one answer matcher: does an agent's answer text give the expected value, and only that value?

Every family whose verifier reads `final.answer` (or a message the agent wrote) judges it here, so an
honest answer in any unambiguous form a person writes is paid the same everywhere: dates ("October
20", "Tuesday, October 20", "the 20th of October 2026", "10/20/2026", "20.10.2026", "2026/10/20",
ISO), times ("3 pm", "15:00"), amounts and currencies ("$1,234.50", "1234.5 USD", "USD 1,234.50",
"1.234,50 EUR"), counts ("3", "three"), names and free text (case, accents, punctuation and spacing
ignored). It stays strict: an answer that names another candidate value as well (a hedge, "either
Oct 20 or Oct 21", or a list of every amount) gives the value but not *only* the value.

Verifier code runs confined, where nothing of the project can be imported: a verifier carries this
module's text inlined (`VERIFIER_SOURCE`, prepended by the family). So this file uses the standard
library only, has no `from __future__` import, and its private names start with `_am_` so they do
not collide with a verifier's own helpers.
"""

import re
import unicodedata
from datetime import date

_AM_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december")
_AM_MONTH = r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_AM_DAY = r"(?P<{}>[0-3]?\d)(?:st|nd|rd|th)?"
_AM_YEAR = r"(?P<{}>\d{{4}})"
_AM_NAMED_YEAR = r"(?P<{}>(?:19|20)\d\d)\b(?![:.]\d|\s*h(?:rs?|ours)?\b)"  # after a named month; not a time (1530 hrs)
_AM_WEEKDAY = r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?,?\s+)?"
# After a month and day, a number is a year or the start of a time ("October 20 3 pm", "Oct 20 15:00"); any
# other number there ("October 20 21") leaves the day unread: it may be a second candidate.
_AM_CLOCK = r"(?:[0-2]?\d(?:[:.h][0-5]\d)?\s*[ap]\.?\s?m\b|[0-2]?\d[:h][0-5]\d\b)"
# Each pattern captures one date; named months come in either order, with or without a year.
_AM_DATE_PATTERNS = tuple(re.compile(p, re.I) for p in (
    r"\b" + _AM_YEAR.format("y") + r"[-/.](?P<m>[01]?\d)[-/.](?P<d>[0-3]?\d)\b",                      # 2026-10-20, 2026/10/20
    r"\b(?P<a>[0-3]?\d)(?P<sep>[/.-])(?P<b>[0-3]?\d)(?P=sep)(?P<y>\d{4}|\d{2})\b",                    # 10/20/2026, 20.10.2026
    r"\b" + _AM_WEEKDAY + r"(?:the\s+)?" + _AM_DAY.format("d") + r"(?:\s+(?:of\s+)?|-)" + _AM_MONTH.format("mon")
    + r"(?:(?:,?\s+|-)" + _AM_NAMED_YEAR.format("y") + r")?\b",                                              # (the) 20(th) (of) October (2026), 20-Oct-2026
    r"\b" + _AM_WEEKDAY + _AM_MONTH.format("mon") + r"\s+(?:the\s+)?" + _AM_DAY.format("d")
    + r"(?:,?\s+" + _AM_NAMED_YEAR.format("y") + r"|(?!\s*[:\d])|(?=\s+(?:at\s+)?" + _AM_CLOCK + r"))\b",  # (Tuesday,) October 20(th)(,) (2026)
))
# "October 20 or 21", "Oct 20-21": a second day after a named date is a second candidate.
_AM_MORE_DAYS = re.compile(_AM_MONTH.format("mon") + r"\s+" + _AM_DAY.format("d") + r"(?:,?\s+\d{4})?"
                           r"(?P<rest>(?:\s*(?:,|or|and|to|-|/|&)\s*(?:the\s+)?[0-3]?\d(?:st|nd|rd|th)?\b(?=\s*(?:$|[,.;:)!?]|\d{4}|or\b|and\b|-|/|&)))+)", re.I)
_AM_TIME = re.compile(r"\b(?P<h>[0-2]?\d)(?:(?P<sep>[:.h])(?P<m>[0-5]\d))?\s*(?P<ampm>[ap])\.?\s?m\b\.?"
                      r"|\b(?P<h2>[0-2]?\d)(?:[:h])(?P<m2>[0-5]\d)\b(?!\s*[ap]\.?\s?m\b)"
                      r"|\b(?P<word>noon|midday|midnight)\b", re.I)
_AM_CURRENCIES = {"$": "USD", "usd": "USD", "us$": "USD", "dollar": "USD", "dollars": "USD", "€": "EUR", "eur": "EUR",
                  "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "¥": "JPY",
                  "jpy": "JPY", "yen": "JPY", "chf": "CHF", "cad": "CAD", "aud": "AUD", "c$": "CAD", "a$": "AUD"}
_AM_CUR = r"(?:us\$|c\$|a\$|\$|€|£|¥|usd|eur|gbp|jpy|chf|cad|aud)"
_AM_CUR_AFTER = _AM_CUR[:-1] + r"|dollars?|euros?|pounds?|yen)"
_AM_NUMBER = r"[-−]?\d[\d,.']*\d|[-−]?\d"
_AM_AMOUNT = re.compile(r"(?<![\w.,-])(?:(?P<minus>[-−])?(?P<pre>" + _AM_CUR + r")\s?(?P<n1>" + _AM_NUMBER + r")(?![\d,.]*\d)"
                        r"|(?P<n2>" + _AM_NUMBER + r")(?:\s?(?P<post>" + _AM_CUR_AFTER + r")\b)?)(?![\w-]|[.,]\d)", re.I)
_AM_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
_AM_WORDS.update({"none": 0, "no": 0, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
                  "ninety": 90, "a dozen": 12, "dozen": 12})
_AM_COUNT_WORD = re.compile(r"\b(?P<tens>twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](?P<ones>one|two|three|four|five|six|seven|eight|nine)\b"
                            r"|\b(?P<w>a dozen|" + "|".join(sorted((w for w in _AM_WORDS if w not in ("no", "a dozen")), key=len, reverse=True))
                            + r")\b|\bno\s+(?:\w+\s+)?(?=[a-z]+s\b)", re.I)


def answer_values(text, kind, today=None, day_first=False):
    """Every value of `kind` the text names, one entry per mention: a set of its readings.

    A mention has one reading unless its form allows two (a bare "3:00" is 03:00 or 15:00). Kinds:
    "date" (date objects; a date without a year is the occurrence nearest `today`, else skipped),
    "time" ("HH:MM"), "amount" ((value, currency or None)), "count" (ints). Slashed dates read
    month first (10/11/2026 is October 11) unless `day_first`; dotted ones read day first.
    """
    text = _am_clean(text)
    if kind == "date":
        return [{d} for _, d in _am_dates(text, today, day_first)]
    if kind == "time":
        return _am_times(_am_without_dates(text, today, day_first))
    if kind == "amount":
        return [{a} for a in _am_amounts(_am_without_dates(text, today, day_first))]
    if kind == "count":
        return [{c} for c in _am_counts(_am_without_dates(text, today, day_first))]
    raise ValueError("unknown answer kind %r" % (kind,))


def answer_matches(text, kind, expected, today=None, others=(), currency=None, day_first=False):
    """{"right": the answer gives `expected`, "only": it names no other candidate} for one answer text.

    `expected`: a date or ISO date text ("date"), "HH:MM" ("time"), a number ("amount", "count"), or
    text ("name", "text"). For names and text, `others` are the other candidates (every other
    payee, title, ...) an answer must not name; typed kinds find other candidates by themselves.
    `currency` (e.g. "USD") refuses an amount stated in another currency. No answer is neither.
    """
    if not (text or "").strip():
        return {"right": False, "only": False}
    if kind in ("name", "text"):
        return _am_text_matches(text, str(expected), others)
    target = _am_target(kind, expected)
    mentions = answer_values(text, kind, today=today, day_first=day_first)
    if kind == "amount":
        want = (currency or "").upper() or None
        fits = [any(abs(v - target) < 0.005 and (want is None or c in (None, want)) for v, c in m) for m in mentions]
    else:
        fits = [target in m for m in mentions]
    return {"right": any(fits), "only": bool(fits) and all(fits)}


def is_answer(text, kind, expected, **options):
    """Whether the answer gives `expected` and nothing else (see `answer_matches`)."""
    verdict = answer_matches(text, kind, expected, **options)
    return verdict["right"] and verdict["only"]


def _am_target(kind, expected):
    if kind == "date":
        return expected if isinstance(expected, date) else date.fromisoformat(str(expected)[:10])
    if kind == "time":
        h, m = str(expected).split(":")[:2]
        return "%02d:%02d" % (int(h), int(m))
    if kind == "amount":
        return round(float(expected), 2)
    if kind == "count":
        return int(float(expected))
    raise ValueError("unknown answer kind %r" % (kind,))


def _am_clean(text):
    text = unicodedata.normalize("NFKC", str(text or ""))
    text = re.sub(r"(\d)T(\d)", r"\1 \2", text)  # 2026-10-20T15:00: a date, then a time
    return text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", " - ").replace("\u00a0", " ")


def _am_month(name):
    name = name.lower().rstrip(".")
    return next(i + 1 for i, full in enumerate(_AM_MONTHS) if full.startswith(name[:3]))


def _am_make(y, m, d):
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _am_yearless(m, d, today):
    """The occurrence of month m, day d nearest `today` (a person means this year's, or the coming one)."""
    if today is None:
        return None
    found = [x for x in (_am_make(today.year + k, m, d) for k in (-1, 0, 1)) if x is not None]
    return min(found, key=lambda x: abs((x - today).days)) if found else None


def _am_dates(text, today, day_first):
    """(span, date) of every date in the text, earliest span first; overlapping matches count once."""
    found, taken = [], []
    for index, pattern in enumerate(_AM_DATE_PATTERNS):
        for match in pattern.finditer(text):
            span = match.span()
            if any(s < span[1] and span[0] < e for s, e in taken):
                continue
            g = match.groupdict()
            if index == 0:
                value = _am_make(int(g["y"]), int(g["m"]), int(g["d"]))
            elif index == 1:
                a, b, y = int(g["a"]), int(g["b"]), int(g["y"])
                y += 2000 if y < 100 else 0
                first_is_day = (g["sep"] == "." or day_first or a > 12) and b <= 12
                value = _am_make(y, b, a) if first_is_day else _am_make(y, a, b)
            else:
                month, day = _am_month(g["mon"]), int(g["d"])
                value = _am_make(int(g["y"]), month, day) if g.get("y") else _am_yearless(month, day, today)
            if value is None and index < 2:
                continue
            taken.append(span)
            found.append((span, value))
    for match in _AM_MORE_DAYS.finditer(text):  # "October 20 or 21": each further day is another date
        month = _am_month(match["mon"])
        for day in re.findall(r"([0-3]?\d)(?:st|nd|rd|th)?\b", match["rest"]):
            if int(day) != int(match["d"]):
                found.append(((match.start("rest"), match.end("rest")), _am_make(today.year if today else 1, month, int(day))))
    found.sort(key=lambda item: item[0])
    return [(span, value) for span, value in found if value is not None] + [
        (span, date.min) for span, value in found if value is None]  # a date we cannot place is still another candidate


def _am_without_dates(text, today, day_first):
    """The text with every date blanked out, so its digits are not read as amounts, counts or times."""
    spans = [span for span, _ in _am_dates(text, today, day_first)]
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _am_times(text):
    mentions = []
    for match in _AM_TIME.finditer(text):
        g = match.groupdict()
        if g["word"]:
            mentions.append({"00:00" if g["word"].lower() == "midnight" else "12:00"})
            continue
        if g["h"] is not None:
            h, m = int(g["h"]), int(g["m"] or 0)
            if not 1 <= h <= 12 or m > 59:
                continue
            h = h % 12 + (12 if g["ampm"].lower() == "p" else 0)
            mentions.append({"%02d:%02d" % (h, m)})
            continue
        h, m = int(g["h2"]), int(g["m2"])
        if h > 23:
            continue
        readings = {"%02d:%02d" % (h, m)}
        if 1 <= h <= 11:  # "3:00" without am/pm: either half of the day
            readings.add("%02d:%02d" % (h + 12, m))
        mentions.append(readings)
    return mentions


def _am_number(raw):
    """A number as people write it: 1,234.50 / 1.234,50 / 1'234.50 / 1234.5 (None when unreadable)."""
    raw = raw.replace("'", "").replace("\u2212", "-")
    sign = -1 if raw.startswith("-") else 1
    raw = raw.lstrip("-")
    commas, dots = raw.count(","), raw.count(".")
    if commas and dots:
        decimal = "," if raw.rfind(",") > raw.rfind(".") else "."
    elif commas:
        decimal = "," if commas == 1 and not re.search(r",\d{3}$", raw) else None
    elif dots:
        decimal = None if dots > 1 else "."
    else:
        decimal = None
    thousands = {",": ".", ".": ",", None: ",."}[decimal]
    whole, _, frac = raw.rpartition(decimal) if decimal else (raw, "", "")
    for sep in thousands:
        if sep in whole:
            groups = whole.split(sep)
            if not (1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])):
                return None
            whole = "".join(groups)
    if not whole.isdigit() or frac and not frac.isdigit():
        return None
    return sign * float(whole + ("." + frac if frac else ""))


def _am_amounts(text):
    """(value, currency or None) of every amount; when some carry a currency, only those are amounts."""
    marked, bare = [], []
    for match in _AM_AMOUNT.finditer(text):
        raw = match["n1"] or match["n2"]
        value = _am_number(raw.rstrip(".,"))
        if value is None:
            continue
        value = -value if match["minus"] else value  # -$12.00, as the apps show a negative amount
        sign = (match["pre"] or match["post"] or "").lower()
        if sign:
            marked.append((round(value, 2), _AM_CURRENCIES.get(sign)))
        else:
            bare.append((round(value, 2), None))
    return marked or bare


def _am_counts(text):
    counts = []
    for match in re.finditer(r"(?<![\w.,$€£])(?<![^\W\d]-)\d+(?![\w%$€£]|[.,]\d)", text):  # not INV-2041; 3-4 is two
        counts.append(int(match[0]))
    for match in _AM_COUNT_WORD.finditer(text):
        if match["tens"]:
            counts.append(_AM_WORDS[match["tens"].lower()] + _AM_WORDS[match["ones"].lower()])
        elif match["w"]:
            word = match["w"].lower()
            if word == "one" and re.match(r"\s+(?:of|by)\b", text[match.end():]):
                continue  # "one of them": not a count
            counts.append(_AM_WORDS[word])
        else:  # "no overdue tasks"
            counts.append(0)
    return counts


def _am_words(text):
    """Lower-case words with accents, punctuation and spacing ignored ("O'Brien-Smith" -> obrien smith)."""
    text = unicodedata.normalize("NFKD", str(text or "").casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).replace("'", "").replace("\u2019", "")
    return re.findall(r"[^\W_]+", text)


def _am_find(words, wanted):
    """Where `wanted` (words) appears in `words`: in order, or (for several words) in any order side by side."""
    n = len(wanted)
    if not n:
        return None
    for i in range(len(words) - n + 1):
        window = words[i:i + n]
        if window == wanted or n > 1 and sorted(window) == sorted(wanted):
            return i
    return None


def _am_text_matches(text, expected, others):
    words, wanted = _am_words(text), _am_words(expected)
    digits = re.sub(r"\D", "", expected)
    if len(digits) >= 7 and len(digits) >= len(re.sub(r"\W", "", expected)) - 2:  # a phone number: its digits
        found = re.sub(r"\D", "", _am_clean(text))
        right = digits in found or digits.lstrip("1") in found and len(digits.lstrip("1")) >= 7
        rest = found.replace(digits, "", 1) if right else found
        return {"right": right, "only": right and len(rest) < 7}
    at = _am_find(words, wanted)
    if at is None:
        return {"right": False, "only": False}
    rest = words[:at] + ["|"] + words[at + len(wanted):]  # the answer without the expected value
    named = [o for o in others if _am_words(o) and _am_words(o) != wanted and _am_find(rest, _am_words(o)) is not None]
    return {"right": True, "only": not named}


# ---- not inlined: what follows is the project's side only ----
def _verifier_part():
    """This module's code, from its first import to the line above: the text a verifier inlines."""
    from pathlib import Path

    text = Path(__file__).read_text(encoding="utf-8")
    return "\n" + text[text.index("import re\n"): text.index("\n# ---- not inlined")] + "\n"


VERIFIER_SOURCE = _verifier_part()
"""The matcher's code for verifier source: prepend it, then call `answer_matches`/`is_answer` in verify()."""

__all__ = ["VERIFIER_SOURCE", "answer_matches", "answer_values", "is_answer"]
