"""YAML text in, plain data out, safely and cheaply.

Only plain data is built (no tag constructs an object), the text is size-bounded, and the node graph is
measured with its aliases expanded before anything is constructed, so an alias bomb is refused in
milliseconds. Every failure is a `RemedyError` with a stable code; a syntax error names line and column.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import InvalidYaml, PayloadTooLarge, YamlTooComplex, YamlUnsafeTag

MAX_CHARS = 262_144
MAX_NODES = 50_000
MAX_NUMBER_CHARS = 100  # a longer integer is no config value (and past 4,300 digits Python refuses to read it)
_INT_TAG = "tag:yaml.org,2002:int"

_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _expanded_size_exceeds(root: yaml.Node, limit: int) -> bool:
    """Walk the node graph as construction would (aliases expanded), stopping past `limit` nodes; an integer
    too long to be a config value is refused on the way, with its line."""
    stack: list[yaml.Node] = [root]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > limit:
            return True
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _INT_TAG and len(node.value) > MAX_NUMBER_CHARS:
                mark = node.start_mark
                error = InvalidYaml(line=mark.line + 1, column=mark.column + 1, context_line=mark.line + 1,
                                    problem=f"a number of more than {MAX_NUMBER_CHARS} digits")
                error.extra.update(line=mark.line + 1, column=mark.column + 1, context_line=mark.line + 1)
                raise error
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False


def load_yaml_text(text: str, max_chars: int = MAX_CHARS, max_nodes: int = MAX_NODES) -> Any:
    """Parse one YAML document into plain Python data, or raise a problem that says why not."""
    if len(text) > max_chars:
        raise PayloadTooLarge(limit=max_chars)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:  # half a surrogate pair (stdin read with surrogateescape...)
            raise InvalidYaml(line="?", column="?", context_line="?",
                              problem=f"character {exc.start} is not valid Unicode text") from None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _expanded_size_exceeds(node, max_nodes):
            raise YamlTooComplex(limit=max_nodes)
        return loader.construct_document(node)
    except yaml.constructor.ConstructorError as exc:
        if "could not determine a constructor" in str(exc.problem or ""):
            raise YamlUnsafeTag(tag=_tag_of(exc)) from None
        raise _invalid(exc) from None
    except yaml.MarkedYAMLError as exc:
        raise _invalid(exc) from None
    except yaml.YAMLError as exc:
        raise InvalidYaml(line="?", column="?", context_line="?", problem=str(exc)[:200]) from None
    except RecursionError:
        raise YamlTooComplex(limit=max_nodes) from None
    except ValueError as exc:  # a value a constructor cannot build (a timestamp out of range...)
        raise InvalidYaml(line="?", column="?", context_line="?", problem=str(exc)[:200]) from None
    finally:
        loader.dispose()


def _tag_of(exc: yaml.constructor.ConstructorError) -> str:
    problem = str(exc.problem or "")
    start = problem.find("'")
    end = problem.rfind("'")
    return problem[start + 1 : end][:120] if 0 <= start < end else "?"


def _invalid(exc: yaml.MarkedYAMLError) -> InvalidYaml:
    """Name where parsing failed and where the broken part starts (an unterminated quote on line 64 is
    noticed on line 65)."""
    mark = exc.problem_mark or exc.context_mark
    start = exc.context_mark or mark
    line = mark.line + 1 if mark else "?"
    column = mark.column + 1 if mark else "?"
    context_line = start.line + 1 if start else line
    error = InvalidYaml(line=line, column=column, context_line=context_line,
                        problem=str(exc.problem or exc.context or "syntax error")[:200])
    error.extra.update(line=line, column=column, context_line=context_line)
    return error
