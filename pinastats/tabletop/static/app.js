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
const LANGS = { en: "English", fr: "Français", nl: "Nederlands", de: "Deutsch" };  // each in its own words
const LANG_KEY = "pinastats-lang";
let WORDS = {};  // the view's catalogue (pinastats/tabletop/static/words-<lang>.json)
let LANG = "en";
// a message of the catalogue with its {placeholders} filled
const T = (key, values = {}) => (WORDS[key] ?? key).replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
// a counted noun: key.one or key.other (French: 0 and 1 take the singular)
const N = (key, n) => T(`${key}.${n === 1 || (LANG === "fr" && n === 0) ? "one" : "other"}`, { n });
function storedLang() { try { return localStorage.getItem(LANG_KEY); } catch (e) { return null; } }
function storeLang(lang) { try { localStorage.setItem(LANG_KEY, lang); } catch (e) { /* private mode */ } }
function browserLang() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const short = String(tag).toLowerCase().split("-")[0];
    if (short in LANGS) return short;
  }
  return "en";
}
const PAUSE = 450;  // ms between two revealed moves of the agents
const token = (s, label) => el("span", { class: "pina-token", style: `color:${SEAT_COLOURS[s]}`,
  title: label, "aria-label": label }, SEAT_SHAPES[s]);

function render({ model, el: root }) {
  let held = new Set();
  let lastKey = "";
  let revealed = null;  // log lines shown so far: the agents' moves appear one by one
  let timer = null;
  let mode = "";
  let entry = [];  // My table: the faces of the re-rolled dice being entered
  let kept = new Set();  // My table: the dice showing (positions) kept for the next roll
  let rollKey = "";  // My table: the roll the kept dice belong to
  let scrolledKey = "";  // the roll whose advice was last brought into view
  let happyFace = null;  // My table: the Happy Hour face tapped
  let shareUrl = null;  // the link to this position, once asked for
  let langAsked = false;
  let langMode = "";  // the mode the page's language was last sent for
  // a shared link (#position=pc1…&names=…, after the page's own address): the board opens on it
  const params = new URLSearchParams(window.location ? window.location.hash.slice(1) : "");
  let shared = params.get("position");
  // My table setup, kept in the page until sent
  const draft = { coasters: Array(16).fill(""), tokens: Array.from({ length: 16 }, () => []),
    names: ["", ""], to_move: 0, first: null, seat: 0, position: "", happy_hour: null };
  root.classList.add("pina-app");
  root.tabIndex = 0;

  const send = (msg) => model.send(msg);
  const roll = () => { send({ cmd: "roll", hold: [...held] }); held = new Set(); };
  const seatName = (i) => draft.names[i] || T("seat.n", { n: i + 1 });

  function seatsBox(v) {
    return el("div", { class: "pina-seats" }, v.seats.map((s) => el("div", {
      class: `pina-seat${v.to_move === s.seat ? " to-move" : ""}`, style: `border-color:${SEAT_COLOURS[s.seat]}`,
    }, token(s.seat, s.name), ` ${s.name} — ${s.text}`, v.to_move === s.seat ? el("span", { class: "pina-turn" }, T("seat.to_play")) : null)));
  }

  function gridBox(v, opts) {
    const grid = el("div", { class: "pina-grid", style: `grid-template-columns: repeat(${v.cols}, minmax(0, 1fr))` });
    for (const c of v.board) {
      const clickable = opts.clickable.has(c.cell);
      const a = opts.best.get(c.cell);
      const names = v.seats.map((s) => s.name);
      const tokens = (c.spaces || []).map((s) => s === null
        ? el("span", { class: "pina-space" }, "·") : token(s, names[s] || T("seat.n", { n: s + 1 })));
      const isBest = (a && a.best) || opts.stopCell === c.cell;
      const cls = `pina-cell${clickable ? " legal" : ""}${opts.lit.has(c.cell) && !clickable ? " lit" : ""}${isBest ? " best" : ""}`;
      grid.append(el("button", {
        class: cls, "data-cell": c.cell, disabled: !clickable,
        style: `grid-row:${c.row + 1};grid-column:${c.col + 1}`,
        "aria-label": `${c.coaster}, ${c.points_text}`, title: c.side_b || null,
        onclick: () => opts.onclick(c.cell),
      },
        el("div", { class: "pina-coaster" }, c.coaster),
        el("div", { class: "pina-points" }, c.points_text),
        el("div", { class: "pina-tokens" }, tokens),
        a ? el("div", { class: "pina-cell-win" }, T("ui.win", { chance: pct(a.win) })) : null));
    }
    return grid;
  }

  function sideNote(v) {
    const notes = [...new Set(v.board.filter((c) => c.side_b).map((c) => c.side_b))];
    return notes.length ? el("div", { class: "pina-legend pina-side-b" }, notes.join(" ")) : null;
  }

  function advicePanel(v) {
    const advice = v.advice || null;
    if (!model.get("coach") || !advice) return null;
    const box = el("div", { class: "pina-coach" });
    box.append(el("h4", {}, T("ui.coach_title", { source: advice.source })),
      el("div", { class: `pina-panel-win${advice.lost ? " lost" : ""}` }, advice.verdict));
    const rows = advice.keeps
      ? advice.keeps.map((k) => el("tr", { class: k.best ? "best" : "" },
          el("td", {}, el("div", {}, k.label), k.why ? el("div", { class: "pina-why" }, k.why) : null),
          el("td", {}, k.points.toFixed(2)), el("td", { class: "win" }, pct(k.win)),
          el("td", {}, k.best ? T("ui.best") : "")))
      : advice.placements.map((a) => el("tr", { class: a.best ? "best" : "" },
          el("td", {}, el("div", {}, a.coaster), el("div", { class: "pina-why" }, a.why),
            a.compare ? el("div", { class: "pina-why pina-compare" }, a.compare) : null),
          el("td", {}, a.points_text), el("td", { class: "win" }, pct(a.win)), el("td", {}, a.best ? T("ui.best") : "")));
    box.append(el("div", { class: "pina-advice-box" }, el("table", { class: "pina-advice" },
      el("thead", {}, el("tr", {}, el("th", {}, advice.keeps ? T("ui.col_keep") : T("ui.col_placement")),
        el("th", {}, advice.keeps ? T("ui.col_exp_points") : T("ui.col_points")), el("th", {}, T("ui.col_chance")), el("th", {}, ""))),
      el("tbody", {}, rows))));
    return box;
  }

  function reviewBox() {
    const r = model.get("review");
    if (!r || !r.sentences || !r.sentences.length) return null;
    const box = el("div", { class: "pina-review-box" }, el("h4", {}, T("ui.review")));
    const c = r.chart;
    if (c && c.turns && c.turns.length > 1) {
      const W = 300, H = 132, n = c.turns.length, B = 34;  // B: room for the turn numbers below
      const x = (i) => 24 + (i * (W - 34)) / (n - 1), y = (p) => 10 + (1 - p) * (H - B);
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("class", "pina-chart");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", T("ui.chart", { by: r.chart_by }));
      const add = (tag, attrs) => { const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
        for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); return e; };
      add("line", { x1: 24, x2: W - 10, y1: y(0.5), y2: y(0.5), class: "pina-chart-mid", "stroke-dasharray": "3 3" });
      for (const s of c.series) {
        add("polyline", { fill: "none", stroke: SEAT_COLOURS[s.seat], "stroke-width": 2,
          points: s.chances.map((p, i) => `${x(i)},${y(p)}`).join(" ") });
      }
      for (const t of c.turning) {  // the turn (numbered as the log) after which the chance moved most
        const i = c.turns.indexOf(t - 1);
        if (i >= 0) add("circle", { cx: x(i + 0.5), cy: y(0.5), r: 4, fill: "none", class: "pina-chart-turning" });
      }
      const step = Math.max(1, Math.ceil(n / 8));
      c.turns.forEach((t, i) => {
        if (i % step && i !== n - 1) return;
        const label = add("text", { x: x(i), y: H - B + 22, "font-size": 9, "text-anchor": "middle", class: "pina-chart-text", "data-turn": t });
        label.textContent = String(t);
      });
      const axis = add("text", { x: W - 10, y: H - 2, "font-size": 9, "text-anchor": "end", class: "pina-chart-text" });
      axis.textContent = T("ui.chart_turn");
      const label = add("text", { x: 2, y: 12, "font-size": 9, class: "pina-chart-text" }); label.textContent = "100%";
      const zero = add("text", { x: 2, y: H - B + 10, "font-size": 9, class: "pina-chart-text" }); zero.textContent = "0%";
      box.append(svg, el("div", { class: "pina-legend" }, c.series.map((s) => el("span", {},
        token(s.seat, s.name), ` ${s.name}  `)), ` — ${T("ui.chart", { by: r.chart_by })}`));
    }
    box.append(el("div", { class: "pina-review" }, r.sentences.map((t) => el("p", {}, t))));
    return box;
  }

  function logBox(v, hidden) {
    const lines = (v.log || []).slice(0, Math.max(0, (v.log || []).length - hidden));
    const log = el("ol", { class: "pina-log", "aria-label": T("ui.every_turn") }, lines.map((l) => el("li", {}, l)));
    setTimeout(() => { log.scrollTop = log.scrollHeight; }, 0);
    return log;
  }

  function langPicker(v) {
    return el("label", { class: "pina-lang" }, el("span", { class: "pina-hide" }, T("ui.language")),
      el("select", { class: "pina-lang-pick", "aria-label": T("ui.language"),
        onchange: (e) => { storeLang(e.target.value); send({ cmd: "lang", lang: e.target.value }); } },
        Object.entries(LANGS).map(([k, name]) => el("option", { value: k, selected: v.lang === k }, name))));
  }

  function shareLink(v) {
    const url = new URL(window.location.href);
    const shared = new URLSearchParams({ position: v.position });
    if (v.names) shared.set("names", v.names.join(","));
    url.hash = shared.toString();
    return url.toString();
  }

  function topBar(v) {
    const bar = el("div", { class: "pina-bar" });
    if (v.mode === "play") {
      bar.append(el("button", { class: "pina-new", onclick: () => send({ cmd: "new" }) }, T("ui.new_game")),
        el("button", { class: "pina-table", onclick: () => send({ cmd: "table" }) }, T("ui.my_table")));
    } else {
      bar.append(el("button", { class: "pina-new", onclick: () => send({ cmd: "new" }) }, T("ui.new_table")),
        el("button", { class: "pina-play", onclick: () => send({ cmd: "play" }) }, T("ui.play_agents")));
    }
    const coachOn = model.get("coach");
    bar.append(el("label", { class: "pina-coach-toggle" },
      el("input", { type: "checkbox", checked: coachOn, onchange: (e) => { model.set("coach", e.target.checked); model.save_changes(); } }),
      ` ${T("ui.coach")}`), langPicker(v));
    if (v.mode === "play") bar.append(el("span", { class: "pina-seed" }, T("ui.seed", { seed: v.seed })));
    if (v.position && v.mode !== "setup") {
      bar.append(el("button", { class: "pina-share", onclick: () => {
        shareUrl = shareLink(v);
        if (navigator.clipboard) navigator.clipboard.writeText(shareUrl).catch(() => {});
        draw();
      } }, T("ui.share")));
    }
    return bar;
  }

  function playControls(v, p, hidden) {
    const controls = el("div", { class: "pina-controls" });
    const mine = p && v.seats[p.seat].person;
    if (hidden) {
      controls.append(el("div", { class: "pina-ask", role: "status" }, T("ui.others_playing")));
    } else if (v.over) {
      controls.append(el("div", { class: "pina-result", role: "status" }, T("ui.game_over", { result: v.result.text })),
        el("button", { class: "pina-export", onclick: () => send({ cmd: "export" }) }, T("ui.export_record")),
        el("button", { class: "pina-review", onclick: () => send({ cmd: "review" }) }, T("ui.review_mine")));
    } else if (!mine) {
      controls.append(el("div", {}, T("ui.is_playing", { who: v.seats[p.seat].name })));
    } else if (p.kind === "happy_hour") {
      controls.append(happyPrompt(p.dice, p.face, p.effect_name, p.effect_text,
        p.options.map((o, i) => ({ option: o, label: p.labels[i], win: p.advice ? p.advice[i] : null })),
        (o) => send({ cmd: "choose", option: o })));
    } else {
      controls.append(el("div", { class: "pina-dice" }, p.dice.map((d, i) => el("button", {
        class: `pina-die${held.has(i) ? " held" : ""}`, "data-die": i,
        disabled: p.kind !== "keep", "aria-pressed": held.has(i) ? "true" : "false",
        title: `${d}`,
        onclick: () => { if (held.has(i)) held.delete(i); else held.add(i); draw(); },
      }, `${PIPS[d]} ${d}`))));
      const ask = {
        roll: T("ui.ask_roll"),
        keep: T("ui.ask_keep", { n: p.rolls_left }) + (p.lit && p.lit.length ? ` ${T("ui.ask_keep_lit")}` : ""),
        place: p.legal.length ? T("ui.ask_place") : "",
      }[p.kind];
      controls.append(el("div", { class: "pina-ask", role: "status" }, ask));
      if (p.kind === "roll") controls.append(el("button", { class: "pina-roll", onclick: () => roll() }, T("ui.roll")));
      if (p.kind === "keep") {
        controls.append(el("button", { class: "pina-roll", onclick: () => roll() }, T("ui.roll_n", { n: 5 - held.size })),
          el("button", { class: "pina-stop", onclick: () => send({ cmd: "stop" }) }, T("ui.stop")));
      }
    }
    controls.append(el("button", { class: "pina-undo", disabled: !v.can_undo, onclick: () => send({ cmd: "undo" }) }, T("ui.undo")));
    return controls;
  }

  function happyPrompt(dice, face, name, text, options, choose) {
    const box = el("div", { class: "pina-happy" },
      el("div", { class: "pina-ask", role: "status" },
        T("ui.happy_play", { dice: dice.join(" "), face: `${PIPS[face]} ${face}`, name, text })));
    if (options.length === 0) return box;
    box.append(el("div", {}, T("ui.choose")));
    const best = options.some((o) => o.win !== null) ? Math.max(...options.map((o) => o.win ?? -1)) : null;
    box.append(el("div", { class: "pina-options" }, options.map((o) => el("button", {
      class: `pina-option${best !== null && o.win === best ? " best" : ""}`, onclick: () => choose(o.option),
    }, o.label, o.win !== null ? el("span", { class: "pina-option-win" }, ` — ${T("ui.win", { chance: pct(o.win) })}${o.win === best ? " ★" : ""}`) : null))));
    return box;
  }

  // My table: the coach's keep as positions of the dice showing (none for a stop)
  function coachKeep(t, advice) {
    const out = new Set();
    if (!advice || !advice.keeps || !advice.keeps.length || advice.keeps[0].stop) return out;
    const want = [...advice.keeps[0].keep];
    t.dice.forEach((d, i) => { const k = want.indexOf(d); if (k >= 0) { want.splice(k, 1); out.add(i); } });
    return out;
  }

  function sendRoll(t) {
    const keptDice = [...kept].map((i) => t.dice[i]);
    const dice = [...keptDice, ...entry];
    const msg = { cmd: "dice", dice };
    if (t.roll > 0) msg.kept = keptDice;
    entry = [];
    send(msg);
  }

  function addFace(t, f) {
    if (kept.size + entry.length >= 5) return;
    entry.push(f);
    if (kept.size + entry.length === 5) sendRoll(t); else draw();
  }

  function tableControls(v) {
    const controls = el("div", { class: "pina-controls" });
    const t = v.table;
    if (v.over) {
      controls.append(el("div", { class: "pina-result", role: "status" }, T("ui.game_over", { result: v.result.text })),
        el("button", { class: "pina-review", onclick: () => send({ cmd: "review" }) }, T("ui.review_table")));
    } else {
      const who = v.seats[v.to_move].name;
      const advice = model.get("coach") ? v.advice || null : null;
      if (t.ending === "happy_hour") {
        if (happyFace === null) {
          controls.append(el("div", { class: "pina-ask", role: "status" },
            T("table.happy_ask", { who, dice: t.dice.join(" ") })),
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
        const next = t.roll + 1;
        const lit = t.legal.length > 0;
        const ask = t.roll === 0 ? T("table.first_roll", { who })
          : t.roll < t.rolls ? T(lit ? "table.next_roll" : "table.next_roll_unlit", { who, roll: next, rolls: t.rolls })
          : T(lit ? "table.last_roll" : "table.last_roll_unlit", { who });
        controls.append(el("div", { class: "pina-ask", role: "status" }, ask));
        if (advice && advice.best_text) {
          const stopCell = advice.placements ? advice.placements[0].cell : advice.stop_cell;
          const place = stopCell !== undefined && stopCell !== null && t.legal.includes(stopCell);
          controls.append(place
            ? el("button", { class: "pina-best", onclick: () => { entry = []; send({ cmd: "place", cell: stopCell }); } }, advice.best_text)
            : el("div", { class: "pina-best", role: "status" }, advice.best_text));
        }
        if (t.dice.length) {
          const aim = coachKeep(t, advice);
          controls.append(el("div", { class: "pina-shown" }, T("table.showing", { roll: t.roll }), " ",
            el("b", {}, t.dice.join(" "))));
          if (t.roll < t.rolls) {
            controls.append(el("div", { class: "pina-dice pina-keep" }, t.dice.map((d, i) => el("button", {
              class: `pina-die${kept.has(i) ? " held" : ""}${aim.has(i) ? " aim" : ""}`, "data-die": i,
              "aria-pressed": kept.has(i) ? "true" : "false",
              title: kept.has(i) ? T("table.die_kept", { d }) : T("table.die_free", { d }),
              onclick: () => { if (kept.has(i)) kept.delete(i); else if (kept.size + entry.length < 4) kept.add(i); draw(); },
            }, `${PIPS[d]} ${d}${aim.has(i) ? "★" : ""}`)), el("span", { class: "pina-hint" }, T("table.keep_hint"))));
          }
        }
        if (t.roll < t.rolls) {
          controls.append(el("div", { class: "pina-faces" }, [1, 2, 3, 4, 5, 6].map((f) => el("button", {
            class: "pina-face", "data-face": f, disabled: kept.size + entry.length >= 5,
            onclick: () => addFace(t, f) }, `${PIPS[f]} ${f}`))),
          el("div", { class: "pina-entry" }, T("table.entered", { roll: next }), " ",
            [...kept].map((i) => el("span", { class: "pina-die kept" }, `${PIPS[t.dice[i]]} ${t.dice[i]}`)),
            entry.map((d, i) => el("button", {
              class: "pina-die", onclick: () => { entry.splice(i, 1); draw(); } }, `${PIPS[d]} ${d}`)),
            kept.size + entry.length ? null : T("table.none_yet")));
        }
        if (t.dice.length && t.ending === "pass") {
          controls.append(el("button", { class: "pina-pass", onclick: () => send({ cmd: "pass" }) }, T("table.pass")));
        }
      }
    }
    controls.append(el("button", { class: "pina-undo", disabled: !v.can_undo, onclick: () => { entry = []; happyFace = null; rollKey = ""; send({ cmd: "undo" }); } }, T("ui.undo")),
      el("button", { class: "pina-export", onclick: () => send({ cmd: "export" }) }, T("ui.export_log")));
    return controls;
  }

  function resolveCoaster(v, text) {
    const key = text.trim().toLowerCase();
    if (!key) return null;
    return v.catalogue.find((c) => c.code.toLowerCase() === key || c.name.toLowerCase() === key
      || c.local.toLowerCase() === key) || null;
  }

  function setupBox(v) {
    if (draft.happy_hour === null) draft.happy_hour = !!v.happy_hour_default;
    const box = el("div", { class: "pina-setup" });
    box.append(el("h3", {}, T("setup.title")));
    const rename = () => {  // typed names reach every place a seat is chosen, as they are typed
      root.querySelectorAll("[data-seat-name]").forEach((e) => { e.textContent = seatName(Number(e.dataset.seatName)); });
    };
    const names = el("div", { class: "pina-names" }, draft.names.map((n, i) => el("label", {},
      token(i, T("seat.n", { n: i + 1 })), ` ${T("seat.n", { n: i + 1 })} `,
      el("input", { class: "pina-name", "data-seat": i, value: n, placeholder: T("seat.n", { n: i + 1 }), maxlength: 24,
        oninput: (e) => { draft.names[i] = e.target.value; rename(); } }))));
    names.append(
      el("button", { class: "pina-add-seat", disabled: draft.names.length >= 4, onclick: () => { draft.names.push(""); draw(); } }, T("setup.add_seat")),
      el("button", { class: "pina-remove-seat", disabled: draft.names.length <= 2, onclick: () => {
        draft.names.pop(); draft.seat = 0; draft.to_move = 0; if (draft.first !== null && draft.first >= draft.names.length) draft.first = null; draw(); } }, T("setup.remove_seat")));
    box.append(names);
    const seatOptions = (selected, blank) => [
      blank ? el("option", { value: "", selected: selected === null, disabled: true }, T("setup.choose")) : null,
      ...draft.names.map((n, i) => el("option", { value: String(i), selected: selected === i, "data-seat-name": i }, seatName(i)))];
    box.append(el("div", { class: "pina-order" },
      el("label", {}, `${T("setup.first")} `, el("select", { class: "pina-first", required: true,
        onchange: (e) => { draft.first = Number(e.target.value); draft.to_move = draft.first; draw(); } }, seatOptions(draft.first, true))),
      el("label", {}, `${T("setup.to_move")} `, el("select", { class: "pina-to-move",
        onchange: (e) => { draft.to_move = Number(e.target.value); } }, seatOptions(draft.to_move, false))),
      el("label", { class: "pina-hh" }, el("input", { type: "checkbox", class: "pina-happy-hour", checked: draft.happy_hour,
        onchange: (e) => { draft.happy_hour = e.target.checked; } }), ` ${T("setup.happy_hour")}`)));
    const sentNames = () => draft.names.map((n, i) => n.trim() || T("seat.n", { n: i + 1 }));
    box.append(el("div", {}, T("setup.paste")),
      el("textarea", { class: "pina-paste", rows: 2, placeholder: "pc1 OD,T3,T4,T5/... 1",
        oninput: (e) => { draft.position = e.target.value; } }, draft.position),
      el("button", { class: "pina-setup-line", onclick: () => send({ cmd: "setup", position: draft.position.trim(),
        names: sentNames() }) }, T("setup.from_line")));
    box.append(el("div", { class: "pina-or" }, T("setup.or")));
    box.append(el("div", { class: "pina-token-seat" }, T("setup.tokens_of"), " ", draft.names.map((n, i) => el("button", {
      class: `pina-seat-pick${draft.seat === i ? " picked" : ""}`, "aria-pressed": draft.seat === i ? "true" : "false",
      onclick: () => { draft.seat = i; draw(); } }, token(i, seatName(i)), " ", el("span", { "data-seat-name": i }, seatName(i))))));
    const offered = [];  // the type-ahead: each coaster by its name here, its English name and its code
    for (const c of v.catalogue) {
      offered.push(el("option", { value: c.local }, c.code));
      if (c.name !== c.local) offered.push(el("option", { value: c.name }, c.code));
      offered.push(el("option", { value: c.code }, c.local));
    }
    const list = el("datalist", { id: "pina-coasters" }, offered);
    const grid = el("div", { class: "pina-grid", style: "grid-template-columns: repeat(4, minmax(0, 1fr))" });
    for (const c of v.board) {
      const i = c.cell;
      const found = resolveCoaster(v, draft.coasters[i]);
      grid.append(el("div", { class: "pina-cell setup", style: `grid-row:${c.row + 1};grid-column:${c.col + 1}` },
        el("input", { class: "pina-coaster-input", list: "pina-coasters", "data-cell": i, value: found ? found.code : draft.coasters[i],
          placeholder: `#${i + 1}`, "aria-label": T("setup.coaster_at", { row: c.row + 1, col: c.col + 1 }),
          oninput: (e) => { draft.coasters[i] = e.target.value; },
          onchange: (e) => {  // in place: a redraw would take the next box from under the typing
            const f = resolveCoaster(v, e.target.value);
            const named = e.target.parentElement.querySelector(".pina-setup-name");
            if (f) { draft.coasters[i] = f.code; e.target.value = f.code; }
            named.textContent = f ? f.local : "";
          } }),
        el("div", { class: "pina-setup-name" }, found ? found.local : ""),
        el("button", { class: "pina-put", "data-cell": i, onclick: () => {
          const tk = draft.tokens[i]; const k = tk.indexOf(draft.seat);
          if (k >= 0) tk.splice(k, 1); else if (tk.length < 2) tk.push(draft.seat);
          draw(); } }, draft.tokens[i].length ? draft.tokens[i].map((s) => token(s, seatName(s))) : T("setup.tap_token"))));
    }
    box.append(list, grid);
    box.append(el("button", { class: "pina-start", onclick: () => {
      if (draft.first === null) { model.set("message", T("setup.need_first")); draw(); return; }
      send({ cmd: "setup", coasters: draft.coasters.map((x, i) => { const f = resolveCoaster(v, x); return f ? f.code : x; }),
        tokens: draft.tokens, first: draft.first, to_move: draft.to_move, names: sentNames(), happy_hour: draft.happy_hour });
    } }, T("setup.start")));
    return box;
  }

  function followShared(v) {
    // a shared link: the board opens on its position (once), then the address loses it
    if (!shared) return false;
    if (v.mode === "play") { send({ cmd: "table" }); return true; }
    if (v.mode === "table" && v.position === shared) { shared = null; return false; }
    const playing = v.mode === "table" && !v.over && (v.log_count > 0 || (v.table && v.table.roll > 0));
    if (playing && !window.confirm(T("share.replace"))) { shared = null; return false; }
    const names = (params.get("names") || "").split(",").map((n) => n.trim()).filter(Boolean);
    const msg = { cmd: "setup", position: shared };
    if (names.length >= 2) msg.names = names.slice(0, 4);
    shared = null;
    if (window.history && window.history.replaceState) {
      const url = new URL(window.location.href);
      url.hash = "";
      window.history.replaceState(null, "", url.toString());
    }
    send(msg);
    return true;
  }

  function draw() {
    const v = model.get("view");
    if (!v || !v.board) { root.replaceChildren(el("p", {}, T("ui.loading"))); return; }
    WORDS = v.words || WORDS; LANG = v.lang || LANG;
    root.lang = LANG;
    if (!langAsked) {  // the page's language: the one chosen here before, else the browser's
      langAsked = true;
      const want = storedLang() || browserLang();
      if (want !== v.lang && want in LANGS) { send({ cmd: "lang", lang: want }); return; }
    }
    if (followShared(v)) return;
    if (v.mode !== mode && mode && langMode !== v.mode && storedLang() && storedLang() !== v.lang) {
      langMode = v.mode; send({ cmd: "lang", lang: storedLang() }); return;  // a new game: this page's language
    }
    if (v.mode !== mode) { mode = v.mode; revealed = null; entry = []; kept = new Set(); rollKey = ""; happyFace = null; shareUrl = null; }
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
    let stopCell = null;
    if (v.mode === "play") {
      const mine = p && v.seats[p.seat].person && !hidden;
      if (mine && p.kind === "place") clickable = new Set(p.legal);
      if (mine && p.kind === "keep") lit = new Set(p.lit || []);
      onclick = (cell) => send({ cmd: "place", cell });
    } else if (!v.over && v.table.ending !== "happy_hour") {
      clickable = new Set(v.table.legal);
      onclick = (cell) => { entry = []; send({ cmd: "place", cell }); };
      if (model.get("coach") && advice && advice.stop_cell !== undefined && advice.keeps && advice.keeps[0].stop) stopCell = advice.stop_cell;
      // a new roll: the kept dice start as the coach's keep, the faces to enter are the others
      const rk = `${v.turn}/${v.table.roll}/${v.table.dice.join("")}`;
      if (rk !== rollKey) {
        rollKey = rk; entry = [];
        kept = coachKeep(v.table, model.get("coach") ? advice : null);
      }
    }
    const announce = (v.announce || []).length && !hidden
      ? el("div", { class: "pina-announce", role: "status" }, v.announce.join(" ")) : null;
    const controls = v.mode === "play" ? playControls(v, p, hidden) : tableControls(v);
    const position = v.position ? el("div", { class: "pina-position", title: "docs/notation.md" },
      `${T("ui.position")} `, el("code", {}, v.position)) : null;
    const share = shareUrl ? el("div", { class: "pina-share-box" }, T("ui.share_text"), " ",
      el("input", { class: "pina-share-url", readonly: true, value: shareUrl, onfocus: (e) => e.target.select() })) : null;
    const left = el("div", { class: "pina-left" }, topBar(v), share, announce, seatsBox(v),
      gridBox(v, { clickable, lit, best, onclick, stopCell }), sideNote(v), controls, note);
    const right = el("div", { class: "pina-right" }, advicePanel(v), reviewBox(), el("h4", {}, T("ui.every_turn")), logBox(v, hidden), position);
    root.replaceChildren(el("div", { class: "pina-main" }, left, right));
    // after a roll, the coach's best option is brought into view (a phone: below the board)
    const bestLine = root.querySelector(".pina-best") || root.querySelector(".pina-advice tr.best");
    const seen = `${v.turn}/${v.table ? v.table.roll : ""}/${p ? p.kind + p.dice.join("") : ""}/${LANG}`;
    if (bestLine && seen !== scrolledKey && bestLine.scrollIntoView) {
      scrolledKey = seen;
      const r = bestLine.getBoundingClientRect();
      if (r.top < 0 || r.bottom > (window.innerHeight || 0)) bestLine.scrollIntoView({ block: "center" });
    }
  }

  root.addEventListener("keydown", (e) => {
    const v = model.get("view");
    if (!v || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
    if (v.mode === "table" && !v.over && v.table.ending !== "happy_hour" && v.table.roll < v.table.rolls) {
      // at a real table: type the faces 1-6 of the re-rolled dice (the roll is entered with
      // the fifth die), Backspace takes one back
      if (e.key >= "1" && e.key <= "6") addFace(v.table, Number(e.key));
      else if (e.key === "Backspace" && entry.length) { entry.pop(); draw(); }
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
