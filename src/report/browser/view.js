// The script of view.html (`mari view`): filters the rows by text, kind and gate verdict and
// re-sorts the row groups. The rows are static HTML; this script never builds markup from data.
(() => {
  const table = /** @type {HTMLTableElement} */ (document.getElementById("view-runs"));
  const filter = /** @type {HTMLInputElement} */ (document.getElementById("view-filter"));
  const kind = /** @type {HTMLSelectElement} */ (document.getElementById("view-kind"));
  const verdict = /** @type {HTMLSelectElement} */ (document.getElementById("view-verdict"));
  const sort = /** @type {HTMLSelectElement} */ (document.getElementById("view-sort"));
  const shown = /** @type {HTMLElement} */ (document.getElementById("view-shown"));
  const units = Array.from(table.tBodies);
  const total = table.querySelectorAll("tr.entry").length;
  const position = new Map(units.map((unit, i) => [unit, i]));

  function apply() {
    const text = filter.value.trim().toLowerCase();
    const k = kind.value;
    const v = verdict.value;
    let count = 0;
    for (const unit of units) {
      let any = false;
      for (const row of Array.from(unit.rows)) {
        if (!row.classList.contains("entry")) continue;
        const d = row.dataset;
        const ok = (text === "" || (d.search ?? "").includes(text)) && (k === "" || d.kind === k) && (v === "" || d.verdict === v);
        row.hidden = !ok;
        if (ok) {
          any = true;
          count++;
        }
      }
      unit.hidden = !any;
    }
    shown.textContent = count === total ? `${total} shown` : `${count} of ${total} shown`;
  }

  /** @param {HTMLTableSectionElement} unit @param {string} key */
  function num(unit, key) {
    const text = unit.dataset[key] ?? "";
    return text === "" ? Number.NEGATIVE_INFINITY : Number(text);
  }

  function order() {
    const by = sort.value;
    /** @type {(a: HTMLTableSectionElement, b: HTMLTableSectionElement) => number} */
    let compare;
    if (by === "date-asc") compare = (a, b) => num(a, "date") - num(b, "date");
    else if (by === "name") compare = (a, b) => (a.dataset.name ?? "").localeCompare(b.dataset.name ?? "");
    else if (by === "model") compare = (a, b) => (a.dataset.model ?? "").localeCompare(b.dataset.model ?? "");
    else if (by === "metric-desc") compare = (a, b) => num(b, "metric") - num(a, "metric");
    else compare = (a, b) => num(b, "date") - num(a, "date");
    const sorted = units.slice().sort((a, b) => compare(a, b) || (position.get(a) ?? 0) - (position.get(b) ?? 0));
    const fragment = document.createDocumentFragment();
    for (const unit of sorted) fragment.appendChild(unit);
    table.appendChild(fragment);
  }

  filter.addEventListener("input", apply);
  kind.addEventListener("change", apply);
  verdict.addEventListener("change", apply);
  sort.addEventListener("change", order);
  apply();
})();
