/* The calibration page: the still in an SVG with the fitted layout drawn over it, the problems
   beside it, and handles (pointer events) to drag the table's corners or a tile. */
"use strict";

(() => {
  const { el, svg, post, getJSON } = Ref;
  const view = document.getElementById("cal-svg");
  const msg = document.getElementById("cal-msg");
  const list = document.getElementById("cal-problems");
  const CORNERS = ["SW", "SE", "NE", "NW"];
  let current = null;
  let stamp = 0;

  function say(text, error = false) {
    msg.textContent = text;
    msg.classList.toggle("error", error);
  }

  function toSvg(evt) {
    const pt = view.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(view.getScreenCTM().inverse());
    const [w, h] = current.image_size;
    return [Math.min(Math.max(p.x, 0), w - 1), Math.min(Math.max(p.y, 0), h - 1)];
  }

  function points(list_) { return list_.map(([x, y]) => `${x},${y}`).join(" "); }

  /* A handle the pointer can drag: onMove(x, y) while dragging, onDrop(x, y) at the end. */
  function draggable(node, onMove, onDrop) {
    node.addEventListener("pointerdown", (evt) => {
      evt.preventDefault();
      node.setPointerCapture(evt.pointerId);
      node.classList.add("dragging");
      let last = toSvg(evt);
      const move = (e) => { last = toSvg(e); onMove(...last); };
      const up = () => {
        node.removeEventListener("pointermove", move);
        node.removeEventListener("pointerup", up);
        node.removeEventListener("pointercancel", up);
        node.classList.remove("dragging");
        onDrop(...last);
      };
      node.addEventListener("pointermove", move);
      node.addEventListener("pointerup", up);
      node.addEventListener("pointercancel", up);
    });
  }

  function highlight(subject, on) {
    for (const node of view.querySelectorAll(`[data-name="${CSS.escape(subject)}"]`)) {
      node.classList.toggle("hl", on);
    }
    for (const li of list.querySelectorAll(`li[data-subject="${CSS.escape(subject)}"]`)) {
      li.classList.toggle("hl", on);
    }
  }

  function draw(data) {
    current = data;
    const [w, h] = data.image_size;
    const k = Math.max(w, h) / 1280;  // handles and labels keep their size on the screen
    view.setAttribute("viewBox", `0 0 ${w} ${h}`);
    view.replaceChildren();
    view.append(svg("image", { href: `/api/calibration/image?v=${stamp}`, x: 0, y: 0,
      width: w, height: h, preserveAspectRatio: "none" }));
    const quad = svg("polygon", { class: "table", points: points(data.corners_px) });
    view.append(quad);
    const tiles = svg("g", { class: "tiles" });
    for (const t of data.tiles) {
      const g = svg("g", { class: `tile ${t.problems.length ? "bad" : "ok"}`, "data-name": t.name });
      g.append(svg("polygon", { points: points(t.corners_px) }));
      const label = svg("text", { x: t.center_px[0], y: t.center_px[1] - 12 * k,
        "font-size": 16 * k, class: "name" });
      label.textContent = t.name;
      g.append(label);
      const handle = svg("circle", { cx: t.center_px[0], cy: t.center_px[1], r: 6 * k,
        class: "handle tile-handle", "data-name": t.name, tabindex: 0 });
      const title = svg("title"); title.textContent = `${t.name}: drag to where it lies`;
      handle.append(title);
      g.append(handle);
      draggable(handle, (x, y) => {
        g.setAttribute("transform", `translate(${x - t.center_px[0]} ${y - t.center_px[1]})`);
      }, (x, y) => moveTile(t.name, x, y));
      g.addEventListener("pointerenter", () => highlight(t.name, true));
      g.addEventListener("pointerleave", () => highlight(t.name, false));
      tiles.append(g);
    }
    const lines = svg("g", { class: "lines" });
    for (const ln of data.lines) {
      const line = svg("line", { x1: ln.a_px[0], y1: ln.a_px[1], x2: ln.b_px[0], y2: ln.b_px[1],
        class: `gate ${ln.problems.length ? "bad" : ""}`, "data-name": ln.name });
      const title = svg("title"); title.textContent = ln.name;
      line.append(title);
      lines.append(line);
    }
    view.append(tiles, lines);
    const corners = data.corners_px.map((c) => c.slice());
    data.corners_px.forEach((c, i) => {
      const g = svg("g", { class: "corner", "data-corner": CORNERS[i] });
      const ring = svg("circle", { cx: c[0], cy: c[1], r: 11 * k, class: "handle corner-handle",
        "data-corner": CORNERS[i], tabindex: 0 });
      const title = svg("title"); title.textContent = `table corner ${CORNERS[i]}: drag it`;
      ring.append(title);
      const label = svg("text", { x: c[0] + 14 * k, y: c[1] - 12 * k, "font-size": 20 * k,
        class: "corner-name" });
      label.textContent = CORNERS[i];
      g.append(ring, label);
      draggable(ring, (x, y) => {
        corners[i] = [x, y];
        ring.setAttribute("cx", x); ring.setAttribute("cy", y);
        label.setAttribute("x", x + 14 * k); label.setAttribute("y", y - 12 * k);
        quad.setAttribute("points", points(corners));
      }, () => moveCorners(corners));
      view.append(g);
    });
    listProblems(data);
  }

  function listProblems(data) {
    const n = data.problems.length;
    document.getElementById("cal-count").textContent =
      n ? `${n} to put right` : "none: the layout is as the template";
    list.replaceChildren(...data.problems.map((p) => {
      const size = p.size === null ? "" : `${p.size.toFixed(1)} ${p.unit}`;
      const li = el("li", { "data-subject": p.subject, "data-kind": p.kind, class: p.kind },
        el("span", { class: "text", text: p.text }),
        size ? el("span", { class: "size", text: size }) : null);
      li.addEventListener("pointerenter", () => highlight(p.subject, true));
      li.addEventListener("pointerleave", () => highlight(p.subject, false));
      return li;
    }));
    if (!n) list.append(el("li", { class: "none", text: "No problems." }));
    const r = data.residuals || {};
    const plane = r.plane || {};
    const figures = [
      ["corners", `${data.corners_method}`],
      ["plane RMS", plane.rms_px === undefined ? "–" : `${plane.rms_px.toFixed(2)} px`],
      ["layout RMS", r.layout_rms_mm === null || r.layout_rms_mm === undefined ? "–"
        : `${r.layout_rms_mm.toFixed(2)} mm`],
      ["tiles", `${data.tiles.length}`],
      ["still", `${data.source} (${data.image_size.join("×")})`],
    ];
    document.getElementById("cal-figures").replaceChildren(
      ...figures.flatMap(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })]));
    document.getElementById("cal-notes").replaceChildren(
      ...(data.notes.length ? data.notes : ["none"]).map((t) => el("li", { text: t })));
    document.getElementById("cal-save").hidden = false;
  }

  async function send(url, body, multipart, busy) {
    say(busy);
    const res = await post(url, body, { multipart });
    if (!res.ok) {
      say((res.data && res.data.error) || `failed (${res.status})`, true);
      if (current) draw(current);  // put dragged handles back
      return;
    }
    if (url.endsWith("/run")) stamp += 1;
    draw(res.data);
    say(`${res.data.problems.length} problem(s); corners ${res.data.corners_method}.`);
  }

  function moveCorners(corners) {
    return send("/api/calibration/corners",
      { corners: corners.map(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]) },
      false, "Calibrating with the corners as dragged…");
  }

  function moveTile(name, x, y) {
    return send("/api/calibration/tile", { name, x, y }, false, `Moving ${name}…`);
  }

  document.getElementById("cal-form").addEventListener("submit", (evt) => {
    evt.preventDefault();
    const file = document.getElementById("cal-file").files[0];
    if (!file) { say("Choose a still first.", true); return; }
    const form = new FormData();
    form.append("image", file);
    send("/api/calibration/run", form, true, "Calibrating…");
  });
  const configured = document.getElementById("cal-configured");
  if (configured) {
    configured.addEventListener("click", () =>
      send("/api/calibration/run", { source: "configured" }, false, "Calibrating…"));
  }

  getJSON("/api/calibration/summary").then((data) => { stamp = Date.now(); draw(data); },
    () => say("Upload a still of the table to calibrate."));
})();
