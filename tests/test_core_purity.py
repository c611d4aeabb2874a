"""The rules core imports nothing outside the standard library (shape of the code)."""

import ast
import sys
from pathlib import Path

CORE = ["cards", "actions", "rules", "kernel", "deal", "match", "events", "observation", "errors",
        "records", "narration", "bench", "companion", "__init__"]

# The package's optional C extension (the Python C API only, no library): the core may use
# it as an accelerator, with its own Python statement as the fallback and the reference.
ACCELERATORS = ["_playout"]


def test_core_modules_import_only_stdlib_and_core():
    root = Path(__file__).parent.parent / "president"
    for name in CORE:
        # A core package (records/) is every module in it; its modules may import each other.
        package = root / name
        paths = sorted(package.glob("*.py")) if package.is_dir() else [root / f"{name}.py"]
        inside = {path.stem for path in paths} if package.is_dir() else set()
        for path in paths:
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    if node.level:  # relative: must stay inside the core
                        mods = []
                        # "from .x import y" imports x; "from . import x, y" imports x and y
                        tops = [node.module.split(".")[0]] if node.module \
                            else [a.name for a in node.names]
                        for top in tops:
                            if inside and node.level == 1:  # a module of the same package
                                assert top in inside, (path.name, top)
                            else:
                                assert (top in CORE or top in ACCELERATORS) \
                                    and (not inside or node.level == 2), (path.name, top)
                    else:
                        mods = [node.module]
                else:
                    continue
                for m in mods:
                    top = m.split(".")[0]
                    assert top in sys.stdlib_module_names, f"{path.name} imports {m}"
