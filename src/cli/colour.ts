// Colour on the terminal, through chalk: a chalk instance for one stream, its level read from the
// environment when asked (so a test or a wrapper may set it late): FORCE_COLOR wins (0/false off,
// a number its level); else NO_COLOR (https://no-color.org) or NODE_DISABLE_COLORS turn colour off;
// else a terminal gets the level chalk detected for it, and anything else none.
import { Chalk, type ChalkInstance, supportsColor, supportsColorStderr } from "chalk";

type ColorLevel = 0 | 1 | 2 | 3;

function forcedLevel(value: string): ColorLevel {
  if (value === "" || value === "true") return 1;
  if (value === "false") return 0;
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? 1 : (Math.min(Math.max(n, 0), 3) as ColorLevel);
}

export function colourLevel(stream: NodeJS.WritableStream): ColorLevel {
  const env = process.env;
  if (env["FORCE_COLOR"] !== undefined) return forcedLevel(env["FORCE_COLOR"]);
  if ((env["NO_COLOR"] ?? "") !== "" || env["NODE_DISABLE_COLORS"] !== undefined) return 0;
  if ((stream as { isTTY?: boolean }).isTTY !== true || env["TERM"] === "dumb") return 0;
  const detected = stream === process.stderr ? supportsColorStderr : supportsColor;
  return detected === false ? 1 : detected.level;
}

/** chalk for `stream` (default stdout), at the level colourLevel gives now. */
export function chalkFor(stream: NodeJS.WritableStream = process.stdout): ChalkInstance {
  return new Chalk({ level: colourLevel(stream) });
}
