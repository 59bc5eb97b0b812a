"""The documentation stays true (in the manner of sqlite-utils' test_docs.py): every command and every check code
the tool can print is documented in README.md or in the rule reference `sheetaudit rules` generates from
rules/checks.yaml; every code the README names exists; every `sheetaudit ...` usage line in the README parses;
and `check --format json` matches the JSON Schema shipped with the package."""

import json
import re
import shlex

import click
import pytest

from conftest import ROOT, SAMPLES, run_cli
from sheetaudit.cli import main
from sheetaudit.rules import load_rules

README = (ROOT / "README.md").read_text(encoding="utf-8")
RULES = load_rules()
CODES = set(RULES.checks) | set(RULES.comparison)


def usage_lines() -> list[str]:
    """Each `sheetaudit ...` command of the README's shell blocks, without the comment after it."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            starts = [i for i, w in enumerate(words) if w.endswith("sheetaudit")]
            if starts:
                rest = words[starts[0] + 1 :]
                out.append(
                    " ".join(
                        shlex.quote(w)
                        for w in rest[: next((i for i, w in enumerate(rest) if w in ("&&", "|", ";")), len(rest))]
                    )
                )
    return out


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_command_is_in_the_readme(name):
    assert re.search(rf"sheetaudit {name}\b", README), f"document `sheetaudit {name}` in README.md"


def test_every_check_code_is_in_the_generated_rule_reference_or_the_readme():
    listing = run_cli("rules").stdout
    undocumented = {c for c in CODES if c not in listing and c not in README}
    assert not undocumented


def test_every_code_the_readme_names_exists():
    named = set(re.findall(r"`((?:tier|bandwidth|latency|power|sheet|compare)\.[a-z-]+)`", README))
    assert named and named <= CODES, named - CODES


def test_the_readme_shows_usage_lines():
    assert len(usage_lines()) >= 10


def parse(args: list[str]) -> None:
    """Parse `sheetaudit ARGS` as click would, without running the command: a bad option raises UsageError."""
    options = [a for a in args[: next((i for i, a in enumerate(args) if not a.startswith("-")), len(args))]]
    rest = args[len(options) :]
    main.make_context("sheetaudit", options + (["rules"] if rest else [])).close()  # the group's own options
    if rest:
        name, *sub = rest
        if name not in main.commands:
            raise click.UsageError(f"no command {name!r}")
        main.commands[name].make_context(name, sub).close()


@pytest.mark.parametrize("line", usage_lines())
def test_readme_usage_line_parses(line):
    """A path the example names need not exist here; anything else wrong with the line fails."""
    try:
        parse(shlex.split(line))
    except click.exceptions.Exit:  # --help, --version: eager options that end parsing
        pass
    except click.BadParameter as exc:
        assert "does not exist" in str(exc), f"{line}: {exc}"


@pytest.mark.parametrize(
    "args", [["check", "x.pdf", "--no-such-option"], ["chek", "x.pdf"], ["scale", "x.pdf", "--accelerators", "1"]]
)
def test_the_usage_test_catches_a_wrong_line(args):
    with pytest.raises(click.UsageError):
        parse(args)


# ---------------------------------------------------------------------------------------------------------
# The JSON contract's schema ships with the package and the output follows it


def schema() -> dict:
    from importlib.resources import files

    return json.loads(files("sheetaudit").joinpath("schema/sheetaudit-1.json").read_text(encoding="utf-8"))


def validator():
    jsonschema = pytest.importorskip("jsonschema")
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema())
    return cls(schema())


@pytest.mark.parametrize(
    "sample", sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".pdf", ".md", ".txt", ".html"))
)
def test_check_json_follows_the_shipped_schema(sample):
    r = run_cli("check", "--format", "json", "--fail-on", "never", SAMPLES / sample)
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator().iter_errors(json.loads(r.stdout))
    ]
    assert not errors, errors[:5]


def test_the_schema_rejects_a_wrong_contract():
    doc = json.loads(run_cli("check", "--format", "json", SAMPLES / "kestrel-k8x-gpu-server.pdf").stdout)
    doc["figures"][0]["tier"] = "sideways"
    doc["findings"][0]["severity"] = "fatal"
    assert len(list(validator().iter_errors(doc))) == 2


def test_the_schema_names_every_status_and_severity_the_tool_uses():
    from sheetaudit.output.verdict import STATUS_TEXT
    from sheetaudit.severity import SEVERITIES

    s = schema()
    assert set(s["properties"]["status"]["enum"]) == set(STATUS_TEXT)
    assert s["$defs"]["finding"]["properties"]["severity"]["enum"] == list(SEVERITIES)


# ---------------------------------------------------------------------------------------------------------
# "Use from Python" runs as printed


def test_the_python_section_of_the_readme_runs(tmp_path):
    """The README's Python block, run from the project folder in its own interpreter (audit_folder forks a pool),
    with a fresh cache so it audits for real."""
    import subprocess
    import sys

    section = README.split("## Use from Python", 1)[1].split("\n## ", 1)[0]
    [code] = re.findall(r"```python\n(.*?)```", section, re.S)
    script = tmp_path / "readme.py"
    script.write_text(code, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SHEETAUDIT_CACHE_DIR": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "450" in r.stdout and "kestrel-k8x-gpu-server.pdf" in r.stdout
    assert (tmp_path / "cache").is_dir()
