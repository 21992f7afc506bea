"""Hostile model files are refused before skops builds a single object.

Every file is built here: a genuine model written by ``costsense fit`` whose
``schema.json`` (and members) are edited, or an archive written by hand. Each
payload is written twice, aimed at two temporary folders, and the test shows:

- it is live: plain ``skops.io.load`` trusting the payload's types (and the
  genuine model's) runs it, in one subprocess for all payloads, against the
  first folder: its marker appears, its victim folder disappears, the file it
  reads comes back, or the process exits with status 7;
- ``load_model`` and ``costsense predict`` refuse the second copy with one line
  naming a refused dotted type, raised by costsense's checks (no skops frame);
- nothing happened: no marker, the victim is intact, no file appeared in (or
  vanished from) the virtual environment's site-packages.

Resource attacks run in a subprocess limited to 2 GiB of address space, each
timed and its Python allocations traced, so a regression fails the test instead
of eating the machine. Lying metadata and signatures are checked in-process.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import pickle
import re
import shlex
import struct
import subprocess
import sys
import sysconfig
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import costsense
from costsense import cli
from costsense.cli import UsageError
from costsense.cli._model_io import load_model
from costsense.persist import save_model
from costsense.persist._archive import MAX_MEMBERS
from costsense.persist._schema import MAX_DEPTH, MAX_SCHEMA_BYTES
from costsense.persist._types import ALLOWED
from tests.cli._archives import edit_metadata, schema_nodes, write_zip
from tests.cli._data import write_csv

SOURCE = str(Path(costsense.__file__).resolve().parents[1])
CHECKS = ("persist/__init__.py", "_archive.py", "_schema.py", "_fitted.py",
          "_model_io.py")  # fmt: skip
PASSWD = Path("/etc/passwd")
KEY = b"a-signing-key-of-32-bytes-000000"


# ------------------------------------------------------------ the genuine model
@dataclass(frozen=True)
class Genuine:
    path: Path
    csv: Path
    members: dict[str, bytes]
    trusted: list[str]  # what plain skops needs trusted to load it

    def schema(self) -> dict[str, Any]:
        return json.loads(self.members["schema.json"])


@pytest.fixture(scope="module")
def genuine(tmp_path_factory):
    import skops.io

    folder = tmp_path_factory.mktemp("genuine")
    csv = write_csv(folder / "train.csv", n=60)
    path = folder / "model.skops"
    argv = ["fit", "--csv", str(csv), "--target", "label", "--cost", "5",
            "--model", "threshold", "--base", "tree", "--out", str(path)]  # fmt: skip
    assert cli.main(argv) == 0
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    trusted = sorted(skops.io.get_untrusted_types(file=path))
    return Genuine(path, csv, members, trusted)


def _rewrite(genuine: Genuine, path: Path, schema=None, extra=None) -> Path:
    """The genuine archive with another schema and extra members, all stored."""
    members = dict(genuine.members)
    if schema is not None:
        members["schema.json"] = json.dumps(schema).encode()
    members.update(extra or {})
    return write_zip(path, members.items())


def _find(value: Any, test) -> Any:
    """The first node (depth first) of a schema that passes ``test``."""
    stack = [value]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if test(value):
                return value
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            stack.extend(reversed(value))
    raise LookupError("no such node")


# ----------------------------------------------------------- schema node makers
_ids = itertools.count(1)  # far below the id() values skops writes


def _node(loader: str, dotted: str, **fields: Any) -> dict[str, Any]:
    module, _, name = dotted.rpartition(".")
    state = {"__class__": name, "__module__": module, "__loader__": loader}
    return {**state, **fields, "__id__": next(_ids)}


def _json(value: Any) -> dict[str, Any]:
    return _node("JsonNode", "builtins.str", content=json.dumps(value), is_json=True)


def _list(items, dotted="builtins.list", loader="ListNode") -> dict[str, Any]:
    return _node(loader, dotted, content=list(items))


def _tuple(*items) -> dict[str, Any]:
    return _node("TupleNode", "builtins.tuple", content=list(items))


def _dict(mapping, key_types=None) -> dict[str, Any]:
    if key_types is None:
        key_types = _list(_node("TypeNode", "builtins.str") for _ in mapping)
    return _node(
        "DictNode", "builtins.dict", content=dict(mapping), key_types=key_types
    )


def _calls(function: dict[str, Any], argument: str) -> dict[str, Any]:
    """A dict whose key type is ``function``: skops calls ``function(argument)``."""
    return _dict({argument: _json(None)}, key_types=_list([function]))


def _iterates(iterable: dict[str, Any]) -> dict[str, Any]:
    """A dict whose key types are ``iterable``: skops iterates it (and calls)."""
    return _dict({"key": _json(None)}, key_types=iterable)


def _reduce(dotted: str, *args) -> dict[str, Any]:
    """skops calls ``dotted(*args)`` (ConstructorFromReduceNode)."""
    return _node("ConstructorFromReduceNode", dotted, content=_tuple(*args))


def _loss(dotted: str, *args) -> dict[str, Any]:
    """skops calls ``dotted(*args)`` (LossNode, as for a loss's constructor)."""
    return _node("LossNode", dotted, __reduce__={"args": _tuple(*args)},
                 content=_dict({}))  # fmt: skip


def _function(dotted: str, loader="FunctionNode") -> dict[str, Any]:
    return _node(loader, dotted)


def _npy(array: np.ndarray, allow_pickle=False) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


class _Exec:
    """A pickle that runs ``code`` when loaded."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __reduce__(self):
        return exec, (self.code,)


# -------------------------------------------------------------------- payloads
@dataclass(frozen=True)
class Target:
    """The folder one copy of a payload acts on."""

    root: Path
    site: Path  # where the .pth payload writes
    csv: Path

    @property
    def marker(self) -> Path:
        return self.root / "marker"

    @property
    def victim(self) -> Path:
        return self.root / "victim"

    @property
    def module(self) -> str:
        return "costsense_hostile_" + self.root.name.replace("-", "_")

    def code(self) -> str:
        """Python that writes the marker."""
        return f"open({str(self.marker)!r}, 'w').write('pwned')"

    def shell(self) -> str:
        """A shell command that writes the marker."""
        return f"echo pwned > {shlex.quote(str(self.marker))}"

    def prepare(self) -> None:
        self.root.mkdir(parents=True)
        self.victim.mkdir()
        (self.victim / "keep").write_text("keep me")
        (self.root / "mods").mkdir()
        (self.root / "mods" / f"{self.module}.py").write_text(self.code() + "\n")
        (self.root / "beside.pkl").write_bytes(pickle.dumps(_Exec(self.code())))


@dataclass(frozen=True)
class Payload:
    id: str
    family: str
    effect: str  # marker, victim, read, exit, pth or inert (see _live)
    build: Any  # Target -> schema node, or (node, {member: bytes})
    place: str = "model"  # model, attribute, nested, array or transformer
    predict: bool = False  # the control predicts (the payload runs then)


def _pth(t: Target):
    if t.site == _site_packages():  # never run: a harmless comment line
        lines = ["# costsense hostile-file test: must never be written"]
    else:  # the control: a .pth line Python runs at start-up
        lines = [f"import os; {t.code()}"]
    path = t.site / f"costsense-hostile-{t.root.name}.pth"
    return _reduce("numpy.savetxt", _json(str(path)), _list(map(_json, lines)),
                   _json("%s"))  # fmt: skip


def _hidden_pickle(t: Target):
    member = "31337.npy"  # named as skops names arrays
    array = np.empty(1, dtype=object)
    array[0] = _Exec(t.code())
    stream = _reduce("io.BytesIO", _node("BytesNode", "builtins.bytes", file=member))
    node = _reduce("numpy.load", stream, _json(None), _json(True))
    return node, {member: _npy(array, allow_pickle=True)}


def _popen_array(t: Target):
    member = "4242.npy"
    node = _node("NdArrayNode", "subprocess.Popen", type="numpy", file=member)
    return node, {member: _npy(np.array(["sh", "-c", t.shell()]))}


def _fit_command(t: Target):
    argv = ["fit", "--csv", str(t.csv), "--target", "label", "--model", "plain",
            "--cost", "5", "--out", str(t.marker)]  # fmt: skip
    return _reduce("costsense.cli.main", _list(map(_json, argv)))


PAYLOADS = [
    # builtins
    Payload("exec", "builtins", "marker",
            lambda t: _calls(_function("builtins.exec"), t.code())),
    Payload("eval", "builtins", "marker",
            lambda t: _reduce("builtins.eval", _json(t.code()))),
    Payload("open-w", "builtins", "marker",
            lambda t: _loss("builtins.open", _json(str(t.marker)), _json("w"))),
    Payload("getattr-os-system", "builtins", "marker",
            lambda t: _calls(_reduce("builtins.getattr", _function("subprocess.os"),
                                     _json("system")), t.shell())),
    Payload("__import__", "builtins", "marker",
            lambda t: _reduce("builtins.__import__", _json(t.module))),
    Payload("map-exec", "builtins", "marker",
            lambda t: _iterates(_loss("builtins.map", _function("builtins.exec"),
                                      _list([_json(t.code())])))),
    Payload("exit-7", "builtins", "exit",
            lambda t: _reduce("builtins.exit", _json(7))),
    # numpy input and output
    Payload("numpy.load-pickle-beside", "numpy io", "marker",
            lambda t: _reduce("numpy.load", _json(str(t.root / "beside.pkl")),
                              _json(None), _json(True))),
    Payload("numpy.load-pickle-inside", "numpy io", "marker", _hidden_pickle),
    Payload("numpy.savetxt-pth", "numpy io", "pth", _pth),
    Payload("numpy.loadtxt-passwd", "numpy io", "read",
            lambda t: _reduce("numpy.loadtxt", _json(str(PASSWD)), _json("str"),
                              _json(None), _json("\x1f"))),
    Payload("numpy.fromfile-passwd", "numpy io", "read",
            lambda t: _reduce("numpy.fromfile", _json(str(PASSWD)),
                              _json("uint8"))),
    # operator
    Payload("attrgetter-chain", "operator", "marker",
            lambda t: _dict({t.shell(): _json(None)}, key_types=_reduce(
                "builtins.map",
                _node("OperatorFuncNode", "operator.attrgetter",
                      attrs=_tuple(_json("_datasource.os.system"))),
                _list([_function("numpy.lib")])))),
    Payload("methodcaller", "operator", "marker",
            lambda t: _iterates(_reduce(
                "builtins.map",
                _node("OperatorFuncNode", "operator.methodcaller",
                      attrs=_tuple(_json("system"), _json(t.shell()))),
                _list([_function("numpy.lib._datasource.os")])))),
    Payload("methodcaller-in-a-FunctionTransformer", "operator", "marker",
            lambda t: _node("OperatorFuncNode", "operator.methodcaller",
                            attrs=_tuple(_json("to_csv"), _json(str(t.marker)))),
            place="transformer", predict=True),
    # functools
    Payload("partial-os-system", "functools", "marker",
            lambda t: _calls(_node("PartialNode", "functools.partial", content={
                "func": _function("os.system"), "args": _tuple(),
                "kwds": _dict({}), "namespace": _json(None)}), t.shell())),
    # library helpers
    Payload("sklearn-run-python-script", "library helpers", "marker",
            lambda t: _calls(_function(
                "sklearn.utils._testing.assert_run_python_script_without_output",
                loader="TypeNode"), t.code())),
    Payload("sklearn-clear-data-home", "library helpers", "victim",
            lambda t: _loss("sklearn.datasets.clear_data_home",
                            _json(str(t.victim)))),
    Payload("scipy-import-module", "library helpers", "marker",
            lambda t: _reduce("scipy._lib._uarray._backend.unpickle_function",
                              _json(t.module), _json("__name__"), _json(None))),
    Payload("numpy-runstring", "library helpers", "marker",
            lambda t: _loss("numpy.testing._private.utils.runstring",
                            _json(t.code()), _dict({}))),
    # processes and files
    Payload("subprocess.check_output", "processes", "marker",
            lambda t: _list(map(_json, ["sh", "-c", t.shell()]),
                            dotted="subprocess.check_output")),
    Payload("subprocess.Popen", "processes", "marker", _popen_array),
    Payload("os.system", "processes", "marker",
            lambda t: _calls(_function("os.system"), t.shell())),
    Payload("posix.system", "processes", "marker",
            lambda t: _reduce("posix.system", _json(t.shell()))),
    Payload("shutil.rmtree", "processes", "victim",
            lambda t: _calls(_function("shutil.rmtree"), str(t.victim))),
    # costsense itself
    Payload("costsense.cli.main", "costsense", "marker", _fit_command),
    # hidden in a genuine model
    Payload("exec-as-pipeline-attribute", "hidden in a genuine model", "marker",
            lambda t: _calls(_function("builtins.exec"), t.code()),
            place="attribute"),
    Payload("datasource-in-the-tree-estimator", "hidden in a genuine model",
            "victim",
            lambda t: _node("ObjectNode", "numpy.lib.npyio.DataSource",
                            content=_dict({"_istmpdest": _json(True),
                                           "_destpath": _json(str(t.victim))})),
            place="nested"),
    Payload("popen-as-a-fitted-array", "hidden in a genuine model", "marker",
            _popen_array, place="array"),
    # a legitimate loader naming a look-alike type; loaders off the list
    Payload("objectnode-numpy.lib.npyio.DataSource", "look-alike types", "victim",
            lambda t: _node("ObjectNode", "numpy.lib.npyio.DataSource",
                            content=_dict({"_istmpdest": _json(True),
                                           "_destpath": _json(str(t.victim))}))),
    Payload("typenode-sklearn.utils._testing", "look-alike types", "marker",
            lambda t: _calls(_function(
                "sklearn.utils._testing.assert_run_python_script_without_output",
                loader="TypeNode"), t.code()), place="attribute"),
    Payload("setnode-check_output", "loaders off the list", "marker",
            lambda t: _list(map(_json, ["sh", "-c", t.shell()]),
                            dotted="subprocess.check_output", loader="SetNode")),
    Payload("unknown-loader", "loaders off the list", "inert",
            lambda t: _node("EvilNode", "builtins.exec", content=t.code())),
]  # fmt: skip


def _site_packages() -> Path:
    return Path(sysconfig.get_paths()["purelib"])


_FUNCTION_TRANSFORMER = (
    "sklearn.preprocessing._function_transformer.FunctionTransformer"
)


def _place(genuine: Genuine, payload: Payload, node: dict[str, Any]):
    """The genuine schema with the payload where ``payload.place`` says."""
    schema = genuine.schema()
    model = schema["content"]["model"]
    if payload.place == "model":
        schema["content"]["model"] = node
        return schema
    if payload.place == "transformer":  # what the column encoder calls on X
        # the numeric columns' step made a FunctionTransformer calling the payload
        owner = _find(
            model,
            lambda n: (
                n.get("__class__") == "RowReading"
                and ("n_features_in_" in n["content"]["content"])
            ),
        )  # the fitted one
        owner["__module__"], owner["__class__"] = _FUNCTION_TRANSFORMER.rsplit(".", 1)
        attributes = owner["content"]["content"]
        settings = {"func": node, "inverse_func": _json(None),
                    "validate": _json(False), "accept_sparse": _json(False),
                    "check_inverse": _json(False), "feature_names_out": _json(None),
                    "kw_args": _json(None), "inv_kw_args": _json(None)}  # fmt: skip
        attributes.update(settings)
        types = owner["content"]["key_types"]["content"]
        types += [_node("TypeNode", "builtins.str") for _ in settings]
        return schema
    if payload.place == "array":
        owner = _find(model, lambda n: "mean_" in (n.get("content") or {}))
        owner["content"]["mean_"] = node  # the scaler's fitted means
        return schema
    if payload.place == "nested":
        model = _find(model, lambda n: n.get("__class__") == "DecisionTreeClassifier")
    attributes = model["content"]
    attributes["content"]["hostile"] = node
    attributes["key_types"]["content"].append(_node("TypeNode", "builtins.str"))
    return schema


def _dotted(node: dict[str, Any]) -> str:
    return f"{node['__module__']}.{node['__class__']}"


#: The plain data payloads are wrapped in; every other node of a payload is
#: hostile (decided here, not by the allowlist under test).
SCAFFOLD = {
    ("JsonNode", "builtins.str"),
    ("ListNode", "builtins.list"),
    ("TupleNode", "builtins.tuple"),
    ("DictNode", "builtins.dict"),
    ("TypeNode", "builtins.str"),
}


def _refused(node: dict[str, Any]) -> bool:
    """Whether a payload's node is hostile (not plain-data scaffolding)."""
    return (node["__loader__"], _dotted(node)) not in SCAFFOLD


def _hostile_types(node: Any) -> set[str]:
    """The dotted names of the hostile nodes in ``node``."""
    return {_dotted(n) for n in schema_nodes(node) if _refused(n)}


@dataclass(frozen=True)
class Built:
    file: Path
    target: Target
    hostile: frozenset[str]


def _build(genuine: Genuine, payload: Payload, target: Target) -> Built:
    target.prepare()
    made = payload.build(target)
    node, extra = made if isinstance(made, tuple) else (made, {})
    schema = _place(genuine, payload, node)
    file = _rewrite(genuine, target.root / "model.skops", schema, extra)
    hostile = _hostile_types(node)
    if payload.place == "transformer":  # no model fit writes holds one
        hostile.add(_FUNCTION_TRANSFORMER)
    return Built(file, target, frozenset(hostile))


# ------------------------------------------------------------ the environment
class Environment:
    """Every directory under site-packages with its entries (caches aside)."""

    def __init__(self) -> None:
        paths = sysconfig.get_paths()
        self.roots = sorted({Path(paths["purelib"]), Path(paths["platlib"])})
        self.state = {}
        for root in self.roots:
            for folder, _, _ in os.walk(root):
                if "__pycache__" not in folder:
                    self.state[folder] = (os.stat(folder).st_mtime_ns,
                                          self._entries(folder))  # fmt: skip
        self.prefix = self._entries(sys.prefix)

    @staticmethod
    def _entries(folder: str) -> frozenset[str]:
        return frozenset(
            name
            for name in os.listdir(folder)
            if name != "__pycache__" and not name.endswith(".pyc")
        )

    def changes(self) -> list[str]:
        """Entries added or removed since the snapshot (a stat per directory)."""
        changed = [f"{sys.prefix}/{n}" for n in self.prefix ^ self._entries(sys.prefix)]
        for folder, (mtime, entries) in self.state.items():
            try:
                if os.stat(folder).st_mtime_ns == mtime:
                    continue
                now = self._entries(folder)
            except FileNotFoundError:
                changed.append(f"{folder} (removed)")
                continue
            changed += [os.path.join(folder, n) for n in sorted(now ^ entries)]
        return changed


@pytest.fixture(scope="module")
def environment():
    return Environment()


# -------------------------------------------------------------- the controls
_CONTROL = r"""
import gc, json, site, sys
spec = json.loads(open(sys.argv[1]).read())
sys.path[:0] = spec["path"]
import numpy as np
import skops.io

def summary(value):
    value = value.get("model", value) if isinstance(value, dict) else value
    if isinstance(value, np.ndarray) and value.dtype == np.uint8:
        return value.tobytes().decode("latin-1")
    if isinstance(value, np.ndarray):
        return "\n".join(map(str, value.ravel().tolist()))
    return repr(value)

results = {}
for case in spec["cases"]:
    try:
        loaded = skops.io.load(case["file"], trusted=case["trusted"])
        if case["predict"]:  # what costsense predict would do next
            import pandas as pd
            rows = pd.read_csv(case["predict"]).drop(columns="label")
            try:
                loaded["model"].predict(rows)
            except Exception:
                pass
        results[case["id"]] = {"error": None, "loaded": summary(loaded)[:100000]}
        del loaded
    except Exception as error:
        results[case["id"]] = {"error": f"{type(error).__name__}: {error}"[:2000]}
    gc.collect()  # a payload acting when its object dies acts now
for folder in spec["site_dirs"]:
    site.addsitedir(folder)  # what Python does at start-up with site-packages
with open(spec["out"], "w") as handle:
    json.dump(results, handle)
skops.io.load(spec["exit"]["file"], trusted=spec["exit"]["trusted"])
"""


def _env() -> dict[str, str]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([SOURCE, env.get("PYTHONPATH", "")])
    return env


def _live(payload: Payload, built: Built, result: dict | None, status: int) -> str:
    """Why the control shows the payload live ('' when it does not)."""
    target = built.target
    if payload.effect == "exit":
        return "the process exited with status 7" if status == 7 else ""
    if result is None:
        return ""
    if payload.effect == "inert":
        return f"skops refuses it too ({result['error']})" if result["error"] else ""
    if payload.effect == "read":
        first = PASSWD.read_text().splitlines()[0]
        return f"it read {PASSWD}" if first in result.get("loaded", "") else ""
    for _ in range(100):  # a spawned process may still be writing
        if payload.effect == "victim" and not target.victim.exists():
            return f"it deleted {target.victim}"
        if payload.effect in ("marker", "pth") and target.marker.exists():
            return f"it wrote {target.marker}"
        time.sleep(0.05)
    return ""


@dataclass(frozen=True)
class Hostile:
    refused: dict[str, Built]
    live: dict[str, str]
    errors: dict[str, Any]
    control_site: Path


@pytest.fixture(scope="module")
def hostile(genuine, environment, tmp_path_factory):
    """Every payload built twice; the first copies run by plain skops."""
    base = tmp_path_factory.mktemp("hostile")
    control_site = base / "control-site"
    control_site.mkdir()
    refused, controls = {}, {}
    for payload in PAYLOADS:
        for name, site, store in (("control", control_site, controls),
                                  ("refused", _site_packages(), refused)):  # fmt: skip
            target = Target(base / name / payload.id, site, genuine.csv)
            store[payload.id] = _build(genuine, payload, target)
    cases = [
        {"id": p.id, "file": str(controls[p.id].file),
         "trusted": sorted(controls[p.id].hostile | set(genuine.trusted)),
         "predict": str(genuine.csv) if p.predict else None}
        for p in PAYLOADS
    ]  # fmt: skip
    (exit_case,) = [c for c, p in zip(cases, PAYLOADS, strict=True)
                    if p.effect == "exit"]  # fmt: skip
    spec = {
        "cases": [c for c in cases if c is not exit_case],
        "exit": exit_case,
        "path": [str(b.target.root / "mods") for b in controls.values()],
        "site_dirs": [str(control_site)],
        "out": str(base / "control.json"),
    }
    (base / "control-spec.json").write_text(json.dumps(spec))
    done = subprocess.run(
        [sys.executable, "-c", _CONTROL, str(base / "control-spec.json")],
        cwd=base, env=_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert (base / "control.json").exists(), done.stderr[-3000:]
    results = json.loads((base / "control.json").read_text())
    live = {
        p.id: _live(p, controls[p.id], results.get(p.id), done.returncode)
        for p in PAYLOADS
    }
    yield Hostile(refused, live, results, control_site)
    # a regression must not leave a .pth behind (the tests fail, naming it)
    for leaked in _site_packages().glob("costsense-hostile-*.pth"):
        leaked.unlink()


def _raised_by_checks(caught: pytest.ExceptionInfo) -> str:
    """Where the refusal was raised; fail if skops was on the way."""
    frames = [str(entry.path) for entry in caught.traceback]
    assert not any("skops" in frame for frame in frames), frames
    assert frames[-1].endswith(CHECKS), frames
    return f"{Path(frames[-1]).name}:{caught.traceback[-1].lineno + 1}"


def _predict(model: Path, csv: Path, out: Path, *extra: str) -> int:
    return cli.main(["predict", "--model", str(model), "--csv", str(csv),
                     "--out", str(out), *extra])  # fmt: skip


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# ------------------------------------------------------------------ the tests
@pytest.mark.parametrize("payload", PAYLOADS, ids=[p.id for p in PAYLOADS])
def test_a_live_payload_is_refused_naming_its_type_and_nothing_runs(
    payload, hostile, environment, tmp_path, capsys, monkeypatch
):
    if payload.effect == "read" and not PASSWD.is_file():
        pytest.skip(f"no {PASSWD} here")
    built = hostile.refused[payload.id]
    target = built.target
    assert built.hostile
    monkeypatch.syspath_prepend(str(target.root / "mods"))  # importable, if run
    with pytest.raises(UsageError) as caught:
        load_model(str(built.file))
    message = str(caught.value)
    assert "\n" not in message
    assert any(name in message for name in built.hostile), (message, built.hostile)
    _raised_by_checks(caught)
    out = tmp_path / "predictions.csv"
    status = _predict(built.file, target.csv, out)
    error = _one_line(capsys.readouterr().err)
    assert status == 2 and error.startswith("costsense predict: error: "), error
    assert any(name in error for name in built.hostile), error
    assert not out.exists()
    if "popen" in payload.id.lower():
        time.sleep(0.2)  # a spawned child would have written by now
    assert not target.marker.exists()
    assert (target.victim / "keep").read_text() == "keep me"
    assert not environment.changes()
    # the control: the same payload, aimed at another folder, runs in plain skops
    assert hostile.live[payload.id], hostile.errors.get(payload.id)


def test_every_control_is_live_and_only_the_payload_is_refused(hostile):
    # the scaffolding is what every model holds, so a refusal names the payload
    assert all(name in ALLOWED[loader] for loader, name in SCAFFOLD)
    dead = {p: why for p, why in hostile.live.items() if not why}
    assert not dead, {p: hostile.errors.get(p) for p in dead}


def test_the_payload_aimed_at_site_packages_wrote_nothing_there(hostile, environment):
    written = sorted(_site_packages().glob("costsense-hostile-*.pth"))
    assert not written
    assert not environment.changes()
    # its control wrote a .pth that Python ran (the live check), in a temporary
    # folder standing for site-packages
    assert list(hostile.control_site.glob("costsense-hostile-*.pth"))
    assert hostile.live["numpy.savetxt-pth"]


def _hostile_nodes() -> dict[str, dict[str, Any]]:
    """Each hostile node of every payload, by loader and dotted name."""
    nowhere = Path("/nonexistent/payload")
    found = {}
    for payload in PAYLOADS:
        made = payload.build(Target(nowhere, nowhere, nowhere))
        for node in schema_nodes(made[0] if isinstance(made, tuple) else made):
            if _refused(node):
                found.setdefault(f"{node['__loader__']}:{_dotted(node)}", node)
    return found


HOSTILE_NODES = _hostile_nodes()


@pytest.mark.parametrize("label", sorted(HOSTILE_NODES))
def test_every_hostile_node_is_refused_on_its_own_naming_its_type(
    label, genuine, tmp_path
):
    """A payload's inner nodes too (an attrgetter inside a map, ...), alone."""
    schema = genuine.schema()
    schema["content"]["model"] = HOSTILE_NODES[label]
    path = _rewrite(genuine, tmp_path / "m.skops", schema)
    with pytest.raises(UsageError) as caught:
        load_model(str(path))
    assert label.split(":", 1)[1] in str(caught.value)
    _raised_by_checks(caught)


def test_an_object_array_member_is_refused_before_numpy_reads_it(genuine, tmp_path):
    schema = genuine.schema()
    array = _find(schema, lambda n: n.get("type") == "numpy")
    payload = np.empty(1, dtype=object)
    payload[0] = _Exec(f"open({str(tmp_path / 'marker')!r}, 'w')")
    extra = {array["file"]: _npy(payload, allow_pickle=True)}
    path = _rewrite(genuine, tmp_path / "m.skops", schema, extra)
    with pytest.raises(UsageError, match="holds Python objects") as caught:
        load_model(str(path))
    _raised_by_checks(caught)
    assert not (tmp_path / "marker").exists()


def test_a_damaged_member_header_is_refused_as_damaged(genuine, tmp_path):
    """A local header that disagrees with the index: a refusal, not a crash."""
    data = bytearray(genuine.path.read_bytes())
    with zipfile.ZipFile(genuine.path) as archive:
        member = next(i for i in archive.infolist() if i.filename.endswith(".npy"))
    assert data[member.header_offset : member.header_offset + 4] == b"PK\x03\x04"
    data[member.header_offset + 2] ^= 0xFF  # the local header's signature
    path = tmp_path / "damaged.skops"
    path.write_bytes(bytes(data))
    with pytest.raises(UsageError, match="is damaged") as caught:
        load_model(str(path))
    _raised_by_checks(caught)
    out = tmp_path / "p.csv"
    assert _predict(path, genuine.csv, out) == 2 and not out.exists()


# ------------------------------------------------------------ resource attacks
def _npy_header(shape) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buffer, {"descr": "<f8", "fortran_order": False, "shape": shape}
    )
    return buffer.getvalue()


def _declared_sizes(data: bytes, name: str, *, stored: bool) -> bytes:
    """Make the central directory say ``name`` holds ~4 GiB (and stores it, or not)."""
    end = struct.unpack_from(zipfile.structEndArchive, data,
                             data.rindex(zipfile.stringEndArchive))  # fmt: skip
    start = end[zipfile._ECD_OFFSET]
    while True:
        fields = struct.unpack_from(zipfile.structCentralDir, data, start)
        length = fields[zipfile._CD_FILENAME_LENGTH]
        if data[start + 46 : start + 46 + length] == name.encode():
            break
        start += 46 + length + fields[zipfile._CD_EXTRA_FIELD_LENGTH]
        start += fields[zipfile._CD_COMMENT_LENGTH]
    patched = bytearray(data)
    struct.pack_into("<L", patched, start + 24, 0xFFFF_FFF0)  # uncompressed size
    if stored:
        struct.pack_into("<L", patched, start + 20, 0xFFFF_FFF0)  # compressed size
    return bytes(patched)


def _many_members(count: int) -> bytes:
    """An archive of ``count`` central-directory entries (no data) and its end."""
    entries = []
    for i in range(count):
        name = f"{i}.npy".encode()
        entries.append(
            struct.pack(zipfile.structCentralDir, zipfile.stringCentralDir,
                        20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0,
                        0, 0) + name
        )  # fmt: skip
    directory = b"".join(entries)
    end = struct.pack(zipfile.structEndArchive, zipfile.stringEndArchive, 0, 0,
                      0xFFFF, 0xFFFF, len(directory), 0, 0)  # fmt: skip
    return directory + end


def _nested_schema(genuine: Genuine, levels: int) -> bytes:
    """The genuine schema whose model is ``levels`` lists deep (written as text:
    json.dumps itself would exceed the recursion limit)."""
    schema = genuine.schema()
    schema["content"]["model"] = "@"
    head = '{"__class__": "list", "__module__": "builtins", "__loader__": "ListNode", '
    nested = (head + '"content": [') * levels + "]}" * levels
    return json.dumps(schema).replace('"@"', nested).encode()


def _resource_cases(genuine: Genuine, folder: Path) -> dict[str, tuple[Path, str]]:
    """(file, word the refusal names) for each resource attack."""
    cases = {}
    schema = genuine.schema()
    array = _find(schema, lambda n: n.get("type") == "numpy")["file"]
    data = genuine.members[array]
    with io.BytesIO(data) as handle:  # where the genuine header ends
        np.lib.format.read_magic(handle)
        np.lib.format.read_array_header_1_0(handle)
        offset = handle.tell()
    for label, shape in (("npy-declares-2-GiB", (2**28,)),
                         ("npy-declares-16-GiB", (2**31,))):  # fmt: skip
        extra = {array: _npy_header(shape) + data[offset:]}
        cases[label] = (_rewrite(genuine, folder / f"{label}.skops", None, extra),
                        "declares shape")  # fmt: skip
    genuine_bytes = genuine.path.read_bytes()
    for label, stored, word in (
        ("schema-declares-4-GiB", False, f"declares {0xFFFF_FFF0} bytes"),
        ("members-declare-more-than-the-file", True, "more than the file"),
    ):
        path = folder / f"{label}.skops"
        path.write_bytes(_declared_sizes(genuine_bytes, "schema.json", stored=stored))
        cases[label] = (path, word)
    tree = _find(schema, lambda n: n.get("__loader__") == "TreeNode")
    for label, edit, word in (
        ("tree-declares-10^12-nodes", ("content", "content", "node_count"), "nodes"),
        ("tree-declares-10^9-outputs", ("__reduce__", "args", "content", 2),
         "outputs"),
    ):  # fmt: skip
        edited = genuine.schema()
        node = _find(edited, lambda n, i=tree["__id__"]: n.get("__id__") == i)
        for key in edit[:-1]:
            node = node[key]
        node[edit[-1]] = _json(10**12 if "nodes" in label else 10**9)
        cases[label] = (_rewrite(genuine, folder / f"{label}.skops", edited), word)
    for label, levels, word in (
        ("nested-10000-levels", 10_000, "nested"),
        ("nested-300-levels", 300, "nested deeper"),
    ):
        extra = {"schema.json": _nested_schema(genuine, levels)}
        cases[label] = (_rewrite(genuine, folder / f"{label}.skops", None, extra),
                        word)  # fmt: skip
    # a deflated member that expands a thousandfold (50 MB of zeros)
    bomb = [*genuine.members.items(), ("999.npy", bytes(50 * 2**20))]
    cases["zip-bomb"] = (write_zip(folder / "bomb.skops", bomb, {"999.npy"}),
                         "compressed")  # fmt: skip
    second = genuine.schema()  # a second schema.json, hostile, after the genuine
    second["content"]["model"] = _reduce("builtins.exec", _json("1"))
    twice = [*genuine.members.items(), ("schema.json", json.dumps(second).encode())]
    cases["duplicate-names"] = (write_zip(folder / "twice.skops", twice), "twice")
    many = folder / "many.skops"
    many.write_bytes(_many_members(MAX_MEMBERS + 1))
    cases["huge-member-count"] = (many, "members")
    big = [*genuine.members.items()]
    big[[n for n, _ in big].index("schema.json")] = (
        "schema.json", b" " * (MAX_SCHEMA_BYTES + 1) + b"{}")  # fmt: skip
    cases["schema-over-64-MiB"] = (write_zip(folder / "big.skops", big),
                                   "schema.json has")  # fmt: skip
    # under the byte limit, but millions of tiny values: over a gigabyte parsed
    lists = [*genuine.members.items()]
    lists[[n for n, _ in lists].index("schema.json")] = (
        "schema.json", b"[" + b"[]," * ((40 << 20) // 3) + b"[]]")  # fmt: skip
    cases["schema-of-14-million-lists"] = (
        write_zip(folder / "lists.skops", lists),
        "values",
    )
    return cases


_RESOURCES = r"""
import contextlib, io, json, resource, sys, time, tracemalloc
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
spec = json.loads(open(sys.argv[1]).read())
from costsense import cli
from costsense.cli._model_io import load_model
from costsense.cli import UsageError
load_model(spec["genuine"])  # imports done before any case is timed
results = {}
for label, (path, csv, out) in spec["cases"].items():
    tracemalloc.start()
    start = time.perf_counter()
    try:
        load_model(path)
        outcome = {"error": None, "usage": False}
    except UsageError as error:
        outcome = {"error": str(error), "usage": True}
    except BaseException as error:  # MemoryError, RecursionError: a regression
        outcome = {"error": f"{type(error).__name__}: {error}"[:500], "usage": False}
    outcome["seconds"] = time.perf_counter() - start
    outcome["peak"] = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        outcome["status"] = cli.main(["predict", "--model", path, "--csv", csv,
                                      "--out", out])
    outcome["stderr"] = stderr.getvalue()
    results[label] = outcome
    with open(spec["out"], "w") as handle:
        json.dump(results, handle)
"""

RESOURCE_LABELS = [
    "npy-declares-2-GiB", "npy-declares-16-GiB", "schema-declares-4-GiB",
    "members-declare-more-than-the-file", "tree-declares-10^12-nodes",
    "tree-declares-10^9-outputs", "nested-10000-levels", "nested-300-levels",
    "zip-bomb", "duplicate-names", "huge-member-count", "schema-over-64-MiB",
    "schema-of-14-million-lists",
]  # fmt: skip


@pytest.fixture(scope="module")
def resources(genuine, tmp_path_factory):
    folder = tmp_path_factory.mktemp("resources")
    cases = _resource_cases(genuine, folder)
    assert sorted(cases) == sorted(RESOURCE_LABELS)
    spec = {
        "cases": {label: (str(path), str(genuine.csv), str(folder / f"{i}.csv"))
                  for i, (label, (path, _)) in enumerate(cases.items())},
        "out": str(folder / "results.json"),
        "genuine": str(genuine.path),
    }  # fmt: skip
    (folder / "spec.json").write_text(json.dumps(spec))
    done = subprocess.run(
        [sys.executable, "-c", _RESOURCES, str(folder / "spec.json")],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = folder / "results.json"  # written after each case
    results = json.loads(out.read_text()) if out.exists() else {}
    return cases, results, done


@pytest.mark.parametrize("label", RESOURCE_LABELS)
def test_a_resource_attack_is_refused_in_bounded_memory(label, resources, environment):
    cases, results, done = resources
    path, word = cases[label]
    assert label in results, done.stderr[-3000:]  # the subprocess died before it
    outcome = results[label]
    assert outcome["usage"], outcome
    assert word in outcome["error"] and "\n" not in outcome["error"], outcome
    size = path.stat().st_size
    assert outcome["peak"] < 2 * size + 64 * 2**20, (outcome["peak"], size)
    assert outcome["status"] == 2, outcome
    assert word in _one_line(outcome["stderr"])
    assert not environment.changes()


def test_the_depth_limit_is_below_pythons_recursion_limit():
    assert MAX_DEPTH * 3 < sys.getrecursionlimit()


# ------------------------------------------------------------- lying metadata
def _with_metadata(genuine: Genuine, path: Path, **changes: Any) -> Path:
    return edit_metadata(genuine.path, path, lambda metadata: metadata.update(changes))


LIES = [
    ("cost", {"cost": {"kind": "ratio", "matrix": [[0.0, 1.0], [1.0, 0.0]],
                       "parts": None, "columns": [],
                       "columns_are_features": True}}),
    ("classes", {"classes": [1, 0]}),
    ("columns", {"columns": {"g1": "numeric", "f2": "numeric", "f3": "numeric"}}),
    ("model", {"model": "weighting"}),
    ("model", {"model": "no-such-model"}),
    ("model or base", {"base": "logistic"}),
    ("seed", {"seed": 1}),
    ("seed", {"seed": "0"}),
    ("rows", {"rows": "60"}),
    ("positive class", {"pos_label": 0}),
    # fields that decide how rows are read: held to the model's own record
    ("missing-value policy", {"missing": "keep"}),
    ("missing-value policy", {"missing": "drop"}),
    ("number marks", {"number_marks": {"f1": ","}}),
    # what predict prints beside "signed": plain, as fit writes it
    ("training time", {"trained": "2026-01-01\r\x1b[2Ksignature verified"}),
    ("training time", {"trained": "yesterday"}),
    ("version", {"costsense_version": "0.1\x1b]0;title\x07"}),
]  # fmt: skip


@pytest.mark.parametrize(("word", "changes"), LIES, ids=[str(c) for _, c in LIES])
def test_lying_metadata_on_a_genuine_model_is_refused_naming_the_field(
    word, changes, genuine, tmp_path
):
    path = _with_metadata(genuine, tmp_path / "lying.skops", **changes)
    with pytest.raises(UsageError) as caught:
        load_model(str(path))
    message = str(caught.value)
    assert word in message and "\n" not in message, message
    _raised_by_checks(caught)


def test_control_characters_from_a_file_never_reach_the_terminal(genuine, tmp_path):
    lie = "2026-01-01\r\x1b[2Ksignature verified"
    path = _with_metadata(genuine, tmp_path / "lying.skops", trained=lie)
    with pytest.raises(UsageError) as caught:
        load_model(str(path))
    message = str(caught.value)
    assert message.isprintable() and "\\r\\x1b[2K" in message, message


def _per_row_costs_model(folder: Path) -> tuple[Path, Path]:
    """A model deciding each row by its own cost column, and its training file."""
    frame = pd.read_csv(write_csv(folder / "base.csv", n=80))
    # amounts as a bank writes them: a comma between thousands
    frame["amount"] = [f"{1000 + 37 * i:,}.50" for i in range(len(frame))]
    frame.to_csv(folder / "train.csv", index=False)
    path = folder / "rows.skops"
    argv = ["fit", "--csv", str(folder / "train.csv"), "--target", "label",
            "--fn-cost", "amount", "--fp-cost", "40", "--model", "threshold",
            "--base", "tree", "--out", str(path)]  # fmt: skip
    assert cli.main(argv) == 0
    return path, folder / "train.csv"


def test_reading_options_edited_in_the_metadata_alone_are_refused(tmp_path, capsys):
    path, train = _per_row_costs_model(tmp_path)
    capsys.readouterr()  # fit's report
    loaded, metadata, _ = load_model(str(path))
    assert metadata["number_marks"] == {"amount": "."}  # "1,037.50": 1037.5

    def flip_marks(m):  # "1,037.50" read as 1.0375 (decisions change)
        m["number_marks"] = {"amount": ","}

    def other_cost_column(m):  # each row's missed-positive cost from f1
        m["cost"]["parts"]["fn"] = "f1"
        m["cost"]["columns"] = ["f1"]

    for edit, word in ((flip_marks, "number marks"), (other_cost_column, "cost")):
        edited = edit_metadata(path, tmp_path / f"{edit.__name__}.skops", edit)
        with pytest.raises(UsageError, match=word):
            load_model(str(edited))
        out = tmp_path / f"{edit.__name__}.csv"
        assert _predict(edited, train, out) == 2
        assert word in _one_line(capsys.readouterr().err)
        assert not out.exists()


def test_lying_costs_are_refused_by_the_command_line_too(genuine, tmp_path, capsys):
    costs = {"kind": "ratio", "matrix": [[0.0, 1.0], [25.0, 0.0]], "parts": None,
             "columns": [], "columns_are_features": True}  # fmt: skip
    path = _with_metadata(genuine, tmp_path / "lying.skops", cost=costs)
    assert _predict(path, genuine.csv, tmp_path / "p.csv") == 2
    assert "cost" in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "p.csv").exists()


def _action_model(folder: Path) -> Path:
    """A model whose labels stand for actions allow / review / block."""
    csv = write_csv(folder / "train.csv", n=60)
    (folder / "actions.csv").write_text("class,allow,review,block\n0,0,1,5\n1,20,4,0\n")
    path = folder / "actions.skops"
    argv = [
        "fit",
        "--csv",
        str(csv),
        "--target",
        "label",
        "--action-costs",
        str(folder / "actions.csv"),
        "--model",
        "threshold",
        "--base",
        "tree",
        "--out",
        str(path),
    ]
    assert cli.main(argv) == 0
    return path


def _actions(**changes: Any):
    return lambda m: m["actions"].update(changes)


ACTION_LIES = [
    # block made cheap for a positive: label 1's costs would change underneath
    ("label costs of its action table", _actions(table=[[0, 1, 5], [20, 4, 3]])),
    ("action table is not 2 x 3", _actions(table=[[0, 1, 5], [20, 4, float("nan")]])),
    ("action table is not 2 x 3", _actions(table=[[0, 1, 5]])),
    ("action table is not 2 x 3", _actions(table=[[0, 1, 5], [20, 4, -1]])),
    ("actions are not two or more distinct", _actions(names=["allow", "allow", "b"])),
    ("actions are not two or more distinct", _actions(names=["a", "b\x1b[2K", "c"])),
    ("action columns are not", _actions(table=None, columns=[["f1"]])),
    ("action table is not names", lambda m: m["actions"].update(run="os.system")),
    (
        "action table but costs of another kind",
        lambda m: m["cost"].update(kind="matrix"),
    ),
    ("class counts", lambda m: m.update(class_counts=[30, 31])),
    ("class counts", lambda m: m.update(class_counts=[60, 0])),
]


def test_a_lying_action_table_is_refused_by_the_metadata_checks(tmp_path, capsys):
    path = _action_model(tmp_path)
    model, metadata, _ = load_model(str(path))
    assert metadata["actions"]["names"] == ["allow", "review", "block"]
    assert sum(metadata["class_counts"]) == metadata["rows"] == 60
    for number, (word, edit) in enumerate(ACTION_LIES):
        edited = edit_metadata(path, tmp_path / f"lie{number}.skops", edit)
        with pytest.raises(UsageError) as caught:
            load_model(str(edited))
        assert word in str(caught.value) and "\n" not in str(caught.value), word
        assert _raised_by_checks(caught).startswith("_model_io.py")
    out = tmp_path / "p.csv"
    capsys.readouterr()
    assert _predict(edited, tmp_path / "train.csv", out) == 2
    assert "class counts" in _one_line(capsys.readouterr().err)
    assert not out.exists()


# ------------------------------------------------------------------ signatures
def _flip(data: bytes, where: int) -> bytes:
    return data[:where] + bytes([data[where] ^ 0x01]) + data[where + 1 :]


def test_a_signed_model_loads_with_its_key_only_and_only_unchanged(genuine, tmp_path):
    model, metadata, _ = load_model(str(genuine.path))
    signed = tmp_path / "signed.skops"
    save_model(model, signed, metadata=metadata, key=KEY)
    loaded, _, _ = load_model(str(signed), key=KEY)
    X = np.random.default_rng(0).normal(size=(5, 3))
    frame = pd.DataFrame(X, columns=["f1", "f2", "f3"])
    np.testing.assert_array_equal(loaded.predict(frame), model.predict(frame))
    refusals = {}
    with pytest.raises(UsageError) as caught:
        load_model(str(signed), key=KEY[::-1])
    refusals["wrong key"] = caught
    with pytest.raises(UsageError) as caught:
        load_model(str(genuine.path), key=KEY)
    refusals["unsigned"] = caught
    with zipfile.ZipFile(signed) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    arrays = sorted(n for n in members if n.endswith(".npy"))
    date = re.search(rb"\d\dT\d\d:", members["schema.json"]).start()
    edits = {
        "schema.json: a digit of the training date": ("schema.json", date),
        "schema.json: its first byte": ("schema.json", 0),
        "schema.json: its last byte": ("schema.json", -1),
        "an array's data": (arrays[0], -1),
        "an array's header": (arrays[-1], 10),
    }  # fmt: skip
    for label, (name, where) in edits.items():
        changed = dict(members)
        changed[name] = _flip(members[name], where % len(members[name]))
        path = write_zip(tmp_path / f"{len(refusals)}.skops", changed.items())
        with pytest.raises(UsageError) as caught:
            load_model(str(path), key=KEY)
        refusals[label] = caught
    # a hostile schema carrying the genuine signature
    hostile = dict(members)
    schema = json.loads(members["schema.json"])
    schema["content"]["model"] = _reduce("builtins.exec", _json("1"))
    hostile["schema.json"] = json.dumps(schema).encode()
    path = write_zip(tmp_path / "hostile.skops", hostile.items())
    with pytest.raises(UsageError) as caught:
        load_model(str(path), key=KEY)
    refusals["a hostile schema"] = caught
    for label, caught in refusals.items():
        message = str(caught.value)
        assert "signed" in message and "\n" not in message, (label, message)
        assert _raised_by_checks(caught).startswith("_archive.py"), label


def test_the_command_line_signs_verifies_and_limits_the_size(tmp_path, capsys):
    csv = write_csv(tmp_path / "train.csv", n=60)
    key, other = tmp_path / "key", tmp_path / "other"
    key.write_bytes(KEY + b"\n")
    other.write_bytes(KEY[::-1])
    model = tmp_path / "m.skops"
    assert cli.main(["fit", "--csv", str(csv), "--target", "label", "--model",
                     "plain", "--cost", "5", "--out", str(model),
                     "--sign-key-file", str(key)]) == 0  # fmt: skip
    capsys.readouterr()
    verify = ("--verify-key-file", str(key))
    assert _predict(model, csv, tmp_path / "ok.csv", *verify) == 0
    assert "signature verified" in capsys.readouterr().err
    out = tmp_path / "refused.csv"
    assert _predict(model, csv, out, "--verify-key-file", str(other)) == 2
    assert "not signed with this key" in _one_line(capsys.readouterr().err)
    # one byte of schema.json flipped in the file itself (its CRC left stale)
    with zipfile.ZipFile(model) as archive:
        info = archive.getinfo("schema.json")
    data = bytearray(model.read_bytes())
    name, extra = struct.unpack_from("<2H", data, info.header_offset + 26)
    data[info.header_offset + 30 + name + extra + info.file_size // 2] ^= 1
    edited = tmp_path / "edited.skops"
    edited.write_bytes(bytes(data))
    assert _predict(edited, csv, out, *verify) == 2
    assert "signed" in _one_line(capsys.readouterr().err)
    limit = f"{model.stat().st_size / 2**20 / 2:.4f}"
    assert _predict(model, csv, out, "--max-model-mb", limit) == 2
    assert "--max-model-mb" in _one_line(capsys.readouterr().err)
    assert not out.exists()


# ------------------------------------- files of earlier development versions
def _at_former_place(schema: Any, now: str, former: str) -> int:
    """Name the class ``now`` (dotted) by its ``former`` place in every node."""
    module, cls = now.rsplit(".", 1)
    former_module, former_cls = former.rsplit(".", 1)
    renamed = 0
    stack = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if (value.get("__module__"), value.get("__class__")) == (module, cls):
                value["__module__"], value["__class__"] = former_module, former_cls
                renamed += 1
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return renamed


def _refused_to_fit_again(old: Path, message: str, csv: Path, tmp_path, capsys):
    """Loading and predict both refuse ``old`` in one line saying to fit again."""
    with pytest.raises(UsageError, match=message) as caught:
        load_model(str(old))
    assert "\n" not in str(caught.value)
    out = tmp_path / "p.csv"
    assert _predict(old, csv, out) == 2
    assert "fit the model again" in _one_line(capsys.readouterr().err)
    assert not out.exists()


def test_a_file_naming_a_class_at_its_former_module_is_refused_to_fit_again(
    genuine, tmp_path, capsys
):
    # costsense was never released: a file of an earlier development version,
    # written when files named ThresholdMoving by its private module, is refused
    # (no former name is read as the class it is now), saying what to do
    now = "costsense.rescale.ThresholdMoving"
    former = "costsense.rescale._threshold.ThresholdMoving"
    assert now in ALLOWED["ObjectNode"] and former not in ALLOWED["ObjectNode"]
    schema = genuine.schema()
    assert _at_former_place(schema, now, former) >= 1
    old = _rewrite(genuine, tmp_path / "old.skops", schema=schema)
    message = (
        r"holds type costsense\.rescale\._threshold\.ThresholdMoving, which no model "
        r"written "
        r"by costsense fit contains .*fit the model again"
    )
    _refused_to_fit_again(old, message, genuine.csv, tmp_path, capsys)


def test_a_file_of_format_1_is_refused_to_fit_again(genuine, tmp_path, capsys):
    # format 1 (before the four cost parts) is no longer upgraded on reading
    model, metadata, _ = load_model(str(genuine.path))
    assert metadata["format"] == "costsense-model/2"
    parts = ("parts", "columns", "columns_are_features")
    cost = {k: v for k, v in metadata["cost"].items() if k not in parts}
    old = tmp_path / "format-1.skops"
    older = {**metadata, "format": "costsense-model/1", "cost": cost}
    save_model(model, old, metadata=older)
    message = (
        r"has format 'costsense-model/1'; this costsense reads "
        r"'costsense-model/2' only .*: fit the model again"
    )
    _refused_to_fit_again(old, message, genuine.csv, tmp_path, capsys)


# ------------------------------------------------------------- writing a model
_FULL_DISK = r"""
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead
resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))
from costsense import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_disk_filling_up_during_fit_leaves_no_model_under_the_final_name(
    genuine, tmp_path
):
    out = tmp_path / "models" / "model.skops"
    out.parent.mkdir()
    argv = ["fit", "--csv", str(genuine.csv), "--target", "label", "--cost", "5",
            "--model", "random-forest", "--out", str(out)]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", _FULL_DISK, *argv],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    error = done.stderr.strip().splitlines()[-1]  # after fit's progress lines
    assert error.startswith("costsense fit: error: --out"), done.stderr
    assert "could not be written" in error and "nothing was saved" in error
    assert list(out.parent.iterdir()) == []  # no truncated model, no temporary


def test_a_file_appearing_at_the_model_path_while_it_is_written_is_kept(
    genuine, tmp_path, monkeypatch
):
    out = tmp_path / "model.skops"
    real_fsync = os.fsync

    def race(descriptor):  # another process creates the output meanwhile
        if not out.exists():
            out.write_text("theirs")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", race)
    model, metadata, _ = load_model(str(genuine.path))
    with pytest.raises(UsageError, match="appeared while the model was written"):
        save_model(model, out, metadata=metadata)
    assert out.read_text() == "theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["model.skops"]


# ------------------------------------------------------- files that are not files
_READ_ONLY_FILES = r"""
import json, sys
from costsense.cli import UsageError
from costsense.persist import read_key, read_model
results = {}
for label, (kind, path) in json.loads(sys.argv[1]).items():
    try:
        read_key(path, "--verify-key-file") if kind == "key" else read_model(path)
        results[label] = "read"
    except UsageError as error:
        results[label] = str(error)
print(json.dumps(results))
"""


def test_a_model_or_key_that_is_not_a_regular_file_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # nobody writes: a read would wait forever
    big_key = tmp_path / "key"
    big_key.write_bytes(b"k" * (1 << 20))
    cases = {
        "model-pipe": ("model", str(fifo)),
        "model-device": ("model", "/dev/zero"),
        "model-folder": ("model", str(tmp_path)),
        "key-pipe": ("key", str(fifo)),
        "key-device": ("key", "/dev/zero"),
        "key-too-long": ("key", str(big_key)),
    }
    done = subprocess.run(
        [sys.executable, "-c", _READ_ONLY_FILES, json.dumps(cases)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,  # a pipe read would hang, /dev/zero grow without bound
    )
    results = json.loads(done.stdout)
    for label, message in results.items():
        expected = "more than 64 KiB" if label == "key-too-long" else "not a regular"
        assert expected in message and "\n" not in message, (label, message)
