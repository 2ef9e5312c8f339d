// bookgen studio: draws the designer from the server's schema (the config models), keeps the
// form's values as the YAML data, and asks the server to check, plan and build them.
// No framework, nothing fetched from elsewhere.
"use strict";
(function () {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const S = boot.schema, M = boot.messages, LABELS = boot.labels, CHOICES = boot.choices || {}, TOGGLES = boot.toggles || {};
  const $ = (id) => document.getElementById(id);
  const tr = (text, vars) => {
    let out = M[text] || text;
    for (const k in vars || {}) out = out.split("{" + k + "}").join(vars[k]);
    return out;
  };
  const label = (key) => LABELS[key] || key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  // A menu value as a reader names it, in the page's language; the option's value stays the YAML's.
  const shown = (key, v) => (CHOICES[key] && CHOICES[key][String(v)]) || String(v);
  let state = { name: "book", data: { title: "", sections: [] }, uploads: {} };
  let lastYaml = "", seq = 0, timer = null, job = null, source = null, hasErrors = true;
  const KEEP = "bookgen-studio-keep";  // the form across a change of interface language

  // ----- data paths --------------------------------------------------------------------
  const idOf = (path) => "f-" + path.join("-").replace(/[^A-Za-z0-9_-]/g, "_");
  function getAt(path) {
    let x = state.data;
    for (const k of path) { if (x == null) return undefined; x = x[k]; }
    return x;
  }
  function setAt(path, value) {
    let x = state.data;
    for (let i = 0; i < path.length - 1; i++) {
      if (x[path[i]] == null || typeof x[path[i]] !== "object") x[path[i]] = typeof path[i + 1] === "number" ? [] : {};
      x = x[path[i]];
    }
    const last = path[path.length - 1];
    if (value === undefined) { if (Array.isArray(x)) x.splice(last, 1); else delete x[last]; }
    else x[last] = value;
  }
  function prune(path) { // an emptied optional mapping (rules, imprint) leaves the YAML
    const v = getAt(path);
    if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0) setAt(path, undefined);
  }

  // ----- building blocks -----------------------------------------------------------------
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] === true) e.setAttribute(k, "");
      else if (attrs[k] !== false && attrs[k] != null) e.setAttribute(k, attrs[k]);
    }
    for (const kid of kids) if (kid != null) e.append(kid);
    return e;
  }
  function field(path, text, control, hint) {
    const id = idOf(path);
    const err = el("p", { class: "err", id: "err-" + id, "aria-live": "polite" });
    const box = el("div", { class: "field", "data-path": JSON.stringify(path) });
    if (control.getAttribute("type") === "checkbox") {
      box.classList.add("check");
      box.append(control, el("label", { for: id, text: text }));
    } else {
      box.append(el("label", { for: id, text: text }), control);
    }
    if (hint) box.append(el("p", { class: "hint", id: "hint-" + id, text: hint }));
    box.append(err);
    control.setAttribute("aria-describedby", "err-" + id + (hint ? " hint-" + id : ""));
    return box;
  }
  function changed() { schedule(); }

  function textInput(path, kind) {
    const v = getAt(path);
    const input = el(kind === "textarea" ? "textarea" : "input",
      { id: idOf(path), type: kind === "textarea" ? null : "text", rows: kind === "textarea" ? 4 : null });
    input.value = v == null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
    input.addEventListener("input", () => { setAt(path, input.value === "" ? undefined : input.value); changed(); });
    return input;
  }
  function numberInput(path) {
    const v = getAt(path);
    const input = el("input", { id: idOf(path), type: "text", inputmode: "numeric" });
    input.value = v == null ? "" : String(v);
    input.addEventListener("input", () => {
      const s = input.value.trim();
      setAt(path, s === "" ? undefined : /^-?\d+$/.test(s) ? Number(s) : s);
      changed();
    });
    return input;
  }
  function checkbox(path, dflt) {
    const v = getAt(path);
    const input = el("input", { id: idOf(path), type: "checkbox" });
    input.checked = v == null ? !!dflt : v === true;
    input.addEventListener("change", () => {
      setAt(path, input.checked === !!dflt && v == null ? undefined : input.checked);
      changed();
    });
    return input;
  }
  function select(path, choices, dflt, optional, key) {
    const v = getAt(path);
    const input = el("select", { id: idOf(path) });
    if (optional) input.append(el("option", { value: "", text: dflt != null ? tr("Default") + " (" + shown(key, dflt) + ")" : "\u2014" }));
    for (const c of choices) input.append(el("option", { value: String(c), text: shown(key, c) }));
    if (v != null && !choices.map(String).includes(String(v))) input.append(el("option", { value: String(v), text: String(v) }));
    input.value = v == null ? (optional ? "" : String(dflt)) : String(v);
    input.addEventListener("change", () => {
      const raw = input.value;
      const typed = choices.find((c) => String(c) === raw);
      setAt(path, raw === "" ? undefined : typed !== undefined ? typed : raw);
      changed();
    });
    return input;
  }
  function yamlInput(path) { // any other kind of value: typed as YAML, read by the server
    const v = getAt(path);
    const input = el("input", { id: idOf(path), type: "text" });
    input.value = v == null ? "" : JSON.stringify(v);
    input.addEventListener("input", () => {
      let value;
      try { value = input.value.trim() === "" ? undefined : JSON.parse(input.value); } catch (e) { value = input.value; }
      setAt(path, value); changed();
    });
    return input;
  }

  function picturesInput(path) { // your own pictures as text art, a blank line between two
    const v = getAt(path);
    const input = el("textarea", { id: idOf(path), rows: 10, class: "art", spellcheck: "false" });
    input.value = Array.isArray(v) ? v.map((p) => String(p).replace(/\s+$/, "")).join("\n\n") : v == null ? "" : String(v);
    input.addEventListener("input", () => {
      const items = input.value.split(/\n[ \t]*\n/).map((p) => p.replace(/^\n+/, "").replace(/\s+$/, "")).filter((p) => p);
      const section = getAt(path.slice(0, -1));
      const had = getAt(path) != null;
      setAt(path, items.length ? items.map((p) => (p.includes("\n") ? p + "\n" : p)) : undefined);
      if (had !== items.length > 0 && section && typeof section === "object") {
        // pictures set their own size, level and count: those fields go (and come back without pictures)
        if (items.length) for (const k of ["count", "size", "difficulty", "rules"]) delete section[k];
        const caret = input.selectionStart;
        renderForm();
        const again = $(idOf(path));
        again.focus(); again.setSelectionRange(caret, caret);
      }
      changed();
    });
    return input;
  }

  // ----- one field from the schema -------------------------------------------------------
  function control(f, path, scope) {
    const key = f.key;
    switch (f.kind) {
      case "checkbox": return field(path, label(key), checkbox(path, f.default));
      case "number": {
        const input = numberInput(path);
        if (f.default != null) input.placeholder = String(f.default);
        return field(path, label(key), input);
      }
      case "textarea": return field(path, label(key), textInput(path, "textarea"));
      case "pictures": return field(path, label(key), picturesInput(path));
      case "select": {
        const choices = key === "language" ? S.languages : f.choices;
        return field(path, label(key), select(path, choices, f.default, !f.required, key));
      }
      case "page": return pageField(f, path);
      case "colour": return field(path, label(key), textInput(path), "#1f4e79");
      case "group": return group(f, path);
      case "names": return namesField(path);
      case "files": return filesField(path);
      case "numbers": return numbersField(path);
      case "sizes": return sizesField(path, scope);
      case "difficulty": return difficultyField(path);
      case "rules": return rulesField(path, scope);
      case "text": return field(path, label(key), textInput(path));
      default: return field(path, label(key), yamlInput(path));
    }
  }
  function pageField(f, path) {
    const v = getAt(path);
    const custom = v != null && typeof v === "object";
    const box = el("div", { class: "field", "data-path": JSON.stringify(path) });
    const id = idOf(path);
    const sel = el("select", { id: id, "aria-describedby": "err-" + id });
    sel.append(el("option", { value: "", text: tr("Default") + " (" + shown("page", f.default) + ")" }));
    for (const c of f.choices) sel.append(el("option", { value: c, text: shown("page", c) }));
    sel.append(el("option", { value: "*custom", text: tr("Custom size") }));
    if (typeof v === "string" && !f.choices.includes(v)) sel.append(el("option", { value: v, text: v }));
    sel.value = custom ? "*custom" : v == null ? "" : v;
    const sizes = el("div", { class: "sub", hidden: !custom });
    if (custom) {
      sizes.append(field(path.concat("width"), tr("Width"), textInput(path.concat("width")), "6in, 152mm"));
      sizes.append(field(path.concat("height"), tr("Height"), textInput(path.concat("height")), "9in, 229mm"));
    }
    sel.addEventListener("change", () => {
      if (sel.value === "*custom") setAt(path, { width: "6in", height: "9in" });
      else setAt(path, sel.value === "" ? undefined : sel.value);
      renderForm(); changed(); $(id).focus();
    });
    box.append(el("label", { for: id, text: label("page") }), sel, sizes, el("p", { class: "err", id: "err-" + id }));
    return box;
  }
  function group(f, path) {
    const on = getAt(path) != null;
    const set = el("fieldset", { class: "group", "data-path": JSON.stringify(path) });
    const id = idOf(path);
    const toggle = el("input", { type: "checkbox", id: id, "aria-describedby": "err-" + id });
    toggle.checked = on;
    toggle.addEventListener("change", () => {
      setAt(path, toggle.checked ? {} : undefined); renderForm(); changed(); $(id).focus();
    });
    set.append(el("legend", { text: label(f.key) }),
      el("div", { class: "field check" }, toggle, el("label", { for: id, text: TOGGLES[f.key] || label(f.key) })),
      el("p", { class: "err", id: "err-" + id }));
    if (on) for (const sub of f.fields) set.append(control(sub, path.concat(sub.key), f.key));
    return set;
  }
  function namesField(path) {
    const set = el("fieldset", { class: "group", "data-path": JSON.stringify(path) });
    set.append(el("legend", { text: tr("Printed names") }));
    const used = [...new Set((Array.isArray(state.data.sections) ? state.data.sections : []).map((s) => s && s.variant).filter((v) => S.variants[v]))];
    for (const v of used) {
      const p = path.concat(v);
      const input = textInput(p);
      input.addEventListener("input", () => { prune(path); });
      set.append(field(p, tr("Printed name of {name}", { name: shown("variant", v) }), input));
    }
    set.append(el("p", { class: "err", id: "err-" + idOf(path) }));
    return set;
  }
  function filesField(path) {
    const set = el("fieldset", { class: "group", "data-path": JSON.stringify(path) });
    const id = idOf(path);
    set.append(el("legend", { text: label("exclude") }));
    const value = getAt(path);
    const names = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
    const list = el("ul", { class: "files" });
    names.forEach((n, i) => {
      const p = Array.isArray(value) ? path.concat(i) : path;
      list.append(el("li", { "data-path": JSON.stringify(p), class: "field" }, el("span", { text: String(n) + " " }),
        el("button", { type: "button", text: tr("Remove"), "aria-label": tr("Remove") + " " + n, onclick: () => {
          const rest = names.filter((_, k) => k !== i);
          setAt(path, rest.length ? rest : undefined); renderForm(); changed();
        } }), el("p", { class: "err", id: "err-" + idOf(p) })));
    });
    const input = el("input", { type: "file", id: id, accept: ".json,application/json", multiple: true, "aria-describedby": "err-" + id });
    input.addEventListener("change", async () => {
      for (const file of input.files) {
        const r = await api("/api/volumes?name=" + encodeURIComponent(file.name), await file.arrayBuffer(), "application/json");
        if (r.error) { showGeneral([{ path: ["exclude"], message: r.error }]); continue; }
        state.uploads[r.name] = r.token;
        const now = getAt(path);
        const all = (typeof now === "string" ? [now] : now || []).filter((x) => x !== r.name).concat([r.name]);
        setAt(path, all);
      }
      renderForm(); changed();
    });
    set.append(list, el("label", { for: id, text: tr("Earlier volumes (their JSON files): no puzzle of theirs is repeated") }), input,
      el("p", { class: "err", id: "err-" + id }));
    return set;
  }
  function numbersField(path) {
    const v = getAt(path);
    const input = el("input", { id: idOf(path), type: "text", inputmode: "numeric" });
    input.value = Array.isArray(v) ? v.join(", ") : v == null ? "" : String(v);
    input.addEventListener("input", () => {
      const s = input.value.trim();
      const parts = s.split(/[\s,]+/).filter(Boolean);
      setAt(path, s === "" ? undefined : parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : s);
      changed();
    });
    return field(path, label("replace"), input, tr("Puzzle numbers to regenerate, such as 3, 17"));
  }
  function sizesField(path, section) {
    const variant = S.variants[section.variant];
    const set = el("fieldset", { class: "group sizes", id: idOf(path), "data-path": JSON.stringify(path),
      "aria-describedby": "err-" + idOf(path) });
    set.append(el("legend", { text: label("size") }));
    if (!variant) { set.append(yamlInput(path)); return set; }
    // The variant's sizes as boxes; any other (a rectangle such as 15x10, a size the list lacks) typed.
    const v = getAt(path);
    const listed = variant.sizes.map(String);
    // "10x10" is the square 10 of the boxes: ticked there, not typed below
    const square = (n) => { const m = /^(\d+)\s*[x\u00d7]\s*(\d+)$/.exec(String(n)); return m && m[1] === m[2] && listed.includes(m[1]) ? m[1] : String(n); };
    const given = (Array.isArray(v) ? v : v == null ? [variant.default_size] : [v]).map(square);
    const boxes = [];
    const typed = el("input", { type: "text", id: idOf(path) + "-other", class: "other-size",
      value: given.filter((n) => !listed.includes(String(n))).join(", ") });
    const update = () => {
      const picked = boxes.filter((b) => b.checked).map((b) => variant.sizes[listed.indexOf(b.value)]);
      for (const part of typed.value.split(/[\s,;]+/).filter(Boolean)) picked.push(/^\d+$/.test(part) ? Number(part) : part);
      setAt(path, picked.length === 0 ? undefined : picked.length === 1 ? picked[0] : picked);
      changed();
    };
    variant.sizes.forEach((n, i) => {
      const id = idOf(path.concat(i));
      const box = el("input", { type: "checkbox", id: id, value: String(n) });
      box.checked = given.map(String).includes(String(n));
      box.addEventListener("change", update);
      boxes.push(box);
      const text = typeof n === "number" ? n + "\u00d7" + n : String(n).replace("x", "\u00d7");
      set.append(el("span", { class: "chip" }, box, el("label", { for: id, text: text })));
    });
    typed.addEventListener("input", update);
    const lim = variant.size_limits;
    const other = variant.rectangular ? tr("Other sizes (rows\u00d7columns)") + (lim ? ": " + tr("rows {low} to {high}, columns {low2} to {high2}",
      { low: lim[0], high: lim[1], low2: lim[2], high2: lim[3] }) : "") : tr("Other sizes");
    if (variant.rectangular) typed.placeholder = "15x10";
    set.append(el("div", { class: "field" }, el("label", { for: typed.id, text: other }), typed));
    set.append(el("p", { class: "err", id: "err-" + idOf(path) }));
    return set;
  }
  function difficultyField(path) {
    const v = getAt(path);
    const mode = Array.isArray(v) ? "blocks" : v && typeof v === "object" ? "ramp" : "level";
    const set = el("fieldset", { class: "group", "data-path": JSON.stringify(path) });
    const id = idOf(path);
    set.append(el("legend", { text: label("difficulty") }));
    const how = el("select", { id: id + "-mode", "aria-label": label("difficulty") });
    for (const [k, text] of [["level", tr("One level")], ["ramp", tr("A ramp")], ["blocks", tr("Blocks")]])
      how.append(el("option", { value: k, text: text }));
    how.value = mode;
    how.addEventListener("change", () => {
      setAt(path, how.value === "ramp" ? { from: "easy", to: "hard" } : how.value === "blocks" ? [{ easy: 2 }, { medium: 2 }] : "medium");
      renderForm(); changed(); $(id + "-mode").focus();
    });
    set.append(how);
    const section = getAt(path.slice(0, -1));  // the levels its variant offers (beginner where levels are bands)
    const levels = (section && S.variants[section.variant] && S.variants[section.variant].levels) || S.levels;
    if (mode === "level") set.append(field(path, label("difficulty"), select(path, levels, "medium", true, "difficulty")));
    else if (mode === "ramp") {
      set.append(field(path.concat("from"), tr("From"), select(path.concat("from"), levels, "easy", false, "difficulty")));
      set.append(field(path.concat("to"), tr("To"), select(path.concat("to"), levels, "hard", false, "difficulty")));
      set.append(el("p", { class: "err", id: "err-" + id }));
    } else {
      const input = el("input", { id: id, type: "text" });
      input.value = v.map((b) => Object.entries(b).map(([k, n]) => k + ": " + n).join("")).join(", ");
      input.addEventListener("input", () => {
        const blocks = input.value.split(",").map((p) => p.trim()).filter(Boolean).map((p) => {
          const m = p.match(/^([A-Za-z+]+)\s*:\s*(-?\d+)$/);
          return m ? { [m[1]]: Number(m[2]) } : p;
        });
        setAt(path, blocks.every((b) => typeof b === "object") ? blocks : input.value);
        changed();
      });
      set.append(field(path, tr("Blocks such as easy: 4, medium: 4"), input));
    }
    return set;
  }
  function rulesField(path, section) {
    const variant = S.variants[section.variant];
    const set = el("fieldset", { class: "group", "data-path": JSON.stringify(path) });
    set.append(el("legend", { text: label("rules") }));
    if (!variant) return set;
    for (const r of variant.rules) {
      const p = path.concat(r.key);
      if (r.kind === "multi") {
        const inner = el("fieldset", { class: "group sizes", "data-path": JSON.stringify(p) });
        inner.append(el("legend", { text: label(r.key) }));
        const v = getAt(p);
        const chosen = new Set((Array.isArray(v) ? v : r.default).map(String));
        const boxes = [];
        for (const c of r.choices) {
          const id = idOf(p) + "-" + r.choices.indexOf(c);
          const box = el("input", { type: "checkbox", id: id, value: c });
          box.checked = chosen.has(c);
          box.addEventListener("change", () => {
            const picked = boxes.filter((b) => b.checked).map((b) => b.value);
            setAt(p, picked.length === r.choices.length ? undefined : picked); prune(path); changed();
          });
          boxes.push(box);
          inner.append(el("span", { class: "chip" }, box, el("label", { for: id, text: c })));
        }
        inner.append(el("p", { class: "err", id: "err-" + idOf(p) }));
        set.append(inner);
        continue;
      }
      const box = control({ ...r, required: false }, p, section);
      box.addEventListener("change", () => prune(path));
      box.addEventListener("input", () => prune(path));
      set.append(box);
    }
    set.append(el("p", { class: "err", id: "err-" + idOf(path) }));
    return set;
  }

  // ----- the whole form ------------------------------------------------------------------
  function renderForm() {
    const form = $("form");
    form.textContent = "";
    const book = el("fieldset", { class: "group book" }, el("legend", { text: tr("Book") }));
    const nameInput = el("input", { id: "f-_name", type: "text", value: state.name });
    nameInput.addEventListener("input", () => { state.name = nameInput.value; changed(); });
    book.append(field(["_name"], tr("File name"), nameInput, state.name + ".pdf, " + state.name + ".json"));
    const listed = Array.isArray(state.data.sections);  // anything else is shown as typed, with its error
    const known = new Set(listed ? ["sections"] : []);
    for (const f of S.book) {
      if (f.key !== "sections") known.add(f.key);
      if (f.key === "sections") continue;
      book.append(control(f, [f.key], null));
    }
    form.append(book);
    const sections = el("fieldset", { class: "group sections", "data-path": '["sections"]' }, el("legend", { text: tr("Sections") }));
    if (listed) state.data.sections.forEach((s, i) => sections.append(sectionBox(s, i)));
    sections.append(el("p", { class: "err", id: "err-" + idOf(["sections"]) }));
    sections.append(el("button", { type: "button", id: "add-section", text: tr("Add a section"), onclick: () => {
      state.data.sections = (listed ? state.data.sections : []).concat([{ variant: "takuzu", count: 4, difficulty: "easy" }]);
      renderForm(); changed(); $(idOf(["sections", state.data.sections.length - 1, "variant"])).focus();
    } }));
    form.append(sections);
    const other = Object.keys(state.data).filter((k) => !known.has(k));
    if (other.length) {
      const box = el("fieldset", { class: "group" }, el("legend", { text: tr("Other settings") }));
      for (const k of other) box.append(field([k], k, yamlInput([k])));
      form.append(box);
    }
    showErrors(lastErrors);
  }
  function sectionBox(section, i) {
    const path = ["sections", i];
    const set = el("fieldset", { class: "group section", "data-path": JSON.stringify(path) });
    const variant = S.variants[section && section.variant];
    set.append(el("legend", { text: tr("Section {n}", { n: i + 1 }) + (variant ? " \u2014 " + shown("variant", section.variant) : "") }));
    if (!section || typeof section !== "object") { set.append(yamlInput(path)); return set; }
    // a section of your own pictures: each picture sets its size and level (and one puzzle each)
    const drawn = variant && variant.pictures && section.pictures != null;
    for (const f of S.section) {
      if (f.key === "givens" && variant && !variant.givens) { if (section.givens == null) continue; }
      if (f.key === "pictures" && variant && !variant.pictures) { if (section.pictures == null) continue; }
      if (drawn && ["count", "size", "difficulty", "rules"].includes(f.key) && section[f.key] == null) continue;
      if (f.key === "variant") {
        const sel = select(path.concat("variant"), f.choices, null, false, "variant");
        sel.addEventListener("change", () => { // another puzzle: its own sizes and rules
          delete section.size; delete section.rules; delete section.givens; delete section.pictures;
          renderForm(); $(idOf(path.concat("variant"))).focus();
        });
        set.append(field(path.concat("variant"), label("variant"), sel));
        continue;
      }
      if (f.key === "difficulty" && section.difficulty == null) section.difficulty = "medium";
      set.append(control(f, path.concat(f.key), section));
    }
    for (const k of Object.keys(section)) if (!S.section.some((f) => f.key === k))
      set.append(field(path.concat(k), k, yamlInput(path.concat(k))));
    const buttons = el("div", { class: "buttons" });
    if (i > 0) buttons.append(el("button", { type: "button", text: tr("Move up"), onclick: () => {
      const s = state.data.sections; [s[i - 1], s[i]] = [s[i], s[i - 1]]; renderForm(); changed();
    } }));
    buttons.append(el("button", { type: "button", text: tr("Remove this section"), onclick: () => {
      state.data.sections.splice(i, 1); renderForm(); changed();
    } }));
    set.append(buttons, el("p", { class: "err", id: "err-" + idOf(path) }));
    return set;
  }

  // ----- errors beside their fields -----------------------------------------------------
  let lastErrors = [];
  function showGeneral(errors) {
    const box = $("general-errors");
    box.textContent = "";
    for (const e of errors) box.append(el("p", { class: "err", text: (e.where ? e.where + ": " : "") + e.message }));
  }
  function showErrors(errors) {
    lastErrors = errors || [];
    document.querySelectorAll("#form .err").forEach((p) => { p.textContent = ""; });
    document.querySelectorAll("#form [aria-invalid]").forEach((c) => c.removeAttribute("aria-invalid"));
    const general = [];
    for (const e of lastErrors) {
      let target = null;
      for (let n = e.path.length; n >= 0 && !target; n--) {
        const p = e.path.slice(0, n);
        target = document.getElementById("err-" + idOf(p));
        if (!target) {
          const box = document.querySelector('#form [data-path="' + CSS.escape(JSON.stringify(p)) + '"]');
          if (box) target = box.querySelector(":scope > .err");
        }
        if (n === 0) target = null;
      }
      if (!target) { general.push(e); continue; }
      const line = el("span", { class: "msg", text: e.message });
      if (e.where) line.append(el("span", { class: "where", text: " (" + e.where + ")" }));
      if (target.textContent) target.append(el("br"));
      target.append(line);
      const ctl = document.getElementById(target.id.slice(4));
      if (ctl) ctl.setAttribute("aria-invalid", "true");
    }
    showGeneral(general);
  }

  // ----- talking to the studio ----------------------------------------------------------
  async function api(url, body, type) {
    try {
      // the page's language, not the browser's: the studio's own refusals come back in it
      const r = await fetch(url, body === undefined ? { headers: { "Accept-Language": boot.lang } } : {
        method: "POST", headers: { "Content-Type": type || "application/json", "Accept-Language": boot.lang },
        body: type ? body : JSON.stringify(body),
      });
      const data = await r.json();
      if (!r.ok && !data.error && !data.errors) data.error = r.statusText;
      data.status = r.status;
      return data;
    } catch (e) {
      return { error: tr("The studio could not be reached.") };
    }
  }
  function payload() { return { name: state.name, data: state.data, uploads: state.uploads, lang: boot.lang }; }
  function schedule() {
    clearTimeout(timer);
    status(tr("Checking\u2026"));
    timer = setTimeout(check, 60);
    saveHash();
  }
  function status(text, bad) {
    $("status").textContent = text;
    $("jump-status").textContent = text;
    $("jump").classList.toggle("bad", !!bad);
    if (!job || !["queued", "running"].includes(job.state)) jumpBuild(null);  // an edit: the bar is the form's again
  }
  // The phone's bottom bar during and after a build: its progress and where the build box is
  // (the box is far below the form there). null: back to the form's status and the plan link.
  function jumpBuild(text, done, total, ended) {
    const on = text != null;
    $("jump-build").hidden = !on;
    $("jump-status").hidden = on;
    $("jump-plan").hidden = on;
    $("jump-build-link").hidden = !on;
    if (!on) return;
    $("jump-build-text").textContent = text;
    const bar = $("jump-progress");
    bar.hidden = !!ended;
    if (total) { bar.max = total; bar.value = done; } else bar.removeAttribute("value");
  }
  async function check() {
    const mine = ++seq;
    const r = await api("/api/check", payload());
    if (mine !== seq) return;
    if (r.error) { status(r.error, true); return; }
    lastYaml = r.yaml;
    showErrors(r.errors);
    hasErrors = r.errors.length > 0;
    $("build").disabled = hasErrors || (job && ["queued", "running"].includes(job.state));
    status(hasErrors ? tr("{count} problem(s) to fix before building", { count: r.errors.length })
      : tr("No problems found") + (r.estimate ? " \u2014 " + r.estimate : ""), hasErrors);
    $("status").dataset.ms = r.ms;
    $("confirm-row").hidden = !r.confirm;
    if (hasErrors) { $("plan").textContent = ""; return; }
    if (r.plan) $("plan").textContent = r.plan;
    else if (r.plan_pending) {
      if (r.draft) $("plan").textContent = r.draft;
      $("plan").classList.add("stale");
      const p = await api("/api/plan", payload());
      if (mine !== seq) return;
      if (p.plan) $("plan").textContent = p.plan;
      else if (p.error) $("plan").textContent += "\n(" + p.error + ")";  // the draft stays, saying why no exact plan follows
    }
    $("plan").classList.remove("stale");
    document.body.dataset.checked = String(mine);
  }

  function load(name, data) {
    state = { name: name || "book", data: data && typeof data === "object" ? data : { sections: [] }, uploads: {} };
    if (state.data.sections == null) state.data.sections = [];
    lastErrors = [];
    renderForm();
    check();
  }

  // ----- share links ----------------------------------------------------------------------
  function encode(obj) {
    const bytes = new TextEncoder().encode(JSON.stringify(obj));
    let bin = "";
    bytes.forEach((b) => { bin += String.fromCharCode(b); });
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function decode(text) {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  }
  function shareUrl() { return location.origin + location.pathname + location.search + "#s=" + encode({ n: state.name, d: state.data }); }
  function saveHash() { history.replaceState(null, "", shareUrl()); }

  // ----- building -----------------------------------------------------------------------
  async function build() {
    $("build-message").textContent = "";
    const body = payload();
    body.confirm = $("confirm").checked;
    const r = await api("/api/builds", body);
    if (r.error) { $("build-message").textContent = r.error; if (r.errors) showErrors(r.errors); return; }
    follow(r);
  }
  function follow(view) {
    job = view;
    $("results").hidden = true;
    $("progress-box").hidden = false;
    $("build").disabled = true;
    $("cancel").disabled = false;
    showProgress(view);
    if (source) source.close();
    source = new EventSource("/api/builds/" + view.id + "/events");
    source.onmessage = (ev) => {
      const v = JSON.parse(ev.data);
      job = v;
      showProgress(v);
      if (!["queued", "running"].includes(v.state)) { source.close(); source = null; finished(v); }
    };
    source.onerror = () => {
      if (source && job && ["queued", "running"].includes(job.state)) {
        source.close(); source = null;
        setTimeout(async () => { const v = await api("/api/builds/" + job.id); if (!v.error) follow(v); }, 1000);
      }
    };
  }
  function showProgress(v) {
    const bar = $("progress");
    if (v.total) { bar.max = v.total; bar.value = v.done; } else { bar.removeAttribute("value"); }
    let text = v.state === "queued" ? tr("waiting for a free slot") : tr(v.stage);
    if (v.total) text += " \u2014 " + tr("{done} of {total}", { done: v.done, total: v.total });
    if (v.eta != null && v.state === "running") text += " \u2014 " + tr("about {seconds} s left", { seconds: Math.ceil(v.eta) });
    $("progress-text").textContent = text;
    jumpBuild(tr("Building") + " \u2014 " + text, v.done, v.total, false);
    document.body.dataset.job = v.state;
  }
  function finished(v) {
    $("progress-box").hidden = true;
    $("build").disabled = hasErrors;
    const say = (text) => { $("build-message").textContent = text; jumpBuild(text, 0, 0, true); };
    if (v.state === "cancelled") { say(tr("Cancelled; nothing was written.")); return; }
    if (v.state === "failed") { say(v.message); return; }
    say(tr("Built: {pages} pages, {puzzles} puzzles", { pages: v.pages, puzzles: v.puzzles }));
    const base = "/api/builds/" + v.id;
    const list = $("downloads");
    list.textContent = "";
    const what = (f) => f.endsWith("-answers.pdf") ? tr("answers PDF") : f.endsWith("-cover.pdf") ? tr("cover PDF")
      : f.endsWith(".pdf") ? tr("book PDF") : f.endsWith(".json") ? tr("book JSON") : tr("settings YAML");
    for (const f of v.files.concat([state.name + ".yaml"]))
      list.append(el("li", {}, el("a", { href: base + "/files/" + encodeURIComponent(f), download: f, text: f }),
        el("span", { text: " \u2014 " + what(f) })));
    const thumbs = $("thumbs");
    thumbs.textContent = "";
    const names = { title: "title page", "how-to": "how-to page", puzzle: "puzzle page", answers: "answer page", cover: "cover" };
    for (const [file, kind] of v.thumbs)
      thumbs.append(el("figure", {}, el("img", { src: base + "/thumbs/" + file, alt: tr(names[kind] || kind), loading: "lazy" }),
        el("figcaption", { text: tr(names[kind] || kind) })));
    $("puzzle-number").max = v.puzzles;
    pictureLinks();
    $("results").hidden = false;
  }
  function pictureLinks() {
    if (!job) return;
    const n = Math.max(1, parseInt($("puzzle-number").value || "1", 10));
    const q = $("puzzle-answer").checked ? "?answer=1" : "";
    for (const fmt of ["svg", "png"]) {
      const a = $("puzzle-" + fmt);
      a.href = "/api/builds/" + job.id + "/puzzles/" + n + "." + fmt + q;
      a.setAttribute("download", state.name + "-" + String(n).padStart(3, "0") + (q ? "-answer" : "") + "." + fmt);
    }
  }

  // ----- wiring -------------------------------------------------------------------------
  // Another interface language: the page reloads in it, only when asked (a button, so arrow keys in the
  // menu change nothing), keeping the form, uploaded volumes and a running build.
  $("lang-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    sessionStorage.setItem(KEEP, JSON.stringify({ state: state, job: job && job.id }));
    location.href = "/?lang=" + encodeURIComponent($("lang").value) + location.hash;
  });
  $("load-template").addEventListener("click", async () => {
    const r = await api("/api/templates/" + encodeURIComponent($("template").value));
    if (r.error) { showGeneral([{ path: [], message: r.error }]); return; }
    load(r.name, r.data);
  });
  $("open-yaml").addEventListener("change", async () => {
    const file = $("open-yaml").files[0];
    if (!file) return;
    const r = await api("/api/open?file=" + encodeURIComponent(file.name), await file.text(), "text/plain; charset=utf-8");
    if (r.error) { showGeneral([{ path: [], message: r.error }]); return; }
    if (!r.data) { showGeneral(r.errors); return; }
    load(r.name, r.data);
  });
  $("build").addEventListener("click", build);
  $("cancel").addEventListener("click", async () => {
    if (!job) return;
    $("cancel").disabled = true;
    const r = await api("/api/builds/" + job.id + "/cancel", {});
    if (r.error) $("build-message").textContent = r.error;
  });
  $("download-yaml").addEventListener("click", () => {
    const a = el("a", { href: URL.createObjectURL(new Blob([lastYaml], { type: "text/yaml" })), download: state.name + ".yaml" });
    document.body.append(a); a.click(); a.remove();
  });
  $("share").addEventListener("click", async () => {
    const url = shareUrl();
    try { await navigator.clipboard.writeText(url); $("share-note").textContent = tr("Link copied"); }
    catch (e) { $("share-note").textContent = url; }
  });
  $("puzzle-number").addEventListener("input", pictureLinks);
  $("puzzle-answer").addEventListener("change", pictureLinks);

  const kept = sessionStorage.getItem(KEEP);
  sessionStorage.removeItem(KEEP);
  if (kept) {
    const k = JSON.parse(kept);
    load(k.state.name, k.state.data);
    state.uploads = k.state.uploads || {};
    if (k.job) api("/api/builds/" + k.job).then((v) => { if (!v.error) { follow(v); if (v.state !== "queued" && v.state !== "running") finished(v); } });
  } else if (location.hash.startsWith("#s=")) {
    try { const s = decode(location.hash.slice(3)); load(s.n, s.d); }
    catch (e) { showGeneral([{ path: [], message: "the link's settings could not be read" }]); load("book", null); }
  } else {
    $("load-template").click();
  }
})();
