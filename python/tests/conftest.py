"""Shared by the package's tests: the tools in the build tree (DISTIR_BIN)."""

import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def tool():
    """Runs build/bin/<name> with arguments; returns its stdout."""
    directory = os.environ.get("DISTIR_BIN")
    if not directory:
        pytest.skip("DISTIR_BIN (the build's bin directory) is not set")

    def run(name, *args, input=None, check=True):
        result = subprocess.run([os.path.join(directory, name), *map(str, args)],
                                input=input, capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"{name} failed: {result.stderr}")
        return result
    return run
