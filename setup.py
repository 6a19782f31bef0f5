"""The one thing pyproject.toml cannot say: the compiled move generator.

Built against CPython's stable ABI (3.11 and every later version), so the
same .so loads in a newer Lambda runtime than the machine that built it.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "crossing.tiles._movegen",
            sources=["functions/crossing/tiles/_movegen.c"],
            define_macros=[("Py_LIMITED_API", "0x030B0000")],
            py_limited_api=True,
            extra_compile_args=["-O2"],
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
