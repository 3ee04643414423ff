"""The planted defects of the checker's suite: each a few declared edits of the notes fixture app.

One entry per class of defect the contract checker must catch, with the law that must report it
first and a word its evidence must name. `mocked_apps.kit.derive_app` builds each app on demand.
"""

from __future__ import annotations

from mocked_apps.kit import Defect, Edit

_INDEX_ROUTE = 'return gym.render("index.html", notes=notes)'
_CREATE_LINE = "    note = Note(title=title, body=body, created_at=gym.now)\n"
_INDEX_HEADING = "<h1>All notes</h1>\n"
_SHOW_EXTRA = Edit(file="templates/index.html", find=_INDEX_HEADING, replace=_INDEX_HEADING + '{% if extra %}<p class="muted">{{ extra }}</p>{% endif %}\n')
"""The three out-of-DB-state defects show their stray value on the index page."""
_LAYOUT_NAV = "{% block nav %}"

_TOKEN_MIDDLEWARE = '''

class InjectAdminToken:
    """ASGI middleware that sets X-Gym-Admin-Token on every request to the server's own token."""

    def __init__(self, app):
        self.app = app
        self.token = None

    def _find_token(self) -> bytes:
        """The server's own token, from the admin dependency's closure (it is on no command line)."""
        import gc

        for obj in gc.get_objects():
            if callable(obj) and getattr(obj, "__name__", "") == "admin" and obj.__closure__:
                for cell in obj.__closure__:
                    if isinstance(cell.cell_contents, str) and len(cell.cell_contents) >= 16:
                        return cell.cell_contents.encode()
        raise RuntimeError("token not found")

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            self.token = self.token or self._find_token()
            headers = [(k, v) for k, v in scope["headers"] if k != b"x-gym-admin-token"]
            scope = dict(scope, headers=headers + [(b"x-gym-admin-token", self.token)])
        await self.app(scope, receive, send)


MIDDLEWARE = [InjectAdminToken]
'''

DEFECTS: tuple[tuple[Defect, str], ...] = (
    (Defect(name="broken_token", law="admin_token",
            description="Broken notes: a middleware hands every request the admin token, so the admin API is open.",
            edits=(Edit(file="__init__.py", find='"""\n', replace='"""\n' + _TOKEN_MIDDLEWARE),)),
     "X-Gym-Admin-Token"),
    (Defect(name="broken_ids", law="determinism", description="Broken notes: new notes get random ids.",
            edits=(Edit(file="routes.py", find=_CREATE_LINE,
                        replace="    import random\n\n    note = Note(id=random.randint(100, 10**9), title=title, body=body, created_at=gym.now)\n"),)),
     "note"),
    (Defect(name="broken_isolation", law="isolation", description="Broken notes: one growing list of saved titles shared by every instance.",
            edits=(Edit(file="routes.py", find=_INDEX_ROUTE, replace='return gym.render("index.html", notes=notes, extra="Recently saved: " + ", ".join(_RECENT) if _RECENT else "")'),
                   Edit(file="routes.py", find="router = APIRouter()\n", replace="router = APIRouter()\n_RECENT: list[str] = []\n"),
                   Edit(file="routes.py", find=_CREATE_LINE, replace=_CREATE_LINE + "    _RECENT.append(title)\n"), _SHOW_EXTRA)),
     "Recently saved"),
    (Defect(name="broken_reset", law="reset", description="Broken notes: the last saved title is kept outside the instance DB, per instance, so reset leaves it.",
            edits=(Edit(file="routes.py", find=_INDEX_ROUTE, replace='return gym.render("index.html", notes=notes, extra=_LAST_SAVED.get(gym.base, ""))'),
                   Edit(file="routes.py", find="router = APIRouter()\n", replace="router = APIRouter()\n_LAST_SAVED: dict[str, str] = {}\n"),
                   Edit(file="routes.py", find=_CREATE_LINE, replace=_CREATE_LINE + "    _LAST_SAVED[gym.base] = 'Last saved: ' + title\n"), _SHOW_EXTRA)),
     "Last saved"),
    (Defect(name="broken_dead", law="dead_controls", description="Broken notes: an Archive button that does nothing.",
            edits=(Edit(file="templates/note.html", find="</div>\n<div class=\"card\">",
                        replace='<button type="button" class="secondary">Archive</button>\n</div>\n<div class="card">'),)),
     "Archive"),
    (Defect(name="broken_console", law="console", description="Broken notes: a script that throws on every page.",
            edits=(Edit(file="templates/layout.html", find=_LAYOUT_NAV, replace='{% block head %}<script src="/_app/static/notes.js"></script>{% endblock %}\n' + _LAYOUT_NAV),
                   Edit(file="static/notes.js", replace='document.getElementById("toolbar").classList.add("ready");  // there is no #toolbar\n'))),
     "page error"),
    (Defect(name="broken_asset", law="console", description="Broken notes: a stylesheet that does not exist, 404 on every page.",
            edits=(Edit(file="templates/layout.html", find=_LAYOUT_NAV, replace='{% block head %}<link rel="stylesheet" href="/_app/static/notes.css">{% endblock %}\n' + _LAYOUT_NAV),)),
     "notes.css"),
    # ---- the classes issue 12 found missed ----
    (Defect(name="broken_storage", law="browser_storage", description="Broken notes: a Star button that keeps the star in the browser's localStorage.",
            edits=(Edit(file="templates/note.html", find="</div>\n<div class=\"card\">",
                        replace='<button type="button" class="secondary" onclick="localStorage.setItem(\'star-\' + location.pathname, \'1\'); '
                                'document.getElementById(\'star\').textContent = \'Starred\'">Star</button>\n</div>\n'
                                '<p id="star"></p><script>if (localStorage.getItem(\'star-\' + location.pathname)) '
                                'document.getElementById(\'star\').textContent = \'Starred\';</script>\n<div class="card">'),)),
     "localStorage"),
    (Defect(name="broken_cache", law="isolation", description="Broken notes: a module-level cache of the last saved title, shared by every instance.",
            edits=(Edit(file="routes.py", find=_INDEX_ROUTE, replace='return gym.render("index.html", notes=notes, extra=_CACHE.get("last", ""))'),
                   Edit(file="routes.py", find="router = APIRouter()\n", replace="router = APIRouter()\n_CACHE: dict[str, str] = {}\n"),
                   Edit(file="routes.py", find=_CREATE_LINE, replace=_CREATE_LINE + "    _CACHE['last'] = 'Last saved: ' + title\n"), _SHOW_EXTRA)),
     "Last saved"),
    (Defect(name="broken_get_write", law="get_readonly", description="Broken notes: a GET search form whose route records every search in the database.",
            edits=(Edit(file="templates/index.html", find=_INDEX_HEADING,
                        replace=_INDEX_HEADING + '<form method="get" action="{{ url(\'/search\') }}"><input type="search" name="q" aria-label="Search">'
                                '<button type="submit">Search</button></form>\n'),
                   Edit(file="routes.py", find='@router.get("/new")',
                        replace='@router.get("/search")\ndef search(gym: GymDep, q: str = ""):\n'
                                '    gym.db.add(Note(title="search: " + q, created_at=gym.now))\n    gym.db.commit()\n'
                                '    return gym.render("index.html", notes=gym.db.exec(select(Note).where(Note.title.contains(q))).all())\n\n\n'
                                '@router.get("/new")'))),
     "Search"),
    (Defect(name="broken_phone_dead", law="dead_controls", description="Broken notes: a Menu button, shown only at phone size, that does nothing.",
            edits=(Edit(file="templates/index.html", find=_INDEX_HEADING,
                        replace='<style>@media (min-width: 600px) { .phone-only { display: none; } }</style>\n'
                                '<button type="button" class="phone-only">Menu</button>\n' + _INDEX_HEADING),)),
     "Menu"),
    (Defect(name="broken_500", law="console", description="Broken notes: the layout names a value no route passes, so every page answers 500.",
            edits=(Edit(file="templates/layout.html", find=_LAYOUT_NAV, replace="{% block head %}{{ no_such_value }}{% endblock %}\n" + _LAYOUT_NAV),)),
     "UndefinedError"),
    # ---- issue 29: content that no real service shows ----
    (Defect(name="broken_lorem", law="content", description="Broken notes: the default notes are lorem ipsum.",
            edits=(Edit(file="seed.json", find='"title": "Groceries", "body": "Milk, eggs, bread"',
                        replace='"title": "Lorem ipsum dolor", "body": "Consectetur adipiscing elit, sed do eiusmod tempor incididunt."'),)),
     "lorem"),
    (Defect(name="broken_salad", law="content", description="Broken notes: the default notes are Faker word salad (random English words).",
            edits=(Edit(file="seed.json", find='"title": "Groceries", "body": "Milk, eggs, bread"',
                        replace='"title": "Bill performance kid political", "body": "Floor enough husband"'),
                   Edit(file="seed.json", find='"title": "Book club", "body": "Read chapters 4-6"',
                        replace='"title": "Various Fact Such", "body": "Offer energy rule skill"'))),
     "word salad"),
    (Defect(name="broken_seed", law="default_seed", description="Broken notes: the default seed gives a note an empty title, which the model forbids.",
            edits=(Edit(file="seed.json", find='"title": "Groceries"', replace='"title": ""'),)),
     "seed.note[0].title"),
    (Defect(name="broken_literal", law="starts", description="Broken notes: a Literal field declared without sa_type, which SQLModel cannot map to a column.",
            edits=(Edit(file="models.py", find="    pinned: bool = False\n",
                        replace="    pinned: bool = False\n    kind: Literal['note', 'todo'] = 'note'\n"),
                   Edit(file="models.py", find="from pydantic import NaiveDatetime\n", replace="from typing import Literal\n\nfrom pydantic import NaiveDatetime\n"))),
     "Note.kind"),
)
"""(defect, a word the first failure's evidence must name)."""

BY_NAME: dict[str, tuple[Defect, str]] = {d.name: (d, word) for d, word in DEFECTS}
