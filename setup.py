"""The optional compiled core (unogame.native._core): built by ``pip install`` when a C
compiler and the Python headers are present; without them the install still succeeds and
the pure-Python engine is used."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "unogame.native._core",
            sources=[f"src/unogame/native/{name}.c"
                     for name in ("module", "module_search", "core", "core_set", "policy",
                                  "search", "tree", "flat", "medium", "belief", "pyrandom",
                                  "pyevents")],
            depends=[f"src/unogame/native/{name}.h"
                     for name in ("module", "core", "policy", "search", "tree", "medium", "belief",
                                  "pyrandom", "pyevents")],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wshadow",
                                "-Wconversion", "-Wno-sign-conversion", "-Werror=implicit",
                                "-ffp-contract=off", "-flto"],
            extra_link_args=["-flto", "-O2"],
            optional=True,
        ),
        Extension(  # the environment's observations and steps on core states (unogame.env)
            "unogame.native._envobs",
            sources=[f"src/unogame/native/{name}.c"
                     for name in ("envobs", "envstep", "envturns", "envmemory", "envexport",
                                  "core", "core_set", "pyrandom", "pyevents")],
            depends=[f"src/unogame/native/{name}.h"
                     for name in ("envobs", "envstep", "core", "pyrandom", "pyevents")],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wshadow",
                                "-Wconversion", "-Wno-sign-conversion", "-Werror=implicit",
                                "-ffp-contract=off", "-flto"],
            extra_link_args=["-flto", "-O2"],
            optional=True,
        ),
    ],
)
