// The explorer's page script: report.html and diff.html inline it (allowed by its hash in the
// page's content security policy). It builds the filters and the case list from the JSON block the
// page carries. Text is only ever put into the page with textContent; the only links it makes point
// at sentence anchors it numbered itself. One function expression run at once: nothing leaks into the
// page's globals. Linted by biome and type-checked (tsconfig.json beside it) by `npm run lint`; the
// report inlines this file from its first line that is not a `//` comment.
(() => {
  const PAGE = 50;
  const LABELS = {
    tp: "true positives",
    fp: "false positives",
    fn: "false negatives",
    tn: "true negatives",
    loc_miss: "localization misses",
    invalid: "format-invalid",
    flipped: "flipped across runs",
    regressed: "regressed",
    fixed: "fixed",
    mixed: "regressed and fixed",
    failure: "any failure",
    correct: "correct",
    wrong: "wrong",
    accepted: "accepted",
    rejected: "rejected",
  };
  const ORDER = [
    "failure",
    "tp",
    "fp",
    "fn",
    "tn",
    "loc_miss",
    "invalid",
    "flipped",
    "regressed",
    "fixed",
    "mixed",
    "correct",
    "wrong",
    "accepted",
    "rejected",
  ];
  const source = document.getElementById("mari-explorer-data");
  const root = document.getElementById("mari-explorer");
  if (!source || !root) return;
  const data = JSON.parse(source.textContent);
  const cases = data.cases;
  /** @type {{ tag: string | null, facets: Record<string, string>, q: string, sort: string, limit: number }} */
  const state = { tag: null, facets: {}, q: "", sort: "input", limit: PAGE };
  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }
  // Appends the children and returns the last one.
  function add(parent, ...children) {
    let last = null;
    for (const child of children) if (child) last = parent.appendChild(child);
    return last;
  }
  function label(tag) {
    if (LABELS[tag]) return LABELS[tag];
    const i = tag.indexOf(":");
    return i < 0 ? tag : (LABELS[tag.slice(0, i)] || tag.slice(0, i)) + ": " + tag.slice(i + 1);
  }
  function fmt(v) {
    return v === null || v === undefined ? "n/a" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(4) : String(v);
  }
  // Counts over every case of the report; when the page carries fewer, each also says how many are here.
  const counts = {};
  cases.forEach((c) => {
    c.tags.forEach((t) => {
      counts[t] = (counts[t] || 0) + 1;
    });
  });
  const partial = data.shown < data.total;
  function own(o, k) {
    return Object.hasOwn(o, k) ? o[k] : 0;
  }
  function countText(all, here) {
    return partial ? all + "; " + here + " on this page" : String(here);
  }
  const tags = Object.keys(data.counts.tags).sort((a, b) => {
    let ia = ORDER.indexOf(a.split(":")[0]),
      ib = ORDER.indexOf(b.split(":")[0]);
    ia = ia < 0 ? 99 : ia;
    ib = ib < 0 ? 99 : ib;
    return ia - ib || (a < b ? -1 : a > b ? 1 : 0);
  });
  const selection = document.getElementById("explorer-selection");
  if (selection) selection.textContent = data.selection + " Every case is in " + data.rest + ".";
  root.textContent = "";
  const controls = add(root, el("div", "controls"));
  const buttons = [];
  function tagButton(tag, text) {
    const b = el("button", null, text);
    b.type = "button";
    b.setAttribute("data-filter", tag === null ? "all" : tag);
    b.setAttribute("aria-pressed", String(tag === state.tag));
    b.addEventListener("click", () => {
      state.tag = tag;
      state.limit = PAGE;
      update();
    });
    buttons.push(b);
    controls.appendChild(b);
  }
  tagButton(null, "all (" + countText(data.total, cases.length) + ")");
  tags.forEach((t) => {
    tagButton(t, label(t) + " (" + countText(own(data.counts.tags, t), own(counts, t)) + ")");
  });
  const row2 = add(root, el("div", "controls"));
  data.facets.forEach((name) => {
    const values = {},
      all = own(data.counts.facets, name) || {};
    cases.forEach((c) => {
      const v = c.facets[name];
      if (v !== undefined) values[v] = (values[v] || 0) + 1;
    });
    const keys = Object.keys(all).sort();
    if (keys.length === 0) return;
    const s = el("select");
    s.setAttribute("data-facet", name);
    add(s, el("option", null, name + ": all")).value = "";
    keys.forEach((k) => {
      add(s, el("option", null, name + ": " + k + " (" + countText(own(all, k), own(values, k)) + ")")).value = k;
    });
    s.addEventListener("change", () => {
      state.facets[name] = s.value;
      state.limit = PAGE;
      update();
    });
    row2.appendChild(s);
  });
  const search = el("input");
  search.type = "search";
  search.placeholder = "search ids and text";
  search.setAttribute("data-search", "");
  search.addEventListener("input", () => {
    state.q = search.value.toLowerCase();
    state.limit = PAGE;
    update();
  });
  row2.appendChild(search);
  const sort = el("select");
  sort.setAttribute("data-sort", "");
  [
    ["input", "input order"],
    ["score-asc", "reward: lowest first"],
    ["score-desc", "reward: highest first"],
  ].forEach((o) => {
    add(sort, el("option", null, o[1])).value = o[0];
  });
  sort.addEventListener("change", () => {
    state.sort = sort.value;
    update();
  });
  row2.appendChild(sort);
  const count = add(root, el("p", "note"));
  count.id = "explorer-count";
  const list = add(root, el("div"));
  list.id = "explorer-list";
  const more = add(root, el("button", null, "show more"));
  more.type = "button";
  more.addEventListener("click", () => {
    state.limit += PAGE;
    update();
  });
  function haystack(c) {
    if (c._text === undefined) {
      let parts = [c.id];
      if (c.doc) {
        parts = parts.concat(c.doc.sentences);
        c.doc.runs.forEach((r) => {
          if (r.reasoning) parts.push(r.reasoning);
          if (r.raw) parts.push(r.raw);
          if (r.message) parts.push(r.message);
        });
      }
      if (c.record) parts.push(JSON.stringify(c.record));
      c._text = parts.join("\n").toLowerCase();
    }
    return c._text;
  }
  function matches(c) {
    if (state.tag !== null && c.tags.indexOf(state.tag) < 0) return false;
    for (const f in state.facets) if (state.facets[f] && c.facets[f] !== state.facets[f]) return false;
    return state.q === "" || haystack(c).indexOf(state.q) >= 0;
  }
  function linked(text, anchor) {
    const box = el("div", "reasoning");
    let re = /\[(\d+)\]/g,
      last = 0,
      m;
    while ((m = re.exec(text)) !== null) {
      box.appendChild(document.createTextNode(text.slice(last, m.index)));
      const a = el("a", null, m[0]);
      a.setAttribute("href", "#" + anchor + "-s" + Number(m[1]));
      box.appendChild(a);
      last = m.index + m[0].length;
    }
    box.appendChild(document.createTextNode(text.slice(last)));
    return box;
  }
  function table(header, rows) {
    const t = el("table"),
      h = add(t, el("thead")),
      hr = add(h, el("tr"));
    header.forEach((x) => {
      add(hr, el("th", null, x));
    });
    const b = add(t, el("tbody"));
    rows.forEach((r) => {
      const tr = add(b, el("tr"));
      r.forEach((x) => {
        add(tr, el("td", null, x));
      });
    });
    const box = el("div", "scroll");
    box.appendChild(t);
    return box;
  }
  function runsTable(runs) {
    return table(
      ["run", "dump line", "judgment", "outcome", "evidence", "reward", "coverage", "localization"],
      runs.map((r) => [
        r.run,
        fmt(r.line),
        r.judgment === null ? "n/a" : String(r.judgment),
        r.outcome + (r.reason ? " (" + r.reason + ")" : ""),
        r.evidence.map((i) => "[" + i + "]").join(" "),
        fmt(r.reward),
        fmt(r.coverage),
        r.localization_hit === null ? "n/a" : r.localization_hit ? "hit" : "miss",
      ]),
    );
  }
  // One side's runs: how many the page carries, the table, each failed run explained, then (below the
  // sentences on a one-sided page) the reasoning and raw completions.
  function runsPart(runs, total, dump, prefix, box) {
    if (total !== undefined)
      add(
        box,
        el(
          "p",
          "note",
          runs.length +
            " of this case's " +
            total +
            " runs are on this page (its failing runs first); every run is in " +
            (prefix === "OLD " ? "OLD's cases.jsonl" : data.rest) +
            ".",
        ),
      );
    add(box, runsTable(runs));
    runs.forEach((r) => {
      if (r.reason) failureBody(r, box, dump, prefix);
    });
  }
  function runTexts(runs, box, anchor, prefix) {
    runs.forEach((r) => {
      if (r.reasoning !== undefined) {
        add(box, el("h4", null, prefix + "run " + r.run + " reasoning"));
        add(box, linked(r.reasoning, anchor));
      }
      if (r.raw !== undefined && !r.reason) {
        const raw = add(box, el("details"));
        add(raw, el("summary", null, prefix + "run " + r.run + " raw completion"), el("pre", "raw", r.raw));
      }
    });
  }
  function documentBody(c, body, n) {
    const d = c.doc,
      anchor = "c" + n;
    add(
      body,
      el(
        "p",
        null,
        "gold: " +
          (d.label === null ? "n/a" : d.label ? "contradiction" : "no contradiction") +
          (d.gold.length ? ", gold sentences " + d.gold.map((i) => "[" + i + "]").join(" ") : ""),
      ),
    );
    if (d.old_runs) {
      // diff.html, a changed case: OLD and NEW side by side (one above the other on a narrow screen).
      const sides = add(body, el("div", "sides"));
      [
        ["OLD", d.old_runs, d.old_runs_total, data.old_dump, c.change.old],
        ["NEW", d.runs, c.runs_total, data.dump, c.change.new],
      ].forEach((s) => {
        const col = add(sides, el("div", "side"));
        col.setAttribute("data-side", s[0].toLowerCase());
        add(col, el("h4", null, s[0] + ": " + s[4]));
        runsPart(s[1], s[2], s[3], s[0] + " ", col);
        runTexts(s[1], col, anchor, s[0] + " ");
      });
    } else {
      runsPart(d.runs, c.runs_total, data.dump, "", body);
    }
    const legend = add(body, el("p", "legend note"));
    add(legend, el("span", "gold", "gold"), el("span", "cited", "cited, not gold"), el("span", "both", "gold and cited"));
    const gold = {};
    d.gold.forEach((i) => {
      gold[i] = true;
    });
    if (d.text_left_out !== undefined)
      add(body, el("p", "note", "This document's " + d.text_left_out + " sentences are left out to keep the page small; they are in the slice."));
    const ol = add(body, el("ol", "sentences"));
    d.sentences.forEach((s, k) => {
      const i = k + 1,
        by = [];
      d.runs.forEach((r) => {
        if (r.evidence.indexOf(i) >= 0) by.push(r.run);
      });
      const li = el("li", gold[i] ? (by.length ? "both" : "gold") : by.length ? "cited" : "");
      li.id = anchor + "-s" + i;
      li.value = i;
      add(li, el("span", null, "[" + i + "] " + s));
      if (by.length) add(li, el("span", "marks", (d.old_runs ? "NEW: " : "") + (d.runs.length > 1 ? "cited by run " + by.join(", ") : "cited")));
      ol.appendChild(li);
    });
    if (!d.old_runs) runTexts(d.runs, body, anchor, "");
  }
  // A format-invalid run: the reason and the scorer's message, where in the dump, and what the model said.
  function failureBody(r, body, dump, prefix) {
    const box = add(body, el("div", "run-failure"));
    box.setAttribute("data-failed-run", r.run);
    add(box, el("h4", null, prefix + "run " + r.run + " is format-invalid" + (r.line !== undefined && dump ? " (" + dump + ":" + r.line + ")" : "")));
    const why = add(box, el("p"));
    add(why, el("code", null, r.reason), r.message ? document.createTextNode(": " + r.message) : null);
    if (r.given) {
      add(box, el("p", "note", "the prediction as the dump gave it (the field the reason is about marked):"));
      const ul = add(box, el("ul", "given"));
      r.given.forEach((g) => {
        const li = add(ul, el("li"));
        add(li, el("code", null, g.field + ": "), el(g.bad ? "mark" : "code", null, g.value));
      });
    }
    if (r.raw !== undefined) add(box, el("p", "note", "the model's raw text:"), el("pre", "raw", r.raw));
  }
  function words(text) {
    return String(text || "")
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  }
  function marked(text, other) {
    const known = {};
    words(other).forEach((w) => {
      known[w] = true;
    });
    const p = el("div", "pairtext");
    String(text || "")
      .split(/([\p{L}\p{N}]+)/u)
      .forEach((part, k) => {
        if (k % 2 === 1 && !known[part.toLowerCase()]) p.appendChild(el("mark", null, part));
        else p.appendChild(document.createTextNode(part));
      });
    return p;
  }
  function pairBody(c, body) {
    const r = c.record;
    add(body, el("p", null, "gold " + fmt(r.gold) + ", verdict " + fmt(r["class"]) + ", cost " + fmt(r.cost) + ". Classifier: " + fmt(r.reason)));
    add(
      body,
      el("h4", null, "new (words not in old marked)"),
      marked(r["new"], r.old),
      el("h4", null, "old (words not in new marked)"),
      marked(r.old, r["new"]),
    );
  }
  function evidenceBody(c, body) {
    const r = c.record;
    add(body, el("p", null, r.accepted ? "accepted" : "rejected" + (r.error ? ": " + r.error.code + " (" + r.error.message + ")" : "")));
    if (r.freshness) add(body, el("p", null, "freshness: " + r.freshness));
    (r.facts || []).forEach((f) => {
      add(body, el("h4", null, "claim: " + f.claim + " (" + fmt(f.state) + ", grounding " + fmt(f.grounding) + ")"));
      (f.evidence || []).forEach((ev) => {
        const p = add(body, el("p"));
        add(
          p,
          el("span", "note", ev.document_id + "@" + ev.revision + " " + (ev.section_id || "") + " [" + ev.start + ", " + ev.end + "): "),
          el("mark", null, ev.quote),
        );
        if (Array.isArray(ev.context)) {
          const section = add(body, el("div", "reasoning"));
          section.setAttribute("data-section", ev.section_id || "");
          add(section, document.createTextNode(ev.context[0]), el("mark", null, ev.context[1]), document.createTextNode(ev.context[2]));
        }
      });
    });
    if (Array.isArray(r.issues)) {
      add(body, el("p", null, fmt(r.valid) + " of " + fmt(r.items) + " citations hold"));
      if (r.issues.length)
        add(
          body,
          table(
            ["citation", "issue", "detail"],
            r.issues.map((i) => [fmt(i.index), fmt(i.kind), fmt(i.detail)]),
          ),
        );
    }
    if (Array.isArray(r.given)) {
      const given = add(body, el("div", "given-input"));
      if (Array.isArray(r.issues)) {
        add(given, el("h4", null, "citations as given"));
        const ul = add(given, el("ul", "given"));
        r.given.forEach((g, k) => {
          const li = add(ul, el("li"));
          add(li, el("span", "note", "citation " + k + ": "), el("code", null, "ref " + g.ref + (g.locator !== null ? ", locator " + g.locator : "")));
          if (g.quote !== null) add(li, document.createTextNode(", quote "), el("mark", null, g.quote));
        });
      } else {
        add(given, el("h4", null, "the output as given (refused whole, so no claim was scored)"));
        r.given.forEach((f) => {
          if (f.raw !== undefined) {
            add(given, el("pre", "raw", f.raw));
            return;
          }
          add(given, el("p", null, "claim: " + f.claim));
          f.evidence.forEach((ev) => {
            const p = add(given, el("p"));
            add(p, el("span", "note", ev.document_id + (ev.section_id !== null ? " " + ev.section_id : "") + ": "), el("mark", null, ev.quote));
          });
        });
      }
    }
    if (Array.isArray(r.gold) && r.gold.length)
      add(
        body,
        table(
          ["claim", "gold", "predicted"],
          r.gold.map((g) => [g.claim, fmt(g.gold), fmt(g.predicted)]),
        ),
      );
    if (r.dependency_error) add(body, el("p", null, "dependency error: " + JSON.stringify(r.dependency_error)));
  }
  function card(c, n) {
    const d = el("details", "case");
    d.setAttribute("data-case", c.id);
    const s = add(d, el("summary"));
    add(s, el("code", null, c.id));
    c.tags.forEach((t) => {
      add(s, el("span", "tag " + t.split(":")[0], label(t)));
    });
    if (c.change) add(s, el("span", "note", " " + c.change.old + " → " + c.change.new));
    if (c.score !== null) add(s, el("span", "note", " reward " + fmt(c.score)));
    d.addEventListener("toggle", () => {
      if (!d.open || d._built) return;
      d._built = true;
      const body = add(d, el("div"));
      if (c.doc) documentBody(c, body, n);
      else if (data.kind === "pairs") pairBody(c, body);
      else evidenceBody(c, body);
    });
    return d;
  }
  function update() {
    buttons.forEach((b) => {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-filter") === (state.tag === null ? "all" : state.tag)));
    });
    const shown = [];
    for (let i = 0; i < cases.length; i++) if (matches(cases[i])) shown.push(i);
    if (state.sort !== "input") {
      const sign = state.sort === "score-asc" ? 1 : -1;
      shown.sort((a, b) => {
        const x = cases[a].score,
          y = cases[b].score;
        if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
        return sign * (x - y) || a - b;
      });
    }
    count.textContent =
      shown.length +
      " of " +
      cases.length +
      " cases " +
      (partial ? "on this page " : "") +
      "match" +
      (shown.length > state.limit ? "; the first " + state.limit + " are listed" : "") +
      ".";
    list.textContent = "";
    shown.slice(0, state.limit).forEach((i) => {
      list.appendChild(card(cases[i], i));
    });
    more.hidden = shown.length <= state.limit;
  }
  // A link can preselect a filter and open the first case: report.html#filter=fn&open=1.
  const wanted = /^#filter=([^&]+)(&open=1)?$/.exec(location.hash);
  if (wanted && own(counts, decodeURIComponent(wanted[1]))) state.tag = decodeURIComponent(wanted[1]);
  update();
  if (wanted) {
    if (wanted[2] && list.firstChild) list.firstChild.open = true;
    document.getElementById("cases")?.scrollIntoView();
  }
})();
