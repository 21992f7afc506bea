"""A model file's archive: read once within a size, its members, its signature.

Members are written stored (not compressed, so each holds exactly its declared
size: no zip bomb), and signed with HMAC-SHA256 under a key.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import io
import json
import os
import re
import stat
import tempfile
import zipfile
from pathlib import Path

from costsense.exceptions import UsageError

#: Most members in an archive.
MAX_MEMBERS = 500_000
#: The member holding the signature.
SIGNATURE_MEMBER = "costsense-signature.json"
#: The name skops gives an array's member.
ARRAY_MEMBER = re.compile(r"^[0-9]{1,40}\.npy$")


def fail(path: str, message: str) -> UsageError:
    """Make the one-line refusal of a model file."""
    return UsageError(f"model file {path}: {message}; refusing it")


def read_regular(path: str, limit: int, what: str, fix: str) -> bytes:
    """Read a regular file of at most ``limit`` bytes, opened once.

    Opened without blocking (a pipe cannot make the open wait), its type and size
    read from the open descriptor (what is checked is what is read); ``read``
    allocates the file's size, not the limit. ``what`` names the file and ``fix``
    says what to do about a larger one.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise UsageError(f"{what} {path}: {error.strerror or error}") from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise UsageError(
            f"{what} {path} is not a regular file; give the file "
            "itself (not a pipe, a device or a folder)"
        )
    with os.fdopen(descriptor, "rb") as handle:
        if status.st_size > limit:
            most = f"{limit >> 10} KiB" if limit < 1 << 20 else f"{limit >> 20} MiB"
            raise UsageError(
                f"{what} {path} has {status.st_size / 2**20:.1f} MiB, "
                f"more than {most}; {fix}"
            )
        data = handle.read(status.st_size + 1)
    if len(data) > status.st_size:
        raise UsageError(f"{what} {path} grew while read")
    return data


def open_archive(data: bytes, path: str) -> zipfile.ZipFile:
    """Open the archive and check its members.

    Members are named as skops names them, none twice, all stored, their sizes
    within the file.
    """
    # zipfile builds an object per central-directory entry before any check can
    # count them; each entry starts with this signature, so their number bounds it
    if data.count(b"PK\x01\x02") > MAX_MEMBERS:
        raise fail(path, f"it has more than {MAX_MEMBERS} members")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise UsageError(f"model file {path} is not a model file ({error})") from None
    seen: set[str] = set()
    for info in infos:
        name = info.filename
        if name in seen:
            raise fail(path, f"it holds member {name!r} twice")
        seen.add(name)
        if name not in ("schema.json", SIGNATURE_MEMBER) and not ARRAY_MEMBER.match(
            name
        ):
            raise fail(
                path, f"it holds member {name[:80]!r}, which save_model never writes"
            )
        stored = info.compress_type == zipfile.ZIP_STORED and not info.flag_bits & 1
        if not stored or info.file_size != info.compress_size:
            raise fail(
                path,
                f"member {name!r} is compressed or encrypted, or declares "
                f"{info.file_size} bytes but stores {info.compress_size} (members "
                "are written stored: no zip bomb)",
            )
    total = sum(info.file_size for info in infos)
    if total > len(data):
        raise fail(
            path, f"its members declare {total} bytes, more than the file's {len(data)}"
        )
    if "schema.json" not in seen:
        raise fail(path, "it has no schema.json: not a model file")
    return archive


def digest(archive: zipfile.ZipFile, key: bytes) -> str:
    """HMAC-SHA256 of every member but the signature, by name, in name order."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for name in sorted(i.filename for i in archive.infolist()):
        if name == SIGNATURE_MEMBER:
            continue
        content, encoded = archive.read(name), name.encode()
        mac.update(len(encoded).to_bytes(8, "big") + encoded)
        mac.update(len(content).to_bytes(8, "big") + content)
    return mac.hexdigest()


def verify(archive: zipfile.ZipFile, key: bytes, path: str) -> None:
    """Refuse an archive not signed under ``key``, or changed since it was."""
    if SIGNATURE_MEMBER not in archive.namelist():
        raise fail(path, "it is not signed (a key accepts only files saved with one)")
    try:
        stored = json.loads(archive.read(SIGNATURE_MEMBER))["digest"]
        found = digest(archive, key)  # a member failing its CRC was changed
    except (ValueError, KeyError, TypeError, zipfile.BadZipFile):
        stored = found = None
    if not (isinstance(stored, str) and found and hmac.compare_digest(stored, found)):
        raise fail(
            path, "it was not signed with this key, or was changed since it was signed"
        )


def sign(data: bytes, key: bytes) -> bytes:
    """Add the signature under ``key`` to the archive."""
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        found = digest(archive, key)
        archive.writestr(
            SIGNATURE_MEMBER, json.dumps({"algorithm": "hmac-sha256", "digest": found})
        )
    return buffer.getvalue()


def write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to a file that did not exist, whole or not at all.

    The bytes go to a hidden temporary file beside ``path``, flushed to disk,
    then given its name (:func:`link_new`: nothing is replaced); a full disk or an
    interruption leaves no file under that name, and no temporary one.
    """
    handle = tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", suffix=".partial", delete=False
    )
    temporary = Path(handle.name)
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            link_new(temporary, path)
        except FileExistsError:
            raise UsageError(
                f"{path} appeared while the model was written; it was left as it "
                "is: choose another name"
            ) from None
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as error:
        raise UsageError(
            f"{path}: the model could not be written ({error.strerror or error}); "
            "nothing was saved under that name"
        ) from None
    finally:
        temporary.unlink(missing_ok=True)


#: The errors of a file system that makes no hard links.
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}


def link_new(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, a FileExistsError if ``target`` exists.

    A hard link refuses an existing target atomically; without hard links the
    target is checked, then ``source`` renamed (the best such a file system allows).
    """
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, "exists", str(target)) from None
        os.rename(source, target)
        return
    source.unlink()
