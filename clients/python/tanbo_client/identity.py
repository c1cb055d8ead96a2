"""The identity token kept in a file between runs."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Union


@dataclass(frozen=True)
class TokenFile:
    """A file holding one identity token, readable by its owner only.

    The token is the secret that brings an identity back (docs/protocol.md, "hello"): whoever
    reads it plays as that identity, so the file is written with mode 0600.
    """

    path: Path

    @classmethod
    def at(cls, path: Union[str, os.PathLike[str]]) -> TokenFile:
        return cls(Path(path).expanduser())

    def load(self) -> Optional[str]:
        """The saved token, or None when there is none yet."""
        try:
            token = self.path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None
        return token or None

    def save(self, token: str) -> None:
        """Replaces the file at once (written aside, then renamed over it)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".token-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(token + "\n")
            os.replace(temporary, self.path)
        except BaseException:
            os.unlink(temporary)
            raise
