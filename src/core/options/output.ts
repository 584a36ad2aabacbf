// Where a run's files go, what it prints, and the config file it reads.
import type { OptionSpec } from "./option.js";
import { PORT_RANGE } from "./serve.js";

/** The displays `--progress` chooses from (validated by the CLI, which words its own message). */
export const PROGRESS_MODES = ["auto", "bar", "plain", "none"] as const;

const QUIET_REPORT = "no summary on stdout, no notes, and no progress display unless --progress asks for one";

export const OUTPUT_OPTIONS = {
  out: {
    flag: "--out",
    value: "<dir>",
    help: "output directory",
    default: "mari-report",
    defaultText: "./mari-report",
    config: { key: "out", value: "path", describe: "output directory, as --out" },
    doc: {
      eval: { usage: "`--out DIR`", example: "`--out reports/ckpt-40`", meaning: "output directory (default `./mari-report/`)" },
      evidence: { usage: "`--out DIR`", example: "`--out reports/evidence`", meaning: "output directory (default `./mari-report/`)" },
      "eval/pairs": { usage: "`--out DIR`", example: "`--out mari-report`", meaning: "output directory (default `./mari-report/`)" },
    },
  },
  sweepOut: {
    flag: "--out",
    value: "<dir>",
    help: "output directory",
    default: "mari-sweep",
    defaultText: "./mari-sweep",
    doc: {
      sweep: {
        usage: "`--out DIR`",
        example: "`--out sweep-out`",
        meaning: "output directory (default `./mari-sweep/`, not `./mari-report/`, so that a sweep does not overwrite an eval's `report.md`)",
      },
    },
  },
  diffOut: { flag: "--out", value: "<dir>", help: "where diff.json, diff.md and diff.html go", default: "mari-diff", defaultText: "./mari-diff" },
  trendOut: { flag: "--out", value: "<dir>", help: "where trend.json, trend.md and trend.html go", default: "mari-trend", defaultText: "./mari-trend" },
  dumpOut: {
    flag: "--out",
    value: "<file>",
    help: "write the dump to FILE (atomically) instead of stdout",
    doc: {
      predict: {
        usage: "`--out FILE`",
        default: "stdout",
        meaning: "write the dump to FILE; the file appears only when complete (temp file + rename). `-` = stdout",
      },
    },
  },
  report: {
    flag: "--report",
    value: "<formats>",
    help: "report formats: json,md,html,junit",
    defaultText: "all",
    config: { key: "report", value: "string-list", describe: 'report formats, as --report: "json,md" or ["json", "junit"]' },
    doc: {
      eval: { usage: "`--report LIST`", example: "`--report json,md`", meaning: "report formats among `json,md,html,junit` (default all; json always)" },
      evidence: { usage: "`--report LIST`", example: "`--report json,md`", meaning: "report formats among `json,md,html,junit` (default all; json always)" },
      "eval/pairs": { usage: "`--report LIST`", example: "`--report json,md`", meaning: "among `json,md,html,junit` (default all)" },
    },
  },
  trendReport: { flag: "--report", value: "<formats>", help: "json,md,html (default) and junit" },
  config: {
    flag: "--config",
    value: "<file>",
    help: "config file",
    defaultText: "./mari.config.json when present",
    doc: {
      eval: {
        usage: "`--config FILE`",
        example: "`--config ci/mari.config.json`",
        meaning: "config file (default `./mari.config.json` when present): its top and its `documents` (or `pairs`) section; flags win",
      },
      evidence: {
        usage: "`--config FILE`",
        example: "`--config mari.config.json`",
        meaning: "the top of a config file and its `evidence` section (gates); flags win",
      },
      "eval/pairs": { usage: "`--config FILE`", meaning: "as for documents" },
      sweep: {
        usage: "`--config FILE`",
        meaning:
          "the top of `mari.config.json` and its `pairs` section (`grid`, `costs`, `gate`; see [reports.md](reports.md#config-file-mariconfigjson)); flags win",
      },
    },
  },
  viewOut: { flag: "--out", value: "<dir>", help: "where view.html goes", default: "mari-view", defaultText: "./mari-view" },
  viewServe: { flag: "--serve", help: "also serve view.html and the pages it links to on 127.0.0.1 until Ctrl-C" },
  viewPort: { flag: "--port", value: "<n>", help: "port for --serve (default {default}; 0 picks a free one)", default: 8001, ...PORT_RANGE },
  progress: {
    flag: "--progress",
    value: "<mode>",
    help: { "*": "auto|bar|plain|none (stderr)", sweep: "auto|bar|plain|none (on stderr)" },
    config: { key: "progress", value: "choice", choices: PROGRESS_MODES },
    doc: {
      eval: {
        usage: "`--progress MODE`",
        example: "`--progress plain`",
        meaning: "`auto` (bar on a TTY, plain lines otherwise), `bar`, `plain`, `none`; stderr only",
      },
      predict: {
        usage: "`--progress auto\\|bar\\|plain\\|none`",
        default: "auto",
        meaning:
          "the phases on stderr (a bar on a terminal, periodic lines otherwise): `read slice (records)`, then `judge (cases)` + `write dump (predictions)` (lexical), `judge (answers)` (openai), `write requests (lines)` or `read batch results (lines)` + `write dump (predictions)` (batch files); see [reports.md](reports.md#progress-and-summary)",
      },
      evidence: {
        usage: "`--progress MODE`",
        example: "`--progress plain`",
        meaning: "`auto` (bar on a TTY, plain lines otherwise), `bar`, `plain`, `none`; stderr only",
      },
      "eval/pairs": { usage: "`--progress MODE`", meaning: "as for documents" },
      sweep: { usage: "`--progress MODE`", example: "`--progress plain`", meaning: "progress on stderr" },
    },
  },
  quiet: {
    flag: "--quiet",
    help: {
      "*": QUIET_REPORT,
      predict: "no notes or diagnostics, and no progress display unless --progress asks for one (errors and the summary line stay)",
      classify: "no closing count on stderr, and no progress display unless --progress asks for one",
      diff: "no summary on stdout, and no progress display unless --progress asks for one",
      view: "no summary on stdout, and no progress display unless --progress asks for one",
      trend: "no summary on stdout, and no progress display unless --progress asks for one",
    },
    default: false,
    config: { key: "quiet", value: "boolean" },
    doc: {
      eval: { usage: "`--quiet`", meaning: "no summary on stdout, no notes, no progress display unless `--progress` is given" },
      predict: {
        usage: "`--quiet`",
        default: "off",
        meaning:
          "no progress display unless `--progress` asks for one, no per-retry / per-malformed-answer lines on stderr (the summary line of an openai run stays)",
      },
      evidence: { usage: "`--quiet`", meaning: "no summary on stdout" },
      "eval/pairs": { usage: "`--quiet`", meaning: "as for documents" },
      sweep: { usage: "`--quiet`", meaning: "no summary on stdout" },
    },
  },
  strict: {
    flag: "--strict",
    help: {
      eval: "exit 2 when any slice record or dump line is rejected or any prediction is format-invalid",
      classify: "exit 2 if any record was rejected",
      evidence: "exit 2 when any input record is rejected",
    },
    default: false,
    config: { key: "strict", value: "boolean" },
    doc: {
      eval: {
        usage: "`--strict`",
        meaning:
          "exit 2 when any dump line is rejected, is an orphan, or a kept prediction is format-invalid (reports are still written); a bad slice record stops the run before scoring",
      },
      evidence: { usage: "`--strict`", meaning: "exit 2 when any input record is rejected (reports are still written)" },
      "eval/pairs": { usage: "`--strict`", meaning: "as for documents" },
    },
  },
} as const satisfies Record<string, OptionSpec>;
