"""A chat transcript pasted as a post (engine layer): each line's time and name are no words of the message."""

from __future__ import annotations

import re

# A chat transcript's line ("[10:42] anon: wan lora keeps dying", "[9:05 PM] Léa: ça plante"): its time and name are
# no words of the message (a log's level in that place, "[10:42:01] INFO: ...", is no name).
_CHAT = re.compile(r"^[ \t]*\[\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[APap][Mm])?\][ \t]*"
                   r"(?!(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)\b)[^\s:\[\]][^:\n\[\]]{0,31}:[ \t]+", re.M)


def unchatted(text: str) -> str:
    """The text without a chat transcript's time and name before each line, where two lines or more carry them.

    >>> unchatted("[10:42] anon: wan lora keeps dying\\n[10:42] anon: like step 3")
    'wan lora keeps dying\\nlike step 3'
    >>> unchatted("[10:42:01] INFO: loading\\n[10:42:02] INFO: done")
    '[10:42:01] INFO: loading\\n[10:42:02] INFO: done'
    """
    if "]" not in text or len(_CHAT.findall(text, 0, 4096)) < 2:
        return text
    return _CHAT.sub("", text)
