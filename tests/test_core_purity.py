"""The rules core imports nothing outside the standard library (shape of the code)."""

import ast
import sys
from pathlib import Path

CORE = ["cards", "actions", "rules", "kernel", "deal", "match", "events", "observation", "errors",
        "records", "bench", "companion", "__init__"]


def test_core_modules_import_only_stdlib_and_core():
    root = Path(__file__).parent.parent / "president"
    for name in CORE:
        tree = ast.parse((root / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: must stay inside the core
                    mods = []
                    assert (node.module or "").split(".")[0] in CORE, (name, node.module)
                else:
                    mods = [node.module]
            else:
                continue
            for m in mods:
                top = m.split(".")[0]
                assert top in sys.stdlib_module_names, f"{name}.py imports {m}"
