// nltk's English Punkt parameters, shipped as data in data/punkt/english/ (nltk_data, Apache-2.0;
// see data/punkt/NOTICE.md), read once on first use. The directory sits at the same depth from
// src/io and dist/io, so one relative URL serves tests and the built CLI.
import { readFileSync } from "node:fs";
import { parsePunktParameters, type PunktParameters } from "../core/document/punkt.js";

const DIRECTORY = new URL("../../data/punkt/english/", import.meta.url);

let english: PunktParameters | undefined;

export function englishPunktParameters(): PunktParameters {
  if (english === undefined) {
    const read = (name: string): string => readFileSync(new URL(name, DIRECTORY), "utf8");
    english = parsePunktParameters({
      abbrevTypes: read("abbrev_types.txt"),
      collocations: read("collocations.tab"),
      sentStarters: read("sent_starters.txt"),
      orthoContext: read("ortho_context.tab"),
    });
  }
  return english;
}
