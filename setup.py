"""Build of the optional compiled parts:

- ``president._playout``: the compiled play-outs;
- ``president._vector``: the batched one-deal core under :class:`president.env.VectorEnv`.

Both include ``president/_mt.h`` (CPython's Mersenne Twister, stepped in C) and
``president/_bits.h`` (counting and finding set bits).

Everything else about the package is in ``pyproject.toml``. Both extensions are optional:
when the C compiler or the Python headers are missing, or a build fails, setuptools prints a
warning and installs the package without it; :mod:`president.players.compiled` then falls
back to the pure-Python play-outs of :mod:`president.players.fastsim`, and ``VectorEnv`` to
its Python tables.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("president._playout", ["president/_playout.c"], optional=True,
              depends=["president/_mt.h", "president/_bits.h", "president/_intermediate.h",
                       "president/_mixed.h", "president/_endgame.h", "president/_position.h"],
              extra_compile_args=["-O3"]),
    Extension("president._vector", ["president/_vector.c"], optional=True,
              depends=["president/_mt.h", "president/_bits.h"], extra_compile_args=["-O3"]),
])
