// The Piña Coladice board: one ES module for the JupyterLab widget (anywidget) and the served page.
// model.get("view") is the session's view (pinastats/play/view.py); model.send({cmd, ...}) acts.
const SEAT_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7"];  // Okabe-Ito, colour-blind safe
const SEAT_SHAPES = ["●", "■", "▲", "◆"];  // seats told apart by shape as well as colour
const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

const pct = (p) => `${(100 * p).toFixed(1)}%`;
const PAUSE = 450;  // ms between two revealed moves of the agents

function render({ model, el: root }) {
  let held = new Set();
  let lastKey = "";
  let revealed = null;  // log lines shown so far: the agents' moves appear one by one
  let timer = null;
  root.classList.add("pina-app");
  root.tabIndex = 0;

  const send = (msg) => model.send(msg);
  const roll = () => { send({ cmd: "roll", hold: [...held] }); held = new Set(); };

  function draw() {
    const v = model.get("view");
    if (!v || !v.board) { root.replaceChildren(el("p", {}, "loading…")); return; }
    if (revealed === null) revealed = v.log_count;
    const hidden = Math.max(0, v.log_count - revealed);
    if (hidden && timer === null) {
      timer = setTimeout(() => { timer = null; revealed += 1; draw(); }, PAUSE);
    }
    const p = v.pending || null;
    const key = p ? `${v.turn}/${p.kind}/${p.dice.join("")}/${p.rolls_left}` : "over";
    if (key !== lastKey) { held = new Set(); lastKey = key; }
    const mine = p && v.seats[p.seat].person;
    const legal = new Set(p && p.kind === "place" ? p.legal : []);
    const advice = v.advice || null;
    const best = new Map((advice && advice.placements || []).map((a) => [a.cell, a]));

    const grid = el("div", { class: "pina-grid", style: `grid-template-columns: repeat(${v.cols}, 1fr)` });
    for (const c of v.board) {
      const isLegal = mine && legal.has(c.cell);
      const a = best.get(c.cell);
      const tokens = c.spaces.map((s) => s === null
        ? el("span", { class: "pina-space" }, "·")
        : el("span", { class: "pina-token", style: `color:${SEAT_COLOURS[s]}`, title: `seat ${s}` },
             `${SEAT_SHAPES[s]}${s}`));
      const cell = el("button", {
        class: `pina-cell${isLegal ? " legal" : ""}${a && a.best ? " best" : ""}`,
        "data-cell": c.cell, disabled: !isLegal,
        style: `grid-row:${c.row + 1};grid-column:${c.col + 1}`,
        "aria-label": `cell ${c.cell}: ${c.coaster}, side ${c.side}`,
        onclick: () => send({ cmd: "place", cell: c.cell }),
      },
        el("div", { class: "pina-coaster" }, c.coaster),
        el("div", { class: "pina-points" }, `side ${c.side} · ${c.points.join("/")} pts`),
        el("div", { class: "pina-tokens" }, tokens),
        a ? el("div", { class: "pina-cell-win" }, `win ${pct(a.win)}`) : null);
      grid.append(cell);
    }

    const seats = el("div", { class: "pina-seats" }, v.seats.map((s) => el("div", {
      class: `pina-seat${v.to_move === s.seat ? " to-move" : ""}`, style: `border-color:${SEAT_COLOURS[s.seat]}`,
    }, el("span", { style: `color:${SEAT_COLOURS[s.seat]}` }, `${SEAT_SHAPES[s.seat]} seat ${s.seat}`),
       ` ${s.name}${s.person ? " (person)" : ""} — ${s.score} points, ${s.reserve} tokens left`)));

    const controls = el("div", { class: "pina-controls" });
    if (hidden) {
      controls.append(el("div", { class: "pina-ask", role: "status" }, "the other seats are playing…"));
    } else if (v.over) {
      controls.append(el("div", { class: "pina-result", role: "status" }, `Game over: ${v.result.text}.`),
        el("button", { class: "pina-export", onclick: () => send({ cmd: "export" }) }, "Export record"),
        el("button", { class: "pina-review", onclick: () => send({ cmd: "review" }) }, "Review my game"));
    } else if (!mine) {
      controls.append(el("div", {}, `seat ${p.seat} (${v.seats[p.seat].name}) is playing…`));
    } else {
      const dice = el("div", { class: "pina-dice" }, p.dice.map((d, i) => el("button", {
        class: `pina-die${held.has(i) ? " held" : ""}`, "data-die": i,
        disabled: p.kind !== "keep", "aria-pressed": held.has(i) ? "true" : "false",
        title: `die ${i + 1}: ${d}${held.has(i) ? " (held)" : ""}`,
        onclick: () => { if (held.has(i)) held.delete(i); else held.add(i); draw(); },
      }, `${PIPS[d]} ${d}`)));
      controls.append(dice);
      const ask = {
        roll: "Your turn: roll the dice.",
        keep: `Hold dice (click or keys 1-5) and roll again (Enter), or stop (S). Re-rolls left: ${p.rolls_left}.`,
        place: p.legal.length ? "Place your token: click a lit coaster." : "",
        happy_hour: `Happy Hour: ${p.effect.toLowerCase().replaceAll("_", " ")} — choose:`,
      }[p.kind];
      controls.append(el("div", { class: "pina-ask", role: "status" }, ask));
      if (p.kind === "roll") controls.append(el("button", { class: "pina-roll", onclick: () => roll() }, "Roll"));
      if (p.kind === "keep") {
        controls.append(el("button", { class: "pina-roll", onclick: () => roll() }, `Roll ${5 - held.size} dice`),
          el("button", { class: "pina-stop", onclick: () => send({ cmd: "stop" }) }, "Stop"));
      }
      if (p.kind === "happy_hour") {
        controls.append(...p.options.map((o, i) => el("button", { class: "pina-option",
          onclick: () => send({ cmd: "choose", option: o }) }, (p.labels || [])[i] || `option ${o}`)));
      }
    }
    controls.append(el("button", { class: "pina-undo", disabled: !v.can_undo, onclick: () => send({ cmd: "undo" }) }, "Undo (U)"));
    const coachOn = model.get("coach");
    controls.append(el("label", { class: "pina-coach-toggle" },
      el("input", { type: "checkbox", checked: coachOn, onchange: (e) => { model.set("coach", e.target.checked); model.save_changes(); } }),
      " coach beside me"));

    const panel = el("div", { class: "pina-panel" });
    if (coachOn && advice) {
      panel.append(el("h4", {}, `Coach (learned network, typical error ±${(100 * advice.error).toFixed(1)} points)`),
        el("div", { class: "pina-panel-win" }, `chance to win with best play: ${pct(advice.win)}${advice.close ? " — too close to call" : ""}`));
      const rows = advice.keeps
        ? advice.keeps.map((k) => el("tr", { class: k.best ? "best" : "" },
            el("td", {}, k.stop ? "stop" : (k.keep.length ? `keep ${k.keep.join(" ")}` : "re-roll all")),
            el("td", {}, k.points.toFixed(2)), el("td", { class: "win" }, pct(k.win)), el("td", {}, k.best ? "★ best" : "")))
        : advice.placements.map((a) => el("tr", { class: a.best ? "best" : "" },
            el("td", {}, `cell ${a.cell} (${a.coaster})`), el("td", {}, String(a.points)),
            el("td", { class: "win" }, pct(a.win)), el("td", {}, a.best ? "★ best" : "")));
      panel.append(el("div", { class: "pina-advice-box" }, el("table", { class: "pina-advice" },
        el("thead", {}, el("tr", {}, el("th", {}, advice.keeps ? "keep" : "placement"),
          el("th", {}, advice.keeps ? "exp. points" : "points"), el("th", {}, "win"), el("th", {}, ""))),
        el("tbody", {}, rows))));
    }
    const message = model.get("message");
    if (message) panel.append(el("pre", { class: "pina-message" }, message));
    const lines = (v.log || []).slice(0, Math.max(0, (v.log || []).length - hidden));
    const log = el("ul", { class: "pina-log" }, lines.map((l) => el("li", {}, l)));
    const position = v.position ? el("div", { class: "pina-position", title: "the position as one line (docs/notation.md): pinastats advise --position, pinastats table --position" },
      "position: ", el("code", {}, v.position)) : null;

    root.replaceChildren(el("div", { class: "pina-main" }, el("div", {}, seats, grid, controls, position), el("div", {}, panel, log)));
  }

  root.addEventListener("keydown", (e) => {
    const v = model.get("view");
    if (v && v.log_count > revealed) return;  // the agents' moves are still being shown
    const p = v && v.pending;
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
  draw();
}

export default { render };
