#!/usr/bin/env python3
"""Checks JSON Schemas with llama.cpp's own JSON-Schema-to-grammar converter.

    python3 tests/grammar/check_schemas.py DIR      # every DIR/*.json
    python3 tests/grammar/check_schemas.py --self-test

llama-server turns `response_format: {type: json_schema}` into a GBNF grammar and samples only
what the grammar allows. The converter supports a subset of JSON Schema and, for some schemas,
degrades silently instead of failing, so a schema that validates fine can still make a local
model unable to answer. Each schema is converted here with the vendored
json_schema_to_grammar.py (llama.cpp b10930, the version scripts/llama-server.sh builds), driven
the way llama-server b10930 drives its C++ twin (common/json-schema-to-grammar.cpp,
json_schema_to_grammar -> build_grammar): resolve_refs(schema, "") with no remote fetching, then
visit(schema, "") for the root, then format_grammar(); no property order, dot does not match
newlines, patterns are quoted strings.

A schema FAILS when:
  1. the conversion raises: the Python converter raises where the C++ one collects `_errors`
     (unsupported or unresolvable $ref, unknown type: llama-server answers HTTP 400) and also
     for patterns the C++ one only warns about (not anchored with ^...$, lookaheads...: there
     llama-server logs a warning and lets the model write any string);
  2. the converter recorded `_errors` or `_warnings`. The vendored b10930 script has neither
     attribute (only the C++ converter collects them, e.g. "pattern ... is not supported,
     accepting any string"); the check is a guard for a re-vendored script that adds them;
  3. the grammar has an empty-object rule, see EMPTY_OBJECT_RULE below.

Each file may hold a bare schema, a `json_schema` object ({"name": ..., "schema": ...}) or a
whole `response_format` ({"type": "json_schema", "json_schema": {...}}); the last two are
unwrapped the way llama-server reads the request.

Output: one line per schema, `ok <name> (<N> rules)` or `FAIL <name>: <reason>`; the exit code
is 1 when any schema failed, 2 on a usage error or when DIR has no *.json.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import json_schema_to_grammar  # noqa: E402  (vendored, MIT, see its header)

# An empty-object rule: a rule whose whole right-hand side is
#
#     "{" space "}"
#
# which accepts exactly `{}` (plus whitespace). Found by experiment with the b10930 converter:
# it is what _build_object_rule() returns when it is given no properties and no
# additionalProperties. That happens legitimately for {"type": "object", "properties": {}} and
# {"type": "object", "additionalProperties": false}, and silently as a degradation whenever an
# `allOf` branch collects neither properties nor enum values, e.g.
#   {"allOf": [{"$ref": "#/definitions/Mood"}]} with Mood = {"oneOf": [{"const": "calm"}, ...]}
#       (schemars' enum with documented variants, wrapped in allOf by draft-07's ref siblings)
#   {"allOf": [{"$ref": "#/definitions/N"}]}    with N = {"type": "integer", "format": "uint8"}
#   {"allOf": [{"$ref": "#/definitions/A"}]}    with A itself a {"$ref": ...} (one level only)
#   {"allOf": [{"type": "string"}, {"minLength": 1}]}
# (allOf over a $ref to {"type": "string", "enum": [...]} is fine: it becomes the enum.) By
# contrast {} and {"type": "object"} give the `object` primitive (any object), ["integer",
# "null"] gives `alternative-0 | null`, an unknown `format` on a string is ignored (any string)
# and a schema with no recognised keyword gives `value` (anything): none of those is flagged.
# The converter always adds an object body as a rule of its own (unions and $refs only name
# rules), so looking at each rule's whole right-hand side finds every occurrence; rules that
# merely alias a flagged rule are not reported again. An intentionally empty object is flagged
# too: no schema the engine sends should ask a model for `{}`.
EMPTY_OBJECT_RULE = re.compile(r'"\{"(\s+space)*\s+"\}"')


def unwrap(document):
    """The schema inside a response_format or json_schema wrapper, as llama-server reads it."""
    if isinstance(document, dict):
        if document.get("type") == "json_schema" and isinstance(document.get("json_schema"), dict):
            return document["json_schema"].get("schema", {})
        if "schema" in document and "name" in document and "type" not in document:
            return document["schema"]
    return document


def convert(schema, converter_class=None):
    """(converter, grammar) for `schema`, converted as llama-server does."""
    converter_class = converter_class or json_schema_to_grammar.SchemaConverter
    converter = converter_class(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    schema = converter.resolve_refs(json.loads(json.dumps(schema)), "")
    converter.visit(schema, "")
    return converter, converter.format_grammar()


def check(schema, converter_class=None):
    """(None, number of rules) when the schema converts cleanly, else (reason, None)."""
    try:
        converter, _grammar = convert(unwrap(schema), converter_class)
    except Exception as e:  # noqa: BLE001 - any failure of the converter is the verdict
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        hint = ""
        if "attern" in message:  # llama-server's C++ converter only warns here
            hint = " (llama-server would warn and accept any string)"
        return f"conversion raised {type(e).__name__}: {message[:300]}{hint}", None
    for attribute in ("_errors", "_warnings"):
        recorded = getattr(converter, attribute, None)
        if recorded:
            return f"converter {attribute.lstrip('_')}: " + "; ".join(map(str, recorded)), None
    empty = sorted(
        name for name, rule in converter._rules.items() if EMPTY_OBJECT_RULE.fullmatch(rule.strip())
    )
    if empty:
        return (
            "empty-object rule(s) accepting only {}: "
            + ", ".join(f"{name} ::= {converter._rules[name]}" for name in empty)
            + " (an allOf over a $ref the converter cannot merge, or an object with no properties)"
        ), None
    return None, len(converter._rules)


def check_dir(directory: Path) -> int:
    files = sorted(directory.glob("*.json"))
    if not files:
        print(f"FAIL {directory}: no *.json schema in it")
        return 2
    failed = 0
    for path in files:
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            reason, rules = f"not readable JSON: {e}", None
        else:
            reason, rules = check(schema)
        if reason is None:
            print(f"ok {path.stem} ({rules} rules)")
        else:
            failed += 1
            print(f"FAIL {path.stem}: {reason}")
    return 1 if failed else 0


def self_test() -> int:
    mood_enum = {"type": "string", "enum": ["calm", "angry"]}
    mood_one_of = {"oneOf": [{"type": "string", "const": "calm", "description": "at rest"},
                             {"type": "string", "const": "angry"}]}

    def with_field(field, definitions):
        return {"type": "object", "properties": {"field": field}, "required": ["field"],
                "definitions": definitions}

    class WarningConverter(json_schema_to_grammar.SchemaConverter):
        def visit(self, schema, name):
            self._warnings = ["pattern ^x is not supported, accepting any string"]
            return super().visit(schema, name)

    good = {
        "allOf over a $ref to a string enum": with_field(
            {"allOf": [{"$ref": "#/definitions/Mood"}], "description": "d"}, {"Mood": mood_enum}),
        "nullable $ref (anyOf with null)": with_field(
            {"anyOf": [{"$ref": "#/definitions/Mood"}, {"type": "null"}]}, {"Mood": mood_one_of}),
        "integer or null with a format": with_field(
            {"type": ["integer", "null"], "format": "uint32", "minimum": 0}, {}),
        "allOf over a $ref to a struct": with_field(
            {"allOf": [{"$ref": "#/definitions/P"}]},
            {"P": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}),
        "object with no properties (any object)": {"type": "object"},
        "a whole response_format": {"type": "json_schema", "json_schema": {
            "name": "plan", "strict": True, "schema": with_field({"type": "string"}, {})}},
    }
    bad = {
        "allOf over a $ref to a oneOf of consts": (
            with_field({"allOf": [{"$ref": "#/definitions/Mood"}]}, {"Mood": mood_one_of}),
            "empty-object rule"),
        "allOf over a $ref to a uint8": (
            with_field({"allOf": [{"$ref": "#/definitions/N"}]},
                       {"N": {"type": "integer", "format": "uint8", "minimum": 0}}),
            "empty-object rule"),
        "allOf over a $ref to a $ref": (
            with_field({"allOf": [{"$ref": "#/definitions/A"}]},
                       {"A": {"$ref": "#/definitions/B"}, "B": mood_enum}),
            "empty-object rule"),
        "empty properties": ({"type": "object", "properties": {}}, "empty-object rule"),
        "unanchored pattern": ({"type": "string", "pattern": "[a-z]+"}, "conversion raised"),
        "remote $ref": ({"$ref": "other.json#/x"}, "conversion raised"),
        "unknown type": ({"type": "text"}, "conversion raised"),
        "boolean subschema": (with_field(True, {}), "conversion raised"),
    }
    problems = []
    for name, schema in good.items():
        reason, rules = check(schema)
        if reason is not None or not rules:
            problems.append(f"expected ok for {name!r}, got: {reason}")
    for name, (schema, expected) in bad.items():
        reason, _ = check(schema)
        if reason is None or not reason.startswith(expected):
            problems.append(f"expected {expected!r} for {name!r}, got: {reason}")
    reason, _ = check({"type": "string"}, WarningConverter)
    if reason is None or not reason.startswith("converter warnings"):
        problems.append(f"expected recorded warnings to fail, got: {reason}")
    # The empty-object rule as the converter writes it (pinning the experiment above).
    _, grammar = convert({"type": "object", "properties": {}})
    if 'root ::= "{" space "}"' not in grammar.splitlines():
        problems.append(f"the converter's empty object is no longer 'root ::= \"{{\" space \"}}\"': {grammar}")
    for problem in problems:
        print(f"FAIL self-test: {problem}")
    total = len(good) + len(bad) + 2
    print(f"{total - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


def main(argv) -> int:
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) != 1 or argv[0].startswith("-") or not Path(argv[0]).is_dir():
        print("usage: check_schemas.py DIR | --self-test  (checks every DIR/*.json)", file=sys.stderr)
        return 2
    return check_dir(Path(argv[0]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
