"""Build of the optional compiled play-outs (``president._playout``, issue 12 item 4).

Everything else about the package is in ``pyproject.toml``. The extension is optional: when
the C compiler or the Python headers are missing, or the build fails, setuptools prints a
warning and installs the package without it, and :mod:`president.players.compiled` falls
back to the pure-Python play-outs of :mod:`president.players.fastsim`.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("president._playout", ["president/_playout.c"], optional=True,
              extra_compile_args=["-O3"]),
])
