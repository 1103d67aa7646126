"""Validates each line of a file (a JSON document serde_json wrote) against
a JSON Schema, draft 2020-12. Run by tests/tests/codegen/cross.rs:
python3 validate_json.py SCHEMA VALUES [--invalid]; with --invalid every
line must fail validation instead."""

import json
import sys

from jsonschema import Draft202012Validator

with open(sys.argv[1]) as file:
    schema = json.load(file)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
invalid = sys.argv[3:] == ["--invalid"]
count = 0
with open(sys.argv[2]) as file:
    for line in file.read().splitlines():
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(json.loads(line))]
        if errors and not invalid:
            sys.exit(f"line {count + 1}: {errors[0]}")
        if not errors and invalid:
            sys.exit(f"line {count + 1}: valid, but should not be")
        count += 1
print(f"{count} documents {'invalid' if invalid else 'valid'}")
