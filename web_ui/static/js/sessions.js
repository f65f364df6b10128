/* The sessions page: list, reopen, export a dispute bundle, import one. */
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  async function load() {
    const list = await Ref.getJSON("/api/sessions");
    $("session-rows").replaceChildren(...list.map((s) => Ref.el("tr", { class: s.current ? "current" : "" },
      Ref.el("td", { text: s.id }),
      Ref.el("td", { text: new Date(s.created * 1000).toLocaleString() }),
      Ref.el("td", { text: s.label || (s.source && s.source.kind) || "" }),
      Ref.el("td", { text: s.events }), Ref.el("td", { text: s.rulings }),
      Ref.el("td", { text: s.status || "" }),
      Ref.el("td", {},
        s.current ? Ref.el("span", { class: "tag", text: "on show" }) :
          Ref.el("button", { type: "button", class: "small", text: "Open", onclick: () => open(s.id) }),
        " ", Ref.el("a", { href: `/api/sessions/${s.id}/export`, text: "export" })))));
  }

  async function open(id) {
    const res = await Ref.post(`/api/sessions/${id}/open`, {});
    $("sessions-msg").textContent = res.ok ? `Session ${id} is on show.` : `Refused: ${res.data && res.data.error}`;
    if (res.ok) location.href = "/";
  }

  document.addEventListener("DOMContentLoaded", () => {
    Ref.connect({});
    load();
    $("import-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const file = $("import-file").files[0];
      if (!file) return;
      const form = new FormData();
      form.append("bundle", file);
      const res = await Ref.post("/api/sessions/import", form, { multipart: true });
      $("sessions-msg").textContent = res.ok ? `Imported as session ${res.data.id}.` : `Refused: ${res.data && res.data.error}`;
      load();
    });
  });
})();
