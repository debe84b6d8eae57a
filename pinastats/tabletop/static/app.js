// The Piña Coladice board: one ES module for the JupyterLab widget (anywidget) and the served page.
// model.get("view") is the session's view (pinastats/tabletop/view.py); model.send({cmd, ...}) acts.
// Three modes: "play" (a game against the agents), "setup" and "table" (My table: a game played
// with real dice, the dice entered by tapping their faces).
const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];  // Okabe-Ito, colour-blind safe
const SEAT_SHAPES = ["●", "■", "▲", "◆"];  // seats told apart by shape as well as colour
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "value") e.value = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

const pct = (p) => `${(100 * p).toFixed(1)}%`;
const PAUSE = 450;  // ms between two revealed moves of the agents
const token = (s, label) => el("span", { class: "pina-token", style: `color:${SEAT_COLOURS[s]}`,
  title: label, "aria-label": label }, SEAT_SHAPES[s]);

function render({ model, el: root }) {
  let held = new Set();
  let lastKey = "";
  let revealed = null;  // log lines shown so far: the agents' moves appear one by one
  let timer = null;
  let mode = "";
  let entry = [];  // My table: the dice being entered
  let happyFace = null;  // My table: the Happy Hour face tapped
  // My table setup, kept in the page until sent
  const draft = { coasters: Array(16).fill(""), tokens: Array.from({ length: 16 }, () => []),
    names: ["", ""], to_move: 0, seat: 0, position: "" };
  root.classList.add("pina-app");
  root.tabIndex = 0;

  const send = (msg) => model.send(msg);
  const roll = () => { send({ cmd: "roll", hold: [...held] }); held = new Set(); };

  function seatsBox(v) {
    return el("div", { class: "pina-seats" }, v.seats.map((s) => el("div", {
      class: `pina-seat${v.to_move === s.seat ? " to-move" : ""}`, style: `border-color:${SEAT_COLOURS[s.seat]}`,
    }, token(s.seat, s.name), ` ${s.name} — ${s.text}`, v.to_move === s.seat ? el("span", { class: "pina-turn" }, " · to play") : null)));
  }

  function gridBox(v, opts) {
    const grid = el("div", { class: "pina-grid", style: `grid-template-columns: repeat(${v.cols}, minmax(0, 1fr))` });
    for (const c of v.board) {
      const clickable = opts.clickable.has(c.cell);
      const a = opts.best.get(c.cell);
      const names = v.seats.map((s) => s.name);
      const tokens = (c.spaces || []).map((s) => s === null
        ? el("span", { class: "pina-space" }, "·") : token(s, names[s] || `Seat ${s + 1}`));
      const cls = `pina-cell${clickable ? " legal" : ""}${opts.lit.has(c.cell) && !clickable ? " lit" : ""}${a && a.best ? " best" : ""}`;
      grid.append(el("button", {
        class: cls, "data-cell": c.cell, disabled: !clickable,
        style: `grid-row:${c.row + 1};grid-column:${c.col + 1}`,
        "aria-label": `${c.coaster}, side ${c.side}`,
        onclick: () => opts.onclick(c.cell),
      },
        el("div", { class: "pina-coaster" }, c.coaster),
        el("div", { class: "pina-points" }, c.points_text),
        el("div", { class: "pina-tokens" }, tokens),
        a ? el("div", { class: "pina-cell-win" }, `win ${pct(a.win)}`) : null));
    }
    return grid;
  }

  function advicePanel(v) {
    const advice = v.advice || null;
    if (!model.get("coach") || !advice) return null;
    const box = el("div", { class: "pina-coach" });
    box.append(el("h4", {}, `Coach — ${advice.source}`),
      el("div", { class: `pina-panel-win${advice.lost ? " lost" : ""}` }, advice.verdict));
    const rows = advice.keeps
      ? advice.keeps.map((k) => el("tr", { class: k.best ? "best" : "" },
          el("td", {}, k.label), el("td", {}, k.points.toFixed(2)), el("td", { class: "win" }, pct(k.win)),
          el("td", {}, k.best ? "★ best" : "")))
      : advice.placements.map((a) => el("tr", { class: a.best ? "best" : "" },
          el("td", {}, el("div", {}, a.coaster), el("div", { class: "pina-why" }, a.why)),
          el("td", {}, a.points_text), el("td", { class: "win" }, pct(a.win)), el("td", {}, a.best ? "★ best" : "")));
    box.append(el("div", { class: "pina-advice-box" }, el("table", { class: "pina-advice" },
      el("thead", {}, el("tr", {}, el("th", {}, advice.keeps ? "keep" : "placement"),
        el("th", {}, advice.keeps ? "exp. points" : "points"), el("th", {}, "chance to win"), el("th", {}, ""))),
      el("tbody", {}, rows))));
    return box;
  }

  function reviewBox() {
    const r = model.get("review");
    if (!r || !r.sentences || !r.sentences.length) return null;
    const box = el("div", { class: "pina-review-box" }, el("h4", {}, "Review"));
    const c = r.chart;
    if (c && c.turns && c.turns.length > 1) {
      const W = 300, H = 120, n = c.turns.length;
      const x = (i) => 20 + (i * (W - 30)) / (n - 1), y = (p) => 10 + (1 - p) * (H - 25);
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("class", "pina-chart");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", `each seat's chance to win through the game (${r.chart_by})`);
      const add = (tag, attrs) => { const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
        for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); return e; };
      add("line", { x1: 20, x2: W - 10, y1: y(0.5), y2: y(0.5), stroke: "#ccc", "stroke-dasharray": "3 3" });
      for (const s of c.series) {
        add("polyline", { fill: "none", stroke: SEAT_COLOURS[s.seat], "stroke-width": 2,
          points: s.chances.map((p, i) => `${x(i)},${y(p)}`).join(" ") });
      }
      for (const t of c.turning) {
        const i = c.turns.indexOf(t);
        add("circle", { cx: x(i + 0.5), cy: y(0.5), r: 4, fill: "none", stroke: "#1b1b1b" });
      }
      const label = add("text", { x: 2, y: 12, "font-size": 9 }); label.textContent = "100%";
      const zero = add("text", { x: 2, y: H - 14, "font-size": 9 }); zero.textContent = "0%";
      box.append(svg, el("div", { class: "pina-legend" }, c.series.map((s) => el("span", {},
        token(s.seat, s.name), ` ${s.name}  `)), ` — chance to win after each turn (${r.chart_by})`));
    }
    box.append(el("div", { class: "pina-review" }, r.sentences.map((t) => el("p", {}, t))));
    return box;
  }

  function logBox(v, hidden) {
    const lines = (v.log || []).slice(0, Math.max(0, (v.log || []).length - hidden));
    const log = el("ol", { class: "pina-log", "aria-label": "every turn" }, lines.map((l) => el("li", {}, l)));
    setTimeout(() => { log.scrollTop = log.scrollHeight; }, 0);
    return log;
  }

  function topBar(v) {
    const bar = el("div", { class: "pina-bar" });
    if (v.mode === "play") {
      bar.append(el("button", { class: "pina-new", onclick: () => send({ cmd: "new" }) }, "New game"),
        el("button", { class: "pina-table", onclick: () => send({ cmd: "table" }) }, "My table"));
    } else {
      bar.append(el("button", { class: "pina-new", onclick: () => send({ cmd: "new" }) }, "New table"),
        el("button", { class: "pina-play", onclick: () => send({ cmd: "play" }) }, "Play the agents"));
    }
    const coachOn = model.get("coach");
    bar.append(el("label", { class: "pina-coach-toggle" },
      el("input", { type: "checkbox", checked: coachOn, onchange: (e) => { model.set("coach", e.target.checked); model.save_changes(); } }),
      " coach beside me"));
    if (v.mode === "play") bar.append(el("span", { class: "pina-seed" }, `seed ${v.seed}`));
    return bar;
  }

  function playControls(v, p, hidden) {
    const controls = el("div", { class: "pina-controls" });
    const mine = p && v.seats[p.seat].person;
    if (hidden) {
      controls.append(el("div", { class: "pina-ask", role: "status" }, "the other seats are playing…"));
    } else if (v.over) {
      controls.append(el("div", { class: "pina-result", role: "status" }, `Game over: ${v.result.text}.`),
        el("button", { class: "pina-export", onclick: () => send({ cmd: "export" }) }, "Export record"),
        el("button", { class: "pina-review", onclick: () => send({ cmd: "review" }) }, "Review my game"));
    } else if (!mine) {
      controls.append(el("div", {}, `${v.seats[p.seat].name} is playing…`));
    } else if (p.kind === "happy_hour") {
      controls.append(happyPrompt(p.dice, p.face, p.effect_name, p.effect_text,
        p.options.map((o, i) => ({ option: o, label: p.labels[i], win: p.advice ? p.advice[i] : null })),
        (o) => send({ cmd: "choose", option: o })));
    } else {
      controls.append(el("div", { class: "pina-dice" }, p.dice.map((d, i) => el("button", {
        class: `pina-die${held.has(i) ? " held" : ""}`, "data-die": i,
        disabled: p.kind !== "keep", "aria-pressed": held.has(i) ? "true" : "false",
        title: `die ${i + 1}: ${d}${held.has(i) ? " (held)" : ""}`,
        onclick: () => { if (held.has(i)) held.delete(i); else held.add(i); draw(); },
      }, `${PIPS[d]} ${d}`))));
      const ask = {
        roll: "Your turn: roll the dice.",
        keep: `Hold dice (tap, or keys 1-5) and roll again, or stop. Re-rolls left: ${p.rolls_left}.`
          + (p.lit && p.lit.length ? " Lit: the coasters these dice already make." : ""),
        place: p.legal.length ? "Place your token: tap a lit coaster." : "",
      }[p.kind];
      controls.append(el("div", { class: "pina-ask", role: "status" }, ask));
      if (p.kind === "roll") controls.append(el("button", { class: "pina-roll", onclick: () => roll() }, "Roll"));
      if (p.kind === "keep") {
        controls.append(el("button", { class: "pina-roll", onclick: () => roll() }, `Roll ${5 - held.size} dice`),
          el("button", { class: "pina-stop", onclick: () => send({ cmd: "stop" }) }, "Stop"));
      }
    }
    controls.append(el("button", { class: "pina-undo", disabled: !v.can_undo, onclick: () => send({ cmd: "undo" }) }, "Undo"));
    return controls;
  }

  function happyPrompt(dice, face, name, text, options, choose) {
    const box = el("div", { class: "pina-happy" },
      el("div", { class: "pina-ask", role: "status" },
        `No coaster takes ${dice.join(" ")} after the last roll: Happy Hour! The die shows ${PIPS[face]} ${face} — ${name}: ${text}.`));
    if (options.length === 0) return box;
    box.append(el("div", {}, "Choose:"));
    const best = options.some((o) => o.win !== null) ? Math.max(...options.map((o) => o.win ?? -1)) : null;
    box.append(el("div", { class: "pina-options" }, options.map((o) => el("button", {
      class: `pina-option${best !== null && o.win === best ? " best" : ""}`, onclick: () => choose(o.option),
    }, o.label, o.win !== null ? el("span", { class: "pina-option-win" }, ` — win ${pct(o.win)}${o.win === best ? " ★" : ""}`) : null))));
    return box;
  }

  function tableControls(v) {
    const controls = el("div", { class: "pina-controls" });
    if (v.over) {
      controls.append(el("div", { class: "pina-result", role: "status" }, `Game over: ${v.result.text}.`),
        el("button", { class: "pina-export", onclick: () => send({ cmd: "export" }) }, "Export log"),
        el("button", { class: "pina-review", onclick: () => send({ cmd: "review" }) }, "Review the game"));
    } else {
      const t = v.table;
      const who = v.seats[v.to_move].name;
      if (t.ending === "happy_hour") {
        if (happyFace === null) {
          controls.append(el("div", { class: "pina-ask", role: "status" },
            `${who}: no coaster takes ${t.dice.join(" ")} after the last roll. Roll the Happy Hour die and tap its face:`),
            el("div", { class: "pina-faces" }, t.faces.map((f) => el("button", { class: "pina-face", "data-face": f.face,
              onclick: () => { if (f.options.length > 1) { happyFace = f.face; draw(); } else send({ cmd: "happy", face: f.face }); } },
              `${PIPS[f.face]} ${f.effect_name}`))));
        } else {
          const f = t.faces[happyFace - 1];
          controls.append(happyPrompt(t.dice, f.face, f.effect_name, f.effect_text,
            f.options.map((o, i) => ({ option: o, label: f.labels[i], win: f.advice ? f.advice[i] : null })),
            (o) => { happyFace = null; send({ cmd: "happy", face: f.face, option: o }); }));
        }
      } else {
        const roll = t.roll + 1;
        const ask = t.roll === 0 ? `${who} to play: tap the five dice rolled (or type 1-6, Enter).`
          : t.roll < t.rolls ? `${who}: tap a lit coaster to place, or enter roll ${roll} of ${t.rolls} (all five dice showing).`
          : `${who}: last roll — tap a lit coaster to place.`;
        controls.append(el("div", { class: "pina-ask", role: "status" }, ask));
        if (t.dice.length) controls.append(el("div", { class: "pina-shown" }, `Dice showing (roll ${t.roll}): `, el("b", {}, t.dice.join(" "))));
        if (t.roll < t.rolls) {
          controls.append(el("div", { class: "pina-faces" }, [1, 2, 3, 4, 5, 6].map((f) => el("button", {
            class: "pina-face", "data-face": f, disabled: entry.length >= 5,
            onclick: () => { entry.push(f); draw(); } }, `${PIPS[f]} ${f}`))),
          el("div", { class: "pina-entry" }, "Entered: ", entry.length ? entry.map((d, i) => el("button", {
            class: "pina-die", title: "tap to remove", onclick: () => { entry.splice(i, 1); draw(); } }, `${PIPS[d]} ${d}`)) : "none yet",
            el("button", { class: "pina-enter", disabled: entry.length !== 5,
              onclick: () => { const d = entry; entry = []; send({ cmd: "dice", dice: d }); } }, `Enter roll ${roll}`)));
        }
        if (t.dice.length && t.ending === "pass") {
          controls.append(el("button", { class: "pina-pass", onclick: () => send({ cmd: "pass" }) }, "Pass (no coaster takes these dice)"));
        }
      }
    }
    controls.append(el("button", { class: "pina-undo", disabled: !v.can_undo, onclick: () => { entry = []; happyFace = null; send({ cmd: "undo" }); } }, "Undo"));
    return controls;
  }

  function setupBox(v) {
    const byName = new Map(v.catalogue.map((c) => [c.name.toLowerCase(), c]));
    const box = el("div", { class: "pina-setup" });
    box.append(el("h3", {}, "My table: set up the game on the table"));
    const names = el("div", { class: "pina-names" }, draft.names.map((n, i) => el("label", {},
      token(i, `Seat ${i + 1}`), ` Seat ${i + 1} `,
      el("input", { class: "pina-name", "data-seat": i, value: n, placeholder: `Seat ${i + 1}`, maxlength: 24,
        oninput: (e) => { draft.names[i] = e.target.value; } }))));
    names.append(
      el("button", { class: "pina-add-seat", disabled: draft.names.length >= 4, onclick: () => { draft.names.push(""); draw(); } }, "+ seat"),
      el("button", { class: "pina-remove-seat", disabled: draft.names.length <= 2, onclick: () => { draft.names.pop(); draft.seat = 0; draft.to_move = 0; draw(); } }, "− seat"));
    box.append(names);
    box.append(el("div", {}, "Paste a position line (pinastats notation):"),
      el("textarea", { class: "pina-paste", rows: 2, placeholder: "pc1 OD,T3,T4,T5/... 1",
        oninput: (e) => { draft.position = e.target.value; } }, draft.position),
      el("button", { class: "pina-setup-line", onclick: () => send({ cmd: "setup", position: draft.position.trim(),
        names: draft.names.map((n, i) => n.trim() || `Seat ${i + 1}`) }) }, "Set up from this line"));
    box.append(el("div", { class: "pina-or" }, "…or type each coaster (type-ahead), then tap the tokens on the table:"));
    box.append(el("div", { class: "pina-token-seat" }, "Tokens of: ", draft.names.map((n, i) => el("button", {
      class: `pina-seat-pick${draft.seat === i ? " picked" : ""}`, "aria-pressed": draft.seat === i ? "true" : "false",
      onclick: () => { draft.seat = i; draw(); } }, token(i, `Seat ${i + 1}`), ` ${n || `Seat ${i + 1}`}`))));
    const list = el("datalist", { id: "pina-coasters" }, v.catalogue.map((c) => el("option", { value: c.name })));
    const grid = el("div", { class: "pina-grid", style: "grid-template-columns: repeat(4, minmax(0, 1fr))" });
    for (const c of v.board) {
      const i = c.cell;
      grid.append(el("div", { class: "pina-cell setup", style: `grid-row:${c.row + 1};grid-column:${c.col + 1}` },
        el("input", { class: "pina-coaster-input", list: "pina-coasters", "data-cell": i, value: draft.coasters[i],
          placeholder: `#${i + 1}`, "aria-label": `coaster at row ${c.row + 1}, column ${c.col + 1}`,
          oninput: (e) => { draft.coasters[i] = e.target.value; },
          onchange: (e) => { const f = byName.get(e.target.value.trim().toLowerCase()); if (f) draft.coasters[i] = f.name; } }),
        el("button", { class: "pina-put", "data-cell": i, onclick: () => {
          const t = draft.tokens[i]; const k = t.indexOf(draft.seat);
          if (k >= 0) t.splice(k, 1); else if (t.length < 2) t.push(draft.seat);
          draw(); } }, draft.tokens[i].length ? draft.tokens[i].map((s) => token(s, draft.names[s] || `Seat ${s + 1}`)) : "tap: token")));
    }
    box.append(list, grid);
    box.append(el("label", {}, "To play now: ", el("select", { class: "pina-to-move",
      onchange: (e) => { draft.to_move = Number(e.target.value); } },
      draft.names.map((n, i) => el("option", { value: String(i), selected: draft.to_move === i }, n || `Seat ${i + 1}`)))));
    box.append(el("button", { class: "pina-start", onclick: () => send({ cmd: "setup", coasters: draft.coasters,
      tokens: draft.tokens, to_move: draft.to_move, names: draft.names.map((n, i) => n.trim() || `Seat ${i + 1}`) }) }, "Start"));
    return box;
  }

  function draw() {
    const v = model.get("view");
    if (!v || !v.board) { root.replaceChildren(el("p", {}, "loading…")); return; }
    if (v.mode !== mode) { mode = v.mode; revealed = null; entry = []; happyFace = null; }
    if (revealed === null || revealed > v.log_count || v.mode !== "play") revealed = v.log_count;
    const hidden = Math.max(0, v.log_count - revealed);
    if (hidden && timer === null) {
      timer = setTimeout(() => { timer = null; revealed += 1; draw(); }, PAUSE);
    }
    const message = model.get("message");
    const review = model.get("review");
    const shownInReview = review && review.sentences && review.sentences.length;  // drawn below
    const note = message && !shownInReview ? el("div", { class: "pina-message", role: "alert" }, message) : null;
    if (v.mode === "setup") {
      root.replaceChildren(el("div", { class: "pina-main" }, el("div", { class: "pina-left" }, topBar(v), note, setupBox(v))));
      return;
    }
    const p = v.pending || null;
    const key = p ? `${v.turn}/${p.kind}/${p.dice.join("")}/${p.rolls_left}` : "over";
    if (key !== lastKey) { held = new Set(); lastKey = key; }
    const advice = v.advice || null;
    const best = new Map((advice && advice.placements || []).map((a) => [a.cell, a]));
    let clickable = new Set(), lit = new Set(), onclick = () => {};
    if (v.mode === "play") {
      const mine = p && v.seats[p.seat].person && !hidden;
      if (mine && p.kind === "place") clickable = new Set(p.legal);
      if (mine && p.kind === "keep") lit = new Set(p.lit || []);
      onclick = (cell) => send({ cmd: "place", cell });
    } else if (!v.over && v.table.ending !== "happy_hour") {
      clickable = new Set(v.table.legal);
      onclick = (cell) => { entry = []; send({ cmd: "place", cell }); };
    }
    const announce = (v.announce || []).length && !hidden
      ? el("div", { class: "pina-announce", role: "status" }, v.announce.join(" ")) : null;
    const controls = v.mode === "play" ? playControls(v, p, hidden) : tableControls(v);
    const position = v.position ? el("div", { class: "pina-position", title: "the position as one line (docs/notation.md): pinastats advise --position, pinastats table --position" },
      "position: ", el("code", {}, v.position)) : null;
    const left = el("div", { class: "pina-left" }, topBar(v), announce, seatsBox(v),
      gridBox(v, { clickable, lit, best, onclick }), controls, note);
    const right = el("div", { class: "pina-right" }, advicePanel(v), reviewBox(), el("h4", {}, "Every turn"), logBox(v, hidden), position);
    root.replaceChildren(el("div", { class: "pina-main" }, left, right));
  }

  root.addEventListener("keydown", (e) => {
    const v = model.get("view");
    if (!v || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
    if (v.mode === "table" && !v.over && v.table.ending !== "happy_hour" && v.table.roll < v.table.rolls) {
      // at a real table: type the faces 1-6, Backspace takes one back, Enter enters the roll
      if (e.key >= "1" && e.key <= "6" && entry.length < 5) { entry.push(Number(e.key)); draw(); }
      else if (e.key === "Backspace" && entry.length) { entry.pop(); draw(); }
      else if (e.key === "Enter" && entry.length === 5) { const d = entry; entry = []; send({ cmd: "dice", dice: d }); }
      return;
    }
    if (v.mode !== "play") return;
    if (v.log_count > revealed) return;  // the agents' moves are still being shown
    const p = v.pending;
    if (!p || !v.seats[p.seat].person) return;
    if (p.kind === "keep" && e.key >= "1" && e.key <= "5") {
      const i = Number(e.key) - 1;
      if (held.has(i)) held.delete(i); else held.add(i);
      draw();
    } else if (e.key === "Enter" && (p.kind === "keep" || p.kind === "roll")) roll();
    else if ((e.key === "s" || e.key === "S") && p.kind === "keep") send({ cmd: "stop" });
    else if (e.key === "u" || e.key === "U") send({ cmd: "undo" });
  });
  model.on("change:view", draw);
  model.on("change:coach", draw);
  model.on("change:message", draw);
  model.on("change:review", draw);
  draw();
}

export default { render };
