"""Build of the optional compiled parts:

- ``president._playout``: the compiled play-outs;
- ``president._vector``: the batched one-deal core under :class:`president.env.VectorEnv`.

Their C sources are in ``president/native/``. Both include ``_rules.h`` (the rules of
play, stated once in C), ``_mt.h`` (CPython's Mersenne Twister, stepped in C) and
``_bits.h`` (counting and finding set bits).

Everything else about the package is in ``pyproject.toml``. Both extensions are optional:
when the C compiler or the Python headers are missing, or a build fails, setuptools prints a
warning and installs the package without it; :mod:`president.players.compiled` then falls
back to the pure-Python play-outs of :mod:`president.players.fastsim`, and ``VectorEnv`` to
its Python tables.
"""

from setuptools import Extension, setup

NATIVE = "president/native/"
#: Headers every C unit may include: the rules of play (``_rules.h``), the generator, the bits.
HEADERS = [NATIVE + h for h in ("_rules.h", "_mt.h", "_bits.h")]

setup(ext_modules=[
    Extension("president._playout", [NATIVE + "_playout.c"], optional=True,
              depends=HEADERS + [NATIVE + h for h in ("_intermediate.h", "_mixed.h",
                                                      "_endgame.h", "_position.h")],
              extra_compile_args=["-O3"]),
    Extension("president._vector", [NATIVE + "_vector.c"], optional=True,
              depends=HEADERS, extra_compile_args=["-O3"]),
])
