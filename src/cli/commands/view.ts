// `mari view [DIR…]`: every report under the folders given (default: the current one) on one
// offline page, view.html, newest first; `--serve` also serves it and the pages it links to on
// 127.0.0.1 until Ctrl-C. Exit codes: 0 ok, 2 usage or input error.
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { EXIT_OK } from "../exit-codes.js";
import { InputError } from "../../io/errors.js";
import { verdictOf } from "../../report/view-page.js";
import { startViewServer, type ViewServer } from "../../server/view-server.js";
import { viewReports } from "../../tasks/view/run.js";
import { addOptions, integerOption } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { terminalObserver } from "../observer.js";
import { progressModeFor } from "../progress.js";

interface ViewFlags {
  out?: string;
  serve?: boolean;
  port?: string;
  quiet?: boolean;
  progress?: string;
}

export function registerView(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program
    .command("view")
    .description(summary)
    .argument("[dirs...]", "folders to search for report.json, diff.json and trend.json (default: the current folder)");
  addOptions(command, "view")
    .addHelpText(
      "after",
      `
Lists every mari report under the folders (eval, pairs, evidence, diff, trend), newest first:
task, model or dump, slice, date, headline metrics with their intervals, gates, invalid rate,
a link to each page. Checkpoint folders are grouped under their trend. The page is one file and
needs no server; filter and sort in the page. A file that is not a readable mari report is listed
as unreadable, with the reason.

Examples:
  mari view reports/                     # writes mari-view/view.html
  mari view reports/ runs/ --out . --serve`,
    )
    .action(wrap(async (dirs: string[], flags: ViewFlags) => viewCommand(dirs, flags)));
}

async function viewCommand(dirs: string[], flags: ViewFlags): Promise<number> {
  const port = flags.serve === true ? (integerOption("viewPort", flags.port) ?? OPTIONS.viewPort.default) : undefined;
  if (flags.port !== undefined && flags.serve !== true) throw new InputError("--port needs --serve");
  const observer = terminalObserver(progressModeFor(flags.progress, flags.quiet === true), flags.quiet === true);
  const outcome = await viewReports({ roots: dirs.length === 0 ? ["."] : dirs, outDir: flags.out ?? OPTIONS.viewOut.default, observer });
  const { entries } = outcome.page;
  if (!flags.quiet) {
    const unreadable = entries.filter((x) => x.kind === "unreadable").length;
    const failed = entries.filter((x) => verdictOf(x) === "failed").length;
    const lines = [`mari view: ${entries.length} report${entries.length === 1 ? "" : "s"}, ${failed} with a failed gate, ${unreadable} unreadable`];
    if (outcome.page.truncatedAt !== null) lines.push(`stopped at ${outcome.page.truncatedAt} report files: give narrower folders to see the rest`);
    lines.push(`view: ${outcome.file}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  if (port === undefined) return EXIT_OK;
  let server: ViewServer;
  try {
    server = await startViewServer(outcome.file, outcome.pages, port);
  } catch (err) {
    throw new InputError(`cannot listen on 127.0.0.1:${port} (${(err as { code?: string }).code ?? String(err)})`);
  }
  process.stderr.write(`mari view: serving ${server.url} (Ctrl-C stops)\n`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await server.close();
  return EXIT_OK;
}
