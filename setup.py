"""Build script: maps the top-level folders into the `cursedbottle` import package.

The folders at the root are a picture of the architecture (engine ← solver ← bots ←
server; client; cli); installed, they live under one namespace, `cursedbottle.*`,
so that generic names such as `server` or `client` never collide in site-packages.
"""

import os
import platform
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

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
#: The wire contract (proto/cursedbottle/v1/*.proto), generated at build time.
PACKAGE_DIR["cursedbottle.v1"] = "proto/cursedbottle/v1"
PROTOS = ["cursedbottle/v1/game.proto", "cursedbottle/v1/table.proto"]


def generate_protos() -> None:
    """Compile the .proto files next to themselves, with `proto/` as the include root,
    so that the generated modules import each other as `cursedbottle.v1.*`."""
    from grpc_tools import protoc

    include = ROOT / "proto"
    args = ["protoc", f"-I{include}", f"--python_out={include}", f"--pyi_out={include}"]
    if protoc.main([*args, *PROTOS]) != 0:
        raise RuntimeError("protoc failed on " + ", ".join(PROTOS))
    grpc_args = ["protoc", f"-I{include}", f"--grpc_python_out={include}", PROTOS[1]]
    if protoc.main(grpc_args) != 0:
        raise RuntimeError("protoc failed on " + PROTOS[1])


class BuildPyWithProtos(build_py):
    """Generate the gRPC code before the packages are collected (editable installs too)."""

    def run(self) -> None:
        generate_protos()
        super().run()


def cpu_flags() -> list[str]:
    """The compiler flags this machine's CPU allows beyond the portable build.

    The project is installed from source, so the search is compiled on the
    machine that runs it: where the CPU counts bits in one instruction
    (x86-64 with `popcnt`, every such CPU since about 2009) the search uses
    it, and where it gathers bits in one fast instruction (BMI2's `pext`;
    AMD's before Zen 3, family 25, run it in microcode, slower than the
    loop that replaces it) the table keys use that (solver/README.md
    measures both).  CB_PORTABLE_BUILD=1 builds for any CPU, for a build
    shared by other machines."""
    portable = os.environ.get("CB_PORTABLE_BUILD", "").strip() not in ("", "0")
    if portable or platform.machine() not in ("x86_64", "AMD64"):
        return []
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text()
    except OSError:
        return []
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        fields.setdefault(name.strip(), value.strip())
    flags = fields.get("flags", "").split()
    family = fields.get("cpu family", "")
    # (An AMD family not given as a number counts as an old one: the loop.)
    slow_pext = (fields.get("vendor_id") == "AuthenticAMD"
                 and (not family.isdigit() or int(family) < 25))
    wanted = ["popcnt"] if slow_pext else ["popcnt", "bmi2"]
    return [f"-m{flag}" for flag in wanted if flag in flags]


#: The solver's compiled search.  Building it needs Cython and a C compiler;
#: there is deliberately no pure-Python fallback (the build fails loudly).
EXTENSIONS = [
    Extension(
        "cursedbottle.solver._search",
        ["solver/_search.pyx"],
        depends=["solver/_maxn.pxi", "solver/_split.pxi"],  # included by _search.pyx
        extra_compile_args=["-O3", *cpu_flags()],
    ),
]

setup(
    packages=sorted(PACKAGE_DIR),
    package_dir=PACKAGE_DIR,
    package_data={"cursedbottle.v1": ["*.proto", "*.pyi"],
                  "cursedbottle.client": ["data/*.txt", "*.tcss"],
                  "cursedbottle.client.popups": ["*.tcss"],
                  "cursedbottle.engine": ["data/*.csv"]},
    cmdclass={"build_py": BuildPyWithProtos},
    ext_modules=cythonize(EXTENSIONS, compiler_directives={"language_level": "3"}),
)
