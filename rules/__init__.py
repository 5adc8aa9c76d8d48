"""paipu's rules engine: tiles, hands, fans, settlement and the replay state machine.

Some of its modules are compiled to C when the package is built (see
:mod:`paipu.rules.native`); a compiled module older than its source is never used.
"""

from paipu.rules import native

#: ``compiled``, ``pure`` or ``stale``: how the engine's hot modules run in this process.
ENGINE = native.use_current_code()
