"""The repository's promises: the README's test command is what CI runs; rules stay pure."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.+?)\n```", text, flags=re.S)


def test_readme_opens_with_two_commands_and_ci_runs_the_second() -> None:
    first, second = readme_commands()[:2]
    assert "pip install" in first and "referee" in first
    assert "pytest" in second
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert second.strip() in ci


def test_the_rules_package_imports_no_vision_web_or_storage() -> None:
    forbidden = {"cv2", "numpy", "flask", "sqlite3", "scipy"}
    for path in (ROOT / "referee" / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"
