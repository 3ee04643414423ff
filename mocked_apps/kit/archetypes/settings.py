"""Settings: toggles, selects and sliders saved together with one Save button."""

from __future__ import annotations

from fastapi import APIRouter, Request
from sqlmodel import select

from mocked_apps.kit.context import GymDep
from mocked_apps.kit.spec.model import PageSpec, page_path, page_title

from .common import Compiled, render


def setting_kind(default) -> str:
    return "toggle" if isinstance(default, bool) else "select" if isinstance(default, list) else "slider" if isinstance(default, (int, float)) else "text"


def setting_label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def mount_settings(app: Compiled, page: PageSpec, router: APIRouter) -> None:
    model = app.model("setting")
    path = page_path(page)
    spec = app.spec.settings

    @router.get(path)
    def settings_page(gym: GymDep):
        saved = {r.key: r.value for r in gym.db.exec(select(model)).all()}
        items = [(k, setting_label(k), setting_kind(v), v, saved.get(k, "")) for k, v in spec.items()]
        return render(app, gym, "arch/settings.html", page_title(app.spec, page), items=items, path=path)

    @router.post(path)
    async def save(gym: GymDep, request: Request):
        form = await request.form()
        for key, default in spec.items():
            row = gym.db.get(model, key) or model(key=key)
            kind = setting_kind(default)
            raw = str(form.get(key, ""))
            if kind == "toggle":
                row.value = "on" if raw == "on" else "off"
            elif kind == "select":
                row.value = raw if raw in [str(x) for x in default] else row.value
            elif kind == "slider":
                row.value = raw if raw.lstrip("-").replace(".", "", 1).isdigit() else row.value
            else:
                row.value = raw.strip()
            gym.db.add(row)
        return gym.done(path, notice="Settings saved")


__all__ = ["mount_settings", "setting_kind", "setting_label"]
