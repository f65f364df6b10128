/* Arithmetical Croquet: the number line, the legal numbers as buttons, the solver's hint, the
   rulings.  The game id lives in this tab (sessionStorage); the server holds the game. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const { el, svg } = Ref;
  const HOOPS = [10, 20, 30, 40, 50, 60, 70, 80, 90];
  const KEY = "arc-game";
  let view = null;
  let busy = false;

  function gameId() { return sessionStorage.getItem(KEY); }

  function who(n) {
    if (!view || view.computer !== n) return `Player ${n}`;
    return `Player ${n} (computer)`;
  }

  function drawLine(s) {
    const line = $("arc-line");
    const nodes = [svg("line", { x1: 0, y1: 0, x2: 108, y2: 0, class: "axis" })];
    for (let n = 0; n <= 108; n += 1) {
      const major = n % 10 === 0;
      nodes.push(svg("line", { x1: n, x2: n, y1: major ? -1.6 : -0.7, y2: major ? 1.6 : 0.7,
                               class: major ? "tick major" : "tick" }));
    }
    for (let n = 0; n <= 100; n += 10) {
      const label = svg("text", { x: n, y: 15, class: "num" });
      label.textContent = String(n);
      nodes.push(label);
    }
    for (const h of HOOPS) {
      nodes.push(svg("path", { d: `M ${h - 1.6} 0 V -4 A 1.6 1.6 0 0 1 ${h + 1.6} -4 V 0`, class: "hoop",
                               "data-hoop": h }));
    }
    nodes.push(svg("line", { x1: 100, x2: 100, y1: 0, y2: -8, class: "peg" }));
    const peg = svg("text", { x: 100, y: -9.5, class: "peg-label" });
    peg.textContent = "peg";
    nodes.push(peg);
    for (const n of ["1", "2"]) {
      const p = s.players[n];
      const y = n === "1" ? -6.5 : 6.5;
      const g = svg("g", { class: `ball p${n}`, "data-player": n, "data-pos": p.pos });
      g.append(svg("line", { x1: p.pos, x2: p.pos, y1: 0, y2: y, class: "stem" }));
      g.append(svg("circle", { cx: p.pos, cy: y, r: 2.6 }));
      const t = svg("text", { x: p.pos, y: y + 1.1, class: "ball-label" });
      t.textContent = n;
      g.append(t);
      nodes.push(g);
    }
    line.replaceChildren(...nodes);
  }

  function playerCard(n, s) {
    const p = s.players[n];
    const card = $(`arc-p${n}`);
    const turn = !s.over && s.turn.player === Number(n);
    card.classList.toggle("turn", turn);
    card.classList.toggle("won", s.over && s.winner === Number(n));
    const facts = [el("p", {}, "at ", el("strong", { class: "pos", text: p.pos }),
      p.missed ? " — missed the peg once, going down" : "")];
    if (p.in_hoop !== null) facts.push(el("p", { text: `in hoop ${p.in_hoop}: must come out with ${p.needs}` }));
    facts.push(el("p", { class: "muted", text: p.last_step === null ? "no step yet (or passed)" : `last step ${p.last_step}` }));
    if (turn) {
      facts.push(el("p", { class: p.barred.length ? "bars" : "muted", text: p.barred.length ? `barred from steps ${p.barred[0]} and ${p.barred[1]}` : "not barred" }));
      if (p.no_repeat !== null) facts.push(el("p", { class: "bars", text: `may not repeat step ${p.no_repeat}` }));
    }
    card.replaceChildren(
      el("h3", {}, el("span", { class: "dot" }), who(Number(n)),
        turn ? el("span", { class: "tag turn-tag", text: "to play" }) : null,
        s.over && s.winner === Number(n) ? el("span", { class: "tag win-tag", text: "winner" }) : null),
      ...facts);
  }

  function render() {
    const s = view.summary;
    drawLine(s);
    playerCard("1", s);
    playerCard("2", s);
    const banner = $("arc-banner");
    banner.classList.toggle("over", s.over);
    if (s.over) {
      banner.textContent = s.winner === null ? `Drawn after ${s.turns} turns (${s.end_clause}).`
        : `${who(s.winner)} wins after ${s.turns} turns (${s.end_clause}).`;
    } else {
      const mover = s.turn.player;
      const computerToMove = view.computer === mover;
      banner.textContent = `Turn ${s.turn.number}: ${who(mover)} to play` + (computerToMove ? " — thinking…" : ".");
    }
    const human = !s.over && view.computer !== s.turn.player;
    const winning = new Set(view.analysis.winning_moves || []);
    const showHint = $("arc-hint-toggle").checked;
    $("arc-moves").replaceChildren(...(human ? view.legal_moves : []).map((m) => el("button", {
      type: "button", class: "arc-move" + (showHint && winning.has(String(m)) ? " winning" : ""),
      "data-move": m, text: m, onclick: () => play(m), disabled: busy,
    })));
    if (human && !view.legal_moves.length) $("arc-moves").append(el("span", { class: "muted", text: "no legal number" }));
    if (s.over) $("arc-moves").append(el("span", { class: "muted", text: "The game is over: start a new one." }));
    const hint = $("arc-hint");
    hint.hidden = !showHint;
    const a = view.analysis;
    if (s.over) hint.textContent = "The game is over.";
    else {
      const verdict = a.winner === null ? "with best play the game is drawn"
        : `with best play ${who(a.winner)} wins in ${a.turns} turn${a.turns === 1 ? "" : "s"}`;
      const replies = a.winning_moves.length ? `Winning replies for ${who(a.player)}: ${a.winning_moves.join(", ")}.`
        : `${who(a.player)} has no winning reply; the longest defence is ${a.best_move}.`;
      hint.replaceChildren(el("strong", { class: "verdict", text: verdict[0].toUpperCase() + verdict.slice(1) + "." }),
        " ", el("span", { class: "replies", text: replies }));
    }
    $("arc-log").replaceChildren(...view.rulings.slice().reverse().map((r) => {
      const li = Ref.rulingItem(r, { showRule: false });
      li.querySelector(".t").textContent = r.by === "computer" ? "computer" : "person";
      li.classList.add(r.by === "computer" ? "by-computer" : "by-person");
      return li;
    }));
  }

  function show(data) {
    view = data;
    sessionStorage.setItem(KEY, data.game);
    render();
  }

  async function newGame() {
    const form = $("arc-new-form");
    const options = {};
    for (const box of form.querySelectorAll("input[data-option]")) options[box.dataset.option] = box.checked;
    const computer = $("arc-computer").value;
    busy = true;
    $("arc-msg").textContent = "";
    const res = await Ref.post("/api/arithmetical/new", { options, computer: computer === "none" ? null : Number(computer) });
    busy = false;
    if (!res.ok) { $("arc-msg").textContent = `Refused: ${res.data && res.data.error}`; return; }
    show(res.data);
  }

  async function play(move) {
    if (busy) return;
    busy = true;
    render();
    const res = await Ref.post("/api/arithmetical/move", { game: view.game, move });
    busy = false;
    if (!res.ok) {
      $("arc-msg").textContent = `Refused: ${res.data && res.data.error}`;
      if (res.status === 404) { sessionStorage.removeItem(KEY); await newGame(); }
      else render();
      return;
    }
    const d = res.data;
    const refused = d.move_rulings.find((r) => r.kind === "reject");
    let msg = refused ? `Not allowed (${refused.clause}): ${refused.text}` : "";
    if (d.reply) msg = `${who(d.reply.player)} names ${d.reply.move}.`;
    $("arc-msg").textContent = msg;
    show(d);
  }

  async function load() {
    const id = gameId();
    if (id) {
      const resp = await fetch(`/api/arithmetical/state?game=${encodeURIComponent(id)}`, { credentials: "same-origin" });
      if (resp.ok) { show(await resp.json()); return; }
      sessionStorage.removeItem(KEY);
    }
    await newGame();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const chip = $("conn");
    chip.textContent = "casual game · no PIN";
    chip.className = "chip";
    $("arc-hint-toggle").addEventListener("change", () => { if (view) render(); });
    $("arc-new-form").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
    load();
  });
})();
