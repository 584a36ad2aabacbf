// The docs' flag tables, written from the option table: in a docs page, the lines between
// `<!-- options: COMMAND COLUMN,COLUMN,… -->` and `<!-- /options -->` are the command's options
// that have a docs row, in the command's order. scripts/write-option-tables.mjs rewrites the pages;
// test/docs/option-tables.test.ts fails when a page differs from what this writes.
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

/** The docs row of `spec` for `command`, if it has one. */
export function optionDoc(spec: OptionSpec, command: string): OptionDoc | undefined {
  return spec.doc?.[command] ?? spec.doc?.["*"];
}

/** The Markdown table of `command`'s documented options with these columns. */
export function optionTable(command: OptionCommand, columns: readonly Column[]): string {
  const lines = [`| ${columns.join(" | ")} |`, `|${columns.map(() => "---|").join("")}`];
  for (const name of COMMAND_OPTIONS[command]) {
    const spec: OptionSpec = OPTIONS[name];
    const doc = optionDoc(spec, command);
    if (doc !== undefined) lines.push(`| ${columns.map((column) => cell(spec, doc, column)).join(" | ")} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** `markdown` with every marked table written anew. */
export function writeOptionTables(markdown: string): string {
  return markdown.replace(MARKED, (_all, open: string, command: string, columnList: string, close: string) => {
    if (!Object.hasOwn(COMMAND_OPTIONS, command)) throw new Error(`options table: unknown command ${command}`);
    const columns = columnList.split(",");
    const unknown = columns.filter((c) => !(COLUMNS as readonly string[]).includes(c));
    if (unknown.length > 0) throw new Error(`options table: unknown column(s) ${unknown.join(", ")}`);
    return `${open}${optionTable(command as OptionCommand, columns as Column[])}${close}`;
  });
}
