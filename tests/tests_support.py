"""Helpers shared by the tests (not tests themselves)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pypdf import PdfReader


def embedded_fonts(reader: PdfReader) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for page in reader.pages:
        resources = page["/Resources"]
        stack = [resources]
        while stack:
            res = stack.pop().get_object()
            for font in (res.get("/Font") or {}).values():
                font = font.get_object()
                if "/DescendantFonts" in font:  # Type0 (CID) fonts keep the file one level down
                    font = font["/DescendantFonts"][0].get_object()
                descriptor = font.get("/FontDescriptor")
                descriptor = descriptor.get_object() if descriptor else {}
                embedded = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                found[str(font["/BaseFont"])] = embedded
            for xobject in (res.get("/XObject") or {}).values():
                xobject = xobject.get_object()
                if "/Resources" in xobject:
                    stack.append(xobject["/Resources"])
    return found


def assert_other_addresses_refuse(port: int) -> None:
    """A server bound to 127.0.0.1 does not answer on this machine's other address (when
    it has one)."""
    import socket

    import pytest

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        own = probe.getsockname()[0]
    except OSError:
        own = "127.0.0.1"
    finally:
        probe.close()
    if not own.startswith("127."):
        with pytest.raises(OSError):
            socket.create_connection((own, port), timeout=1).close()


def run_printgen(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`printgen --root ROOT ARGS...` as a user runs it, in ROOT, output captured (with
    `env`, in that environment)."""
    return subprocess.run(
        [sys.executable, "-m", "printgen", "--root", str(root), *args],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        check=False,
    )
