/* Shared helpers: API calls with CSRF token and table PIN, the live feed, words for rulings. */
"use strict";

const Ref = (() => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const SUITS = { 1: "moons", 2: "suns", 3: "crowns", 4: "arms" };
  const GUARDS = { 1: "ace", 2: "2", 3: "3", 4: "4" };
  const TITLES = { moons: "Moons", suns: "Suns", crowns: "Crowns", arms: "Arms" };
  const COIN_TITLES = { moons: "Moons", suns: "Suns", crowns: "Crowns", arms: "Arms",
    null: "Null", ace: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five" };
  const KIND_WORDS = {
    score: "score", bonus: "bonus", duty: "duty", capture: "capture", release: "release",
    rescue: "rescue", illegal: "illegal", foul: "foul", place: "put a coin", reject: "refused",
    uncertain: "too close to call", turn: "turn", win: "win", override: "override",
  };

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k === "style") {  // CSSOM, not the attribute: the CSP forbids inline styles
        for (const decl of String(v).split(";")) {
          const i = decl.indexOf(":");
          if (i > 0) node.style.setProperty(decl.slice(0, i).trim(), decl.slice(i + 1).trim());
        }
      }
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) {
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function svg(tag, attrs = {}) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }

  function fmtTime(t) {
    if (t === null || t === undefined) return "–";
    const m = Math.floor(t / 60), s = t - 60 * m;
    return `${m}:${s < 10 ? "0" : ""}${s.toFixed(1)}`;
  }

  function coinTitle(c) { return COIN_TITLES[c] || c; }

  /* The knight's course (RULES-SPEC §2.1): out own gate, then each castle clockwise from
     the owner's left (in, door, tower, out), then in own gate and own tower. */
  function course(owner, n = 4) {
    const items = [`out-${owner}`];
    for (let k = 1; k < n; k++) {
      const c = ((owner - 1 + k) % n) + 1;
      items.push(`in-${c}`, `door-${c}`, `tower-${c}`, `out-${c}`);
    }
    items.push(`in-${owner}`, `tower-${owner}`);
    return items;
  }

  function itemWords(item) {
    const [what, n] = item.split("-");
    const name = TITLES[SUITS[n]] || n;
    return { out: `out of ${name}`, in: `into ${name}`, door: `${name} door`,
             tower: `${name} tower` }[what] || item;
  }

  /* The PIN: asked once, kept for this tab only. */
  function pin() { return sessionStorage.getItem("table-pin") || ""; }

  function askPin(message = "") {
    const dlg = document.getElementById("pin-dialog");
    const input = document.getElementById("pin-input");
    document.getElementById("pin-error").textContent = message;
    input.value = "";
    return new Promise((resolve) => {
      const form = document.getElementById("pin-form");
      const done = (value) => {
        form.removeEventListener("submit", onSubmit);
        document.getElementById("pin-cancel").removeEventListener("click", onCancel);
        dlg.close();
        resolve(value);
      };
      const onSubmit = (e) => { e.preventDefault(); done(input.value.trim()); };
      const onCancel = () => done(null);
      form.addEventListener("submit", onSubmit);
      document.getElementById("pin-cancel").addEventListener("click", onCancel);
      dlg.showModal();
      input.focus();
    });
  }

  async function post(url, body, { multipart = false } = {}) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const headers = { "X-CSRF-Token": csrf };
      if (pin()) headers["X-Table-Pin"] = pin();
      let payload = body;
      if (!multipart) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body || {}); }
      const resp = await fetch(url, { method: "POST", headers, body: payload, credentials: "same-origin" });
      let data = null;
      try { data = await resp.json(); } catch (e) { data = null; }
      if (resp.status === 401) {
        sessionStorage.removeItem("table-pin");
        const entered = await askPin(attempt ? (data && data.error) || "wrong PIN" : "");
        if (!entered) return { ok: false, status: 401, data: { error: "no PIN given" } };
        sessionStorage.setItem("table-pin", entered);
        updatePinButton();
        continue;
      }
      return { ok: resp.ok, status: resp.status, data };
    }
    return { ok: false, status: 401, data: { error: "wrong PIN" } };
  }

  async function getJSON(url) {
    const resp = await fetch(url, { credentials: "same-origin" });
    const data = await resp.json();
    if (!resp.ok) throw new Error(data.error || resp.statusText);
    return data;
  }

  function updatePinButton() {
    const b = document.getElementById("pin-button");
    b.textContent = pin() ? "PIN ✓" : "Enter PIN";
  }

  /* The live feed: calls handlers with {snapshot|update|status|reset} data. */
  function connect(handlers) {
    const chip = document.getElementById("conn");
    const es = new EventSource("/api/stream");
    es.addEventListener("open", () => { chip.textContent = "live"; chip.className = "chip ok"; });
    es.addEventListener("error", () => { chip.textContent = "reconnecting…"; chip.className = "chip warn"; });
    for (const kind of ["snapshot", "update", "status", "reset"]) {
      es.addEventListener(kind, (e) => {
        const data = JSON.parse(e.data);
        if (handlers[kind]) handlers[kind](data);
        if (data.session) showStatus(data.session);
      });
    }
    es.addEventListener("bye", () => { es.close(); chip.textContent = "server stopped"; chip.className = "chip warn"; });
    return es;
  }

  function showStatus(session) {
    const chip = document.getElementById("conn");
    const st = session.status || "";
    if (st === "camera lost") { chip.textContent = "camera lost — paused, reconnecting"; chip.className = "chip bad"; }
    else if (session.paused) { chip.textContent = "paused"; chip.className = "chip warn"; }
    else if (st === "finished") {
      const note = session.source && session.source.note;  // a video cut short
      chip.textContent = note ? "replay finished — the video is cut short" : "replay finished";
      chip.className = note ? "chip warn" : "chip";
      chip.title = note || "";
    }
    else if (st) { chip.textContent = `session ${session.id} · ${st}`; chip.className = "chip ok"; }
  }

  /* One ruling as a list item: time, kind, words, clause (the rule's words as a tooltip). */
  function rulingItem(r, { onAnswer, showRule = false } = {}) {
    const cls = ["ruling", `k-${r.kind}`];
    if (r.provisional) cls.push("provisional");
    if (r.overruled) cls.push("overruled");
    const li = el("li", { class: cls.join(" "), "data-id": r.id, "data-kind": r.kind });
    li.append(el("span", { class: "t", text: fmtTime(r.t) }));
    li.append(el("span", { class: "kind", text: KIND_WORDS[r.kind] || r.kind }));
    const body = el("span", { class: "text" });
    if (r.kind === "uncertain") {
      body.append(el("strong", { text: "Too close to call — you decide: " }), r.text);
    } else {
      body.append(r.text);
    }
    if (r.bonus) body.append(el("span", { class: "bonus", text: ` +${r.bonus} flick${r.bonus > 1 ? "s" : ""}` }));
    li.append(body);
    const tags = el("span", { class: "tags" });
    tags.append(el("abbr", { class: "clause", title: r.rule || "", text: r.clause }));
    if (r.provisional) tags.append(el("span", { class: "tag prov", text: "provisional" }));
    if (r.overruled) tags.append(el("span", { class: "tag over", text: "overruled" }));
    tags.append(el("span", { class: "rid", text: `#${r.id}` }));
    li.append(tags);
    if (showRule && r.rule) li.append(el("blockquote", { class: "rule", text: r.rule }));
    if (r.kind === "uncertain" && onAnswer && !r.overruled) {
      li.append(el("span", { class: "answer" },
        el("button", { type: "button", class: "small", text: "Yes, it counts", onclick: () => onAnswer(r, true) }),
        el("button", { type: "button", class: "small ghost", text: "No", onclick: () => onAnswer(r, false) })));
    }
    return li;
  }

  document.addEventListener("DOMContentLoaded", () => {
    updatePinButton();
    document.getElementById("pin-button").addEventListener("click", async () => {
      const entered = await askPin();
      if (!entered) return;
      sessionStorage.setItem("table-pin", entered);
      const res = await post("/api/pin", {});
      updatePinButton();
      if (!res.ok) alert(res.data && res.data.error || "PIN refused");
    });
  });

  return { el, svg, fmtTime, coinTitle, course, itemWords, post, getJSON, connect, rulingItem,
           SUITS, GUARDS, TITLES, pin };
})();
