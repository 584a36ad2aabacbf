// `mari view`: every report under the folders given on one page. Finds the report files, reads
// each into its row, groups checkpoint reports under the trend that drew them (or, without one,
// under their common folder when two or more sit side by side), and writes view.html.
import { existsSync } from "node:fs";
import { mkdir, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { writeFileAtomic } from "../../io/atomic-write.js";
import { InputError } from "../../io/errors.js";
import { inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import { renderViewHtml, type ViewEntry, type ViewGroup, type ViewPage } from "../../report/view-page.js";
import { naturalCompare, stepOf } from "../trend/inputs.js";
import { findViewFiles } from "./find.js";
import { readViewEntry } from "./read.js";

export interface ViewSettings {
  /** Folders to search (or report files). */
  roots: string[];
  /** Where view.html goes: its links are relative to it. */
  outDir: string;
  observer?: RunObserver;
}

export interface ViewOutcome {
  page: ViewPage;
  /** The view.html written. */
  file: string;
  /** The report pages it links to. */
  pages: string[];
}

const PAGE_OF: Readonly<Record<string, string>> = { "report.json": "report.html", "diff.json": "diff.html", "trend.json": "trend.html" };

/** A relative URL from the page's folder to a file (each segment escaped: folder names are arbitrary). */
function hrefFrom(outDir: string, file: string): string {
  return relative(resolve(outDir), resolve(file)).split(sep).map(encodeURIComponent).join("/");
}

/** The checkpoint groups: each trend with the reports it names, then folders of step-named reports. */
function groupEntries(entries: readonly ViewEntry[], trendPoints: ReadonlyMap<number, string[]>): ViewGroup[] {
  const byPath = new Map<string, number>();
  entries.forEach((entry, i) => byPath.set(resolve(entry.file), i));
  const claimed = new Set<number>();
  const groups: ViewGroup[] = [];
  for (const [trend, points] of trendPoints) {
    const trendDir = dirname(resolve(entries[trend]!.file));
    const members: number[] = [];
    for (const point of points) {
      // Paths were recorded relative to where `mari trend` ran: tried from here, then from beside the trend's folder.
      const found = byPath.get(resolve(point)) ?? byPath.get(resolve(dirname(trendDir), point)) ?? byPath.get(resolve(trendDir, point));
      if (found !== undefined && !claimed.has(found) && !members.includes(found)) members.push(found);
    }
    for (const m of members) claimed.add(m);
    groups.push({ title: entries[trend]!.folder, trend, members });
  }
  const byFolder = new Map<string, number[]>();
  entries.forEach((entry, i) => {
    if (claimed.has(i) || entry.kind === "unreadable" || entry.kind === "diff" || entry.kind === "trend") return;
    if (stepOf(entry.folder) === null) return;
    const parent = dirname(dirname(entry.file));
    byFolder.set(parent, [...(byFolder.get(parent) ?? []), i]);
  });
  for (const [parent, members] of byFolder) {
    if (members.length < 2) continue;
    members.sort((a, b) => stepOf(entries[a]!.folder)! - stepOf(entries[b]!.folder)! || naturalCompare(entries[a]!.folder, entries[b]!.folder));
    groups.push({ title: basename(resolve(parent)) || parent, trend: null, members });
  }
  return groups;
}

export async function viewReports(settings: ViewSettings): Promise<ViewOutcome> {
  const observer = settings.observer ?? SILENT_OBSERVER;
  if (settings.roots.length === 0) throw new InputError("view: give one or more folders holding mari reports");
  const outInfo = await stat(settings.outDir).catch(() => null);
  if (outInfo !== null && !outInfo.isDirectory()) throw new InputError(`--out ${settings.outDir}: is a file; name a folder for view.html`);
  const found = await inPhase(observer, "find reports", undefined, () => findViewFiles(settings.roots));
  const entries: ViewEntry[] = [];
  const trendPoints = new Map<number, string[]>();
  const pages: string[] = [];
  await inPhase(observer, "read reports", found.files.length, async (progress) => {
    for (const file of found.files) {
      const page = join(dirname(file), PAGE_OF[basename(file)] ?? "report.html");
      const linked = existsSync(page);
      if (linked) pages.push(page);
      const { entry, points } = await readViewEntry(file, linked ? hrefFrom(settings.outDir, page) : null);
      if (entry.kind === "trend") trendPoints.set(entries.length, points);
      entries.push(entry);
      progress.tick();
    }
  });
  const page: ViewPage = { roots: settings.roots, entries, groups: groupEntries(entries, trendPoints), truncatedAt: found.truncatedAt };
  const file = join(settings.outDir, "view.html");
  await inPhase(observer, "write view.html", 1, async (progress) => {
    await mkdir(settings.outDir, { recursive: true });
    await writeFileAtomic(file, renderViewHtml(page));
    progress.tick();
  });
  return { page, file, pages };
}
