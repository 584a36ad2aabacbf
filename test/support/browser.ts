// Headless Chromium for the report page tests: Debian's `chromium` (or $MARI_CHROMIUM) driven by
// playwright-core, which downloads no browser. One browser per test file; each page records what it
// tried to fetch and the scripts that ran, so a test can assert that nothing but the page's own
// inline script ran and that nothing left file://.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

export function chromiumPath(): string {
  const candidates = [process.env["MARI_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  const found = candidates.find((path): path is string => path !== undefined && path !== "" && existsSync(path));
  if (found === undefined) throw new Error("no Chromium found: install Debian's chromium (apt-get install chromium) or set MARI_CHROMIUM");
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
}

export interface OpenedPage {
  page: Page;
  /** Every URL the page requested other than the file itself. */
  requests: string[];
  /** Content-Security-Policy violations and page errors reported by the browser. */
  problems: string[];
}

/** Opens a report file and waits until it has loaded. */
export async function openFile(browser: Browser, path: string): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const url = pathToFileURL(path).href;
  const requests: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => {
    if (request.url() !== url) requests.push(request.url());
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  // Scripts injected by the tested content would announce themselves here.
  await page.exposeFunction("__mariInjected", (what: string) => problems.push(`injected: ${what}`));
  await page.goto(url, { waitUntil: "load" });
  return { page, requests, problems };
}

/**
 * For every table on the page: whether each body row has as many cells (counting colspan) as the
 * header row, and whether each cell's left edge sits under its header's left edge.
 */
export function tableAlignment(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const issues: string[] = [];
    document.querySelectorAll("table").forEach((table, t) => {
      const head = table.querySelector("thead tr");
      if (!head) return;
      const headers = [...head.children] as HTMLElement[];
      const lefts = headers.map((cell) => Math.round(cell.getBoundingClientRect().left));
      table.querySelectorAll("tbody tr").forEach((row, r) => {
        const cells = [...row.children] as HTMLElement[];
        if (cells.length !== headers.length) issues.push(`table ${t} row ${r}: ${cells.length} cells under ${headers.length} headers`);
        cells.forEach((cell, c) => {
          if (cell.parentElement !== row || !(cell.tagName === "TD" || cell.tagName === "TH"))
            issues.push(`table ${t} row ${r}: cell ${c} is a ${cell.tagName}`);
          if (cell.querySelector("td, th")) issues.push(`table ${t} row ${r} cell ${c}: a cell nested in a cell`);
          const left = Math.round(cell.getBoundingClientRect().left);
          if (lefts[c] !== undefined && Math.abs(left - lefts[c]!) > 1) issues.push(`table ${t} row ${r} cell ${c}: at x=${left}, header at x=${lefts[c]}`);
        });
      });
    });
    return issues;
  });
}
