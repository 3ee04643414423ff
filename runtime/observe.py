"""The page walker: stable numeric ids on actionable elements and the accessibility-tree text (RUNTIME.md).

Ids are kept on the elements themselves (`data-gym-id`) and a per-document counter, so they are
assigned in DOM order on the first walk, never change while the document lives, and new elements
get the next free numbers.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

_RETRIES = 4
# Playwright errors that mean the document went away under a call (a navigation landed)
NAVIGATING = ("Execution context was destroyed", "navigat", "Cannot find context")

WALKER_JS = r"""
(opts) => {
  const maxLines = opts.maxLines, maxText = opts.maxText, maxChars = opts.maxChars;
  const ACTION_TAGS = new Set(["BUTTON", "TEXTAREA", "SELECT", "SUMMARY"]);
  const ACTION_ROLES = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "checkbox",
    "radio", "switch", "option", "textbox", "searchbox", "combobox", "slider", "spinbutton", "treeitem"]);
  const LANDMARKS = new Set(["navigation", "main", "complementary", "contentinfo", "dialog", "alertdialog", "search", "region"]);
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "OPTION", "DATALIST", "svg"]);
  const INPUT_ROLES = {checkbox: "checkbox", radio: "radio", button: "button", submit: "button", reset: "button",
    image: "button", file: "button", color: "button", search: "searchbox", number: "spinbutton", range: "slider"};
  const STRUCTURE = "h1,h2,h3,h4,h5,h6,[role=heading],[data-gym-id],nav,main,aside,dialog,[role=dialog],img[alt]";
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  const cut = (s) => s.length > maxText ? s.slice(0, maxText) + "…" : s;
  const q = (s) => JSON.stringify(cut(clean(s)));

  const actionable = (el) => {
    const tag = el.tagName;
    if (tag === "A") return el.hasAttribute("href");
    if (tag === "INPUT") return el.type !== "hidden";
    if (ACTION_TAGS.has(tag)) return true;
    const role = (el.getAttribute("role") || "").split(" ")[0];
    if (ACTION_ROLES.has(role)) return true;
    if (el.hasAttribute("onclick")) return true;
    return el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
  };

  if (window.__gymNextId === undefined) {
    window.__gymNextId = 1;
    // A followed link or a submitted form will replace this document. Submissions are scheduled, not
    // immediate, so flag them when their (synchronous) events end unprevented; beforeunload catches the rest.
    const leave = () => { window.__gymLeaving = true; };
    addEventListener("beforeunload", leave);
    addEventListener("submit", (e) => { if (!e.defaultPrevented) leave(); });
    addEventListener("click", (e) => {
      const a = !e.defaultPrevented && e.target.closest && e.target.closest("a[href]");
      if (a && !a.target && !a.hasAttribute("download") && !a.getAttribute("href").startsWith("#")) leave();
    });
  }
  for (const el of document.querySelectorAll("*")) {
    if (!el.hasAttribute("data-gym-id") && actionable(el)) el.setAttribute("data-gym-id", String(window.__gymNextId++));
  }

  const role = (el) => {
    const explicit = (el.getAttribute("role") || "").split(" ")[0];
    if (explicit && explicit !== "presentation" && explicit !== "none") return explicit;
    const tag = el.tagName;
    switch (tag) {
      case "A": return el.hasAttribute("href") ? "link" : "";
      case "BUTTON": case "SUMMARY": return "button";
      case "SELECT": return (el.multiple || el.size > 1) ? "listbox" : "combobox";
      case "TEXTAREA": return "textbox";
      case "INPUT": return INPUT_ROLES[el.type] || "textbox";
      case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": return "heading";
      case "IMG": return el.getAttribute("alt") ? "img" : "";
      case "NAV": return "navigation";
      case "MAIN": return "main";
      case "ASIDE": return "complementary";
      case "DIALOG": return "dialog";
      case "SECTION": return (el.getAttribute("aria-label") || el.getAttribute("aria-labelledby")) ? "region" : "";
    }
    if (el.hasAttribute("onclick")) return "button";
    if (el.isContentEditable) return "textbox";
    return "";
  };

  const hidden = (el) => el.getAttribute("aria-hidden") === "true" || el.hidden ||
    (el.checkVisibility && !el.checkVisibility({visibilityProperty: true}) && getComputedStyle(el).display !== "contents");

  const textOf = (node) => {
    let out = "";
    for (const c of node.childNodes) {
      if (c.nodeType === 3) out += c.textContent;
      else if (c.nodeType === 1) {
        if (SKIP.has(c.tagName) || c.getAttribute("aria-hidden") === "true" || c.hidden) continue;
        if (c.tagName === "IMG") out += " " + (c.getAttribute("alt") || "") + " ";
        else if (c.tagName === "INPUT" || c.tagName === "SELECT" || c.tagName === "TEXTAREA") continue;
        else out += " " + textOf(c) + " ";
      }
    }
    return out;
  };

  const byIds = (ids) => ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map(textOf).join(" ");

  const name = (el, r) => {
    const by = el.getAttribute("aria-labelledby");
    if (by) { const t = clean(byIds(by)); if (t) return t; }
    const aria = clean(el.getAttribute("aria-label"));
    if (aria) return aria;
    const tag = el.tagName;
    if (tag === "INPUT" && ["button", "submit", "reset"].includes(el.type)) return clean(el.value) || (el.type === "submit" ? "Submit" : el.type === "reset" ? "Reset" : "");
    if (tag === "INPUT" && el.type === "image") return clean(el.alt || el.value);
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      const labels = el.labels ? Array.from(el.labels).map(textOf).join(" ") : "";
      return clean(labels) || clean(el.getAttribute("placeholder")) || clean(el.getAttribute("title"));
    }
    if (tag === "IMG") return clean(el.getAttribute("alt"));
    if (r === "navigation" || r === "main" || r === "complementary" || r === "region") return "";
    return clean(textOf(el)) || clean(el.getAttribute("title"));
  };

  const attrs = (el, r) => {
    const out = [];
    const tag = el.tagName;
    if (r === "heading") out.push("level=" + (el.getAttribute("aria-level") || tag.slice(1)));
    if (["textbox", "searchbox", "spinbutton", "slider"].includes(r) && (tag === "INPUT" || tag === "TEXTAREA")) {
      if (el.value) out.push("value=" + q(el.type === "password" ? "•".repeat(el.value.length) : el.value));
    } else if (r === "textbox" && el.isContentEditable && clean(el.innerText)) {
      out.push("value=" + q(el.innerText));
    }
    if (tag === "SELECT") {
      const chosen = Array.from(el.selectedOptions).map((o) => clean(o.label || o.text)).join(", ");
      if (chosen) out.push("value=" + q(chosen));
      const opts = Array.from(el.options).slice(0, 30).map((o) => clean(o.label || o.text));
      out.push("options=" + q(opts.join(" | ")));
    }
    if ((tag === "INPUT" && (el.type === "checkbox" || el.type === "radio") && el.checked) || el.getAttribute("aria-checked") === "true") out.push("checked");
    if (el.disabled || el.getAttribute("aria-disabled") === "true") out.push("disabled");
    const current = el.getAttribute("aria-current");
    if (current && current !== "false") out.push("current");
    if (el.getAttribute("aria-selected") === "true") out.push("selected");
    if (el.getAttribute("aria-expanded") === "true" || (tag === "SUMMARY" && el.parentElement && el.parentElement.open)) out.push("expanded");
    if (el.required) out.push("required");
    if (document.activeElement === el && el !== document.body) out.push("focused");
    return out;
  };

  const lines = [];
  let truncated = 0, size = 0;
  const emit = (depth, text) => {
    const line = "  ".repeat(depth) + text;
    if (!truncated && lines.length < maxLines && size + line.length <= maxChars) { lines.push(line); size += line.length + 1; }
    else truncated++;
  };

  const walk = (node, depth, textAllowed) => {
    for (const c of node.childNodes) {
      if (c.nodeType === 3) {
        const t = clean(c.textContent);
        if (t && textAllowed) emit(depth, "text " + q(t));
        continue;
      }
      if (c.nodeType !== 1 || SKIP.has(c.tagName) || hidden(c)) continue;
      if (c.tagName === "LABEL" && c.control) { walk(c, depth, false); continue; }
      const r = role(c);
      const id = c.getAttribute("data-gym-id");
      if (id !== null) {
        const n = name(c, r);
        emit(depth, `[${id}] ${r || "generic"}${n ? " " + q(n) : ""}${attrs(c, r).map((a) => " " + a).join("")}`);
        if (c.tagName !== "SELECT") walk(c, depth + 1, false);
      } else if (r === "heading") {
        emit(depth, `heading ${q(name(c, r))}${attrs(c, r).map((a) => " " + a).join("")}`);
        walk(c, depth + 1, false);
      } else if (r === "img") {
        emit(depth, `img ${q(name(c, r))}`);
      } else if (LANDMARKS.has(r)) {
        const n = name(c, r);
        emit(depth, r + (n ? " " + q(n) : ""));
        walk(c, depth + 1, textAllowed);
      } else if (textAllowed && !c.querySelector(STRUCTURE)) {
        const t = clean(c.innerText);
        if (t) emit(depth, "text " + q(t));
      } else {
        walk(c, depth, textAllowed);
      }
    }
  };
  if (document.body) walk(document.body, 0, true);
  if (truncated) lines.push(`… ${truncated} more lines not shown`);
  const history = window.navigation && navigation.currentEntry ? navigation.currentEntry.index : 0;
  return {axtree: lines.join("\n"), url: location.href, title: document.title, history, leaving: !!window.__gymLeaving};
}
"""


async def snapshot(page, max_lines: int = 400, max_text: int = 2000, max_chars: int = 120_000) -> dict:
    """Walk the page: `{"axtree", "url", "title", "history", "leaving"}`; assigns ids to actionable elements not yet numbered.

    A text node or name is cut past `max_text` characters: 2,000 keeps a document's printed text whole (an invoice's
    total is its last line). The tree stops at `max_lines` lines or `max_chars` characters, whichever comes first
    (120,000: the old bound of 400 lines cut at 300), and says how many lines it left out.

    `history` is the session-history index; `leaving` is true once the document has begun to unload.
    A navigation that lands while walking destroys the document under us: wait for the new one and walk again.
    """
    for _ in range(_RETRIES):
        try:
            return await page.evaluate(WALKER_JS, {"maxLines": max_lines, "maxText": max_text, "maxChars": max_chars})
        except PlaywrightError as err:
            if page.is_closed() or not any(s in str(err) for s in NAVIGATING):
                raise
            await page.wait_for_load_state("load")
    return await page.evaluate(WALKER_JS, {"maxLines": max_lines, "maxText": max_text, "maxChars": max_chars})
