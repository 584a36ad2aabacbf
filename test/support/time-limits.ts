// How long a test, a hook or a test's child process may take, declared once. The limits are
// backstops against a hang, sized for a loaded CI machine, and scaled by the load the machine had
// when the suite started: at load L on C cores a process gets about C / L of a core, so a limit
// that holds on an idle machine is multiplied by L / C (never less than 1, at most TIME_SCALE_MAX).
// vitest.config.ts computes the scale once and hands it to the test workers in the environment.
import { availableParallelism, loadavg } from "node:os";

/** The environment variable carrying the scale from the config to the test workers. */
export const TIME_SCALE_ENV = "MARI_TEST_TIME_SCALE";
/** The largest scale: load 40 on 2 cores. */
const TIME_SCALE_MAX = 20;

/** The scale for the machine's current load: load average over cores, between 1 and TIME_SCALE_MAX. */
export function timeScaleNow(): number {
  const scale = (loadavg()[0] ?? 0) / availableParallelism();
  return Math.min(TIME_SCALE_MAX, Math.max(1, Number.isFinite(scale) ? scale : 1));
}

/** The suite's scale: the one the config handed over, else the load now. */
export const TIME_SCALE = Number(process.env[TIME_SCALE_ENV]) || timeScaleNow();

/** A limit (milliseconds) that holds on an idle machine, scaled for the suite's load. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);

/** Each test's limit and each hook's, unless a test says otherwise. */
export const TEST_TIMEOUT_MS = scaled(180_000);
export const HOOK_TIMEOUT_MS = scaled(300_000);
