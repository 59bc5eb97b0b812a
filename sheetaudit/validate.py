"""One validator for everything a user or a file hands in: facility profiles, requirement files, the what-if's
assumption files and options, audit JSON given to `scale`, file names.

A schema is plain data in a subset of JSON Schema, so it reads like one and lives in `rules/inputs/NAME.yaml`:

    type: object
    additionalProperties: false
    properties:
      rack_power_kw: {type: number, exclusiveMinimum: 0, description: "kW one rack may draw"}
      cooling:
        anyOf:
          - {enum: [air, liquid, immersion]}
          - {type: array, items: {enum: [air, liquid, immersion]}, minItems: 1}

Keywords: type (object, array, string, number, integer, boolean, null, or a list of them), properties, required,
additionalProperties (false or a schema), items, minItems, maxItems, enum, minimum, maximum, exclusiveMinimum,
exclusiveMaximum, minLength, maxLength, pattern, anyOf, description (worded into the error). Three rules stricter
than JSON Schema, because a profile that says `.nan` or `yes` must not switch a check off silently: a number is
always finite and at most MAX_NUMBER in size (a 400-digit integer is no float), true/false are never numbers,
and 1/0 are never true/false. A YAML file's aliases are expanded only up to MAX_NODES values (read_yaml counts
them on the parsed graph, before anything walks the result).

    from sheetaudit.validate import InvalidInput, load_schema, read_yaml, validate
    data = read_yaml(path, load_schema("facility"))        # read, parse and check: one call
    validate(data, load_schema("facility"), source=path)   # or check data already in hand; returns it

Every failure is one InvalidInput (a UsageError: exit 2, one line) whose message names the file and the key,
`facility.yaml: cooling[1]: expected one of air, liquid, immersion, got 7`; `.source`, `.key` and `.problem`
hold the parts.
"""

from __future__ import annotations

import errno
import math
import re
from functools import lru_cache
from pathlib import Path

from .errors import UsageError, describe_path

# An input file is a few kB; a cap keeps a FIFO, /dev/zero or a 2 GB file from hanging or filling memory.
MAX_INPUT_BYTES = 16 * 2**20
# Deeper than any input anyone writes by hand; deep enough to refuse a 100,000-deep JSON before Python's own
# recursion limit turns it into an internal error.
MAX_DEPTH = 64
# Values a YAML file may stand for once its aliases are expanded: a hand-written file holds a few hundred; nested
# aliases ("billion laughs") make 600 bytes stand for billions, which any walk of the result would never finish.
MAX_NODES = 100_000
# No count, size or threshold anyone means is larger; a 400-digit integer is not a float at all.
MAX_NUMBER = 1e18


class InvalidInput(UsageError):
    """An input that does not fit its schema: names the file (`source`), the key (`key`) and what was wrong."""

    def __init__(self, source, key: str, problem: str):
        self.source = describe_path(source)
        self.key = key
        self.problem = problem
        super().__init__(f"{self.source}: {key}: {problem}" if key else f"{self.source}: {problem}")


_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, (list, tuple)),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer(),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_TYPE_WORDS = {
    "object": "a mapping of keys to values",
    "array": "a list",
    "string": "text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "null",
}


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _join(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _expected(schema: dict) -> str:
    """The schema in words, for 'expected ...'."""
    if "description" in schema:
        return schema["description"]
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_expected(s) for s in schema["anyOf"])
    types = schema.get("type")
    if types is None:
        return "a value"
    types = [types] if isinstance(types, str) else types
    words = " or ".join(_TYPE_WORDS[t] for t in types)
    bounds = [
        f"{w} {schema[k]:g}"
        for k, w in (
            ("exclusiveMinimum", "above"),
            ("minimum", "at least"),
            ("exclusiveMaximum", "below"),
            ("maximum", "at most"),
        )
        if k in schema
    ]
    return words + (" " + ", ".join(bounds) if bounds else "")


def _check(value, schema: dict, source, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InvalidInput(source, path, f"nested deeper than {MAX_DEPTH} levels")

    def bad(problem=None):
        return InvalidInput(source, path, problem or f"expected {_expected(schema)}, got {_show(value)}")

    if "anyOf" in schema:
        errors = []
        for alternative in schema["anyOf"]:
            try:
                _check(value, alternative, source, path, depth)
                break
            except InvalidInput as exc:
                errors.append(exc)
        else:
            # An alternative that failed deeper (cooling[1]) fitted the value's shape: its error is the useful one.
            deeper = [e for e in errors if len(e.key) > len(path)]
            raise deeper[0] if deeper else bad()
    types = schema.get("type")
    if types is not None:
        types = [types] if isinstance(types, str) else types
        if not any(_TYPES[t](value) for t in types):
            raise bad()
    if "enum" in schema and (
        isinstance(value, (dict, list))
        or value not in schema["enum"]
        or isinstance(value, bool) != any(isinstance(e, bool) and e == value for e in schema["enum"])
    ):
        raise bad()
    if isinstance(value, float) and not math.isfinite(value):
        raise bad(f"expected a finite number, got {value}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        raise bad(f"expected a number of at most {MAX_NUMBER:g} in size, got {_show(value)}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        for key, fails in (
            ("minimum", lambda v, b: v < b),
            ("maximum", lambda v, b: v > b),
            ("exclusiveMinimum", lambda v, b: v <= b),
            ("exclusiveMaximum", lambda v, b: v >= b),
        ):
            if key in schema and fails(value, schema[key]):
                raise bad()
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", math.inf):
            raise bad(
                f"expected text of {schema.get('minLength', 0)} to {schema.get('maxLength', 'any')} "
                f"characters, got {len(value)}"
            )
        if "pattern" in schema and not re.search(schema["pattern"], value):
            raise bad()
    if isinstance(value, (list, tuple)):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", math.inf):
            raise bad(
                f"expected {_expected(schema)} of {schema.get('minItems', 0)} to "
                f"{schema.get('maxItems', 'any')} items, got {len(value)}"
            )
        if "items" in schema:
            for i, item in enumerate(value):
                _check(item, schema["items"], source, _join(path, i), depth + 1)
    if isinstance(value, dict):
        props = schema.get("properties", {})
        missing = [k for k in schema.get("required", ()) if k not in value]
        if missing:
            what = f"; expected {schema['description']}" if "description" in schema else ""
            raise InvalidInput(source, path, f"missing {', '.join(missing)}{what}")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInput(source, path, f"key {_show(key)} is not text")
            if key in props:
                _check(item, props[key], source, _join(path, key), depth + 1)
            elif extra is False:
                known = ", ".join(sorted(props)) or "none"
                raise InvalidInput(source, _join(path, key), f"unknown key (known: {known})")
            elif isinstance(extra, dict):
                _check(item, extra, source, _join(path, key), depth + 1)


def validate(data, schema: dict, source, key: str = ""):
    """`data` if it fits `schema`, else InvalidInput naming `source` (a path or a word like '--assume') and the
    key; `key` names where `data` sits in its file when it is a part of it ('facility'). Nesting deeper than
    MAX_DEPTH is refused."""
    _check(data, schema, source, key, 0)
    return data


def _depth(obj, limit: int = MAX_DEPTH) -> int:
    """How deep `obj` nests, counted without recursion (a 100,000-deep list must not blow Python's stack)."""
    deepest, stack = 0, [(obj, 0)]
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, d + 1) for v in item)
    return deepest


def read_text(path, what: str = "input file", max_bytes: int = MAX_INPUT_BYTES) -> str:
    """A user's input file as text: a regular file (not a FIFO or a device), at most `max_bytes`, UTF-8."""
    from .fileio import NotARegularFile, read_regular

    try:
        raw = read_regular(path, max_bytes)
    except NotARegularFile:
        raise InvalidInput(path, "", f"the {what} is not a regular file") from None
    except OSError as exc:
        too_big = exc.errno == errno.EFBIG
        raise InvalidInput(
            path,
            "",
            f"the {what} is over {max_bytes // 2**20} MiB"
            if too_big
            else f"cannot read the {what}: {exc.strerror or exc}",
        ) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(path, "", f"the {what} is not UTF-8 text (byte {exc.start})") from None


def _read(path, schema, what: str, loads, errors, language: str):
    text = read_text(path, what)
    try:
        data = loads(text)
    except RecursionError:
        raise InvalidInput(path, "", f"the {what} is nested too deeply") from None
    except TooLarge as exc:
        raise InvalidInput(path, "", f"the {what} is refused: {exc}") from None
    except errors as exc:
        raise InvalidInput(path, "", f"not valid {language}: {' '.join(str(exc).split())}") from None
    if _depth(data) > MAX_DEPTH:
        raise InvalidInput(path, "", f"the {what} is nested deeper than {MAX_DEPTH} levels")
    return validate(data, schema, path) if schema is not None else data


def _none_is_empty(loads):
    return lambda text: {} if (data := loads(text)) is None else data


class TooLarge(ValueError):
    """A YAML document whose aliases expand past MAX_NODES values, or refer to themselves."""


def _expanded_size(root, limit: int) -> int:
    """How many values the YAML node graph `root` stands for once every alias is expanded, counted on the graph
    itself (each node once, shared nodes by their size): linear in the file, whatever the expansion. TooLarge
    past `limit`, or for a node that contains itself."""
    import yaml

    size: dict[int, int] = {}
    stack = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            children = _children(node, yaml)
            total = 1 + sum(size[id(c)] for c in children)
            if total > limit:
                raise TooLarge(f"its aliases expand to more than {limit:,} values")
            size[key] = total
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise TooLarge("an alias refers to a value that contains it")
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node, yaml) if id(c) not in size)
    return size[id(root)]


def _children(node, yaml) -> list:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [x for pair in node.value for x in pair]
    return []


def _safe_yaml(text: str):
    """yaml.safe_load, with the expansion of aliases bounded (MAX_NODES) before anything walks the result."""
    import yaml

    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, MAX_NODES)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def read_yaml(path, schema: dict | None = None, what: str = "input file"):
    """Read a YAML input file and check it against `schema`; an empty file is an empty mapping."""
    import yaml

    return _read(path, schema, what, _none_is_empty(_safe_yaml), (yaml.YAMLError, TooLarge), "YAML")


def read_json(path, schema: dict | None = None, what: str = "input file"):
    """Read a JSON input file and check it against `schema`."""
    import json

    return _read(path, schema, what, json.loads, json.JSONDecodeError, "JSON")


def schemas_dir() -> Path:
    from .rules import rules_dir

    return rules_dir() / "inputs"


@lru_cache(maxsize=None)
def _load_schema(path: Path) -> dict:
    import yaml
    from .errors import RulesError

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RulesError(f"{path}: {exc}") from None


def load_schema(name: str) -> dict:
    """The schema rules/inputs/NAME.yaml (facility, assumptions, ...)."""
    return _load_schema(schemas_dir() / f"{name}.yaml")
