"""The README's code examples run as written."""

import doctest
from pathlib import Path


def test_readme_examples_run():
    result = doctest.testfile(str(Path(__file__).parent.parent / "README.md"),
                              module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4
    assert result.failed == 0
