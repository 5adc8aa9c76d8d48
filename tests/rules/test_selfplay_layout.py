"""Self-play names no variant (issue 12): one loop and one bot core for every mahjong
variant, whatever a variant adds entering as data (its TOML's ``[bot]`` table).

These read the sources with :mod:`ast` and import only :mod:`paipu.selfplay.loop`, so
they take well under a second.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from test_layout import strings, variant_ids

from paipu.rules.variants import VariantError, get_variant
from paipu.selfplay import FAMILIES, family
from paipu.selfplay.loop import Step, Steps, steps_of

ROOT = Path(__file__).resolve().parents[2]
SELFPLAY = ROOT / "selfplay"
#: 字牌's own engine: its table, cards and forced moves are its variant's by nature (its
#: loop shares nothing with mahjong's); every other module must name no variant.
ZIPAI_ENGINE = SELFPLAY / "zipai.py"


def modules() -> list[Path]:
    return sorted(p for p in SELFPLAY.rglob("*.py") if p != ZIPAI_ENGINE)


def test_no_variant_id_in_the_loop_or_the_bots() -> None:
    """No string of the loop, the bots or the package names a variant (no ``variant.id ==
    ...``, no family or step called after one), and none imports a variant's module."""
    ids = variant_ids()
    word = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b")
    found = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, text in strings(tree):
            if word.search(text):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                if parts[:3] == ["paipu", "rules", "variants"] and len(parts) > 3:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {node.module}")
    assert found == []


def test_one_loop_and_one_bot_core() -> None:
    """The regional loop and bots of before are gone: one loop class, one bot base."""
    assert not (SELFPLAY / "regional.py").exists()
    source = "\n".join(p.read_text(encoding="utf-8") for p in modules())
    assert source.count("class SelfPlayHand") == 1
    # No dispatch on the kind of table or variant (the loop's one check is that the
    # variant replays on a mahjong table at all).
    assert re.findall(r"isinstance\([^)]*Regional", source) == []
    bots = [p for p in (SELFPLAY / "bots").glob("*.py") if p.stem not in ("__init__", "core")]
    for path in bots:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith("Bot")]
        for node in classes:
            bases = [ast.unparse(b) for b in node.bases]
            assert bases == ["BotCore"], f"{path.name}: {node.name} derives from {bases}"
        for name in ("def threats", "def danger", "def safest", "def claim", "def base_danger"):
            assert name + "(" not in path.read_text(encoding="utf-8"), (path.name, name)


def test_each_variant_declares_its_family_and_steps() -> None:
    expected = {
        "mcr": Steps(),
        "changsha": Steps(opening_wins=True, kong_reveal=True, last_tile_choice=True, birds=True),
        "zhuanzhuan": Steps(last_tile_choice=True, birds=True),
        "sichuan": Steps(exchange=True, void_suits=True, play_on=True),
    }
    for variant_id, steps in expected.items():
        variant = get_variant(variant_id)
        assert family(variant) in FAMILIES
        assert steps_of(variant) == steps, variant_id


def test_an_unknown_step_names_the_toml() -> None:
    variant = get_variant("zhuanzhuan")

    class Odd(type(variant)):  # type: ignore[misc]
        id = "odd_variant"

    odd = Odd.__new__(Odd)
    odd.__dict__.update(variant.__dict__)
    raw = {**variant.spec.raw, "bot": {"family": "regional", "steps": ["birds", "dance"]}}
    object.__setattr__(odd, "spec", type(variant.spec)(**{**vars_of(variant.spec), "raw": raw}))
    with pytest.raises(VariantError, match=r"odd_variant\.toml \[bot\] steps .*dance"):
        steps_of(odd)
    assert {s.value for s in Step} >= {"birds", "void_suits", "play_on"}


def vars_of(spec: object) -> dict[str, object]:
    fields = getattr(spec, "__dataclass_fields__", None)
    assert fields is not None
    return {name: getattr(spec, name) for name in fields}
