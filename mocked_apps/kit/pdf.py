"""A real, minimal PDF of plain text: what a download link of a mocked document hands out.

Deterministic (no dates, no ids), one Helvetica page per 60 lines, nothing but the standard library.
"""

from __future__ import annotations

import base64

__all__ = ["data_url", "text_pdf"]

_LINES_PER_PAGE = 60


def _escape(line: str) -> str:
    text = line.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(title: str, text: str) -> bytes:
    """A PDF whose pages show `title` then the lines of `text` (characters outside Latin-1 become '?')."""
    lines = [title, ""] + text.splitlines()
    pages = [lines[i:i + _LINES_PER_PAGE] for i in range(0, len(lines), _LINES_PER_PAGE)] or [[title]]
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for page in pages:
        body = "BT /F1 10 Tf 12 TL 50 800 Td " + " ".join(f"({_escape(line)}) '" for line in page) + " ET"
        objects.append(f"<< /Length {len(body.encode('latin-1'))} >>\nstream\n{body}\nendstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {len(objects)} 0 R "
                       "/Resources << /Font << /F1 3 0 R >> >> >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{obj}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def data_url(filename: str, text: str, media: str = "text/plain") -> str:
    """A `data:` URL for a download link (`<a href=... download=filename>`): a PDF of `text` for a .pdf name, else `text`.

    The file travels inside the page, so no route serves it and no crawler of the instance's links opens a
    download as if it were a page.
    """
    if filename.lower().endswith(".pdf"):
        body, media = text_pdf(filename, text), "application/pdf"
    else:
        body, media = text.encode(), f"{media};charset=utf-8"
    return f"data:{media};base64,{base64.b64encode(body).decode()}"
