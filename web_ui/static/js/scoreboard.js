/* The scoreboard page: players, table map, camera, log, declarations and playback. */
"use strict";

(() => {
  let layout = null;
  let snap = null;       // {session, state, rulings, positions, stacked}
  let rulings = [];
  let seeking = false;
  let clockBase = { t: 0, at: performance.now(), speed: 0 };
  const $ = (id) => document.getElementById(id);
  const STATUS_WORDS = { unplaced: "waiting in its castle", in_play: "in play",
    prisoner: "prisoner", recovering: "recovering at home" };

  function overruledIds(list) {
    const byId = Object.fromEntries(list.map((r) => [r.id, r]));
    const out = new Set();
    for (const r of list) {
      if (r.kind !== "override" || !r.overrules) continue;
      let target = r.overrules, guard = 0;
      while (byId[target] && byId[target].kind === "override" && guard++ < 100) target = byId[target].overrules;
      if (out.has(target)) out.delete(target); else out.add(target);
    }
    return out;
  }

  function renderBanner(state, session) {
    const b = $("banner");
    b.replaceChildren();
    b.className = "banner";
    if (state.over) {
      b.classList.add("win");
      b.append(Ref.el("strong", { text: `🏆 Player ${state.winner} (${Ref.TITLES[Ref.SUITS[state.winner]]}) wins!` }));
      return;
    }
    const t = state.turn;
    b.style.setProperty("--suit", TableMap.COLORS[t.player]);
    b.append(Ref.el("span", { class: "who", text: `Player ${t.player} · ${Ref.TITLES[Ref.SUITS[t.player]]}` }),
      Ref.el("span", { class: "what" }, `flicks `, Ref.el("strong", { text: Ref.coinTitle(t.coin) }),
        ` (${t.phase})`),
      Ref.el("span", { class: "flicks", title: "flicks left", text: `${t.flicks_left} flick${t.flicks_left === 1 ? "" : "s"} left` }),
      Ref.el("span", { class: "round", text: `round ${t.round}` }));
    if (state.in_motion) b.append(Ref.el("span", { class: "tag moving", text: "coins moving…" }));
    if (state.croquet_pending) b.append(Ref.el("span", { class: "tag ask", text: "declare the croquet kind" }));
    if ((state.pending_placements || []).length) b.append(Ref.el("span", { class: "tag ask", text: "put the coins shown on the map" }));
    if (session && session.status === "camera lost") b.append(Ref.el("span", { class: "tag bad", text: "camera lost: paused" }));
  }

  function renderPlayers(state) {
    const box = $("players");
    box.replaceChildren();
    const prisonersOf = {};
    for (const [n, p] of Object.entries(state.players)) {
      if (p.knight.prisoner_of) (prisonersOf[p.knight.prisoner_of] ||= []).push(p.knight.coin);
    }
    for (const [n, p] of Object.entries(state.players)) {
      const turn = !state.over && String(state.turn.player) === n;
      const won = state.over && String(state.winner) === n;
      const card = Ref.el("article", { class: `player${turn ? " turn" : ""}${won ? " won" : ""}`,
        "data-player": n, style: `--suit:${TableMap.COLORS[n]}` });
      card.append(Ref.el("h3", {}, Ref.el("span", { class: "dot" }),
        `Player ${n} · ${Ref.TITLES[Ref.SUITS[n]]}`,
        turn ? Ref.el("span", { class: "tag turn-tag", text: "to play" }) : null,
        won ? Ref.el("span", { class: "tag win-tag", text: "winner" }) : null));
      const k = p.knight;
      let where = STATUS_WORDS[k.status] || k.status;
      if (k.status === "prisoner") where = `prisoner of the ${Ref.TITLES[Ref.SUITS[k.prisoner_of]]} castle`;
      else if (k.status === "in_play") where = k.castle ? `in the ${Ref.TITLES[Ref.SUITS[k.castle]]} castle` : "in the Wasteland";
      card.append(Ref.el("p", { class: "knight" }, Ref.el("b", { text: `Knight ${Ref.coinTitle(k.coin)}` }), ` — ${where}`));
      const items = Ref.course(Number(n));
      const done = k.course_done ?? Math.max(0, items.indexOf(k.next));
      const ol = Ref.el("ol", { class: "course", "aria-label": `course: ${done} of ${items.length} done` });
      items.forEach((it, i) => {
        const cls = i < done ? "done" : (it === k.next ? "next" : "todo");
        ol.append(Ref.el("li", { class: cls, title: Ref.itemWords(it) + (cls === "next" ? " (next)" : "") }));
      });
      card.append(ol);
      card.append(Ref.el("p", { class: "progress" }, `${done}/${items.length}`,
        k.next ? Ref.el("span", { class: "muted", text: ` · next: ${Ref.itemWords(k.next)}` }) : null));
      const g = p.guard;
      card.append(Ref.el("p", { class: "guard" }, Ref.el("b", { text: `Guard ${Ref.coinTitle(g.coin)}` }), " — ",
        Ref.el("span", { class: g.on_duty ? "duty on" : "duty off", text: g.on_duty ? "on duty" : "off duty" })));
      const pris = prisonersOf[n] || [];
      card.append(Ref.el("p", { class: "prisoners" }, "Prisoners: ",
        pris.length ? pris.map(Ref.coinTitle).join(", ") : Ref.el("span", { class: "muted", text: "none" })));
      box.append(card);
    }
  }

  function renderMap() {
    if (!layout || !snap) return;
    TableMap.draw($("map"), layout, { positions: snap.positions, stacked: snap.stacked,
      pending: snap.state.pending_placements, focus: [snap.state.turn.coin] });
  }

  async function answer(r, yes) {
    if (!yes) { $("action-msg").textContent = "Left as the referee saw it."; return; }
    const res = await Ref.post("/api/override", { ruling: r.id, by: "the players", reason: "too close to call: the players say it counts" });
    $("action-msg").textContent = res.ok ? "Accepted; the game was re-adjudicated." : `Refused: ${res.data && res.data.error}`;
  }

  function renderLog() {
    const over = overruledIds(rulings);
    const log = $("log");
    const items = rulings.slice(-200).reverse().map((r) => Ref.rulingItem({ ...r, overruled: over.has(r.id) }, { onAnswer: answer }));
    log.replaceChildren(...items);
  }

  function renderSession(session) {
    const pb = $("playback");
    pb.hidden = !(session.source && session.can_seek);
    $("pause").textContent = session.paused ? "Resume" : "Pause";
    $("seek").max = session.duration || 1;
    if (!seeking) $("seek").value = session.t;
    if (session.speed) $("speed").value = [...$("speed").options].find((o) => Number(o.value) === session.speed)?.value ?? "1";
    clockBase = { t: session.t, at: performance.now(),
      speed: session.paused || session.status !== "running" ? 0 : session.speed || 0 };
    $("camera-panel").hidden = !session.has_frame;
    $("map-note").hidden = !!session.has_frame;
    const speed = $("speed");
    if (session.speed && ![...speed.options].some((o) => Number(o.value) === session.speed)) {
      speed.append(Ref.el("option", { value: String(session.speed), text: `${session.speed}×` }));
    }
  }

  function renderDeclare(state) {
    const who = $("declare-who");
    if (state.over) { who.textContent = "The game is over."; $("end-play").disabled = true; $("croquet-buttons").hidden = true; return; }
    who.textContent = `For player ${state.turn.player} (${Ref.TITLES[Ref.SUITS[state.turn.player]]}):`;
    $("end-play").disabled = false;
    $("croquet-buttons").hidden = !state.croquet_pending;
  }

  function apply(data, fresh) {
    if (fresh) {
      snap = data;
      rulings = data.rulings;
    } else {
      snap = { ...snap, session: data.session, state: data.state, positions: data.positions, stacked: data.stacked };
      const cut = data.provisional_from;
      rulings = rulings.concat(data.new_rulings || []).map((r) => ({ ...r, provisional: cut !== null && cut !== undefined && r.seq >= cut }));
    }
    scheduleRender();
  }

  /* Updates can come faster than the screen refreshes (a fast replay): draw once a frame. */
  let renderPending = false;
  function scheduleRender() {
    if (renderPending) return;
    renderPending = true;
    requestAnimationFrame(() => {
      renderPending = false;
      renderBanner(snap.state, snap.session);
      renderPlayers(snap.state);
      renderDeclare(snap.state);
      renderSession(snap.session);
      renderLog();
      renderMap();
    });
  }

  let cameraBusy = false;
  async function refreshCamera() {
    if (cameraBusy) return;
    cameraBusy = true;
    try {
      $("camera-img").src = `/api/frame.jpg?t=${Date.now()}`;
      const cam = await Ref.getJSON("/api/camera");
      if (layout) TableMap.drawOverlay($("camera-overlay"), layout, cam);
    } catch (e) { /* the next tick tries again */ } finally { cameraBusy = false; }
  }

  async function declare(what, kind) {
    if (!snap) return;
    const body = { player: snap.state.turn.player, what };
    if (kind) body.kind = kind;
    const res = await Ref.post("/api/declare", body);
    $("action-msg").textContent = res.ok ? `Declared: ${what === "end_play" ? "end of play" : `croquet kind ${kind}`}.` : `Refused: ${res.data && res.data.error}`;
  }

  async function control(action, value) {
    const res = await Ref.post("/api/control", value === undefined ? { action } : { action, value });
    if (res.ok) renderSession(res.data); else $("action-msg").textContent = `Refused: ${res.data && res.data.error}`;
  }

  document.addEventListener("DOMContentLoaded", async () => {
    $("end-play").addEventListener("click", () => declare("end_play"));
    for (const b of document.querySelectorAll("#croquet-buttons button")) {
      b.addEventListener("click", () => declare("croquet", Number(b.dataset.kind)));
    }
    $("pause").addEventListener("click", () => control(snap && snap.session.paused ? "resume" : "pause"));
    $("speed").addEventListener("change", (e) => control("speed", Number(e.target.value)));
    $("seek").addEventListener("input", () => { seeking = true; $("clock").textContent = Ref.fmtTime(Number($("seek").value)); });
    $("seek").addEventListener("change", async (e) => { await control("seek", Number(e.target.value)); seeking = false; });
    setInterval(() => {
      if (seeking) return;
      const t = clockBase.t + (performance.now() - clockBase.at) / 1000 * clockBase.speed;
      $("clock").textContent = Ref.fmtTime(t);
      if (snap && snap.session.has_frame) refreshCamera();
    }, 500);
    try { layout = await Ref.getJSON("/api/layout"); } catch (e) { layout = null; }
    Ref.connect({
      snapshot: (d) => apply(d, true),
      reset: (d) => apply(d, true),
      update: (d) => {
        apply(d, false);
        if ((d.new_rulings || []).some((r) => r.kind === "override")) {
          Ref.getJSON("/api/rulings").then((list) => { rulings = list; scheduleRender(); });
        }
      },
      status: (d) => { if (snap) { snap.session = d.session; renderSession(d.session); renderBanner(snap.state, d.session); } },
    });
  });
})();
