"""The report tests' inputs: the MCR fixture file and the zipai example hand (see conftest)."""

from __future__ import annotations

from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "hands.paipu.jsonl"
ZIPAI = "zipai_chenzhou"

#: docs/zipai.md, "An example hand": Emi deals; Ann 偎s 贰, Fang 跑s Ann's 叁, Emi 吃s 伍
#: (五五伍, 比 肆伍陆) and discards 肆, on which Fang wins with 15 胡息, no 名堂: 3 囤, Emi
#: pays 3 × 3 players = 9.
ZIPAI_EXAMPLE = {
    "paipu": 1,
    "variant": ZIPAI,
    "game": "sim-zipai_chenzhou-1-000000",
    "hand": 1,
    "players": ["Fang", "Emi", "Ann"],
    "dealer": 1,
    "deal": [
        "333x44x666x77x89x333d567d00d",
        "2345x5x67x000x11d44d56d888d9d",
        "11x222x59990x1d22d344d7d89d0d",
    ],
    "wall": [
        *("8x", "2d", "5d", "1x", "7x", "7d", "1d", "1x", "9d", "10d"),
        *("6d", "9d", "2d", "8x", "5d", "6d", "4x", "5x", "7d", "8x"),
    ],
    "events": [
        ["draw", 1, "8x"],
        ["discard", 1, "9d"],
        ["flip", 2, "2d"],
        ["wei", 2, "2d"],
        ["discard", 2, "3d"],
        ["pao", 0, "3d"],
        ["discard", 0, "7x"],
        ["flip", 1, "5d"],
        ["chi", 1, ["5x", "5x", "5d"], {"bi": [["4d", "5d", "6d"]]}],
        ["discard", 1, "4d"],
        ["win", 0, "4d", {"from": 1}],
    ],
    "result": {
        "outcome": "win",
        "wins": [{"seat": 0, "from": 1, "tile": "4d", "total": 15, "fans": []}],
        "deltas": [9, -9, 0],
    },
}
