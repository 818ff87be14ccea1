"""The header of a mutant, mutants/NAME.patch: "Key: value" lines up to
the first blank line, before the diff. One reader for make mutants
(run-mutants.py), which builds and boots by it, and make check
(promises.py), which holds the promise table against it."""


def split_list(text):
    """A comma-separated list, "-" and empty items left out."""
    return [item.strip() for item in text.split(",") if item.strip() not in ("", "-")]


def read_header(path):
    """{key in lower case: value} of the mutant at path."""
    fields = {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                break
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.strip()
    return fields


def header_promises(fields):
    """The promise IDs a header names; none for "Promises: none: why"."""
    value = fields.get("promises", "")
    return [] if value.startswith("none:") else split_list(value)
