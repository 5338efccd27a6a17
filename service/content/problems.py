"""Content problems: what is wrong, where (file, path inside it) and a stable code.

Codes (each has a failing fixture in tests/content/):
  yaml-syntax           the file is not valid YAML
  duplicate-key         a mapping repeats a key
  file-missing          a required file is absent
  empty-file            a file is empty or holds a single value, not a mapping or a list
  schema                the data does not fit the model (wrong type, unknown key, bad id)
  duplicate-id          two entries share an id
  dangling-reference    an id points at nothing
  missing-text          a language lacks the text for an id or key
  extra-text            a language has text for an id or key the structure does not know
  list-length           a language's list has a different number of items than the structure says
  protected-token       a translation lost a config literal, number or UI label the English text has
  placeholder-mismatch  a translation's {placeholders} differ from English
  unknown-operator      a rule condition uses an operator that is not registered
  unknown-field         a rule condition tests a field the context does not have
  unfilled-placeholder  a text's {placeholder} is no fact, or its condition does not make that fact known
  id-mismatch           an id the code reads or emits (concept, feature, signal, intent) is not the YAML's
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    path: str
    code: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.path}" if self.path else self.file
        return f"{where}: [{self.code}] {self.message}"


class ContentProblems(Exception):
    """Raised when the knowledge cannot be served; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(f"{len(problems)} content problem(s)")
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)
