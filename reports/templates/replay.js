// The hand replay. A hand's page (hands/<game>-<hand>.html) is a small shell: its game's data
// script (data/<game>.js) sets PAIPU_GAME = {game, file, links, hands: {"<hand>": {info,
// record}}}, where `record` is the hand's paipu log line (deal, events, result) and `info`
// what the rules computed (seats and deltas, wins and their fans, missed wins). This script
// rebuilds the table event by event from the record — every seat's concealed tiles, melds,
// flowers and discards — and draws the page: a stepper (first, back, forward and end buttons
// drawn as SVG icons, a slider, the arrow keys,
// #step=N in the address) and, at the end, the scoring breakdown.
//
// PAIPU_TILES lists every tile in code order as [name, glyph, Chinese name]; PAIPU_VARIANTS
// gives each variant's names, whether it is zipai, the unit of its win totals and (zipai)
// the 胡息 of each group; PAIPU_TILE_SPRITE is the SVG that defines every tile and card
// (reports/tile_svg.py: drawn by paipu, no font needed), put into the page once; a tile is
// an <svg> using its symbol (zipai's red 二七十 / 贰柒拾 in red), or its name as text.
//
// The rebuilding (`rebuild`) is plain bookkeeping: the record was checked by the rules engine
// when it was loaded. Mahjong: a discard goes to the discarder's river and stays there,
// dimmed when claimed, outlined when won on; the two tiles of a Changsha 开杠 (kong_reveal)
// go there too, as the rules put them when nobody wins on them (a tile won on is outlined
// and moves to its first winner); a Sichuan seat's void suit (定缺) is kept beside its name.
// Wilds (鬼牌 / 混 / 精 / 财神, rules/mechanics/wilds.py): PAIPU_VARIANTS[v].wilds gives, per
// room choice, the fixed wild kinds and the kinds each indicator makes (worked out by the
// rules: reports/variants.py); the indicator event (role "wild") turns them up, each step
// keeps the hand's wild kinds, and the page shows them and outlines every wild tile.
// The 宝 (Harbin's hidden treasure, rules/mechanics/treasure.py: indicator role "bao") is
// shown from its indicator on (the reader knows it from there); at a 换宝 the old 宝 joins
// the dealer's discards; the seats that declared 听 (the "ready" event) are listed beside it.
// Zipai: a discarded or flipped card lies on the
// table until someone takes it (吃 碰 跑 偎 提 胡) or the next card is flipped, when it joins
// its owner's 弃牌. Events the script does not know are shown in words.
"use strict";
(function () {
  const CODE = Object.create(null);
  const INFO = Object.create(null);
  PAIPU_TILES.forEach(function (t, i) {
    CODE[t[0]] = i;
    INFO[t[0]] = t;
  });
  const RED = /^(2|7|10)[xd]$/;
  const ZIPAI_CARD = /^\d+[xd]$/;
  const BIG = /d$/;
  const MAHJONG_MELDS = { chi: "chi", pong: "pong", kong: "kong", added_kong: "added kong", concealed_kong: "concealed kong" };
  const ZIPAI_MELDS = { ti: "提", wei: "偎", pao: "跑", peng: "碰", chi: "吃", bi: "比" };
  const SUITS = { m: "万", p: "筒", s: "条" };
  // 天津 拉庄: a 闲's stake against the dealer, by level
  const LA_ZHUANG = ["does not pull the dealer (不拉)", "pulls the dealer once (拉一庄): × 2 with the dealer", "pulls the dealer twice (拉两庄): × 4 with the dealer"];
  const WINDS = { "1z": "East", "2z": "South", "3z": "West", "4z": "North" };

  function isTile(name) {
    return typeof name === "string" && name in CODE;
  }

  function byCode(a, b) {
    return CODE[a] - CODE[b];
  }

  // Tiles from a list of names or the compact form ("123m5z", "270x": 0 stands for ten).
  function parseTiles(spec) {
    if (Array.isArray(spec)) return spec.filter(isTile);
    if (typeof spec !== "string") return [];
    const out = [];
    for (const token of spec.trim().split(/[\s,]+/)) {
      if (!token) continue;
      if (isTile(token)) {
        out.push(token);
        continue;
      }
      const group = /(\d+)([mpszfxd])/g;
      let pos = 0;
      let match;
      while ((match = group.exec(token)) !== null && match.index === pos) {
        for (const digit of match[1]) {
          const name = (digit === "0" ? "10" : digit) + match[2];
          if (isTile(name)) out.push(name);
        }
        pos = group.lastIndex;
      }
    }
    return out;
  }

  // The payload's tiles when it is one tile or a non-empty list of tiles, else [].
  function payloadTiles(payload) {
    if (typeof payload === "string") return isTile(payload) ? [payload] : [];
    if (Array.isArray(payload) && payload.length && payload.every(isTile)) return payload.slice();
    return [];
  }

  // 胡息 of a zipai meld from the variant's table ([small, big] per group kind).
  function meldXi(meld, xi) {
    if (!xi) return null;
    const size = BIG.test(meld.tiles[0]) ? 1 : 0;
    if (meld.kind !== "chi" && meld.kind !== "bi") return xi[meld.kind] ? xi[meld.kind][size] : null;
    const sizes = new Set(meld.tiles.map(function (t) { return BIG.test(t) ? 1 : 0; }));
    if (sizes.size > 1) return xi.mixed ? xi.mixed[0] : 0;
    const ranks = meld.tiles.map(function (t) { return parseInt(t, 10); }).sort(function (a, b) { return a - b; });
    const key = ranks.join(",");
    const kind = key === "1,2,3" ? "one_two_three" : key === "2,7,10" ? "two_seven_ten" : "run";
    return xi[kind] ? xi[kind][size] : 0;
  }

  function Seat(tiles) {
    this.hand = tiles.slice().sort(byCode);
    this.drawn = null; // kept apart (shown last) until the seat acts again
    this.drawnMark = "drawn";
    this.melds = [];
    this.flowers = [];
    this.discards = [];
    this.dead = false; // zipai 相公
    this.piao = null;
    this.void = null; // Sichuan 定缺: m, p or s
    this.aside = []; // 血流成河: the tiles won on by a seat that plays on
    this.playsOn = false;
  }
  Seat.prototype.settle = function () {
    if (this.drawn !== null) {
      this.hand.push(this.drawn);
      this.hand.sort(byCode);
      this.drawn = null;
    }
  };
  Seat.prototype.take = function (name, n) {
    this.settle();
    for (let i = 0; i < (n || 1); i++) {
      const at = this.hand.indexOf(name);
      if (at >= 0) this.hand.splice(at, 1);
    }
  };
  // 血流成河: a seat that plays on sets the tile it won on aside, shown beside its melds
  Seat.prototype.setAside = function () {
    if (this.playsOn && this.drawn !== null && this.drawnMark === "won") {
      this.aside.push(this.drawn);
      this.drawn = null;
    }
  };
  Seat.prototype.count = function (name) {
    let n = this.hand.filter(function (t) { return t === name; }).length;
    if (this.drawn === name) n += 1;
    return n;
  };
  Seat.prototype.meldOf = function (kinds, name) {
    return this.melds.find(function (m) { return kinds.indexOf(m.kind) >= 0 && m.tiles[0] === name; });
  };
  Seat.prototype.snapshot = function () {
    return {
      hand: this.hand.slice(),
      drawn: this.drawn,
      drawnMark: this.drawnMark,
      melds: this.melds.map(function (m) { return { kind: m.kind, tiles: m.tiles.slice(), from: m.from }; }),
      flowers: this.flowers.slice(),
      discards: this.discards.map(function (d) { return { tile: d.tile, mark: d.mark }; }),
      dead: this.dead,
      piao: this.piao,
      void: this.void,
      aside: this.aside.slice(),
    };
  };

  // Every step of a hand: step 0 the deal, step i the table after event i - 1. Each step has
  // the event (seat and words: strings and {tiles}), every seat's snapshot, and (zipai) the
  // card on the table.
  // The wild kinds at the start of a hand (fixed ones) and the choice of the room, from the
  // variant's wild table (null: the variant has no wilds).
  function wildChoice(record, table) {
    if (!table || !table.choices) return null;
    const rules = record.rules || {};
    const chosen = table.option === null ? "" : table.option in rules ? rules[table.option] : table.default;
    // the TOML's choice keys are Python's str() of the value: True / False for a switch
    const value = typeof chosen === "boolean" ? (chosen ? "True" : "False") : String(chosen);
    return table.choices[value] || null;
  }

  function rebuild(record, zipaiHint, wildTable) {
    const players = record.players || [];
    const deal = record.deal || [];
    const seats = deal.map(function (d) { return new Seat(parseTiles(d)); });
    while (seats.length < players.length) seats.push(new Seat([]));
    const n = seats.length;
    // 血流成河: winners play on, each tile won on set aside (the seat keeps 13 tiles)
    const playsOn = !!(record.rules && record.rules.mode === "xueliu");
    seats.forEach(function (s) { s.playsOn = playsOn; });
    const zipai = zipaiHint === undefined
      ? seats.some(function (s) { return s.hand.some(function (t) { return ZIPAI_CARD.test(t); }); })
      : !!zipaiHint;
    const who = function (seat) { return players[seat] !== undefined ? players[seat] : "seat " + seat; };
    let lastDiscard = null; // mahjong: {seat, tile, at} the discard that may be claimed
    let lastAdded = null; // mahjong: {seat, tile} an added kong that may be robbed
    let lastReveal = null; // Changsha 开杠: {seat, at, tiles, winners} the tiles turned up
    let offer = null; // zipai: {seat, tile, flipped} the card on the table
    const choice = wildChoice(record, wildTable);
    // the hand's wild kinds: fixed from the start, else once the indicator is turned up
    let wilds = choice && !choice.by_indicator ? choice.fixed.slice() : [];
    let indicator = null;
    let bao = null; // the current 宝 (indicator role "bao"), once turned up
    const ready = []; // the seats that declared 听, in order
    const steps = [];
    const snap = function (event) {
      steps.push({
        event: event,
        seats: seats.map(function (s) { return s.snapshot(); }),
        offer: offer ? { seat: offer.seat, tile: offer.tile, flipped: offer.flipped } : null,
        wilds: wilds.slice(),
        indicator: indicator,
        bao: bao,
        ready: ready.slice(),
      });
    };
    snap({ seat: null, words: ["the deal"] });

    function passOffer() {
      if (!offer) return null;
      const passed = offer;
      seats[passed.seat].discards.push({ tile: passed.tile, mark: passed.flipped ? "flipped" : "" });
      offer = null;
      return passed;
    }

    function claimMark(from) {
      // mahjong: the claimed discard stays in the river, dimmed
      const d = seats[from.seat].discards[from.at];
      if (d) d.mark = "claimed";
    }

    for (const array of record.events || []) {
      const kind = Array.isArray(array) && array.length ? String(array[0]) : "?";
      const seat = Number.isInteger(array[1]) ? array[1] : null;
      const payload = array.length > 2 ? array[2] : null;
      const extra = array.length > 3 && array[3] && typeof array[3] === "object" && !Array.isArray(array[3]) ? array[3] : {};
      const tiles = payloadTiles(payload);
      const actor = seat !== null && seat >= 0 && seat < n ? seats[seat] : null;
      const pending = lastDiscard;
      const robbed = lastAdded;
      const opened = lastReveal;
      lastDiscard = null;
      lastAdded = null;
      lastReveal = null;
      let words = null;
      const tile = tiles[0];
      if (actor !== null && tile !== undefined) {
        words = zipai ? zipaiEvent(kind, seat, actor, tiles, extra) : mahjongEvent(kind, seat, actor, tiles, extra, pending, robbed, opened);
      }
      if (words === null) words = otherEvent(kind, seat, payload, extra);
      snap({ seat: seat, kind: kind, words: words });
    }
    return { steps: steps, zipai: zipai };

    function mahjongEvent(kind, seat, actor, tiles, extra, pending, robbed, opened) {
      const tile = tiles[0];
      if (kind === "draw") {
        actor.settle();
        actor.drawn = tile;
        actor.drawnMark = "drawn";
        return ["draws ", { tiles: [tile] }];
      }
      if (kind === "discard") {
        actor.take(tile);
        actor.discards.push({ tile: tile, mark: "" });
        lastDiscard = { seat: seat, tile: tile, at: actor.discards.length - 1 };
        return ["discards ", { tiles: [tile] }];
      }
      if (kind === "chi" || kind === "pong" || kind === "kong") {
        const group = kind === "chi" ? tiles.slice() : Array(kind === "kong" ? 4 : 3).fill(tile);
        const rest = group.slice();
        let from = null;
        if (pending !== null) {
          from = pending.seat;
          const at = rest.indexOf(pending.tile);
          if (at >= 0) rest.splice(at, 1);
          claimMark(pending);
        }
        for (const t of rest) actor.take(t);
        group.sort(byCode);
        actor.melds.push({ kind: kind, tiles: group, from: from });
        return [kind + (from !== null ? " from " + who(from) + " " : " "), { tiles: group }];
      }
      if (kind === "added_kong") {
        actor.take(tile);
        const meld = actor.meldOf(["pong"], tile);
        if (meld) {
          meld.kind = "added_kong";
          meld.tiles.push(tile);
        }
        lastAdded = { seat: seat, tile: tile };
        return ["adds a kong ", { tiles: [tile, tile, tile, tile] }];
      }
      if (kind === "concealed_kong") {
        actor.take(tile, 4);
        actor.melds.push({ kind: "concealed_kong", tiles: [tile, tile, tile, tile], from: null });
        return ["declares a concealed kong ", { tiles: [tile, tile, tile, tile] }];
      }
      if (kind === "flower") {
        actor.take(tile);
        actor.flowers.push(tile);
        return ["sets aside the flower ", { tiles: [tile] }];
      }
      if (kind === "kong_reveal") {
        // 开杠: two tiles from the end of the wall instead of a replacement; only a win may
        // take them, else they stay in the konger's discards
        actor.settle();
        lastReveal = { seat: seat, at: actor.discards.length, tiles: tiles.slice(), winners: [] };
        for (const t of tiles) actor.discards.push({ tile: t, mark: "revealed" });
        return ["开杠 turns up ", { tiles: tiles }, " (for a win only)"];
      }
      if (kind === "win" && opened !== null && opened.tiles.indexOf(tile) >= 0) {
        return revealWin(seat, actor, tile, extra, opened);
      }
      if (kind === "win") {
        const from = Number.isInteger(extra.from) && extra.from >= 0 && extra.from < n ? extra.from : null;
        if (from === null) {
          actor.drawnMark = "won";
          if (actor.drawn !== tile) {
            actor.take(tile);
            actor.drawn = tile;
          }
          actor.setAside();
          return ["wins by self-draw (自摸) on ", { tiles: [tile] }];
        }
        actor.settle();
        actor.drawn = tile;
        actor.drawnMark = "won";
        actor.setAside();
        if (robbed !== null && robbed.seat === from) {
          const source = seats[from];
          const meld = source.meldOf(["added_kong"], tile);
          if (meld) {
            meld.kind = "pong";
            meld.tiles = meld.tiles.slice(0, 3);
          }
          lastAdded = robbed; // several seats may rob one kong
          return ["wins robbing " + who(from) + "'s kong (抢杠) on ", { tiles: [tile] }];
        }
        if (pending !== null) {
          const d = seats[pending.seat].discards[pending.at];
          if (d) d.mark = "won";
        }
        lastDiscard = pending; // several seats may win on one discard
        return ["wins on " + who(from) + "'s discard ", { tiles: [tile] }];
      }
      return null;
    }

    // A win on a tile of a 开杠: the konger's own (杠上开花) or another's (杠上炮). The tile
    // stays in the konger's discards, outlined, and goes to its first winner (a second
    // winner on the same tile gets no tile, as in the rules).
    function revealWin(seat, actor, tile, extra, opened) {
      const from = Number.isInteger(extra.from) ? extra.from : null;
      const first = opened.winners.indexOf(tile) < 0;
      opened.winners.push(tile);
      const river = seats[opened.seat].discards;
      for (let i = river.length - 1; i >= opened.at; i--) {
        if (river[i].tile === tile && river[i].mark === "revealed") {
          river[i].mark = "won";
          break;
        }
      }
      actor.settle();
      if (first) {
        actor.drawn = tile;
        actor.drawnMark = "won";
      }
      lastReveal = opened; // several seats may win on the tiles (通炮)
      if (from === null) return ["wins on their own 开杠 tile (杠上开花) ", { tiles: [tile] }];
      return ["wins on " + who(from) + "'s 开杠 tile (杠上炮) ", { tiles: [tile] }];
    }

    function zipaiEvent(kind, seat, actor, tiles, extra) {
      const card = tiles[0];
      const onOffer = offer !== null && offer.tile === card;
      if (kind === "draw") {
        actor.settle();
        actor.drawn = card;
        actor.drawnMark = "drawn";
        return ["takes the dealer's card ", { tiles: [card] }];
      }
      if (kind === "flip") {
        const passed = passOffer();
        offer = { seat: seat, tile: card, flipped: true };
        const words = ["flips 翻 ", { tiles: [card] }];
        if (passed) words.push("  (", { tiles: [passed.tile] }, " passes to " + who(passed.seat) + "'s 弃牌)");
        return words;
      }
      if (kind === "discard") {
        passOffer();
        actor.take(card);
        offer = { seat: seat, tile: card, flipped: false };
        return ["discards 打 ", { tiles: [card] }];
      }
      if (kind === "ti") {
        if (onOffer) {
          const from = offer.seat;
          offer = null;
          const wei = actor.meldOf(["wei"], card);
          if (wei) {
            actor.settle();
            wei.kind = "ti";
            wei.tiles = [card, card, card, card];
          } else {
            actor.take(card, 3);
            actor.melds.push({ kind: "ti", tiles: [card, card, card, card], from: null });
          }
          return ["提 ti on " + (from === seat ? "the flipped " : who(from) + "'s ") , { tiles: [card] }, wei ? " (偎 → 提)" : " (坎 → 提)"];
        }
        actor.take(card, 4);
        actor.melds.push({ kind: "ti", tiles: [card, card, card, card], from: null });
        return ["提 ti (开垄, four dealt) ", { tiles: [card, card, card, card] }];
      }
      if (kind === "wei" && onOffer) {
        offer = null;
        actor.take(card, 2);
        actor.melds.push({ kind: "wei", tiles: [card, card, card], from: null });
        return ["偎 wei on the flipped ", { tiles: [card] }];
      }
      if (kind === "pao" && onOffer) {
        const from = offer.seat;
        const how = offer.flipped ? "flip" : "discard";
        offer = null;
        const meld = actor.meldOf(["wei", "peng"], card);
        let was = "坎";
        if (meld) {
          actor.settle();
          was = ZIPAI_MELDS[meld.kind];
          meld.kind = "pao";
          meld.tiles = [card, card, card, card];
          meld.from = from;
        } else {
          actor.take(card, 3);
          actor.melds.push({ kind: "pao", tiles: [card, card, card, card], from: from });
        }
        return ["跑 pao on " + who(from) + "'s " + how + " ", { tiles: [card] }, " (" + was + " → 跑)"];
      }
      if (kind === "peng" && onOffer) {
        const from = offer.seat;
        offer = null;
        actor.take(card, 2);
        actor.melds.push({ kind: "peng", tiles: [card, card, card], from: from });
        return ["碰 peng " + who(from) + "'s ", { tiles: [card] }];
      }
      if (kind === "chi" && offer !== null && tiles.indexOf(offer.tile) >= 0) {
        const from = offer.seat;
        const took = offer.tile;
        offer = null;
        const rest = tiles.slice();
        rest.splice(rest.indexOf(took), 1);
        for (const t of rest) actor.take(t);
        const main = tiles.slice().sort(byCode);
        actor.melds.push({ kind: "chi", tiles: main, from: from });
        const words = ["吃 chi " + (from === seat ? "the flipped " : who(from) + "'s ") , { tiles: [took] }, " as ", { tiles: main }];
        for (const group of Array.isArray(extra.bi) ? extra.bi : []) {
          const set = parseTiles(group).sort(byCode);
          for (const t of set) actor.take(t);
          actor.melds.push({ kind: "bi", tiles: set, from: null });
          words.push(", 比 bi ", { tiles: set });
        }
        return words;
      }
      if (kind === "win") {
        const from = Number.isInteger(extra.from) ? extra.from : null;
        if (onOffer) {
          const flipped = offer.flipped;
          offer = null;
          actor.settle();
          actor.drawn = card;
          actor.drawnMark = "won";
          if (from === null) return ["胡 wins on their own flip (自摸) ", { tiles: [card] }];
          return flipped
            ? ["胡 wins on " + who(from) + "'s flip ", { tiles: [card] }]
            : ["胡 wins on " + who(from) + "'s discard (放炮) ", { tiles: [card] }];
        }
        actor.drawnMark = "won";
        if (actor.drawn !== card) {
          actor.take(card);
          actor.drawn = card;
        }
        return ["胡 wins at once on the dealer's card (天胡) ", { tiles: [card] }];
      }
      return null;
    }

    function otherEvent(kind, seat, payload, extra) {
      if (kind === "indicator" && extra.role === "wild" && isTile(payload)) {
        indicator = payload;
        const made = choice && choice.by_indicator ? choice.by_indicator[payload] : null;
        if (Array.isArray(made)) wilds = made.slice();
        const words = ["turns up the wild indicator (翻牌) ", { tiles: [payload] }];
        if (wilds.length) words.push(": the wilds are ", { tiles: wilds });
        return words;
      }
      if (kind === "indicator" && extra.role === "bao" && isTile(payload)) {
        const old = bao;
        bao = payload;
        if (old === null) return ["turns up the 宝 (hidden treasure tile) ", { tiles: [payload] }];
        const dealer = seats[record.dealer || 0];
        if (dealer) dealer.discards.push({ tile: old, mark: "bao" });
        return ["换宝: three ", { tiles: [old] }, " are visible, the new 宝 is ", { tiles: [payload] }];
      }
      if (kind === "ready" && seat !== null && seats[seat]) {
        if (ready.indexOf(seat) < 0) ready.push(seat);
        return ["declares 听 (ready): the hand may not change from here"];
      }
      if (kind === "escape" && seat !== null && seats[seat]) {
        return ["escapes (逃跑): the hand ends, the escape penalty is lost to nobody"];
      }
      if (kind === "xiang_gong" && seat !== null && seats[seat]) {
        seats[seat].dead = true;
        return ["is 相公 (xiang gong): every card is locked in a 坎, the hand is dead"];
      }
      if (kind === "piao" && seat !== null && seats[seat]) {
        seats[seat].piao = payload;
        return ["chooses 飘 (piao) " + payload];
      }
      if (kind === "zuo_zhuang" && seat !== null && typeof payload === "boolean") {
        return [payload ? "sits 坐庄 (zuo zhuang): × 2 on every payment with a 闲" : "does not sit 坐庄 (不坐)"];
      }
      if (kind === "la_zhuang" && seat !== null && LA_ZHUANG[payload]) {
        return [LA_ZHUANG[payload]];
      }
      if (kind === "void" && seat !== null && seats[seat] && SUITS[payload]) {
        seats[seat].void = payload;
        return ["declares the void suit (定缺) " + SUITS[payload] + " (" + payload + ")"];
      }
      if (kind === "exchange" && Array.isArray(extra.tiles) && extra.tiles.length === n) {
        // 换三张: every seat's three tiles go to the seat the direction names, all at once
        const step = { next: 1, previous: n - 1, across: 2 }[payload];
        if (step !== undefined && extra.tiles.every(function (g) { return Array.isArray(g) && g.every(isTile); })) {
          extra.tiles.forEach(function (group, s) { for (const t of group) seats[s].take(t); });
          extra.tiles.forEach(function (group, s) {
            const to = seats[(s + step) % n];
            for (const t of group) to.hand.push(t);
            to.hand.sort(byCode);
          });
          const words = ["换三张 (exchange three) to the " + (payload === "across" ? "seat opposite" : payload + " seat") + ":"];
          extra.tiles.forEach(function (group, s) { words.push(" " + who(s) + " ", { tiles: group }); });
          return words;
        }
      }
      if (kind === "start_win" && typeof payload === "string") {
        // 起手胡, or one formed in play (中途), with the dice rolled for it
        const words = [(extra.during ? "shows a win formed in play (中途) " : "shows an opening win (起手胡) ") + payload.replace(/_/g, " ")];
        if (Array.isArray(extra.tiles) && extra.tiles.every(isTile)) words.push(" ", { tiles: extra.tiles });
        if (Array.isArray(extra.dice) && extra.dice.length) words.push(", dice " + extra.dice.join(" and "));
        return words;
      }
      if (kind === "dice" && Array.isArray(payload)) {
        const carried = Object.keys(extra).sort().filter(function (k) { return extra[k]; })
          .map(function (k) { return k.replace(/_/g, " ") + " " + extra[k]; });
        return ["掷骰 dice " + payload.join(" · ") + (carried.length ? " (carried: " + carried.join(", ") + ")" : "")];
      }
      const words = [kind === "bird" ? "扎鸟 birds" : kind === "turn_up" ? "翻牌 turns up" : kind.replace(/_/g, " ")];
      const shown = payloadTiles(payload);
      if (shown.length) words.push(" ", { tiles: shown });
      else if (payload !== null && payload !== undefined) words.push(" " + (typeof payload === "string" ? payload : JSON.stringify(payload)));
      if (Array.isArray(extra.tiles) && extra.tiles.every(isTile)) words.push(" ", { tiles: extra.tiles });
      return words;
    }
  }

  const api = { rebuild: rebuild, parseTiles: parseTiles, meldXi: meldXi };
  if (typeof module === "object" && module.exports) module.exports = api;
  if (typeof document === "undefined" || !document.getElementById("replay")) return;

  // ------------------------------------------------------------------ the page

  const box = document.getElementById("replay");
  if (typeof PAIPU_TILE_SPRITE === "string" && !document.getElementById("tile-sprite")) {
    const holder = el("div", { id: "tile-sprite" });
    holder.innerHTML = PAIPU_TILE_SPRITE;
    document.body.insertBefore(holder, document.body.firstChild);
  }
  const handKey = box.dataset.hand;
  const game = typeof PAIPU_GAME === "object" ? PAIPU_GAME : null;
  const data = game && game.hands ? game.hands[handKey] : null;
  if (!data) {
    box.textContent = "The data of this hand is missing (the report's data/ folder must stay beside hands/).";
    return;
  }
  const info = data.info;
  const record = data.record;
  const variant = (typeof PAIPU_VARIANTS === "object" && PAIPU_VARIANTS[info.variant]) || {};
  const built = rebuild(record, variant.zipai, variant.wilds);
  const zipai = built.zipai;
  const states = built.steps;
  const last = states.length - 1;
  const players = (info.seats.length ? info.seats.map(function (s) { return s.player; }) : record.players) || [];
  const links = game.links || {};
  let current = 0;
  let textTiles = false;
  let showResult = false;

  function el(name, attrs, children) {
    const node = document.createElement(name);
    for (const key in attrs || {}) {
      if (attrs[key] === null || attrs[key] === undefined || attrs[key] === false) continue;
      if (key === "text") node.textContent = attrs[key];
      else if (key === "cls") node.className = attrs[key];
      else node.setAttribute(key, attrs[key]);
    }
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  // A tile: the SVG of the page's sprite (PAIPU_TILE_SPRITE, drawn by paipu: no font
  // needed), with its name as visually hidden text (zipai cards by their Chinese names), so
  // that the line copies as words; with "tiles as text", the name alone.
  const SVG = "http://www.w3.org/2000/svg";
  function tileSpan(name, cls) {
    const t = INFO[name] || [name, name, name];
    const span = el("span", { cls: "t" + (cls ? " " + cls : ""), title: name + " " + t[2] });
    if (RED.test(name)) span.classList.add("red");
    if (textTiles || !(name in CODE)) {
      span.textContent = name;
      return span;
    }
    const card = ZIPAI_CARD.test(name);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", card ? "tile zipai" : "tile");
    svg.setAttribute("viewBox", card ? "0 0 40 80" : "0 0 60 80");
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#pt-" + name);
    svg.appendChild(use);
    span.appendChild(svg);
    span.appendChild(el("span", { cls: "tile-name", text: card ? t[2] : name }));
    return span;
  }

  // The player controls: drawn icons (no symbol characters, which need a font).
  const ICONS = {
    first: "M3 2h2v12H3zM14 2v12L6 8z",
    prev: "M12 2v12L4 8z",
    next: "M4 2v12l8-6z",
    end: "M11 2h2v12h-2zM2 2v12l8-6z",
  };
  function iconButton(id, title, label) {
    const button = el("button", { id: id, title: title, "aria-label": label });
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("class", "icon");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", ICONS[id]);
    path.setAttribute("fill", "currentColor");
    svg.appendChild(path);
    button.appendChild(svg);
    return button;
  }

  const MARKS = {
    claimed: " — claimed",
    won: " — won on",
    flipped: " — flipped, nobody took it",
    revealed: " — turned up by 开杠 (kong reveal), nobody won on it",
    wild: " — wild (鬼牌 / 混 / 精)",
    bao: " — an old 宝, set here by 换宝",
  };

  function tileRow(list, marks) {
    const row = el("span", { cls: "tiles" });
    list.forEach(function (name, i) {
      const mark = marks ? marks[i] : "";
      const span = tileSpan(name, mark);
      if (MARKS[mark]) span.title += MARKS[mark];
      row.appendChild(span);
    });
    return row;
  }

  function words(parts) {
    const span = el("span");
    for (const part of parts) {
      span.appendChild(typeof part === "string" ? document.createTextNode(part) : tileRow(part.tiles));
    }
    return span;
  }

  function playerLink(name) {
    return links[name] ? el("a", { href: links[name], text: name }) : document.createTextNode(name);
  }

  function handLink(hand, text) {
    return el("a", { href: game.file + "-" + hand + ".html", text: text });
  }

  // zipai: three or four alike in hand (坎, or four dealt before 开垄) boxed apart
  function zipaiHand(hand) {
    const row = el("span", { cls: "tiles" });
    const counts = {};
    hand.forEach(function (t) { counts[t] = (counts[t] || 0) + 1; });
    const loose = hand.filter(function (t) { return counts[t] < 3; });
    Object.keys(counts).sort(byCode).forEach(function (t) {
      if (counts[t] < 3) return;
      const kan = el("span", { cls: "meld kan", title: counts[t] === 3 ? "坎: three alike dealt, locked" : "four alike, 提 to declare" });
      kan.appendChild(el("span", { cls: "label", text: counts[t] === 3 ? "坎" : "提?" }));
      kan.appendChild(tileRow(Array(counts[t]).fill(t)));
      row.appendChild(kan);
    });
    row.appendChild(tileRow(loose));
    return row;
  }

  function meldBox(meld) {
    const label = zipai ? ZIPAI_MELDS[meld.kind] || meld.kind : MAHJONG_MELDS[meld.kind] || meld.kind;
    const xi = zipai ? meldXi(meld, variant.xi) : null;
    const from = meld.from === null || meld.from === undefined ? "" : " from " + players[meld.from];
    const box = el("span", { cls: "meld", title: label + from + (xi === null ? "" : ", " + xi + " 胡息") });
    if (zipai) box.appendChild(el("span", { cls: "label", text: label + (xi ? " " + xi : "") }));
    box.appendChild(tileRow(meld.tiles));
    return box;
  }

  function seatPanel(s) {
    const i = s.seat;
    const bits = ["seat " + i];
    if (!zipai && s.wind && INFO[s.wind]) bits.push("wind " + (WINDS[s.wind] || s.wind));
    if (i === info.dealer) bits.push("dealer 庄");
    const header = el("header", {}, [
      el("b", {}, [playerLink(s.player)]),
      el("span", { id: "void" + i, cls: "void", hidden: "hidden" }),
      el("span", { text: bits.join(" · ") }),
      el("span", { id: "badges" + i, cls: "badges" }),
      el("span", { cls: "delta", text: "Δ " + signed(s.delta) }),
    ]);
    const handRow = el("div", { cls: "row" }, [
      el("span", { cls: "label", text: "hand" }),
      el("span", { id: "h" + i }),
      el("span", { id: "m" + i }),
      el("span", { id: "f" + i }),
    ]);
    const discardRow = el("div", { cls: "row" }, [
      el("span", { cls: "label", text: "discards", title: zipai ? "弃牌" : null }),
      el("span", { id: "d" + i }),
    ]);
    return el("section", { cls: "seat", id: "seat" + i }, [header, handRow, discardRow]);
  }

  function signed(value) {
    if (value === null || value === undefined) return "–";
    return (value > 0 ? "+" : value < 0 ? "-" : "") + Math.abs(value).toLocaleString("en");
  }

  function table(head, rows, caption, numeric) {
    const t = el("table");
    if (caption) t.appendChild(el("caption", {}, caption));
    t.appendChild(el("thead", {}, [el("tr", {}, head.map(function (h, k) {
      return el("th", { cls: numeric[k] ? "num" : null, text: h });
    }))]));
    const body = el("tbody");
    for (const row of rows) {
      body.appendChild(el("tr", {}, row.map(function (cell, k) {
        const td = el("td", { cls: numeric[k] ? "num" : null });
        td.appendChild(typeof cell === "object" && cell !== null ? cell : document.createTextNode(cell === null || cell === undefined ? "–" : String(cell)));
        return td;
      })));
    }
    t.appendChild(body);
    return t;
  }

  // zipai: the winner's cards as the rules grouped them (wins.detail.groups), each group
  // with its 胡息, declared (exposed) or from the concealed hand, and the total
  function groupTable(groups, total) {
    let cards = 0;
    const rows = groups.map(function (g) {
      const list = Array.isArray(g.cards) ? g.cards.filter(isTile) : [];
      cards += list.length;
      const box = el("span", { cls: "meld" + (g.kind === "kan" ? " kan" : "") }, [tileRow(list)]);
      return [g.name || g.kind, box, g.exposed ? "declared" : "in hand", g.xi];
    });
    rows.push([el("b", { text: "total" }), "", "", el("b", { text: String(total) })]);
    const caption = "The winner's " + cards + " cards as the rules group them, with each group's 胡息";
    return table(["group", "cards", "", "胡息"], rows, [caption], [false, false, false, true]);
  }

  // Keys of wins.detail shown in the zipai tables, or never shown (the unit is in the caption).
  const ZIPAI_SHOWN = { groups: 1, xi: 1, qihu: 1, tun: 1, multiplier: 1 };
  const HIDDEN = { unit: 1, bird_seats: 1 };
  // Facts of wins.detail that have words; any other key is shown as key: value.
  const FACTS = {
    kind: ["hand", function (v) { return v === "big" ? "大胡 big win" : v === "small" ? "小胡 small win" : String(v); }],
    big_wins: ["大胡 counted", String],
    birds: ["扎鸟 birds", null],
    void: ["void suit (定缺)", function (v) { return SUITS[v] ? SUITS[v] + " (" + v + ")" : String(v); }],
    multiplier: ["multiplier", function (v) { return "×" + v; }],
    cap: ["cap (封顶)", function (v) { return "×" + v; }],
    caps: ["勒子 caps", function (v) { return v ? "×" + v : "none"; }],
    share: ["a share (每份)", String],
    uncapped: ["before the cap", String],
    chengbao: ["承包 liable seat", String],
    dou: ["豆 (kongs) paid", douWords],
    chickens: ["鸡 held (chickens, in units)", seatWords],
    chickens_counted: ["鸡 counted for", function (v) { return Array.isArray(v) ? v.map(seatName).join(", ") || "nobody" : String(v); }],
    flip_chicken: ["翻鸡 (the kind after the turned tile)", String],
    gold_chicken: ["金鸡", function () { return "the turned kind is 幺鸡: each is worth 2"; }],
    charging_chicken: ["冲锋鸡 (first 幺鸡 discarded)", function (v) { return seatName(v); }],
    liable_chicken: ["责任鸡", function (v) { return Array.isArray(v) ? seatName(v[0]) + " pays " + seatName(v[1]) + " " + v[2] : String(v); }],
    hot_dou: ["热炮 after the discarder's", function (v) { return DOU_ZH[v] || String(v); }],
    hot_dou_penalty: ["热炮 penalty", String],
    // 南昌: 精分 is settled apart from the win; the win carries each seat's points and result
    jing_points: ["精分 held (正精 2, 副精 1)", function (v) { return seatList(v, String); }],
    jing_deltas: ["精分 settled apart (冲关, 霸王精)", function (v) { return seatList(v, signed); }],
    substitutions: ["精 stood for", function (v) { return Array.isArray(v) && v.length ? v.join(", ") : "none (德国)"; }],
  };
  const DOU_ZH = { concealed_kong: "闷豆", added_kong: "转弯豆", kong: "点豆" };

  function seatName(seat) { return players[seat] !== undefined ? players[seat] : "seat " + seat; }

  // each seat's value of a per-seat list (Guiyang's 鸡 held)
  function seatWords(v) {
    return Array.isArray(v) ? v.map(function (n, s) { return seatName(s) + " " + n; }).join(" · ") : String(v);
  }

  // Guiyang's 豆 (wins.detail.dou): who made which, what it earned, whether it counted
  function douWords(v) {
    if (!Array.isArray(v)) return String(v);
    return v.map(function (d) {
      const pays = Array.isArray(d.payments) ? d.payments : [];
      const total = pays.reduce(function (sum, p) { return sum + (p[1] === d.seat ? p[2] : -p[2]); }, 0);
      const from = d.from === null || d.from === undefined ? "" : " on " + seatName(d.from) + "'s discard";
      return d.kind + " by " + seatName(d.seat) + from + ": " + (d.counted ? (total >= 0 ? "+" : "") + total : "void (not counted)");
    }).join("; ");
  }

  // a value per seat, each with its player's name
  function seatList(values, show) {
    if (!Array.isArray(values)) return String(values);
    return values.map(function (v, i) { return (players[i] !== undefined ? players[i] : "seat " + i) + " " + show(v); }).join(" · ");
  }

  function factValue(value) {
    if (isTile(value)) return tileRow([value]);
    if (Array.isArray(value) && value.length && value.every(isTile)) return tileRow(value);
    return document.createTextNode(typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));
  }

  // the birds, each with the seat it lands on (wins.detail.bird_seats) and that seat's part
  function birdList(detail, w) {
    const span = el("span");
    const landed = Array.isArray(detail.bird_seats) ? detail.bird_seats : [];
    (Array.isArray(detail.birds) ? detail.birds : []).forEach(function (bird, k) {
      if (k) span.appendChild(document.createTextNode(" · "));
      span.appendChild(tileRow([bird]));
      const seat = landed[k];
      if (!Number.isInteger(seat)) return;
      const role = seat === w.seat ? " (the winner)" : seat === w.from_seat ? " (the discarder)" : "";
      span.appendChild(document.createTextNode(" → " + (players[seat] !== undefined ? players[seat] : "seat " + seat) + role));
    });
    return span;
  }

  // The variant's scoring facts of a win (wins.detail) in words: known keys first, then any
  // other as key: value, so that a variant added later shows its facts too.
  function factList(detail, w, shown) {
    const keys = Object.keys(FACTS).filter(function (k) { return k in detail; })
      .concat(Object.keys(detail).sort().filter(function (k) { return !(k in FACTS); }))
      .filter(function (k) { return !shown[k] && !HIDDEN[k] && detail[k] !== null; });
    if (!keys.length) return null;
    const list = el("ul", { cls: "facts" });
    for (const key of keys) {
      const fact = FACTS[key];
      const value = detail[key];
      let shownValue;
      if (key === "birds") shownValue = birdList(detail, w);
      else if (fact) shownValue = document.createTextNode(fact[1](value));
      else shownValue = factValue(value);
      if (key === "multiplier" && Number.isInteger(detail.cap) && value > detail.cap) {
        shownValue = el("span", {}, [shownValue, " (capped at ×" + detail.cap + ")"]);
      }
      list.appendChild(el("li", {}, [el("span", { cls: "key", text: (fact ? fact[0] : key) + ": " }), shownValue]));
    }
    return list;
  }

  function resultSection() {
    const section = el("section", { id: "result", hidden: "hidden" }, [el("h2", { text: "Result" })]);
    const unit = variant.total_unit || "total";
    if (!info.wins.length) {
      section.appendChild(el("p", { text: info.outcome === "draw" ? "Exhaustive draw (荒庄): no one won." : info.outcome }));
      if (info.seats.some(function (s) { return s.delta; })) {
        section.appendChild(el("p", { cls: "note", text: "The points below are the hand's payments beside any win (南昌 精分, kong money …)." }));
      }
    }
    for (const w of info.wins) {
      const how = w.source === "self_draw" ? (zipai ? "on their own flip (自摸) " : "by self-draw (自摸) on ")
        : w.source === "robbing_kong" ? "robbing " + players[w.from_seat] + "'s kong on "
        : w.source === "flip" ? "on " + players[w.from_seat] + "'s flip "
        : "on " + players[w.from_seat] + "'s discard " + (zipai ? "(放炮) " : "");
      const caption = [el("b", { text: players[w.seat] }), " wins " + how, tileRow([w.tile]),
        ": " + w.total + " " + unit + ", " + signed(w.points) + " points"];
      const fanWord = variant.fan_zh || "番种";
      const rows = w.fans.map(function (f) {
        return zipai ? [f.name_zh, f.name_en, "×" + f.points] : [f.name_zh, f.name_en, f.points, f.count, f.points * f.count];
      });
      const detail = w.detail && typeof w.detail === "object" && !Array.isArray(w.detail) ? w.detail : {};
      if (zipai) {
        if (!rows.length) rows.push(["–", "no 名堂 (×1)", "×1"]);
        rows.push([el("b", { text: "胡息" }), unit, el("b", { text: String(w.total) })]);
        section.appendChild(el("p", { cls: "win" }, caption));
        if (Array.isArray(detail.groups)) {
          section.appendChild(groupTable(detail.groups, w.total));
          if (detail.qihu !== undefined) rows.push(["起胡", "xi needed to win", detail.qihu]);
          if (detail.tun !== undefined) rows.push(["囤", "tun", detail.tun]);
          if (detail.multiplier !== undefined) rows.push([el("b", { text: "×" }), "名堂 multiplier", el("b", { text: "×" + detail.multiplier })]);
        }
        section.appendChild(table([fanWord, "", "multiplier"], rows, null, [false, false, true]));
        const facts = factList(detail, w, ZIPAI_SHOWN);
        if (facts) section.appendChild(facts);
        const melds = states[last].seats[w.seat].melds;
        if (melds.length && !Array.isArray(detail.groups)) {
          const groups = el("p", { cls: "note" }, ["The winner's declared melds and their 胡息 (the rest of the " + w.total + " is in the concealed hand): "]);
          melds.forEach(function (m) { groups.appendChild(meldBox(m)); groups.appendChild(document.createTextNode(" ")); });
          section.appendChild(groups);
        }
      } else {
        rows.push([el("b", { text: "total" }), "", "", "", el("b", { text: String(w.total) })]);
        section.appendChild(el("p", { cls: "win" }, caption));
        section.appendChild(table([fanWord, "fan", "points", "×", ""], rows, null, [false, false, true, true, true]));
        const facts = factList(detail, w, {});
        if (facts) section.appendChild(facts);
      }
    }
    const recorded = info.seats.some(function (s) { return s.recorded !== null; });
    const head = ["seat", "player", "Δ computed"].concat(recorded ? ["Δ recorded"] : []);
    section.appendChild(table(head, info.seats.map(function (s) {
      return [s.seat, s.player, signed(s.delta)].concat(recorded ? [signed(s.recorded)] : []);
    }), ["points"], [false, false, true, true]));
    if (info.problems.length) {
      section.appendChild(el("p", {}, ["The record disagrees with the rules (", el("a", { href: "../audit.html", text: "audit" }), "):"]));
      section.appendChild(el("ul", { cls: "problems" }, info.problems.map(function (p) { return el("li", { text: p }); })));
    }
    return section;
  }

  // notes at steps: missed wins (the event that offered the win is event `seq`, step seq + 1)
  const notes = {};
  for (const m of info.missed) {
    const key = m.seq + 1;
    const note = [players[m.seat] + " could have won on ", { tiles: [m.tile] }, " here (" + m.total + " " + (variant.total_unit || "") + "): a missed win"];
    (notes[key] = notes[key] || []).push(note);
  }
  // decision review (`paipu review --save`): at each reviewed discard, the best choice and
  // the loss in live useful tiles (进张), and the danger the discard took
  for (const r of info.reviews || []) {
    const key = r.seq + 1;
    const note = ["review: " + players[r.seat] + " discarded ", { tiles: [r.tile] }];
    if (r.loss !== null) {
      note.push(" (shanten " + r.shanten + ", " + r.live + " live useful tiles); best ", { tiles: r.best },
        " (shanten " + r.best_shanten + ", " + r.best_live + "): "
        + (r.loss ? "loss " + r.loss + (r.shanten > r.best_shanten ? ", a step back (退向听)" : "") : "most efficient"));
    }
    if (r.dangerous) {
      note.push("; dangerous" + (r.won_on ? ": dealt in (放铳)" + (r.safe ? ", a safe tile was held" : ", no safe tile held") : ""));
    }
    (notes[key] = notes[key] || []).push(note);
  }

  // ------------------------------------------------------------------ layout
  const lead = [info.variant + (variant.name_zh ? " " + variant.name_zh : ""), info.time, info.outcome, last + " events", "record " + info.verdict]
    .filter(function (x) { return x; }).join(" · ");
  const nav = el("span", { cls: "hand-nav" });
  if (info.prev !== null) nav.appendChild(handLink(info.prev, "previous: hand " + info.prev));
  if (info.prev !== null && info.next !== null) nav.appendChild(document.createTextNode(" · "));
  if (info.next !== null) nav.appendChild(handLink(info.next, "next: hand " + info.next));
  const controls = el("div", { cls: "controls" }, [
    iconButton("first", "the deal (Home)", "first"),
    iconButton("prev", "back one event (left arrow)", "back"),
    iconButton("next", "forward one event (right arrow)", "forward"),
    iconButton("end", "the end (End)", "end"),
    el("input", { type: "range", id: "step", min: "0", max: String(last), value: "0", "aria-label": "step" }),
    el("span", { id: "counter" }),
    el("label", {}, [el("input", { type: "checkbox", id: "text-tiles" }), " tiles as text"]),
    el("label", {}, [el("input", { type: "checkbox", id: "reveal" }), " show result"]),
  ]);
  const eventBox = el("div", { id: "event" });
  const wildsBox = el("div", { id: "wilds", hidden: "hidden" });
  const baoBox = el("div", { id: "bao", hidden: "hidden" });
  const notesBox = el("div", { id: "notes" });
  const panels = info.seats.length
    ? info.seats
    : players.map(function (p, i) { return { seat: i, player: p, wind: null, delta: null, recorded: null }; });
  const children = [el("p", { cls: "lead" }, [lead + " ", nav]), controls, eventBox, wildsBox, baoBox, notesBox];
  panels.forEach(function (s) { children.push(seatPanel(s)); });
  let result = resultSection();
  children.push(result);
  box.replaceChildren.apply(box, children);
  const slider = document.getElementById("step");
  const counter = document.getElementById("counter");

  function fill(id, node) {
    const target = document.getElementById(id);
    if (target) target.replaceChildren(node);
  }

  function render(i) {
    current = Math.max(0, Math.min(last, i));
    const state = states[current];
    const actor = state.event.seat;
    const wild = Object.create(null);
    (state.wilds || []).forEach(function (t) { wild[t] = true; });
    const wildMarks = function (list) { return list.map(function (t) { return wild[t] ? "wild" : ""; }); };
    state.seats.forEach(function (s, seat) {
      const hand = zipai ? zipaiHand(s.hand) : tileRow(s.hand, wildMarks(s.hand));
      if (s.drawn !== null) {
        const drawn = tileSpan(s.drawn, (s.drawnMark === "won" ? "drawn won" : "drawn") + (wild[s.drawn] ? " wild" : ""));
        if (wild[s.drawn]) drawn.title += MARKS.wild;
        hand.appendChild(drawn);
      }
      fill("h" + seat, hand);
      const melds = el("span", { cls: "tiles" });
      s.melds.forEach(function (m) { melds.appendChild(meldBox(m)); });
      if (s.aside && s.aside.length) {
        const won = el("span", { cls: "meld", title: "和: the tiles won on, set aside (血流成河)" });
        won.appendChild(el("span", { cls: "label", text: "和" }));
        won.appendChild(tileRow(s.aside));
        melds.appendChild(won);
      }
      fill("m" + seat, melds);
      fill("f" + seat, tileRow(s.flowers));
      const river = tileRow(s.discards.map(function (d) { return d.tile; }), s.discards.map(function (d) { return d.mark; }));
      if (state.offer && state.offer.seat === seat) {
        const card = tileSpan(state.offer.tile, "offer");
        card.title += state.offer.flipped ? " — flipped, on the table" : " — discarded, on the table";
        river.appendChild(card);
      }
      fill("d" + seat, river);
      const voidBox = document.getElementById("void" + seat);
      if (voidBox) {
        voidBox.hidden = !s.void;
        voidBox.textContent = s.void ? "缺 " + (SUITS[s.void] || s.void) : "";
        voidBox.title = s.void ? "void suit (定缺): " + s.void : "";
      }
      const badges = [];
      if (s.piao !== null && s.piao !== undefined) badges.push("飘 " + s.piao);
      if (s.dead) badges.push("相公");
      const xi = zipai ? s.melds.reduce(function (sum, m) { return sum + (meldXi(m, variant.xi) || 0); }, 0) : 0;
      if (zipai && s.melds.length) badges.push("melds " + xi + " 胡息");
      const badgeBox = document.getElementById("badges" + seat);
      if (badgeBox) badgeBox.textContent = badges.join(" · ");
      const panel = document.getElementById("seat" + seat);
      if (panel) panel.classList.toggle("active", actor === seat);
    });
    wildsBox.hidden = !(state.wilds && state.wilds.length);
    wildsBox.replaceChildren();
    if (state.wilds && state.wilds.length) {
      wildsBox.appendChild(document.createTextNode("wilds 鬼牌: "));
      wildsBox.appendChild(tileRow(state.wilds, state.wilds.map(function () { return "wild"; })));
      if (state.indicator) {
        wildsBox.appendChild(document.createTextNode(" · indicator "));
        wildsBox.appendChild(tileRow([state.indicator]));
      }
    }
    const declared = state.ready || [];
    baoBox.hidden = !state.bao && !declared.length;
    baoBox.replaceChildren();
    if (state.bao) {
      baoBox.appendChild(document.createTextNode("宝 (treasure): "));
      baoBox.appendChild(tileRow([state.bao]));
    }
    if (declared.length) {
      const names = declared.map(function (s) { return players[s] || "seat " + s; }).join(", ");
      baoBox.appendChild(document.createTextNode((state.bao ? " · " : "") + "declared 听: " + names));
    }
    eventBox.replaceChildren();
    if (actor !== null && actor !== undefined) eventBox.appendChild(el("b", { text: players[actor] + " " }));
    eventBox.appendChild(words(state.event.words));
    if (zipai && state.offer) {
      eventBox.appendChild(el("span", { cls: "on-table" }, [" · on the table: ", tileRow([state.offer.tile])]));
    }
    notesBox.replaceChildren.apply(notesBox, (notes[current] || []).map(function (n) { return el("div", {}, [words(n)]); }));
    slider.value = String(current);
    counter.textContent = current + " / " + last;
    const ended = showResult || current === last;
    result.hidden = !ended;
    document.body.classList.toggle("ended", ended);
    document.body.dataset.step = String(current);
    if (location.hash !== "#step=" + current && (current > 0 || location.hash)) {
      history.replaceState(null, "", "#step=" + current);
    }
  }

  slider.addEventListener("input", function () { render(Number(slider.value)); });
  document.getElementById("first").addEventListener("click", function () { render(0); });
  document.getElementById("prev").addEventListener("click", function () { render(current - 1); });
  document.getElementById("next").addEventListener("click", function () { render(current + 1); });
  document.getElementById("end").addEventListener("click", function () { render(last); });
  document.getElementById("text-tiles").addEventListener("change", function (e) {
    textTiles = e.target.checked;
    document.body.classList.toggle("text-tiles", textTiles);
    const fresh = resultSection();
    box.replaceChild(fresh, result);
    result = fresh;
    render(current);
  });
  document.getElementById("reveal").addEventListener("change", function (e) {
    showResult = e.target.checked;
    render(current);
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { render(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { render(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { render(0); e.preventDefault(); }
    else if (e.key === "End") { render(last); e.preventDefault(); }
  });
  window.paipuReplay = {
    steps: states.length,
    step: function () { return current; },
    go: render,
    state: function (i) { return states[i]; },
  };
  const match = /step=(\d+)/.exec(location.hash);
  render(match ? Number(match[1]) : 0);
})();
