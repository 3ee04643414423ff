"""RedNotes families: collect a note into one of your collections, make a new collection of two notes, follow
whoever recommended a place, like and comment on a note, post a note with its place; look-ups answered in text
(who posted a note, how many comments it has); and one cross-app family (book lunch in the calendar at the place
a note recommends, with a colleague).

Single-app tasks run on the phone, the app's primary form factor; ground truth comes from the world's projection.
"""

from __future__ import annotations

import random
from datetime import timedelta

from contracts.family import Family, PhoneFamily, Requirements, first_name, pick, say, solve_source
from contracts.task import Criterion
from contracts.world import World
from mocked_apps.calendar import recipes as calendar
from mocked_apps.clips.rules import parse_tags
from mocked_apps.kit.answer_family import AnswerFamily, AnswerSpec, Steps

from . import recipes as notes
from .catalogue import CHANNELS
from .projection import project

__all__ = ["FAMILIES"]

ME = 1
"""The projection's id of the signed-in user's account."""

COMMENTS = ("Adding this to my list", "Thanks, going this weekend", "Great tips", "Saved for later", "Love the photos")


def _findable(rows: dict) -> list[dict]:
    """Notes of other people whose title is unique and no part of another's (search and click find exactly one)."""
    titles = [n["title"] for n in rows["notepost"]]
    return [n for n in rows["notepost"] if n["author_id"] != ME and sum(n["title"].lower() in t.lower() for t in titles) == 1]


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def _verify_collects(pairs: list[tuple[int, str]], new_board: str | None = None) -> str:
    expected = sorted((n, _words(b)) for n, b in pairs)
    made = f'''
        "collection": sum(" ".join(b["name"].split()).lower() == {_words(new_board)!r} for b in final.state["notes"]["board"]) == 1
                      and {_words(new_board)!r} not in {{" ".join(b["name"].split()).lower() for b in final.initial_state["notes"]["board"]}},''' if new_board else ""
    return notes.new_collects_source("_notes_collected") + f'''

def verify(final):
    new = sorted(_notes_collected(final))
    return {{{made}
        "collected": all(p in new for p in {[tuple(p) for p in expected]!r}),
        "only_these": new == {[tuple(p) for p in expected]!r},
    }}
'''


class CollectNote(PhoneFamily):
    name = "notes.collect_to_board"
    apps = ("notes",)
    description = "Collect a note found by its title into one of your existing collections."
    difficulty = "easy"
    capabilities = ("search", "navigate", "select_option")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        board = rng.choice(rows["board"])
        inside = {c["note_id"] for c in rows["collect"] if c["board_id"] == board["id"]}
        note = pick(rng, [n for n in _findable(rows) if n["id"] not in inside])
        if note is None:
            return None
        instruction = say(rng, world, "Save the note \"{title}\" to my \"{board}\" collection.",
                          "Collect \"{title}\" into \"{board}\" in RedNotes.", title=note["title"], board=board["name"])
        ctx = {"title": note["title"], "note_id": note["id"], "board": board["name"]}
        return self._req(instruction, ctx, [Criterion(id="collected", description=f"'{note['title']}' is in the collection '{board['name']}'."),
                                            Criterion(id="only_these", description="Nothing else is collected.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(notes.open_note(c["title"]), notes.collect_to(c["board"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_collects([(c["note_id"], c["board"])])


class NewCollection(PhoneFamily):
    name = "notes.new_collection"
    apps = ("notes",)
    description = "Make a new collection and collect two named notes into it."
    difficulty = "medium"
    capabilities = ("search", "navigate", "multi_item", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        found = _findable(rows)
        if len(found) < 2:
            return None
        first, second = sorted(rng.sample(found, 2), key=lambda n: n["id"])
        name = rng.choice(["Spring plans", "Date ideas", "Team outing", "Try this month", "Gift ideas"])
        instruction = say(rng, world, "Start a new collection called \"{name}\" and put the notes \"{a}\" and \"{b}\" in it.",
                          "Collect \"{a}\" and \"{b}\" into a new collection named \"{name}\".", name=name, a=first["title"], b=second["title"])
        ctx = {"board": name, "titles": [first["title"], second["title"]], "note_ids": [first["id"], second["id"]]}
        return self._req(instruction, ctx, [
            Criterion(id="collection", description=f"A new collection '{name}' exists (just one by that name)."),
            Criterion(id="collected", description=f"'{first['title']}' and '{second['title']}' are collected into it."),
            Criterion(id="only_these", description="Nothing else is collected.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        first, second = c["titles"]
        return solve_source(notes.open_note(first), notes.collect_new(c["board"]), notes.open_note(second), notes.collect_to(c["board"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return _verify_collects([(i, c["board"]) for i in c["note_ids"]], new_board=c["board"])


class FollowByPlace(PhoneFamily):
    name = "notes.follow_by_place"
    apps = ("notes",)
    description = "Follow the author of the note that recommends a named place (neither note nor author is named)."
    difficulty = "medium"
    capabilities = ("search", "navigate", "disambiguate")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        authors = {a["id"]: a for a in rows["author"]}
        places = [n for n in _findable(rows) if n["place"] and not authors[n["author_id"]]["following"]
                  and sum(m["place"] == n["place"] for m in rows["notepost"]) == 1]
        note = pick(rng, places)
        if note is None:
            return None
        author = authors[note["author_id"]]
        instruction = say(rng, world, "Someone on RedNotes recommends {place}. Follow whoever wrote that note.",
                          "Find the note about {place} and follow its author.", place=note["place"])
        ctx = {"place": note["place"], "title": note["title"], "author": author["name"], "author_id": author["id"]}
        return self._req(instruction, ctx, [Criterion(id="following", description=f"You follow {author['name']}, who recommends {note['place']}.")])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(notes.open_note(c["title"]), notes.follow_author())

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    author = next((a for a in final.state["notes"]["author"] if a["id"] == {c["author_id"]!r}), None)
    return {{"following": author is not None and author["following"] is True}}
'''


class LikeAndComment(PhoneFamily):
    name = "notes.like_and_comment"
    apps = ("notes",)
    description = "Like a note found by its title and leave a given comment."
    difficulty = "easy"
    capabilities = ("search", "navigate", "form_fill")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        note = rng.choice(_findable(project(world)))
        text = rng.choice(COMMENTS)
        instruction = say(rng, world, "Like the note \"{title}\" and comment \"{text}\" on it.",
                          "Give \"{title}\" a like and leave the comment \"{text}\".", title=note["title"], text=text)
        ctx = {"title": note["title"], "note_id": note["id"], "comment": text}
        return self._req(instruction, ctx, [Criterion(id="liked", description=f"'{note['title']}' is liked."),
                                            Criterion(id="commented", description=f"A new comment of yours under it says '{text}'."),
                                            Criterion(id="one_comment", description="Exactly one new comment.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(notes.open_note(c["title"]), notes.like(), notes.comment(c["comment"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    after, before = final.state["notes"], final.initial_state["notes"]
    old = {{x["id"] for x in before["notecomment"]}}
    new = [x for x in after["notecomment"] if x["id"] not in old]
    note = next((n for n in after["notepost"] if n["id"] == {c["note_id"]!r}), None)
    return {{
        "liked": note is not None and note["liked"] is True,
        "commented": any(x["note_id"] == {c["note_id"]!r} and x["author_id"] == {ME!r}
                         and " ".join(x["body"].split()).lower() == {_words(c["comment"])!r} for x in new),
        "one_comment": len(new) == 1,
    }}
'''


_NEW_NOTES = (("Rooftop bar with a view", "Go at sunset, order the spritz.", "#drinks #city", "Skyline Terrace", "400 Summit Avenue"),
              ("Best dumplings in town", "Pork and chive, twelve for ten dollars.", "#food #dumplings", "Golden Dumpling House", "31 Canal Street"),
              ("A quiet park for reading", "Benches under old oaks, hardly anyone on weekdays.", "#books #park", "Willow Park", "Willow Park Road"),
              ("Climbing gym for beginners", "Friendly staff, shoe rental included.", "#fitness #climbing", "Boulder Barn", "9 Mill Lane"))


class PostNote(PhoneFamily):
    name = "notes.post_note"
    apps = ("notes",)
    description = "Post a note with a number of album images, a title, text, hashtags and a place with its address."
    difficulty = "medium"
    capabilities = ("form_fill", "select_option", "confirm")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        title, body, tags, place, street = rng.choice(_NEW_NOTES)
        images = rng.randint(1, 6)
        address = f"{street}, {world.persona.city}" if world.persona.city else street
        instruction = say(rng, world, "Post a RedNotes note with {n} pictures from my album titled \"{title}\", text \"{body}\", hashtags {tags}, "
                          "and the place {place} at {address}.",
                          "New note: \"{title}\" - {n} album images, the text \"{body}\", {tags}; tag the place {place} ({address}).",
                          n=images, title=title, body=body, tags=tags, place=place, address=address)
        ctx = {"title": title, "body": body, "hashtags": tags, "tags": parse_tags(tags).split(","), "images": images, "place": place,
               "address": address}
        return self._req(instruction, ctx, [
            Criterion(id="posted", description=f"A new note of yours titled '{title}' with {images} images."),
            Criterion(id="content", description=f"Its text is '{body}' and its hashtags are {tags}."),
            Criterion(id="place", description=f"It recommends {place} at {address}."),
            Criterion(id="only_once", description="Exactly one new note.", weight=0.5)])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(notes.post_note(c["images"], c["title"], c["body"], c["hashtags"], c["place"], c["address"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return f'''
def verify(final):
    old = {{n["id"] for n in final.initial_state["notes"]["notepost"]}}
    new = [n for n in final.state["notes"]["notepost"] if n["id"] not in old and n["author_id"] == {ME!r}]
    right = [n for n in new if " ".join(n["title"].split()).lower() == {_words(c["title"])!r} and n["images"] == {c["images"]!r}]
    return {{
        "posted": bool(right),
        "content": any(" ".join(n["body"].split()).lower() == {_words(c["body"])!r}
                       and sorted(t for t in n["tags"].split(",") if t) == {sorted(c["tags"])!r} for n in right),
        "place": any(" ".join(n["place"].split()).lower() == {_words(c["place"])!r}
                     and " ".join(n["place_address"].split()).lower() == {_words(c["address"])!r} for n in right),
        "only_once": len(new) == 1,
    }}
'''


class LunchAtNotedPlace(Family):
    name = "cross.lunch_at_noted_place"
    apps = ("notes", "calendar")
    description = "Book lunch with a colleague in the calendar, titled with the place a note recommends (the place is only in the note)."
    difficulty = "hard"
    capabilities = ("cross_app", "search", "form_fill", "date_time")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        note = pick(rng, [n for n in _findable(rows) if n["place"] and "food" in n["tags"].split(",")])
        colleagues = [p for p in world.people if p.org == world.person(world.user).org and p.id != world.user]
        who = pick(rng, colleagues)
        if note is None or who is None:
            return None
        start = calendar.free_slot(world, rng, 60)
        end = start + timedelta(minutes=60)
        when = start.strftime("%A %B %d at %H:%M").replace(" 0", " ")
        instruction = say(rng, world, "Book lunch with {who} at the place the RedNotes note \"{title}\" recommends: a one-hour calendar event on {when}, "
                          "titled with the place's name exactly, with {first} ({email}) invited.",
                          "The note \"{title}\" recommends a place. Put a 60-minute event named after that place in my calendar for {when} "
                          "and invite {who} ({email}).", who=who.name, first=first_name(who.name), email=who.email, title=note["title"], when=when)
        ctx = {"title": note["title"], "place": note["place"], "start": start.isoformat(), "end": end.isoformat(), "date": start.date().isoformat(),
               "start_time": start.strftime("%H:%M"), "end_time": end.strftime("%H:%M"), "guest": who.email}
        return self._req(instruction, ctx, [
            Criterion(id="event_created", description=f"A new event titled '{note['place']}' (the place the note recommends)."),
            Criterion(id="right_time", description=f"It runs {start:%Y-%m-%d %H:%M}-{end:%H:%M}."),
            Criterion(id="guest_invited", description=f"{who.email} is invited to it.")])

    def golden(self, req: Requirements) -> str:
        c = req.answer_context
        return solve_source(notes.open_app(), notes.open_note(c["title"]), calendar.open_app(),
                            calendar.create_event(c["place"], c["date"], c["start_time"], c["end_time"], c["guest"]))

    def verifier(self, req: Requirements) -> str:
        c = req.answer_context
        return (calendar.new_events_source("_cal_new", c["place"]) + calendar.new_events_source("_cal_timed", c["place"], c["start"], c["end"])
                + calendar.invited_source("_cal_invited") + f'''

def verify(final):
    timed = _cal_timed(final)
    return {{
        "event_created": bool(_cal_new(final)),
        "right_time": bool(timed),
        "guest_invited": any({c["guest"].lower()!r} in _cal_invited(final, e) for e in timed or _cal_new(final)),
    }}
''')


def _channel(note: dict) -> str | None:
    """The Explore channel a note shows in (its first channel hashtag), by its link's label; None for none but Home,
    whose label is also the app's Home link."""
    tag = next((t for t in note["tags"].split(",") if t in CHANNELS and t != "home"), None)
    return CHANNELS[tag] if tag else None


class NoteAuthor(PhoneFamily, AnswerFamily):
    name = "notes.note_author"
    apps = ("notes",)
    description = "Find a note by its title and answer with the name of the person who posted it."
    difficulty = "easy"
    capabilities = ("search", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {a["id"]: a["name"] for a in rows["author"]}
        note = pick(rng, [n for n in _findable(rows) if _channel(n)])
        if note is None:
            return None
        author = names[note["author_id"]]
        others = sorted(n for n in set(names.values()) if n != author)
        if any(n.lower() in note["title"].lower() for n in [author, *others]):
            return None  # the title would give a name away
        instruction = say(rng, world, "Who posted the note \"{title}\" on RedNotes?", "Find \"{title}\" and tell me who wrote it.",
                          "Whose note is \"{title}\"? Give me the author's name.", title=note["title"])
        ctx = {"title": note["title"], "author": author, "others": others, "channel": _channel(note)}
        return self._req(instruction, ctx, self.criteria(f"The answer names {author}, who posted '{note['title']}'.",
                                                         "The answer names no other author."))

    answer = AnswerSpec("name", "author", golden="{author}", sentence="It was posted by {author}.", others="others")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Browse the note's Explore channel to it instead of searching, and answer in a sentence."""
        return notes.open_note(c["title"]), (f'env.click({c["channel"]!r}, role="link")', f'env.click({c["title"]!r}, role="link")')


_COUNTS = ("zero", "one", "two", "three", "four", "five")


class CommentCount(PhoneFamily, AnswerFamily):
    name = "notes.comment_count"
    apps = ("notes",)
    description = "Open a note found by its title and answer with how many comments it has."
    difficulty = "easy"
    capabilities = ("search", "read_answer")

    def requirements(self, world: World, rng: random.Random) -> Requirements | None:
        rows = project(world)
        names = {a["id"]: a["name"] for a in rows["author"]}
        counted = [(n, sum(c["note_id"] == n["id"] for c in rows["notecomment"])) for n in _findable(rows)]
        choice = pick(rng, [(n, k) for n, k in counted if 1 <= k < len(_COUNTS)])
        if choice is None:
            return None
        note, k = choice
        instruction = say(rng, world, "How many comments does the note \"{title}\" have?", "Count the comments under \"{title}\" on RedNotes.",
                          "Check \"{title}\": how many comments are under it?", title=note["title"])
        ctx = {"title": note["title"], "author": names[note["author_id"]], "count": k, "count_text": _COUNTS[k]}
        return self._req(instruction, ctx, self.criteria(f"The answer gives {k}, the comments under '{note['title']}'.",
                                                         "The answer names no other number."))

    answer = AnswerSpec("count", "count", golden="{count}")

    def routes(self, c: dict) -> tuple[Steps, Steps]:
        """Reach the note through its author's profile instead of searching its title, and answer in words."""
        return notes.open_note(c["title"]), notes.open_through_author(c["author"], c["title"])

    def said(self, c: dict) -> str:
        return f"{c['count_text'].capitalize()} comment{'s' if c['count'] > 1 else ''}."


FAMILIES = (CollectNote(), NewCollection(), FollowByPlace(), LikeAndComment(), PostNote(), LunchAtNotedPlace(), NoteAuthor(), CommentCount())
