"""Screenshots of the task manager's main flow into docs/screenshots/projects/: `python -m mocked_apps.projects.screenshots`.

Desktop (1280x800, the primary form factor) is numbered; the phone (390x844) shows the board and a task."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from mocked_apps.kit import AppServer
from mocked_apps.kit.browser import context_options, launch_chromium

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "projects"


def _flow(page, root: str, shot) -> None:
    page.goto(root + "/")
    shot("1-home")
    page.get_by_role("link", name="Navarro Foods account", exact=True).click()
    shot("2-board")
    page.get_by_label("Assignee").select_option(label="Alex Morgan")
    page.get_by_role("button", name="Filter").click()
    shot("3-board-filtered")
    page.get_by_role("link", name="Clear filters").click()
    page.get_by_role("link", name="Add task to To do").click()
    page.get_by_label("Title").fill("Book the tasting session")
    page.get_by_label("Assignee").select_option(label="Gary Douglas")
    page.get_by_label("Due date").fill("2026-03-10")
    page.get_by_label("Priority").select_option(label="High")
    page.get_by_label("Client").check()
    shot("4-new-task")
    page.get_by_role("button", name="Create task").click()
    page.get_by_label("Comment", exact=True).fill("Navarro asked for Tuesday or Wednesday.")
    page.get_by_role("button", name="Comment", exact=True).click()
    shot("5-task")
    page.goto(root + "/my-tasks")
    shot("6-my-tasks")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with AppServer("projects") as server, sync_playwright() as pw:
        browser = launch_chromium(pw)
        for form_factor, size in (("desktop", "1280x800"), ("mobile", "390x844")):
            root = server.url + server.admin.create()["url"].rstrip("/")
            context = browser.new_context(**context_options(form_factor))
            page = context.new_page()
            if form_factor == "desktop":
                _flow(page, root, lambda name: page.screenshot(path=str(OUT / f"{name}-{size}.png")))
            else:
                page.goto(root + "/projects/1")
                page.screenshot(path=str(OUT / f"board-{size}.png"))
                page.goto(root + "/tasks/2")
                page.screenshot(path=str(OUT / f"task-{size}.png"))
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
