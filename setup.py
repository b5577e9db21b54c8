"""Build script: maps the top-level folders into the `cursedbottle` import package.

The folders at the root are a picture of the architecture (engine ← solver ← bots ←
server; client; cli); installed, they live under one namespace, `cursedbottle.*`,
so that generic names such as `server` or `client` never collide in site-packages.
"""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
LAYERS = ["engine", "solver", "bots", "server", "client", "cli"]


def packages() -> dict[str, str]:
    """Every folder with an `__init__.py` below a layer becomes `cursedbottle.<layer>...`."""
    mapping = {}
    for layer in LAYERS:
        base = ROOT / layer
        if not (base / "__init__.py").exists():
            continue
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT)
            mapping["cursedbottle." + ".".join(rel.parts)] = rel.as_posix()
    return mapping


PACKAGE_DIR = packages()

setup(
    packages=sorted(PACKAGE_DIR),
    package_dir=PACKAGE_DIR,
)
