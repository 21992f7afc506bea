"""The key files of ``--sign-key-file`` and ``--verify-key-file``."""

from costsense.persist import read_key

__all__ = ["read_key"]
