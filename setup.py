"""Build script: maps the top-level folders into the `cursedbottle` import package.

The folders at the root are a picture of the architecture (engine ← solver ← bots ←
server; client; cli); installed, they live under one namespace, `cursedbottle.*`,
so that generic names such as `server` or `client` never collide in site-packages.
"""

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
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


#: The sanitizers CB_SANITIZE may name (the ones solver/README.md runs).
SANITIZERS = ("undefined", "address")


def sanitizers() -> str:
    """The sanitizers CB_SANITIZE asks for ("undefined", "address" or both,
    comma-separated; empty: none).  A check of the C the search compiles
    to, run by hand (solver/README.md, "Checking the C"): the tests under it
    take minutes more than CI has.  Any other name stops the build here,
    before gcc would refuse it in the middle of a compile."""
    wanted = os.environ.get("CB_SANITIZE", "").strip()
    unknown = [name for name in wanted.split(",") if wanted and name not in SANITIZERS]
    if unknown:
        raise SystemExit(f"CB_SANITIZE: {', '.join(map(repr, unknown))} is not one of "
                         f"{', '.join(SANITIZERS)} (or empty: no sanitizer)")
    return wanted


def sanitize_flags() -> tuple[list[str], list[str]]:
    """The compile and link flags of CB_SANITIZE's build: every fault found
    stops the process (no run that merely prints and goes on), and the
    module says it was built so (`_search.BUILD["sanitize"]`)."""
    wanted = sanitizers()
    if not wanted:
        return [], []
    return ([f"-fsanitize={wanted}", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer",
             "-g", "-DCB_SANITIZE=1"], [f"-fsanitize={wanted}"])


def profile_guided(compiler) -> bool:
    """Whether to build the search profile-guided: gcc (whose flags these
    are; clang's profiles need a tool of their own), not switched off with
    CB_PROFILE_GUIDED=0 (a quicker build, for one who edits the .pyx), nor
    a sanitizer's build (whose instrumented run is a check, not a profile)."""
    if os.environ.get("CB_PROFILE_GUIDED", "").strip() == "0" or sanitizers():
        return False
    if getattr(compiler, "compiler_type", "") != "unix":
        return False
    try:
        version = subprocess.run([compiler.compiler_so[0], "--version"], capture_output=True,
                                 text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in version and "clang" not in version


class BuildExtProfileGuided(build_ext):
    """The search built twice by gcc: instrumented, run on solver/training.py's
    workload, then optimised for what that run took (10-14 % less time a
    solve on one thread: solver/README.md).  Any failure on the way (a gcc
    without -fprofile-partial-training, a workload that does not run) leaves
    the plain build, with a warning: the profile is an optimisation only.
    The instrumented build counts atomically: the workload's split solves
    run two threads, whose racing counts gcc would refuse as corrupt."""

    def build_extension(self, ext: Extension) -> None:
        if not profile_guided(self.compiler):
            super().build_extension(ext)
            return
        compile_args, link_args, force = ext.extra_compile_args, ext.extra_link_args, self.force
        profile = Path(self.build_temp).resolve() / "profile"
        shutil.rmtree(profile, ignore_errors=True)
        self.force = True
        try:
            ext.extra_compile_args = [*compile_args, f"-fprofile-generate={profile}",
                                      "-fprofile-update=atomic"]
            ext.extra_link_args = [*link_args, f"-fprofile-generate={profile}"]
            super().build_extension(ext)
            module = Path(self.get_ext_fullpath(ext.name)).resolve()
            subprocess.run([sys.executable, str(ROOT / "solver" / "training.py"), str(ROOT),
                            str(module)], check=True, timeout=600)
            ext.extra_compile_args = [*compile_args, f"-fprofile-use={profile}",
                                      "-fprofile-partial-training", "-Wno-missing-profile",
                                      "-DCB_PROFILE_GUIDED=1"]
            ext.extra_link_args = link_args
            super().build_extension(ext)
        except Exception as err:  # (any failure: the plain build)
            print(f"warning: no profile-guided build of {ext.name} ({err}); a plain one",
                  file=sys.stderr)
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
            super().build_extension(ext)
        finally:
            ext.extra_compile_args, ext.extra_link_args, self.force = compile_args, link_args, force


#: The solver's compiled search.  Building it needs Cython and a C compiler;
#: there is deliberately no pure-Python fallback (the build fails loudly).
EXTENSIONS = [
    Extension(
        "cursedbottle.solver._search",
        ["solver/_search.pyx"],
        depends=["solver/_maxn.pxi", "solver/_split.pxi"],  # included by _search.pyx
        extra_compile_args=["-O3", *cpu_flags(), *sanitize_flags()[0]],
        extra_link_args=sanitize_flags()[1],
    ),
]

setup(
    packages=sorted(PACKAGE_DIR),
    package_dir=PACKAGE_DIR,
    package_data={"cursedbottle.v1": ["*.proto", "*.pyi"],
                  "cursedbottle.client": ["data/*.txt", "*.tcss"],
                  "cursedbottle.client.popups": ["*.tcss"],
                  "cursedbottle.engine": ["data/*.csv"]},
    cmdclass={"build_py": BuildPyWithProtos, "build_ext": BuildExtProfileGuided},
    ext_modules=cythonize(EXTENSIONS, compiler_directives={"language_level": "3"}),
)
