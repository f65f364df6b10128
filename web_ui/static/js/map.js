/* The top-down table map, drawn in table millimetres from the layout (+y north is up). */
"use strict";

const TableMap = (() => {
  const COLORS = { 1: "#34344a", 2: "#c0392b", 3: "#2e8b57", 4: "#2c6fbb" };
  const COIN_R = 15;  // drawn larger than life (9.5 mm) so it reads on a phone

  function ownerOf(layout, coin) {
    for (const c of layout.castles) {
      if (c.knight === coin) return { n: c.number, role: "knight" };
      if (c.guard === coin) return { n: c.number, role: "guard" };
    }
    return { n: 0, role: "other" };
  }

  function pieceCenter(layout, name) {
    const p = layout.pieces.find((q) => q.name === name);
    return p ? p.center : null;
  }

  /* opts: {positions, stacked, pending, lines: {name: "+"|"-"}, pieces: [names],
            offTable: [[x,y]], focus: [coins], labels: bool} */
  function draw(svgEl, layout, opts = {}) {
    const S = Ref.svg;
    while (svgEl.firstChild) svgEl.firstChild.remove();
    const xs = layout.table.corners.map((p) => p[0]), ys = layout.table.corners.map((p) => p[1]);
    const pad = 30;
    const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad;
    const minY = Math.min(...ys) - pad, maxY = Math.max(...ys) + pad;
    svgEl.setAttribute("viewBox", `${minX} ${-maxY} ${maxX - minX} ${maxY - minY}`);
    svgEl.setAttribute("preserveAspectRatio", "xMidYMid meet");
    const P = (p) => [p[0], -p[1]];

    const table = layout.table.corners.map((p) => P(p).join(",")).join(" ");
    svgEl.append(S("polygon", { points: table, class: "m-table" }));

    for (const c of layout.castles) {  // castle names near the edge, behind the tower
      const t = pieceCenter(layout, c.tower);
      if (!t) continue;
      const d = Math.hypot(t[0], t[1]) || 1, k = (d + 95) / d;
      const label = S("text", { x: t[0] * k, y: -t[1] * k, class: "m-castle", fill: "#fff" });
      label.textContent = `${c.number} ${Ref.TITLES[c.suit] || c.suit}`;
      svgEl.append(label);
    }

    for (const p of layout.pieces) {
      const [cx, cy] = P(p.center), h = p.size / 2;
      const hit = (opts.pieces || []).includes(p.name);
      const g = S("g", { transform: `rotate(${-p.angle} ${cx} ${cy})` });
      g.append(S("rect", { x: cx - h, y: cy - h, width: p.size, height: p.size, rx: 3,
        class: `m-tile m-${p.role}${hit ? " m-hit" : ""}`,
        fill: p.role === "tower" ? COLORS[p.castle] || "#666" : null }));
      svgEl.append(g);
      if (p.role === "tower") {  // a stack: a second, inner square
        svgEl.append(S("rect", { x: cx - h + 7, y: cy - h + 7, width: p.size - 14,
          height: p.size - 14, rx: 2, class: "m-tower-top" }));
      }
    }

    for (const ln of layout.lines) {
      const dir = (opts.lines || {})[ln.name];
      const [ax, ay] = P(ln.a), [bx, by] = P(ln.b);
      svgEl.append(S("line", { x1: ax, y1: ay, x2: bx, y2: by,
        class: `m-line m-${ln.name.split("-")[0]}${dir ? " m-crossed" : ""}`,
        stroke: dir ? null : COLORS[ln.castle] || "#999" }));
      if (dir) {
        const mx = (ax + bx) / 2, my = (ay + by) / 2;
        const s = dir === "+" ? 1 : -1;
        const nx = ln.normal[0] * s, ny = -ln.normal[1] * s;
        svgEl.append(S("line", { x1: mx - nx * 25, y1: my - ny * 25, x2: mx + nx * 25,
          y2: my + ny * 25, class: "m-arrow", "marker-end": "url(#arrowhead)" }));
      }
    }
    const defs = S("defs");
    const marker = S("marker", { id: "arrowhead", markerWidth: 6, markerHeight: 6, refX: 3,
      refY: 3, orient: "auto" });
    marker.append(S("path", { d: "M0,0 L6,3 L0,6 z", class: "m-arrowhead" }));
    defs.append(marker);
    svgEl.prepend(defs);

    for (const p of opts.offTable || []) {
      const [x, y] = P(p);
      svgEl.append(S("path", { d: `M${x - 12},${y - 12} L${x + 12},${y + 12} M${x - 12},${y + 12} L${x + 12},${y - 12}`, class: "m-off" }));
    }

    for (const req of opts.pending || []) {  // ghost markers: where a coin must be put
      let at = req.at;
      if (!at && req.on) at = pieceCenter(layout, req.on);
      if (!at) continue;
      const [x, y] = P(at);
      const o = ownerOf(layout, req.coin);
      svgEl.append(S("circle", { cx: x, cy: y, r: COIN_R + 6, class: "m-ghost",
        stroke: COLORS[o.n] || "#333" }));
      const t = S("text", { x: x, y: y - COIN_R - 10, class: "m-ghost-label" });
      t.textContent = `put ${Ref.coinTitle(req.coin)} here`;
      svgEl.append(t);
    }

    const stacked = opts.stacked || {};
    for (const [coin, pos] of Object.entries(opts.positions || {})) {
      if (!pos) continue;
      const [x, y] = P(pos);
      const o = ownerOf(layout, coin);
      const focus = (opts.focus || []).includes(coin);
      const knight = o.role === "knight";
      const g = S("g", { class: `m-coin${focus ? " m-focus" : ""}`, "data-coin": coin });
      g.append(S("circle", { cx: x, cy: y, r: COIN_R,
        fill: knight ? COLORS[o.n] || "#777" : "#fbf7ec",
        stroke: knight ? "#fff" : COLORS[o.n] || "#777",
        "stroke-width": knight ? 2 : 5 }));
      const t = S("text", { x: x, y: y + 5, class: knight ? "m-coin-label k" : "m-coin-label g" });
      t.textContent = knight ? coin[0].toUpperCase() : (coin === "ace" ? "A" : coin);
      g.append(t);
      const title = S("title");
      title.textContent = `${Ref.coinTitle(coin)} (${o.role} of castle ${o.n})${stacked[coin] ? ` on ${stacked[coin]}` : ""}`;
      g.append(title);
      svgEl.append(g);
    }
  }

  /* The camera overlay: lines, tiles, coin names and tracks in table mm, mapped to the
     image's pixels by the calibration's homography (cam = GET /api/camera). */
  function drawOverlay(svgEl, layout, cam) {
    const S = Ref.svg;
    while (svgEl.firstChild) svgEl.firstChild.remove();
    const H = cam.homography_mm_to_px, size = cam.image_size;
    if (!H || !size) return false;
    svgEl.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
    const px = (p) => {
      const w = H[2][0] * p[0] + H[2][1] * p[1] + H[2][2];
      return [(H[0][0] * p[0] + H[0][1] * p[1] + H[0][2]) / w, (H[1][0] * p[0] + H[1][1] * p[1] + H[1][2]) / w];
    };
    for (const p of layout.pieces) {
      const h = p.size / 2, c = p.center;
      const pts = [[-h, -h], [h, -h], [h, h], [-h, h]].map(([dx, dy]) => px([c[0] + dx, c[1] + dy]).join(","));
      svgEl.append(S("polygon", { points: pts.join(" "), class: "o-tile" }));
    }
    for (const ln of layout.lines) {
      const [ax, ay] = px(ln.a), [bx, by] = px(ln.b);
      svgEl.append(S("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "o-line", stroke: COLORS[ln.castle] || "#fff" }));
    }
    for (const [coin, pts] of Object.entries(cam.tracks || {})) {
      if (pts.length < 2) continue;
      const o = ownerOf(layout, coin);
      svgEl.append(S("polyline", { points: pts.map((p) => px(p).join(",")).join(" "), class: "o-track", stroke: COLORS[o.n] || "#fff" }));
    }
    for (const [coin, p] of Object.entries(cam.coins || {})) {
      const [x, y] = px(p);
      svgEl.append(S("circle", { cx: x, cy: y, r: 6, class: "o-coin" }));
      const t = S("text", { x: x + 9, y: y - 9, class: "o-label", "data-coin": coin });
      t.textContent = Ref.coinTitle(coin);
      svgEl.append(t);
    }
    return true;
  }

  return { draw, drawOverlay, COLORS };
})();
