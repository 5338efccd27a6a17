"""Modules stay small and functions short (STYLE.md: split before 400 lines); a longer function says why."""

from __future__ import annotations

import ast

from remedy.settings import ROOT

SERVICE = ROOT / "service"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def test_no_module_is_over_400_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in SERVICE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, long


def test_a_function_over_60_lines_says_why_in_its_docstring() -> None:
    unexplained = []
    for path in sorted(SERVICE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                doc = " ".join((ast.get_docstring(node) or "").split())
                if length > MAX_FUNCTION_LINES and "on purpose" not in doc:
                    unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    assert not unexplained, unexplained
