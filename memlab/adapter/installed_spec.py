"""The spec installed for a repository, which the repository commands run when no ``--spec`` is given.

``memlab install`` keeps, in its record in memlab's own state folder (:func:`memlab.adapter.install.record_dir`,
never inside the project, so a repository cannot plant one), the absolute path and SHA-256 of the spec its hooks
run. :func:`choose_spec` picks, in order: ``--spec``, ``$MEMLAB_SPEC``, the installed spec (the local scope's
install, else the project's, else the user's: Claude Code's order of precedence), else the built-in default
policy. An installed spec that is missing or changed since install, or a record that cannot be read, is an
error naming what to do (re-run ``memlab install``, or pass ``--spec``), never a silent fall-back to another
policy.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memlab.adapter.repo import Repo
from memlab.core.errors import MemlabError

#: The scopes whose install applies to a repository, the most specific first.
SCOPE_ORDER: tuple[str, ...] = ("local", "project", "user")
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Installed:
    """One install that applies to a repository: its scope, settings file, spec file and the spec's SHA-256."""

    scope: str
    settings: Path
    spec: Path
    sha256: str


def _settings(scope: str, root: Path) -> Path:
    """The settings file ``memlab install --scope scope --project root`` keys its record by."""
    from memlab.adapter.install import settings_path

    path = settings_path(scope, root)
    return path.resolve() if scope == "user" and path.is_symlink() else path


def reinstall_hint(scope: str, root: Path, spec: Path | str = "SPEC") -> str:
    """The ``memlab install`` command that records ``spec`` again for this scope."""
    where = "" if scope == "user" else f" --project {root}"
    return f"memlab install --spec {spec}{where}" + ("" if scope == "project" else f" --scope {scope}")


def _record(scope: str, root: Path) -> Installed | None:
    """The install of ``scope`` for ``root`` (``None`` when there is none).

    Raises:
        MemlabError: The record cannot be read, is not what install writes, or names no spec.
    """
    from memlab.adapter.install import record_dir
    from memlab.adapter.safe_io import read_regular

    settings = _settings(scope, root)
    file = record_dir(settings) / "record.json"
    fix = f"re-run `{reinstall_hint(scope, root)}` or pass --spec"
    try:
        raw = read_regular(file)
        if raw is None:
            return None
        record = json.loads(raw)
    except (MemlabError, ValueError, RecursionError) as exc:
        raise MemlabError(f"memlab's install record {file} cannot be read ({exc}); {fix}") from None
    if not isinstance(record, dict) or record.get("settings") != str(settings):
        raise MemlabError(f"memlab's install record {file} is not the record of {settings}; {fix}")
    spec, sha = record.get("spec"), record.get("spec_sha256")
    if spec is None and sha is None:
        raise MemlabError(f"memlab's install record {file} names no spec (an earlier memlab wrote it); {fix}")
    if not isinstance(spec, str) or "\0" in spec or not os.path.isabs(spec):
        raise MemlabError(f"memlab's install record {file} holds no absolute spec path; {fix}")
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        raise MemlabError(f"memlab's install record {file} holds no valid spec sha256; {fix}")
    return Installed(scope, settings, Path(spec), sha)


def installed_spec(repo: Repo) -> Installed | None:
    """The install that applies to ``repo`` (local scope, else project, else user), ``None`` when none does.

    Raises:
        MemlabError: A record that cannot be read (:func:`_record`).
    """
    for scope in SCOPE_ORDER:
        found = _record(scope, repo.root)
        if found is not None:
            return found
    return None


def load_installed(found: Installed, repo: Repo) -> dict[str, Any]:
    """Load the installed spec after checking it is still the file install recorded.

    Raises:
        MemlabError: The spec is missing, unreadable, changed since install, inside ``repo`` or not a spec.
    """
    from memlab.adapter.safe_io import read_regular
    from memlab.adapter.spec import resolve_spec

    again = reinstall_hint(found.scope, repo.root, found.spec)
    where = f"the spec installed into {found.settings} ({found.spec})"
    try:
        raw = read_regular(found.spec)
    except MemlabError as exc:
        raise MemlabError(f"{where} cannot be read ({exc}); re-run `{again}` or pass --spec") from None
    if raw is None:
        raise MemlabError(f"{where} is missing; export it again and re-run `{again}`, or pass --spec")
    actual = hashlib.sha256(raw).hexdigest()
    if actual != found.sha256:
        raise MemlabError(
            f"{where} changed since install (sha256 {actual[:12]}…, installed {found.sha256[:12]}…); "
            f"re-run `{again}` to use it as it is now, or pass --spec"
        )
    return resolve_spec(str(found.spec), repo)


def choose_spec(explicit: str | None, repo: Repo) -> tuple[dict[str, Any], str | None]:
    """The spec a repository command runs and one line saying which (``None`` for an explicit ``--spec``).

    Order: ``explicit`` (``--spec``), ``$MEMLAB_SPEC``, the installed spec (:func:`installed_spec`), the
    built-in default policy.

    Raises:
        MemlabError: A spec that cannot be used, or an install record or installed spec as
            :func:`installed_spec` and :func:`load_installed` describe.
    """
    from memlab.adapter.spec import default_spec, resolve_spec

    if explicit:
        return resolve_spec(explicit), None
    env = os.environ.get("MEMLAB_SPEC")
    if env:
        spec = resolve_spec(env)
        return spec, f"policy {spec['path']} ($MEMLAB_SPEC)"
    found = installed_spec(repo)
    if found is not None:
        return load_installed(found, repo), f"policy {found.spec} (installed, {found.scope} scope)"
    return default_spec(), "built-in default policy (nothing installed for this repository; see memlab install)"
