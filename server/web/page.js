// condense's web page: the sessions a `condense serve` holds, and for one
// session its conversation as the next request will render it, its usage
// chart, its checkpoints (with undo), and a composer with /compact and
// /abort. Plain JavaScript on the server's API (docs/server.md); no build
// step, nothing loaded from elsewhere.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  // How long a notice stays: ?notice_ms= or <body data-notice-ms>.
  const noticeMs = Number(params.get("notice_ms") || document.body.dataset.noticeMs || 5000);
  const main = document.getElementById("main");
  const nf = new Intl.NumberFormat("en-US");
  const num = (n) => nf.format(Math.round(n || 0));

  // el builds an element: el("p", {class: "x", onclick: f}, "text", child).
  function el(tag, attrs, ...kids) {
    const e = document.createElementNS(tag === "svg" || attrs?.svg ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false || k === "svg") continue;
      if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k === "text") e.textContent = v;
      else if (k === "style") e.style.cssText = v; // CSSOM: the page's CSP allows no style attributes
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat()) {
      if (k === undefined || k === null || k === false) continue;
      e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return e;
  }
  const svg = (tag, attrs, ...kids) => el(tag, { ...attrs, svg: true }, ...kids);

  // ApiError is an error answer of the API.
  class ApiError extends Error {
    constructor(status, body) {
      super(body?.error?.message || "HTTP " + status);
      this.status = status;
      this.code = body?.error?.code || "";
    }
  }

  async function api(method, path, body) {
    const opts = { method, credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const resp = await fetch(path, opts);
    const text = await resp.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (!resp.ok) {
      const err = new ApiError(resp.status, data);
      if (resp.status === 401) showLogin();
      throw err;
    }
    return data;
  }

  function ago(t) {
    const s = (Date.now() - new Date(t).getTime()) / 1000;
    if (!isFinite(s)) return "";
    if (s < 60) return "just now";
    if (s < 3600) return Math.floor(s / 60) + " min ago";
    if (s < 86400) return Math.floor(s / 3600) + " h ago";
    return new Date(t).toLocaleDateString();
  }

  // usageBar draws tokens against the input limit, with the threshold
  // marked.
  function usageBar(u, label) {
    const pct = u.input_limit ? Math.min(100, (u.tokens / u.input_limit) * 100) : 0;
    const thr = u.input_limit ? Math.min(100, (u.threshold / u.input_limit) * 100) : 0;
    const cls = "bar" + (u.tokens > u.input_limit ? " over" : u.tokens > u.threshold ? " high" : "");
    const text = `${num(u.tokens)} / ${num(u.input_limit)} tokens (${(u.percent ?? pct).toFixed(1)}%)`;
    return el("div", { class: "usage", "data-tokens": u.tokens },
      el("div", { class: cls, role: "meter", "aria-label": label || "Context usage", "aria-valuemin": 0,
        "aria-valuemax": u.input_limit, "aria-valuenow": u.tokens, "aria-valuetext": text },
        el("span", { style: `width:${pct}%` }), thr ? el("i", { style: `left:${thr}%`, title: "threshold" }) : null),
      el("div", { class: "small" }, text));
  }

  // ---- routing -------------------------------------------------------

  let view = null; // the current view, with a stop() to close its streams

  function route() {
    if (view?.stop) view.stop();
    view = null;
    const m = location.hash.match(/^#\/s\/([^/]+)$/);
    if (m) view = sessionView(decodeURIComponent(m[1]));
    else view = listView();
  }
  window.addEventListener("hashchange", route);

  function showLogin() {
    if (view?.stop) view.stop();
    view = { login: true };
    const input = el("input", { id: "token", type: "password", autocomplete: "current-password", required: true });
    const msg = el("p", { class: "error", role: "alert" });
    main.replaceChildren(el("form", {
      class: "login panel", onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api("POST", "/v1/login", { token: input.value });
          route();
        } catch (err) {
          msg.textContent = err.status === 401 ? "That token is not valid." : err.message;
        }
      },
    }, el("h1", {}, "Log in"), el("label", { for: "token" }, "Token"), input, el("button", { class: "primary", type: "submit" }, "Log in"), msg));
    input.focus();
  }

  // ---- sessions list -------------------------------------------------

  function listView() {
    document.title = "Sessions · condense";
    let timer = null;
    let stopped = false;
    async function load() {
      let data;
      try {
        data = await api("GET", "/v1/page/sessions");
      } catch (err) {
        if (err.status !== 401) main.replaceChildren(el("p", { class: "error", role: "alert" }, "Cannot list sessions: " + err.message));
        return;
      }
      if (stopped) return;
      const rows = data.sessions.map((s) => el("tr", { "data-session": s.id },
        el("td", { class: "title-cell", "data-label": "Session" },
          el("a", { href: "#/s/" + encodeURIComponent(s.id) }, s.title || s.id),
          el("div", { class: "small muted mono" }, s.id)),
        el("td", { "data-label": "Model" }, s.model),
        el("td", { "data-label": "Messages" }, s.busy && !s.usage.input_limit ? "—" : num(s.messages)),
        el("td", { "data-label": "Context" }, s.usage.input_limit ? usageBar(s.usage, "Context usage of " + s.id) : el("span", { class: "muted" }, "— (busy)")),
        el("td", { "data-label": "Last compaction" }, s.checkpoint
          ? [el("span", {}, `${s.checkpoint.id} · ${s.checkpoint.strategy}`), el("div", { class: "small muted" },
            `${num(s.checkpoint.tokens_before)} → ${num(s.checkpoint.tokens_after)} tokens · ${ago(s.checkpoint.time)}`)]
          : el("span", { class: "muted" }, "none")),
        el("td", { "data-label": "State", class: s.busy ? "state-busy" : "state-idle" }, s.busy ? (s.activity === "compaction" ? "compacting…" : s.activity === "prompt" ? "running…" : "busy") : "idle")));
      main.replaceChildren(
        el("h1", {}, "Sessions"),
        rows.length ? el("table", { class: "sessions", "aria-describedby": "sessions-count" },
          el("thead", {}, el("tr", {}, ["Session", "Model", "Messages", "Context", "Last compaction", "State"].map((h) => el("th", { scope: "col" }, h)))),
          el("tbody", {}, rows))
          : el("p", { class: "panel empty muted" }, "No sessions yet. Create one with POST /v1/sessions."),
        el("p", { class: "muted small", id: "sessions-count" }, `${rows.length} session${rows.length === 1 ? "" : "s"}`));
      timer = setTimeout(load, 10000);
    }
    load();
    return { stop() { stopped = true; clearTimeout(timer); } };
  }

  // ---- session view --------------------------------------------------

  function sessionView(id) {
    const base = "/v1/sessions/" + encodeURIComponent(id);
    const st = {
      snap: null, messages: [], overlay: [], checkpoints: [], ledger: {}, series: [],
      busy: null, // {activity, since}: a prompt, compaction or configuration change runs
      compacting: null, // {since, phase}: a compaction runs (in a run, a render or on demand)
      result: "", // the last result, when idle
      blockedKey: null, // the session state in which compaction found nothing
      open: new Set(), // keys of <details> the user opened
      recalled: new Map(), // recall reference → messages
      lastSeen: 0, replayUpTo: null, conn: "connecting",
    };
    let stopped = false, es = null, tick = null, reloadTimer = null, reconnectTimer = null, noticeTimer = null;

    // The skeleton; parts are filled in by the render functions.
    const statusEl = el("div", { class: "status", role: "status", "aria-live": "polite", id: "status" });
    const noticeEl = el("div", { class: "notice", role: "status", id: "notice", hidden: true });
    const headEl = el("div", { class: "session-head" }, el("h1", {}, id));
    const usageEl = el("div", { id: "usage" });
    const convEl = el("div", { class: "conversation", id: "conversation", "aria-label": "Conversation" });
    const chartEl = el("section", { class: "panel chart", id: "chart", "aria-labelledby": "chart-h" });
    const cpsEl = el("section", { class: "panel", id: "checkpoints", "aria-labelledby": "cps-h" });
    const input = el("input", {
      type: "text", id: "composer-input", autocomplete: "off", role: "combobox", "aria-autocomplete": "list",
      "aria-expanded": "false", "aria-controls": "slash-menu", "aria-describedby": "composer-hint",
      placeholder: "Message, or / for commands",
    });
    const menu = el("ul", { class: "menu", id: "slash-menu", role: "listbox", "aria-label": "Commands", hidden: true });
    const stopBtn = el("button", { type: "button", id: "stop", class: "danger", hidden: true, onclick: () => abort() }, "Stop");
    const sendBtn = el("button", { type: "submit", class: "primary", id: "send" }, "Send");
    // menuEnter is set while an Enter the slash menu took is down: the
    // form must not also submit it.
    let menuEnter = false;
    const form = el("form", { onsubmit: (e) => { e.preventDefault(); if (!menuEnter) submit(); } },
      el("label", { for: "composer-input", class: "visually-hidden" }, "Message or command"),
      input, sendBtn, stopBtn);
    const composer = el("div", { class: "composer" }, menu, form,
      el("div", { class: "hint", id: "composer-hint" }, "Type / for commands: /compact [focus] summarizes older turns now, /abort stops a run."));

    main.replaceChildren(
      el("p", { class: "small" }, el("a", { href: "#/" }, "← Sessions")),
      headEl, usageEl, statusEl, noticeEl,
      el("div", { class: "grid" },
        el("section", { "aria-labelledby": "conv-h" }, el("h2", { id: "conv-h" }, "Conversation"), convEl, composer),
        el("div", { class: "side" }, chartEl, cpsEl)));

    // ---- loading

    // loadAll loads the snapshot and the rest apart: a snapshot waits while
    // a compaction holds the session, the conversation need not. A load
    // older than one already shown is dropped.
    let loads = 0, shownSnap = 0, shownRest = 0;
    async function loadAll() {
      const g = ++loads;
      const snapPart = api("GET", base).then((snap) => {
        if (stopped || g < shownSnap) return;
        shownSnap = g;
        st.snap = snap;
        // A snapshot that waited for a compaction may come after events
        // newer than it (the run's settled event): its busy state is then
        // out of date and the events decide.
        const fresh = !(snap.last_event_id < st.lastSeen);
        if (fresh && !snap.busy && st.busy) st.busy = null;
        if (fresh && snap.busy && !st.busy) st.busy = { activity: snap.activity, since: Date.now(), phase: "" };
        renderHead();
        if (shownRest) renderChart();
        renderStatus();
        renderComposer();
      });
      const restPart = (async () => {
        const [overlay, cps, ledger, usage] = await Promise.all([
          api("GET", base + "/overlay"), api("GET", base + "/checkpoints"), api("GET", base + "/ledger"), api("GET", base + "/usage")]);
        const msgs = [];
        for (let from = 0; ; ) {
          const page = await api("GET", `${base}/messages?from=${from}&limit=1000`);
          msgs.push(...page.messages);
          from += page.messages.length;
          if (!page.messages.length || from >= page.total) break;
        }
        if (stopped || g < shownRest) return;
        shownRest = g;
        st.overlay = overlay.items; st.checkpoints = cps.checkpoints; st.series = usage.series; st.messages = msgs;
        st.ledger = Object.fromEntries(ledger.checkpoints.map((l) => [l.checkpoint, l]));
        renderConversation();
        renderChart();
        renderCheckpoints();
      })();
      try {
        await Promise.all([snapPart, restPart]);
      } catch (err) {
        if (stopped || err.status === 401) return;
        if (err.status === 404) main.replaceChildren(el("p", { class: "error", role: "alert" }, "No session " + id + "."), el("a", { href: "#/" }, "← Sessions"));
        else setResult("Cannot load the session: " + err.message);
      }
    }

    // reload loads everything again soon, once for a burst of events.
    function reload() {
      clearTimeout(reloadTimer);
      reloadTimer = setTimeout(loadAll, 60);
    }

    // ---- events

    function connect() {
      if (stopped) return;
      // Replay the latest events so that a page loaded during a run shows
      // what runs and since when; events up to the snapshot's last id only
      // update the status.
      es = new EventSource(`${base}/events?last_event_id=${st.lastSeen}`);
      es.onopen = () => { st.conn = "live"; renderStatus(); };
      for (const type of ["busy", "compacting", "compacted", "settled", "error", "appended", "gap"]) {
        es.addEventListener(type, (e) => {
          if (!(e instanceof MessageEvent)) return; // a connection error, below
          let ev;
          try { ev = JSON.parse(e.data); } catch { return; }
          onEvent(type, ev);
        });
      }
      es.addEventListener("error", (e) => {
        if (e instanceof MessageEvent || stopped) return;
        st.conn = "reconnecting";
        renderStatus();
        if (es.readyState === EventSource.CLOSED) {
          // The browser gave up (an answer that was not a stream): try
          // again ourselves, after checking the login.
          es.close();
          es = null;
          clearTimeout(reconnectTimer);
          reconnectTimer = setTimeout(() => { loadAll().then(connect); }, 2000);
        }
      });
    }

    function onEvent(type, ev) {
      if (ev.id) st.lastSeen = Math.max(st.lastSeen, ev.id);
      const replay = ev.id && st.replayUpTo !== null && ev.id <= st.replayUpTo;
      const d = ev.data || {};
      switch (type) {
        case "busy":
          st.busy = { activity: d.activity, since: new Date(ev.time).getTime(), phase: "" };
          break;
        case "compacting":
          // A compaction inside a render has no busy event: it shows
          // until its compacted or error event.
          if (!st.compacting) st.compacting = { since: new Date(ev.time).getTime(), phase: "" };
          if (d.phase === "summary") st.compacting.phase = "writing the summary";
          break;
        case "compacted":
          st.result = `Compacted ${d.checkpoint} (${d.strategy}${d.manual ? ", manual" : ""}): ${num(d.tokens_before)} → ${num(d.tokens_after)} tokens.`;
          st.compacting = null;
          if (!replay) reload();
          break;
        case "error":
          st.result = d.code === "cancelled" ? "Stopped." : `Failed: ${d.message || d.code}`;
          st.compacting = null;
          break;
        case "settled":
          st.busy = null;
          st.compacting = null;
          if (!replay) reload();
          break;
        case "appended":
        case "gap":
          if (!replay) reload();
          break;
      }
      if (!replay && type === "settled" && ev.data && ev.data.id) {
        st.snap = { ...st.snap, ...ev.data };
      }
      renderStatus();
      renderComposer();
    }

    // ---- actions

    // stateKey is what must change before a compaction that found nothing
    // is offered again: the history, the checkpoints, the model.
    function stateKey() {
      const s = st.snap;
      return s ? `${s.messages}|${s.checkpoint?.id || ""}|${s.config.model}` : "";
    }

    function compactStatus() {
      const s = st.snap;
      if (!s) return { ok: false, why: "Loading…" };
      if (s.busy || st.busy) return { ok: false, why: "Busy: wait for the running " + (s.activity || st.busy?.activity || "work") + ", or /abort it." };
      if (st.blockedKey === stateKey()) return { ok: false, why: "Nothing to compact: no older complete turn to summarize. Offered again after a new message, an undo or a model change." };
      if (s.compaction_available === false) return { ok: false, why: "Nothing to compact yet: every turn is still among the turns kept verbatim." };
      return { ok: true, why: "Summarize or mask the older turns now." };
    }

    function notice(text) {
      clearTimeout(noticeTimer);
      noticeEl.textContent = text;
      noticeEl.hidden = false;
      // data-shown counts the notices shown (tests read it; the text stays
      // in the hidden element until the next one).
      noticeEl.dataset.shown = String(Number(noticeEl.dataset.shown || 0) + 1);
      noticeTimer = setTimeout(() => { noticeEl.hidden = true; }, noticeMs);
    }

    function setResult(text) {
      st.result = text;
      renderStatus();
    }

    async function compact(focus) {
      const cs = compactStatus();
      if (!cs.ok) {
        if (st.snap && st.snap.compaction_available === false && !st.busy) st.blockedKey = stateKey();
        notice(cs.why);
        renderComposer();
        return;
      }
      st.busy = { activity: "compaction", since: Date.now() };
      st.compacting = st.compacting || { since: Date.now(), phase: "" };
      renderStatus();
      renderComposer();
      try {
        const res = await api("POST", base + "/compact", focus ? { instructions: focus } : {});
        st.snap = res.snapshot;
        st.busy = null;
        st.compacting = null;
        const r = res.compactions[res.compactions.length - 1];
        if (r) setResult(`Compacted ${r.checkpoint} (${r.strategy}, manual): ${num(r.tokens_before)} → ${num(r.tokens_after)} tokens.`);
        reload();
      } catch (err) {
        st.busy = null;
        st.compacting = null;
        if (err.code === "nothing_to_compact") {
          st.blockedKey = stateKey();
          notice("Nothing to compact: no older complete turn to summarize. Offered again after a new message, an undo or a model change.");
        } else if (err.code === "cancelled") {
          setResult("Stopped.");
        } else if (err.code === "busy") {
          notice("Busy: " + err.message);
        } else if (err.status !== 401) {
          setResult("Compaction failed: " + err.message);
        }
        reload();
      }
      renderStatus();
      renderComposer();
    }

    async function abort() {
      try {
        const r = await api("POST", base + "/abort");
        if (!r.aborted) notice("Nothing is running.");
      } catch (err) {
        notice("Cannot stop: " + err.message);
      }
    }

    async function prompt(text) {
      try {
        await api("POST", base + "/prompt", { text });
        input.value = "";
      } catch (err) {
        if (err.status !== 401) notice(err.code === "busy" ? "Busy: wait for the running work, or /abort it." : "Cannot send: " + err.message);
      }
    }

    async function undo(cp) {
      try {
        const r = await api("POST", `${base}/checkpoints/${encodeURIComponent(cp)}/undo`);
        st.snap = r.snapshot;
        setResult(`Undid ${r.undone.join(", ")}.`);
        await loadAll();
      } catch (err) {
        if (err.status !== 401) notice("Cannot undo: " + err.message);
      }
    }

    async function recall(ref, target, btn) {
      btn.disabled = true;
      try {
        let msgs = st.recalled.get(ref);
        if (!msgs) {
          const r = await api("GET", `${base}/recall?ref=${encodeURIComponent(ref)}`);
          msgs = r.spans.flatMap((s) => s.messages);
          st.recalled.set(ref, msgs);
        }
        target.replaceChildren(recalledView(ref, msgs));
        btn.textContent = "Recalled";
      } catch (err) {
        btn.disabled = false;
        target.replaceChildren(el("p", { class: "error" }, "Cannot recall " + ref + ": " + err.message));
      }
    }

    function recalledView(ref, msgs) {
      const texts = [];
      for (const m of msgs) for (const p of m.parts || []) {
        if (p.type === "tool_result") texts.push(resultText(p));
        else if (p.text) texts.push(p.text);
      }
      return el("div", { class: "recalled", "data-ref": ref }, el("div", { class: "small muted" }, "Original (" + ref + "):"), el("pre", {}, texts.join("\n")));
    }

    function submit() {
      const text = input.value.trim();
      closeMenu();
      if (!text) return;
      if (text === "/abort" || text === "/stop") { input.value = ""; abort(); return; }
      if (text === "/compact" || text.startsWith("/compact ")) {
        input.value = "";
        compact(text.slice("/compact".length).trim());
        return;
      }
      if (text.startsWith("/")) { notice("Unknown command " + text.split(/\s/)[0] + ": /compact [focus] or /abort."); return; }
      prompt(text);
    }

    // ---- slash menu

    let menuItems = [], menuSel = -1;

    function menuOpen() { return !menu.hidden; }

    function openMenu() {
      const cs = compactStatus();
      const u = st.snap?.usage;
      const busy = !!(st.snap?.busy || st.busy);
      menuItems = [
        { cmd: "/compact", label: "Compact", arg: " [focus]", ok: cs.ok, why: cs.why },
        { cmd: "/abort", label: "Stop", arg: "", ok: busy, why: busy ? "Stop the running " + (st.busy?.activity || st.snap?.activity || "work") + "." : "Nothing is running." },
      ];
      const typed = input.value.split(/\s/)[0];
      const shown = menuItems.filter((m) => m.cmd.startsWith(typed));
      menu.replaceChildren(...[...shown.map((m) => el("li", {
        role: "option", id: "menu-" + m.cmd.slice(1), "aria-disabled": m.ok ? "false" : "true", "aria-selected": "false",
        "data-cmd": m.cmd, onmousedown: (e) => { e.preventDefault(); pick(m); },
      }, el("span", { class: "cmd" }, m.cmd + m.arg), " ", el("span", {}, m.label), el("span", { class: "why" }, m.why))),
      u ? el("li", { role: "presentation", class: "usage-line", id: "menu-usage" },
        `Next request: ${num(u.tokens)} of ${num(u.input_limit)} tokens (${u.percent.toFixed(1)}%), threshold ${num(u.threshold)}`) : null].filter(Boolean));
      menuItems = shown;
      menu.hidden = shown.length === 0;
      input.setAttribute("aria-expanded", String(!menu.hidden));
      setSel(shown.findIndex((m) => m.ok));
    }

    function closeMenu() {
      menu.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      menuSel = -1;
    }

    function setSel(i) {
      menuSel = i;
      menu.querySelectorAll("li[role=option]").forEach((li, k) => li.setAttribute("aria-selected", String(k === i)));
      if (i >= 0) input.setAttribute("aria-activedescendant", "menu-" + menuItems[i].cmd.slice(1));
      else input.removeAttribute("aria-activedescendant");
    }

    function pick(m) {
      if (!m.ok) { notice(m.why); return; }
      closeMenu();
      if (m.cmd === "/abort") { input.value = ""; abort(); return; }
      input.value = "/compact ";
      input.focus();
    }

    input.addEventListener("input", () => {
      if (input.value.startsWith("/") && !input.value.includes(" ")) openMenu();
      else closeMenu();
    });
    input.addEventListener("keyup", (e) => { if (e.key === "Enter") menuEnter = false; });
    input.addEventListener("keydown", (e) => {
      menuEnter = false;
      if (!menuOpen()) return;
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const n = menuItems.length;
        if (n) setSel(((menuSel < 0 ? (e.key === "ArrowDown" ? -1 : 0) : menuSel) + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
      } else if (e.key === "Escape") {
        e.preventDefault();
        closeMenu();
      } else if ((e.key === "Enter" || e.key === "Tab") && menuSel >= 0) {
        const m = menuItems[menuSel];
        // Enter on a complete command runs it; otherwise it is chosen.
        if (e.key === "Enter" && input.value.trim() === m.cmd) { e.preventDefault(); submit(); return; }
        e.preventDefault();
        menuEnter = e.key === "Enter";
        pick(m);
      }
    });
    input.addEventListener("blur", () => setTimeout(closeMenu, 100));

    // ---- rendering

    function renderHead() {
      const s = st.snap;
      document.title = (s.id) + " · condense";
      headEl.replaceChildren(
        el("h1", {}, s.id),
        el("span", {}, "Model ", el("strong", {}, s.config.model)),
        el("span", {}, num(s.messages) + " messages"),
        el("span", { class: "muted" }, "strategy " + (s.config.strategy || "pipeline")));
      usageEl.replaceChildren(el("div", { class: "small muted" }, "Next request (before any compaction)"), usageBar(s.usage, "Context usage of the next request"));
    }

    function renderStatus() {
      const kids = [];
      const shown = st.compacting || st.busy;
      if (shown) {
        const secs = Math.max(0, Math.floor((Date.now() - shown.since) / 1000));
        const what = st.compacting ? "Compacting" : st.busy.activity === "prompt" ? "Running the prompt" : st.busy.activity === "compaction" ? "Compacting" : "Busy";
        const phase = st.compacting?.phase;
        kids.push(el("span", { class: "busy", id: "busy-status", "data-activity": st.busy?.activity || "compaction" },
          `${what}${phase ? " (" + phase + ")" : ""}… ${secs}s`));
      } else if (st.result) {
        kids.push(el("span", { id: "result-status" }, st.result));
      }
      if (st.conn !== "live") kids.push(el("span", { class: "conn", id: "conn-status" }, st.conn === "reconnecting" ? "reconnecting…" : "connecting…"));
      statusEl.replaceChildren(...kids);
      // Whether the events that happened before the page loaded are in
      // (tests wait for it).
      if (st.replayUpTo !== null && st.lastSeen >= st.replayUpTo) statusEl.dataset.replayed = "true";
      stopBtn.hidden = !st.busy && !st.snap?.busy;
      clearInterval(tick);
      if (shown) tick = setInterval(renderStatusTick, 1000);
    }

    function renderStatusTick() {
      const b = document.getElementById("busy-status");
      const shown = st.compacting || st.busy;
      if (!b || !shown) return;
      const secs = Math.max(0, Math.floor((Date.now() - shown.since) / 1000));
      b.textContent = b.textContent.replace(/\d+s$/, secs + "s");
    }

    function renderComposer() {
      const cs = compactStatus();
      composer.dataset.compact = cs.ok ? "available" : "unavailable";
      if (menuOpen()) {
        const sel = menuItems[menuSel]?.cmd;
        openMenu();
        const k = menuItems.findIndex((m) => m.cmd === sel);
        if (k >= 0) setSel(k);
      }
    }

    function remember(details, key) {
      details.dataset.key = key;
      if (st.open.has(key)) details.open = true;
      details.addEventListener("toggle", () => { if (details.open) st.open.add(key); else st.open.delete(key); });
      return details;
    }

    function resultText(p) {
      return (p.content || []).map((c) => c.type === "text" ? c.text : "[" + c.type + "]").join("\n");
    }

    // renderConversation lays the log out as the next request renders it:
    // each overlay item in order, spans under their summary or drop marker,
    // tool calls folded with their results.
    function renderConversation() {
      const msgs = st.messages;
      const byIndex = new Map();
      for (const it of st.overlay) if (it.index >= 0 && !it.covers) byIndex.set(it.index, it);
      // results: call id → {index, part}
      const results = new Map();
      msgs.forEach((m, i) => { for (const p of m.parts || []) if (p.type === "tool_result") results.set(p.call_id, { index: i, part: p }); });
      const cps = new Map(st.checkpoints.map((c) => [c.id, c]));
      const atBottom = convEl.scrollHeight - convEl.scrollTop - convEl.clientHeight < 40;

      // messageView renders log message i; folded marks tool messages whose
      // results were shown with their calls.
      const folded = new Set();
      function messageView(i) {
        const m = msgs[i];
        if (!m) return null;
        if (m.role === "tool" && (m.parts || []).every((p) => p.type !== "tool_result" || folded.has(p.call_id))) return null;
        const ov = byIndex.get(i) || { rendering: "verbatim" };
        const box = el("article", { class: "msg " + m.role, "data-index": i, "data-rendering": ov.rendering },
          el("div", { class: "role" }, el("span", {}, m.role), el("span", { class: "muted" }, "#" + i),
            ov.rendering !== "verbatim" ? el("span", { class: "badge masked" }, ov.rendering + (ov.checkpoint ? " by " + ov.checkpoint : "")) : null));
        for (const p of m.parts || []) {
          if (p.type === "text") box.append(el("div", { class: "text" }, p.text));
          else if (p.type === "thinking") box.append(remember(el("details", { class: "thinking" }, el("summary", {}, "Thinking"), el("div", { class: "text" }, p.text || "(redacted)")), `think-${i}`));
          else if (p.type === "tool_call") {
            const r = results.get(p.id);
            if (r) folded.add(p.id);
            const rov = r ? byIndex.get(r.index) || { rendering: "verbatim" } : null;
            const masked = rov && rov.rendering !== "verbatim" && rov.recall;
            const sum = el("summary", {}, "Tool call ", el("code", {}, p.name), " ",
              el("span", { class: "muted small" }, shortInput(p.input)),
              r?.part.is_error ? el("span", { class: "badge err" }, "error") : null,
              !r ? el("span", { class: "badge" }, "no result") : null,
              masked ? el("span", { class: "badge masked" }, rov.rendering) : null);
            const d = remember(el("details", { class: "tool", "data-call": p.id }, sum,
              el("div", { class: "small muted" }, "Input"), el("pre", {}, JSON.stringify(p.input, null, 1))), `call-${p.id}`);
            if (r) d.append(el("div", { class: "small muted" }, "Result (#" + r.index + ")"), resultView(r, rov));
            box.append(d);
            if (masked) box.append(maskedBox(rov, r.index));
          } else if (p.type === "tool_result") {
            const rov = ov;
            box.append(el("div", { class: "small muted" }, "Result of " + p.call_id), resultView({ index: i, part: p }, rov));
            if (rov.rendering !== "verbatim" && rov.recall) box.append(maskedBox(rov, i));
          } else if (p.type === "image") box.append(el("div", { class: "muted" }, "[image]"));
          else box.append(el("div", { class: "muted" }, "[" + p.type + "]"));
        }
        return box;
      }
      function resultView(r, rov) {
        if (rov && rov.rendering !== "verbatim" && rov.recall) {
          return el("p", { class: "muted small" }, "Not in the next request: " + rov.rendering + ". Recall it below.");
        }
        return el("pre", {}, resultText(r.part));
      }
      function maskedBox(rov, index) {
        const target = el("div", {});
        const btn = el("button", { type: "button", class: "recall", "data-ref": rov.recall, "aria-label": "Recall the original output of message " + index + " (" + rov.recall + ")" }, "Recall original");
        btn.addEventListener("click", () => recall(rov.recall, target, btn));
        if (st.recalled.has(rov.recall)) { target.append(recalledView(rov.recall, st.recalled.get(rov.recall))); btn.textContent = "Recalled"; btn.disabled = true; }
        return el("div", { class: "masked-box", "data-masked": index },
          el("div", {}, `Tool output ${rov.rendering}${rov.checkpoint ? " by " + rov.checkpoint : ""} · recall `, el("code", {}, rov.recall), " "), btn, target);
      }

      // A log message renders as its own overlay item, inside the span a
      // summary or drop marker covers, or (appended after the overlay was
      // read) after them. A span may leave a message of its own outside
      // (the task a summary keeps verbatim before it).
      const itemized = new Set();
      for (const it of st.overlay) if (it.index >= 0 && !it.covers) itemized.add(it.index);
      const covered = new Set();
      for (const it of st.overlay) if (it.covers) for (let i = it.covers[0]; i < it.covers[1]; i++) if (!itemized.has(i)) covered.add(i);
      const out = [];
      let gap = 0; // log messages before gap that are neither items nor covered are laid out
      const flushGaps = (k) => {
        for (; gap < Math.min(k, msgs.length); gap++) {
          if (itemized.has(gap) || covered.has(gap)) continue;
          const v = messageView(gap);
          if (v) out.push(v);
        }
      };
      const seenSpans = new Set();
      for (const it of st.overlay) {
        if (it.covers) {
          const [a, b] = it.covers;
          const key = `${it.rendering}-${a}-${b}`;
          if (seenSpans.has(key)) continue;
          seenSpans.add(key);
          flushGaps(a);
          const inner = [];
          let n = 0;
          for (let i = a; i < b; i++) {
            if (itemized.has(i)) continue;
            n++;
            const v = messageView(i);
            if (v) inner.push(v);
          }
          const cp = cps.get(it.checkpoint);
          const dropped = it.rendering === "dropped";
          const label = `${n} message${n === 1 ? "" : "s"} ${dropped ? "dropped" : "summarized"} (#${a}–#${b - 1})`;
          const d = remember(el("details", {}, el("summary", {}, dropped ? "Show the dropped messages" : "Show the summarized messages"), el("div", { class: "inner" }, inner)), `span-${key}`);
          out.push(el("section", { class: "span-block" + (dropped ? " dropped" : ""), "data-covers": `${a}-${b}`, "data-rendering": it.rendering, "aria-label": label },
            el("div", { class: "label" }, label + (it.checkpoint ? " by " + it.checkpoint : "")),
            !dropped && cp?.summary ? el("div", { class: "text" }, cp.summary) : null,
            d));
        } else if (it.index < 0) {
          out.push(el("div", { class: "muted small" }, "[" + it.rendering + "]"));
        } else {
          flushGaps(it.index);
          const v = messageView(it.index);
          if (v) out.push(v);
        }
      }
      flushGaps(msgs.length);
      convEl.replaceChildren(...(out.length ? out : [el("p", { class: "muted" }, "No messages yet.")]));
      if (atBottom) convEl.lastElementChild?.scrollIntoView?.({ block: "nearest" });
    }

    function shortInput(input) {
      const s = JSON.stringify(input ?? {});
      return s.length > 60 ? s.slice(0, 59) + "…" : s;
    }

    // renderChart draws the tokens of each rendered request (after
    // compaction; before it, where a request compacted), the threshold and
    // the input limit, a mark at each compaction, and the next request's
    // estimate.
    function renderChart() {
      const pts = st.series.map((p, i) => ({ x: i, tokens: p.tokens, before: p.tokens_before, threshold: p.threshold, limit: p.input_limit, cps: p.compactions || [], time: new Date(p.time).getTime() }));
      const u = st.snap?.usage;
      if (u) pts.push({ x: pts.length, tokens: u.tokens, before: u.tokens, threshold: u.threshold, limit: u.input_limit, cps: [], next: true, time: Date.now() });
      if (!pts.length) {
        chartEl.replaceChildren(el("h2", { id: "chart-h" }, "Context usage"), el("p", { class: "small muted" }, "Waiting for the session (a compaction in progress holds it)…"));
        return;
      }
      // Compactions outside rendered requests (manual ones, undone
      // series marks aside) are marked between the requests around them.
      const inSeries = new Set(pts.flatMap((p) => p.cps));
      const extra = st.checkpoints.filter((c) => !inSeries.has(c.id)).map((c) => {
        const t = new Date(c.time).getTime();
        let k = pts.findIndex((p) => p.time > t);
        if (k < 0) k = pts.length - 1;
        const rec = c.records?.[c.records.length - 1];
        return { x: k - 0.5, id: c.id, before: c.records?.[0]?.tokens_before, after: rec?.tokens_after };
      });
      // One SVG unit per CSS pixel, so that the labels keep their size on
      // a phone.
      const W = Math.round(Math.max(300, Math.min(900, (chartEl.clientWidth || 592) - 32))), H = 260, L = 48, R = 12, T = 14, B = 34;
      const ymax = Math.max(1, ...pts.map((p) => Math.max(p.limit, p.before, p.tokens))) * 1.08;
      const n = Math.max(1, pts.length - 1);
      const X = (x) => pts.length > 1 ? L + ((W - L - R) * Math.max(0, x)) / n : W - R - 8;
      const Y = (y) => T + (H - T - B) * (1 - y / ymax);
      const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "chart-title chart-desc", "font-size": 11, "font-family": "system-ui, sans-serif" });
      const last = pts[pts.length - 1];
      g.append(svg("title", { id: "chart-title" }, "Context usage per request"),
        svg("desc", { id: "chart-desc" }, `${st.series.length} rendered requests; ${u ? "next" : "last"} request ${num(last.tokens)} tokens of ${num(last.limit)}; ${st.checkpoints.length} live checkpoints.`));
      // axes and grid
      for (let k = 0; k <= 4; k++) {
        const v = (ymax / 1.08) * (k / 4);
        g.append(svg("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: "#e3e6ea" }),
          svg("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end", fill: "#525a66" }, v >= 1000 ? (v / 1000).toFixed(v >= 10000 ? 0 : 1) + "k" : num(v)));
      }
      if (pts.length > 1) g.append(svg("text", { x: L, y: H - 8, fill: "#525a66" }, "request 1"));
      g.append(svg("text", { x: W - R, y: H - 8, "text-anchor": "end", fill: "#525a66" }, !u ? "request " + pts.length : pts.length > 1 ? "next" : "next request"));
      const path = (key) => pts.map((p, i) => `${i ? "L" : "M"}${X(p.x).toFixed(1)},${Y(p[key]).toFixed(1)}`).join("");
      g.append(svg("path", { d: path("limit"), fill: "none", stroke: "#b3261e", "stroke-width": 1.5, class: "limit" }),
        svg("path", { d: path("threshold"), fill: "none", stroke: "#8a4b00", "stroke-width": 1.5, "stroke-dasharray": "6 4", class: "threshold" }),
        svg("path", { d: path("tokens"), fill: "none", stroke: "#0b57d0", "stroke-width": 2, class: "tokens" }));
      const marks = [];
      for (const p of pts) {
        if (p.before > p.tokens && !p.next) {
          g.append(svg("line", { x1: X(p.x), x2: X(p.x), y1: Y(p.before), y2: Y(p.tokens), stroke: "#7a8591", "stroke-width": 2, "stroke-dasharray": "2 2" }),
            svg("circle", { cx: X(p.x), cy: Y(p.before), r: 3, fill: "#7a8591" }));
        }
        g.append(svg("circle", { cx: X(p.x), cy: Y(p.tokens), r: p.next ? 4 : 3, fill: p.next ? "#fff" : "#0b57d0", stroke: "#0b57d0", "stroke-width": 1.5 },
          svg("title", {}, p.next ? `next request: ${num(p.tokens)} tokens` : `request ${p.x + 1}: ${num(p.tokens)} tokens${p.before > p.tokens ? " (" + num(p.before) + " before compaction)" : ""}`)));
        for (const id of p.cps) marks.push({ x: p.x, id });
      }
      for (const e of extra) marks.push({ x: Math.max(0, e.x), id: e.id, before: e.before, after: e.after });
      marks.forEach((m, k) => {
        const x = X(m.x);
        g.append(svg("line", { x1: x, x2: x, y1: T, y2: H - B, stroke: "#6a3fb5", "stroke-width": 1, "stroke-dasharray": "3 3", class: "compaction-mark", "data-checkpoint": m.id }),
          svg("text", { x: x + 3, y: T + 10 + (k % 3) * 12, fill: "#6a3fb5" }, m.id));
        if (m.before && m.after) {
          g.append(svg("line", { x1: x, x2: x, y1: Y(m.before), y2: Y(m.after), stroke: "#6a3fb5", "stroke-width": 3, opacity: 0.5 }));
        }
      });
      chartEl.replaceChildren(...[el("h2", { id: "chart-h" }, "Context usage"), g,
        el("div", { class: "legend", "aria-hidden": "true" },
          el("span", { class: "l-tokens" }, "tokens sent"), el("span", { class: "l-before" }, "before compaction"),
          el("span", { class: "l-threshold" }, "threshold"), el("span", { class: "l-limit" }, "input limit"),
          el("span", { class: "l-compaction" }, "compaction")),
        st.series.length ? null : el("p", { class: "small muted" }, "No request rendered yet: the chart shows the next request's estimate.")].filter(Boolean));
    }

    function renderCheckpoints() {
      const list = [...st.checkpoints].reverse();
      cpsEl.replaceChildren(el("h2", { id: "cps-h" }, "Checkpoints"),
        list.length ? el("ol", { class: "checkpoints", reversed: true }, list.map((c) => {
          const recs = c.records || [];
          const before = recs[0]?.tokens_before, after = recs[recs.length - 1]?.tokens_after;
          const led = st.ledger[c.id] || { kept: [], demoted: 0 };
          const gate = recs.reduce((a, r) => ({ kept: a.kept + (r.gate?.kept_by_summary || 0), added: a.added + (r.gate?.added_back || 0), demoted: a.demoted + (r.gate?.demoted || 0) }), { kept: 0, added: 0, demoted: 0 });
          const manual = recs.some((r) => r.manual), emergency = recs.some((r) => r.emergency);
          const edits = {};
          for (const e of c.edits || []) edits[e.edit] = (edits[e.edit] || 0) + Math.max(1, e.end - e.start);
          return el("li", { "data-checkpoint": c.id },
            el("div", { class: "cp-head" },
              el("span", {}, el("strong", {}, c.id), " · ", c.strategy, manual ? " · manual" : "", emergency ? " · emergency" : ""),
              el("button", { type: "button", class: "undo", "data-checkpoint": c.id, "aria-label": "Undo checkpoint " + c.id + " and every later one", onclick: () => undo(c.id) }, "Undo")),
            el("div", { class: "tokens" }, before !== undefined ? `${num(before)} → ${num(after)} tokens` : "—"),
            el("dl", {},
              el("dt", {}, "When"), el("dd", {}, new Date(c.time).toLocaleString() + " (" + ago(c.time) + ")"),
              el("dt", {}, "Changes"), el("dd", {}, Object.entries(edits).map(([k, v]) => `${k} ${v}`).join(", ") || "none"),
              el("dt", {}, "Ledger"), el("dd", {}, `kept ${led.kept.length} item${led.kept.length === 1 ? "" : "s"}, demoted ${led.demoted} to recall-only`,
                led.kept.length ? remember(el("details", {}, el("summary", {}, "Kept items"), el("ul", { class: "kept" }, led.kept.map((k) => el("li", { class: "mono" }, k)))), "kept-" + c.id) : null),
              el("dt", {}, "Quality gate"), el("dd", { class: "gate" }, c.summary || gate.kept || gate.added
                ? `${gate.kept} kept by the summary, ${gate.added} added back, ${gate.demoted} demoted`
                : "no summary to check"),
              c.model ? [el("dt", {}, "Summarizer"), el("dd", {}, (c.provider ? c.provider + "/" : "") + c.model)] : null));
        })) : el("p", { class: "muted small", id: "no-checkpoints" }, "No checkpoints: nothing has been compacted."));
    }

    // ---- start

    let resizeTimer = null;
    const onResize = () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => { if (st.snap && !stopped) renderChart(); }, 100);
    };
    window.addEventListener("resize", onResize);

    // The status comes first and does not wait for the session (a
    // snapshot waits while a compaction runs): the stream starts 50 events
    // back, and those events up to now only set the status.
    api("GET", base + "/status").then((s) => {
      if (stopped) return;
      st.replayUpTo = s.last_event_id;
      st.lastSeen = Math.max(0, s.last_event_id - 50);
      if (s.busy && !st.busy) st.busy = { activity: s.activity, since: Date.now(), phase: "" };
      renderStatus();
      connect();
    }).catch((err) => {
      if (err.status === 404) main.replaceChildren(el("p", { class: "error", role: "alert" }, "No session " + id + "."), el("a", { href: "#/" }, "← Sessions"));
    });
    loadAll();
    return {
      stop() {
        stopped = true;
        window.removeEventListener("resize", onResize);
        es?.close();
        clearInterval(tick);
        clearTimeout(reloadTimer); clearTimeout(reconnectTimer); clearTimeout(noticeTimer);
      },
    };
  }

  route();
})();
