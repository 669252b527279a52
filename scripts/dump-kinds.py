"""Writes, as JSON on stdout, every kind of the agent server's discriminated unions (events, actions,
observations, tool definitions) that the installed openhands packages define, with each kind's module path and
JSON schema (serialization mode, shared $defs).

Test infrastructure, run by scripts/dump-kinds.ts inside a peer's virtual environment. Why not the server's
/openapi.json: the server builds that document once, on first request, from the classes imported *so far*, so
tools no scenario has loaded are missing from it. Here every module of the packages is imported first.
"""

import importlib
import inspect
import json
import pkgutil
import sys
import warnings
from importlib import metadata

PACKAGES = ["openhands.sdk", "openhands.tools", "openhands.agent_server", "openhands.workspace"]
DISTRIBUTIONS = ["openhands-sdk", "openhands-tools", "openhands-agent-server", "openhands-workspace"]
# The union bases, by where they live; the first that imports wins (their homes moved between versions).
BASES = {
    "Event": ["openhands.sdk.event.base:Event"],
    "Action": ["openhands.sdk.tool.schema:Action"],
    "Observation": ["openhands.sdk.tool.schema:Observation"],
    "ToolDefinition": ["openhands.sdk.tool.tool:ToolDefinition"],
}
# Entry points and test helpers: importing them starts things or needs what a server does not ship.
SKIPPED_SUFFIXES = ("__main__",)


def import_everything():
    failures = {}
    for package_name in PACKAGES:
        try:
            package = importlib.import_module(package_name)
        except Exception as error:  # a package missing from old versions (openhands.workspace)
            failures[package_name] = f"{type(error).__name__}: {error}"
            continue
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}.", onerror=lambda _: None):
            if info.name.endswith(SKIPPED_SUFFIXES):
                continue
            try:
                importlib.import_module(info.name)
            except BaseException as error:  # noqa: BLE001 - optional extras, missing system binaries
                failures[info.name] = f"{type(error).__name__}: {str(error)[:200]}"
    return failures


def load(path):
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def is_abstract(cls):
    try:
        from openhands.sdk.utils.models import _is_abstract  # noqa: PLC0415 - not in every version

        return _is_abstract(cls)
    except ImportError:
        return inspect.isabstract(cls) or inspect.ABC in cls.__bases__


def concrete_subclasses(base):
    seen, out, stack = set(), [], list(base.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        stack.extend(cls.__subclasses__())
        # Local classes (tests, factories) cannot be what a server sends: it resolves kinds by module-level name.
        if "<locals>" in cls.__qualname__ or is_abstract(cls):
            continue
        out.append(cls)
    return sorted(out, key=lambda cls: (cls.__name__, cls.__module__))


def schema_of(classes):
    from pydantic.json_schema import models_json_schema  # noqa: PLC0415

    keys, schema = models_json_schema([(cls, "serialization") for cls in classes], ref_template="#/$defs/{model}")
    return {cls: keys[(cls, "serialization")] for cls in classes}, schema.get("$defs", {})


def main():
    warnings.simplefilter("ignore")
    failures = import_everything()
    unions, defs, errors = {}, {}, {}
    for union, candidates in BASES.items():
        base = None
        for candidate in candidates:
            try:
                base = load(candidate)
                break
            except Exception:  # noqa: BLE001
                continue
        if base is None:
            errors[union] = "base class not found"
            continue
        kinds = {}
        for cls in concrete_subclasses(base):
            entry = {"module": f"{cls.__module__}.{cls.__qualname__}"}
            try:
                refs, more = schema_of([cls])
                defs.update(more)
                entry["schema"] = refs[cls]
            except Exception as error:  # noqa: BLE001 - a schema pydantic cannot write is still a kind
                entry["schema_error"] = f"{type(error).__name__}: {str(error)[:200]}"
            if cls.__name__ in kinds:
                entry["duplicate_of"] = kinds[cls.__name__]["module"]
            kinds.setdefault(cls.__name__, entry)
        unions[union] = kinds
    packages = {}
    for name in DISTRIBUTIONS:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    json.dump(
        {
            "packages": packages,
            "unions": {union: dict(sorted(kinds.items())) for union, kinds in unions.items()},
            "$defs": dict(sorted(defs.items())),
            "errors": errors,
            "import_failures": dict(sorted(failures.items())),
        },
        sys.stdout,
        indent=1,
        sort_keys=False,
    )


if __name__ == "__main__":
    main()
