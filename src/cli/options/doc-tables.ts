// The docs' flag tables, written from the option table: in a docs page, the lines between
// `<!-- options: TABLE COLUMN,COLUMN,… -->` and `<!-- /options -->` are the options of the
// table's command that have a docs row for the table, in the command's order. TABLE is a command
// (`eval`), or a command and the page's view of it (`eval/pairs`: eval's flags as pairs.md
// describes them). scripts/write-option-tables.mjs rewrites the pages;
// test/cli/option-tables.test.ts fails when a page differs from what this writes.
import { OPTIONS, defaultShown, withDefault, type OptionDoc, type OptionSpec } from "../../core/options/index.js";
import { COMMAND_OPTIONS, type OptionCommand } from "./command-options.js";

const COLUMNS = ["flag", "example", "default", "meaning"] as const;
type Column = (typeof COLUMNS)[number];

const MARKED = /(<!-- options: (\S+) (\S+) -->\n)[\s\S]*?(<!-- \/options -->)/g;

function cell(spec: OptionSpec, doc: OptionDoc, column: Column): string {
  if (column === "flag") return doc.usage;
  if (column === "meaning") return withDefault(spec, doc.meaning);
  if (column === "default") return doc.default ?? defaultShown(spec) ?? "";
  return doc.example ?? "";
}

/** The docs rows of `spec` in table `table` (one, or several for an option whose values differ much, e.g. `--grid`). */
export function optionDocs(spec: OptionSpec, table: string): readonly OptionDoc[] {
  const doc = spec.doc?.[table] ?? spec.doc?.["*"];
  return doc === undefined ? [] : Array.isArray(doc) ? doc : [doc as OptionDoc];
}

/** The Markdown table `table` (a command, or `command/view`) of documented options with these columns. */
export function optionTable(table: string, columns: readonly Column[]): string {
  const command = table.split("/")[0]!;
  if (!Object.hasOwn(COMMAND_OPTIONS, command)) throw new Error(`options table: unknown command ${command}`);
  const lines = [`| ${columns.join(" | ")} |`, `|${columns.map(() => "---|").join("")}`];
  for (const name of COMMAND_OPTIONS[command as OptionCommand]) {
    const spec: OptionSpec = OPTIONS[name];
    for (const doc of optionDocs(spec, table)) lines.push(`| ${columns.map((column) => cell(spec, doc, column)).join(" | ")} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** `markdown` with every marked table written anew. */
export function writeOptionTables(markdown: string): string {
  return markdown.replace(MARKED, (_all, open: string, table: string, columnList: string, close: string) => {
    const columns = columnList.split(",");
    const unknown = columns.filter((c) => !(COLUMNS as readonly string[]).includes(c));
    if (unknown.length > 0) throw new Error(`options table: unknown column(s) ${unknown.join(", ")}`);
    return `${open}${optionTable(table, columns as Column[])}${close}`;
  });
}
