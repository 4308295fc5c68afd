"""USB sticks for the touchscreen (issue 42, items 2-4): the mounted removable drives, and the
slow work with them on a thread of its own (`UsbWorker`), never the table service's.

A stick is a folder where the system mounted a removable drive: Pi OS Lite's udisks2 or a
desktop's automounter mount them under `/media/<user>/<label>` or `/run/media/<user>/<label>`
(read from `/proc/mounts`). Tests (and `ARMATA_USB_ROOT`) name a folder instead: each folder in
it is a stick.

What the worker does touches files only: the stick's, a scratch folder's, and the game log read
through a connection of its own that writes nothing (as the daily backup's timer does from
another process). Whatever changes the table's log (a restore, an import) is handed back to the
service's thread as a prepared value; the worker never holds the service's store or game.
Every write to a stick goes to a `.partial` name renamed when whole: a full or pulled stick
leaves no half file that looks whole, and nothing on the Pi is lost."""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

#: where the system mounts removable drives
MOUNT_ROOTS = (Path("/media"), Path("/run/media"))
#: the table's folder on a stick: its backups (rotating, as beside the log)
BACKUP_FOLDER = "armata-backups"
#: a release archive's name (python3 -m hardware.pi.release)
RELEASE_GLOB = "armata-companion-*.tar.gz"
#: files a game can be imported from: a backup or log, a game export, a transcript
IMPORT_SUFFIXES = (".db", ".json", ".jsonl")


@dataclass(frozen=True)
class Drive:
    """A mounted stick: its folder and the name it is shown by (its label)."""

    path: Path
    read_only: bool = False

    @property
    def name(self) -> str:
        return self.path.name


def _unescape(field: str) -> str:
    """/proc/mounts writes a space as \\040 (and tab, newline, backslash likewise)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def mounted_drives(
    mounts: Path = Path("/proc/mounts"), roots: tuple[Path, ...] = MOUNT_ROOTS
) -> list[Drive]:
    """The removable drives mounted under `roots` (`/media/<user>/<label>`, ...)."""
    try:
        lines = mounts.read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split()
        if len(fields) < 4:
            continue
        where = Path(_unescape(fields[1]))
        if any(root in where.parents for root in roots) and where.is_dir():
            found.append(Drive(where, "ro" in fields[3].split(",")))
    return sorted(found, key=lambda d: str(d.path))


def folder_drives(folder: Path) -> list[Drive]:
    """Every folder in `folder` as a stick (the tests' stand-in for the mounts)."""
    if not folder.is_dir():
        return []
    return [Drive(p, not os.access(p, os.W_OK)) for p in sorted(folder.iterdir()) if p.is_dir()]


def finder(root: Path | None = None) -> Callable[[], list[Drive]]:
    """The sticks: in `root` (or `$ARMATA_USB_ROOT`) when given, else the system's mounts."""
    chosen = root if root is not None else os.environ.get("ARMATA_USB_ROOT")
    if chosen:
        return lambda: folder_drives(Path(chosen))
    return mounted_drives


# ----- what is on a stick ------------------------------------------------------------------------
def backups_on(drives: list[Drive]) -> list[Path]:
    """The table's backups on the sticks, newest first (their folder and loose ones)."""
    from companion.store.backup import Backup

    found: list[Backup] = []
    for drive in drives:
        for folder in (drive.path / BACKUP_FOLDER, drive.path):
            with contextlib.suppress(OSError):
                found += [b for p in folder.glob("companion-*.db") if (b := Backup.of(p))]
    found.sort(key=lambda b: (b.made, b.path.name), reverse=True)
    return [b.path for b in found]


def importable_on(drives: list[Drive]) -> list[Path]:
    """Files a game can be imported from: at a stick's top, in its backups' folder and in an
    `exports` folder (the table's own), by name."""
    found: list[Path] = []
    for drive in drives:
        for folder in (drive.path, drive.path / BACKUP_FOLDER, drive.path / "exports"):
            with contextlib.suppress(OSError):
                found += sorted(
                    p
                    for p in folder.iterdir()
                    if p.is_file() and p.suffix in IMPORT_SUFFIXES and not p.name.startswith(".")
                )
    return found


def releases_on(drives: list[Drive]) -> list[Path]:
    found: list[Path] = []
    for drive in drives:
        with contextlib.suppress(OSError):
            found += sorted(drive.path.glob(RELEASE_GLOB))
    return found


# ----- the work (on the worker's thread) ---------------------------------------------------------
class UsbProblem(Exception):
    """What went wrong, in a plain sentence's parts: `kind` picks the sentence (usb_words)."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


def _writable(drive: Drive) -> None:
    if drive.read_only or not drive.path.is_dir() or not os.access(drive.path, os.W_OK):
        raise UsbProblem("read_only" if drive.path.is_dir() else "missing")


def _os_problem(exc: OSError) -> UsbProblem:
    import errno

    if exc.errno == errno.ENOSPC:
        return UsbProblem("full")
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return UsbProblem("read_only")
    if exc.errno in (errno.ENOENT, errno.ENODEV, errno.EIO, errno.ENXIO):
        return UsbProblem("missing")
    return UsbProblem("failed", exc.strerror or str(exc))


def back_up_to(log_path: Path, drive: Drive) -> Path:
    """A backup of the log into the stick's backups' folder (rotating: the stick keeps the
    newest ten, as the Pi does); its path. Read through a connection that writes nothing."""
    from companion.errors import BackupError
    from companion.store.backup import make_backup

    _writable(drive)
    try:
        return make_backup(log_path, "manual", folder=drive.path / BACKUP_FOLDER)
    except OSError as exc:
        raise _os_problem(exc) from None
    except BackupError as exc:
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, OSError):
            raise _os_problem(cause) from None
        text = str(exc)
        if "full" in text or "No space" in text:
            raise UsbProblem("full") from None
        if "readonly" in text or "read-only" in text or "Read-only" in text:
            raise UsbProblem("read_only") from None
        raise UsbProblem("failed", text) from None


def copy_in(source: Path, scratch: Path) -> Path:
    """A file off the stick into `scratch` (the stick may be pulled while it is used)."""
    if not source.is_file():
        raise UsbProblem("missing")
    target = scratch / source.name
    try:
        shutil.copyfile(source, target)
    except OSError as exc:
        raise _os_problem(exc) from None
    return target


@dataclass(frozen=True)
class ReadyBackup:
    """A backup off the stick, opened and checked: the copy the service puts in place of its
    log's content, and how many games it holds (what the players are asked about)."""

    copy: Path
    games: int


def prepare_restore(source: Path, scratch: Path) -> ReadyBackup:
    """The backup copied off the stick and opened as a log (an older one migrated there,
    checked), its games counted."""
    from companion.errors import CompanionError
    from companion.store.gamelog import GameLog

    copy = copy_in(source, scratch)
    try:
        with GameLog(copy, read_only=False) as opened:
            games = len(opened.games())
    except (CompanionError, OSError) as exc:
        raise UsbProblem("bad_backup", str(exc)) from None
    return ReadyBackup(copy, games)


@dataclass(frozen=True)
class Prepared:
    """An import read off the stick: game exports' lines (from a log or an export), or a
    transcript's bytes; `source` the file's name as the log records it."""

    source: str
    exports: tuple[tuple[str, ...], ...] = ()
    transcript: bytes | None = None
    folder: Path | None = None  # the transcript's folder (a board file beside it)


def prepare_import(source: Path, scratch: Path) -> Prepared:
    from companion.errors import CompanionError
    from companion.product.imports import kind_of
    from companion.store.gamelog import GameLog

    copy = copy_in(source, scratch)
    try:
        kind = kind_of(copy)
        if kind == "transcript":
            return Prepared(source.name, transcript=copy.read_bytes(), folder=source.parent)
        if kind == "export":
            return Prepared(source.name, (tuple(copy.read_text(encoding="utf-8").splitlines()),))
        with GameLog(copy, read_only=False) as other:
            games = [tuple(other.export_jsonl(g.id)) for g in other.games()]
    except (CompanionError, OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsbProblem("bad_file", str(exc)) from None
    if not games:
        raise UsbProblem("no_games")
    return Prepared(source.name, tuple(games))


def check_release(archive: Path, running: str) -> str:
    """The release archive's version, refused when it is not a release of the table, or not
    newer than the one `running` (an update never goes back from the touchscreen)."""
    from companion.errors import CompanionError
    from companion.product.update import unpack
    from companion.version import parse, read_version

    if not archive.is_file():
        raise UsbProblem("missing")
    with tempfile.TemporaryDirectory(prefix="armata-usb-release-") as scratch:
        try:
            version = read_version(unpack(archive, Path(scratch)))
            newer = parse(version) > parse(running)
        except (CompanionError, OSError, ValueError) as exc:
            raise UsbProblem("bad_archive", str(exc)) from None
    if not newer:
        raise UsbProblem("not_newer", version)
    return version


def hand_over_release(archive: Path, updates: Path) -> Path:
    """The archive copied off the stick into the data folder's `updates/` and the request
    written that the update's path unit waits for (hardware/pi/armata-companion-update.path):
    root's `python -m companion update --requested` takes it from there, off the kiosk's
    unit (the update stops and restarts the kiosk)."""
    try:
        updates.mkdir(parents=True, exist_ok=True)
        partial = updates / f".{archive.name}.partial"
        shutil.copyfile(archive, partial)
        target = partial.replace(updates / archive.name)
        request = updates / ".request.partial"
        request.write_text(f"{target}\n")
        request.replace(updates / "request")
    except OSError as exc:
        raise _os_problem(exc) from None
    return target


def save_report(data: Path, drive: Drive, root: Path = Path("/")) -> Path:
    """`python -m companion report`'s archive onto the stick; its path there."""
    from companion.errors import CompanionError
    from companion.product.report import write_report

    _writable(drive)
    with tempfile.TemporaryDirectory(prefix="armata-usb-report-") as scratch:
        try:
            made = write_report(root, data, Path(scratch))
        except CompanionError as exc:
            raise UsbProblem("failed", str(exc)) from None
        return _onto(made, drive.path)


def _onto(made: Path, folder: Path) -> Path:
    """`made` copied into `folder` whole or not at all."""
    partial = folder / f".{made.name}.partial"
    try:
        shutil.copyfile(made, partial)
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        return partial.replace(folder / made.name)
    except OSError as exc:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise _os_problem(exc) from None


# ----- the worker --------------------------------------------------------------------------------
Job = Callable[[], object]
Told = Callable[[object | UsbProblem], None]


class UsbWorker:
    """Runs the USB jobs one at a time on its own thread; tells each result (or its
    `UsbProblem`) to the job's `told`, on this thread (the service posts it to its own)."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Job, Told] | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def run(self, job: Job, told: Told) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="usb", daemon=True)
            self._thread.start()
        self._jobs.put((job, told))

    def stop(self, wait_s: float = 2.0) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(wait_s)

    def _run(self) -> None:
        while (item := self._jobs.get()) is not None:
            job, told = item
            try:
                result: object = job()
            except UsbProblem as problem:
                result = problem
            except OSError as exc:
                result = _os_problem(exc)
            except Exception as exc:  # said on the screen, never the end of the worker
                log.exception("a USB task failed")
                result = UsbProblem("failed", f"{type(exc).__name__}: {exc}")
            told(result)
