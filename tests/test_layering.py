"""The arrows between packages point one way (DESIGN.md): referee imports only the standard
library; calibration may use referee's types; vision may use calibration and referee; web uses all."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"referee", "vision", "calibration", "models", "web"}
ALLOWED = {
    "referee": {"referee"},
    "calibration": {"calibration", "referee", "models"},
    "models": {"models"},
    "vision": {"vision", "calibration", "referee", "models"},
    "web": OURS,
}
THIRD_PARTY_FORBIDDEN_IN_REFEREE = {"cv2", "numpy", "onnxruntime", "fastapi"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def python_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_point_one_way(package: str) -> None:
    bad = {}
    for path in python_files(package):
        wrong = (imported_roots(path) & OURS) - ALLOWED[package]
        if wrong:
            bad[str(path.relative_to(ROOT))] = sorted(wrong)
    assert not bad, f"imports against the package arrows: {bad}"


def test_referee_uses_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {}
    for path in python_files("referee"):
        outside = imported_roots(path) - stdlib - {"referee"}
        if outside:
            bad[str(path.relative_to(ROOT))] = sorted(outside)
    assert not bad, f"referee/ must import the standard library only: {bad}"
    assert python_files("referee"), "referee/ holds no Python files"


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import numpy as np\nfrom cv2 import imread\n"
        "import importlib\nimportlib.import_module('onnxruntime')\n"
    )
    assert THIRD_PARTY_FORBIDDEN_IN_REFEREE - {"fastapi"} <= imported_roots(sample)
