"""The package installs offline with the system's setuptools, typed, declaring its dependency.

No server: ctest runs it once, apart from the tests with-server.py runs (test_*.py).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from support import CLIENT_DIR, PYTHON


class Package(unittest.TestCase):
    def test_pip_installs_it_offline(self) -> None:
        with tempfile.TemporaryDirectory() as directory:
            source = Path(directory) / "source"
            target = Path(directory) / "target"
            # A copy: the build writes beside the sources.
            shutil.copytree(CLIENT_DIR, source,
                            ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            done = subprocess.run(
                [PYTHON, "-m", "pip", "install", "--no-index", "--no-build-isolation",
                 "--no-deps", "--no-cache-dir", "--disable-pip-version-check",
                 "--target", str(target), str(source)],
                capture_output=True, text=True, timeout=120, check=False)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            installed = target / "tanbo_client"
            self.assertEqual(sorted(p.name for p in installed.glob("*.py")),
                             ["__init__.py", "client.py", "errors.py", "identity.py", "messages.py"])
            self.assertTrue((installed / "py.typed").is_file())
            metadata = next(target.glob("tanbo_client-*.dist-info")) / "METADATA"
            self.assertRegex(metadata.read_text(), r"(?m)^Requires-Dist: websockets")
            imported = subprocess.run(
                [PYTHON, "-c", "import tanbo_client; print(tanbo_client.__file__)"],
                cwd=directory, env={"PYTHONPATH": str(target)}, capture_output=True, text=True,
                timeout=30, check=True)
            self.assertEqual(Path(imported.stdout.strip()).parent, installed)


if __name__ == "__main__":
    unittest.main()
