/* The dispute view: pick a flick, see its clip beside the reconstruction, its rulings and
   their rules; overrule with the table PIN; re-adjudicate under other house rules. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let layout = null;
  let current = null;

  function eventWords(e, t0) {
    const dt = `+${(e.t - t0).toFixed(1)} s`;
    const C = Ref.coinTitle;
    const words = {
      flick: () => `${C(e.coin)} is flicked`,
      cross: () => `${C(e.coin)} crosses ${e.line} (${e.dir === "+" ? "inward" : "outward"})`,
      contact: () => `${C(e.a)} and ${C(e.b)} touch (moving: ${(e.moving || []).map(C).join(", ") || "?"})`,
      hit: () => `${C(e.coin)} hits ${e.piece}`,
      off_table: () => `${C(e.coin)} leaves the table`,
      settled: () => "every coin is at rest",
      lift: () => `${C(e.coin)} is picked up`,
      place: () => `${C(e.coin)} is put down${e.on ? ` on ${e.on}` : ""}`,
      hold: () => `${C(e.coin)} is held down`,
      face: () => `${C(e.coin)} now shows ${e.face}`,
      tile_moved: () => `${e.piece} moved ${e.by_mm} mm`,
      declare: () => `player ${e.player} declares ${e.what}${e.kind ? ` ${e.kind}` : ""}`,
      override: () => `ruling ${e.ruling} overruled by ${e.by}`,
    }[e.type];
    const li = Ref.el("li", {}, Ref.el("span", { class: "muted", text: `${dt} ` }), words ? words() : e.type);
    if (e.uncertain) li.append(Ref.el("span", { class: "tag ask", text: " too close to call" }));
    const margin = e.evidence && e.evidence.margin_mm;
    if (margin !== undefined && margin !== null) li.append(Ref.el("span", { class: "margin", text: ` margin ${Number(margin).toFixed(1)} mm` }));
    if (e.confidence !== undefined) li.append(Ref.el("span", { class: "muted", text: ` (confidence ${e.confidence})` }));
    return li;
  }

  /* The flick's clip: the recorded video's frames (JPEG, any browser shows them) played at
     real time from the pre-roll to a second after the coins settle. */
  const Clip = (() => {
    let clip = null, flickT = 0, i = 0, timer = null, started = 0, startT = 0;
    const url = (n) => `${clip.frame_url}${n}.jpg?w=640`;
    function draw() {
      const [n, t] = clip.frames[i];
      $("clip-img").src = url(n);
      $("clip-img").dataset.frame = String(n);
      $("clip-seek").value = String(i);
      const dt = t - flickT;
      $("clip-time").textContent = `${dt < 0 ? "−" : "+"}${Math.abs(dt).toFixed(2)} s${dt < 0 ? " (before the flick)" : ""}`;
      for (let k = i + 1; k < Math.min(i + 8, clip.frames.length); k++) new Image().src = url(clip.frames[k][0]);
    }
    function stop() { if (timer) clearInterval(timer); timer = null; $("clip-play").textContent = "Play"; }
    function tick() {
      const t = startT + (performance.now() - started) / 1000;
      while (i + 1 < clip.frames.length && clip.frames[i + 1][1] <= t) i++;
      draw();
      if (i + 1 >= clip.frames.length) stop();
    }
    function play() {
      if (!clip) return;
      if (timer) { stop(); return; }
      if (i + 1 >= clip.frames.length) i = 0;
      started = performance.now(); startT = clip.frames[i][1];
      timer = setInterval(tick, 40);
      $("clip-play").textContent = "Pause";
    }
    function show(c, t) {
      stop();
      clip = c; flickT = t; i = 0;
      $("clip").hidden = !c; $("no-clip").hidden = !!c;
      if (!c) { $("clip-img").removeAttribute("src"); return; }
      $("clip-seek").max = String(c.frames.length - 1);
      draw();
    }
    document.addEventListener("DOMContentLoaded", () => {
      $("clip-play").addEventListener("click", play);
      $("clip-seek").addEventListener("input", (e) => { stop(); i = Number(e.target.value); draw(); });
    });
    return { show };
  })();

  async function showFlick(seq) {
    for (const b of document.querySelectorAll("#flicks button")) b.setAttribute("aria-pressed", b.dataset.seq === String(seq));
    const f = await Ref.getJSON(`/api/flicks/${seq}`);
    current = f;
    $("flick-title").textContent = `Flick of ${Ref.coinTitle(f.coin)} at ${Ref.fmtTime(f.t)}`;
    Clip.show(f.clip && f.clip.frames.length ? f.clip : null, f.t);
    const lines = {}, pieces = [], off = [];
    for (const e of f.events) {
      if (e.type === "cross") lines[e.line] = e.dir;
      if (e.type === "hit") pieces.push(e.piece);
      if (e.type === "off_table") off.push(e.at);
    }
    if (layout) {
      TableMap.draw($("recon"), layout, { positions: f.before.positions, stacked: f.before.stacked,
        lines, pieces, offTable: off, focus: [f.coin] });
    }
    $("flick-events").replaceChildren(...f.events.map((e) => eventWords(e, f.t)));
    $("flick-rulings").replaceChildren(...(f.rulings.length ? f.rulings.map((r) => Ref.rulingItem(r, { showRule: true })) :
      [Ref.el("li", { class: "muted", text: "No ruling: nothing that the rules care about happened." })]));
    const sel = $("override-ruling");
    sel.replaceChildren(...f.rulings.map((r) => Ref.el("option", { value: r.id, text: `#${r.id} ${r.kind}: ${r.text.slice(0, 60)}` })));
    $("override-form").hidden = !f.rulings.length;
    $("override-msg").textContent = "";
    const link = $("bundle-link");
    link.hidden = false;
    link.href = `/api/sessions/${f.session}/export?flick=${f.seq}`;
  }

  async function loadFlicks() {
    const flicks = await Ref.getJSON("/api/flicks");
    const list = $("flicks");
    list.replaceChildren(...flicks.map((f) => Ref.el("li", {},
      Ref.el("button", { type: "button", "data-seq": f.seq, "aria-pressed": "false", onclick: () => showFlick(f.seq) },
        Ref.el("span", { class: "n", text: Ref.fmtTime(f.t) }), Ref.coinTitle(f.coin),
        Ref.el("span", { class: "count", text: f.rulings.length ? `${f.rulings.length} ruling${f.rulings.length > 1 ? "s" : ""}` : "" })))));
    const wanted = new URLSearchParams(location.search).get("flick");
    const pick = flicks.find((f) => String(f.seq) === wanted) || flicks.find((f) => f.rulings.some((r) => r.kind !== "turn")) || flicks[0];
    if (pick) await showFlick(pick.seq);
  }

  async function loadOptions() {
    const opts = await Ref.getJSON("/api/options");
    const box = $("whatif-options");
    box.replaceChildren(...opts.filter((o) => o.choices).map((o) => {
      const sel = Ref.el("select", { name: o.name, "data-current": String(o.value) },
        ...o.choices.map((c) => Ref.el("option", { value: String(c), text: String(c), selected: String(c) === String(o.value) })));
      return Ref.el("label", { title: o.where }, o.name.replaceAll("_", " "), sel);
    }));
  }

  async function whatIf(e) {
    e.preventDefault();
    const params = new URLSearchParams();
    for (const sel of document.querySelectorAll("#whatif-options select")) {
      if (sel.value !== sel.dataset.current) params.append("option", `${sel.name}=${sel.value}`);
    }
    const out = $("whatif-result");
    if (![...params].length) { out.replaceChildren(Ref.el("p", { class: "muted", text: "Change an option first." })); return; }
    let res;
    try { res = await Ref.getJSON(`/api/readjudicate?${params}`); } catch (err) {
      out.replaceChildren(Ref.el("p", { class: "error", text: err.message })); return;
    }
    const items = res.changed.slice(0, 100).map((c) => Ref.el("li", {},
      Ref.el("strong", { text: `${Ref.fmtTime(c.t)} · event ${c.seq} (${c.event.type}${c.event.coin ? " " + c.event.coin : ""})` }),
      ...c.before.map((r) => Ref.el("div", { class: "before", text: `${r.kind} ${r.clause}: ${r.text}` })),
      ...c.after.map((r) => Ref.el("div", { class: "after", text: `${r.kind} ${r.clause}: ${r.text}` }))));
    const sb = res.summary_before, sa = res.summary_after;
    const verdict = sb.winner !== sa.winner ? `The winner would be player ${sa.winner ?? "— (nobody yet)"} instead of ${sb.winner ?? "nobody yet"}.` :
      (res.summary_changed ? "The final state would differ." : "The final state would be the same.");
    out.replaceChildren(Ref.el("p", {}, Ref.el("strong", { text: `${res.changed.length} event${res.changed.length === 1 ? "" : "s"} would be ruled differently. ` }), verdict),
      Ref.el("ol", { class: "changes" }, ...items));
  }

  document.addEventListener("DOMContentLoaded", async () => {
    try { layout = await Ref.getJSON("/api/layout"); } catch (e) { layout = null; }
    $("override-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const res = await Ref.post("/api/override", { ruling: $("override-ruling").value,
        by: $("override-by").value || "the table", reason: $("override-reason").value });
      $("override-msg").textContent = res.ok ? `Overruled. ${res.data.rulings.map((r) => r.text).join(" ")}` : `Refused: ${res.data && res.data.error}`;
      $("override-msg").className = res.ok ? "msg" : "msg error";
    });
    $("whatif-form").addEventListener("submit", whatIf);
    Ref.connect({});
    try { await loadFlicks(); } catch (err) { $("flick-title").textContent = err.message; }
    await loadOptions().catch(() => {});
  });
})();
