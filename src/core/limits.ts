// The documented bounds on what a user may ask for (docs/hostile-input.md, "Bounds"). A number
// outside them is an input error that states the bound, never a crash deep inside a typed array or
// a heap that runs out after a minute.

/** Bootstrap resamples (--bootstrap, config `bootstrap`): 10^6 resamples × 8 bytes stay well inside memory. */
export const MAX_BOOTSTRAP = 1_000_000;
/** Worker threads (--workers, config `workers`): more threads than this only cost memory. */
export const MAX_WORKERS = 256;
/** Bootstrap seed (--seed, config `seed`): the PRNG mixes 32-bit seeds. */
export const MAX_SEED = 0xffff_ffff;
/** Lines per worker chunk (--chunk-size). */
export const MAX_CHUNK_LINES = 10_000_000;
/** Shards (--shard I/N). */
export const MAX_SHARDS = 1_000_000;
/** Sweep configs (--grid): each config is tallied over every pair; larger grids are refused up front. */
export const MAX_GRID_CONFIGS = 100_000;
/**
 * Bytes of one input line, and of a whole-file input (config, costs, grid, a whole-file JSON slice).
 * A JavaScript string holds at most 2^29 − 24 characters; a longer line could not even be decoded.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
/**
 * The share of Node's old generation (`--max-old-space-size`: its heap limit less the young
 * generation) that an input held whole or growing with it (a document slice; a pair corpus, whose
 * ids and hashes are kept, and which a sweep holds whole) may fill as it is read. A heap that runs
 * out ends the process in V8 with no error mari can report, and the rest of a run needs room beside
 * the input (`node --trace-gc`, cold evals with the default reports:
 * the GRPO bench's heap peaked at 1.46 times what its slice read alone holds, 85 against 58 MB, and
 * a 400,000-document slice's at 1.35 times, 628 against 466 MB).
 */
export const MAX_HELD_INPUT_HEAP_SHARE = 0.5;
/** Nesting depth of any JSON value read from an input record (objects and arrays count one level each). */
export const MAX_JSON_DEPTH = 64;
/** Largest unit price in --costs: a tally of up to 2^53 cases times this stays finite. */
export const MAX_UNIT_PRICE = 1e12;
/** Samples per case from a judge (predict --runs): each is one request, and a dump line per case. */
export const MAX_JUDGE_RUNS = 10_000;
/** Requests in flight (predict --concurrency). */
export const MAX_CONCURRENCY = 1_024;
/** Retries of one request (predict --max-retries). */
export const MAX_RETRIES = 100;
/** Milliseconds (predict --timeout-ms, --retry-base-ms, --retry-max-ms): Node's timers fire at once above 2^31 − 1. */
export const MAX_TIMER_MS = 2_147_483_647;
/** Completion tokens per request (predict --max-tokens). */
export const MAX_COMPLETION_TOKENS = 10_000_000;
/** `mari view`: bytes of one report.json / diff.json / trend.json read; a larger file is listed as unreadable. */
export const MAX_VIEW_FILE_BYTES = 64 * 1024 * 1024;
/** `mari view`: report files listed on one page; the walk stops there and the page says so. */
export const MAX_VIEW_REPORTS = 20_000;
/** `mari view`: directory levels searched below each folder given. */
export const MAX_VIEW_DEPTH = 12;
/** Cases in the case explorer of report.html and diff.html (--explorer-cases). */
export const MAX_EXPLORER_CASES = 100_000;
/** (case, run) entries the case explorer carries per case it may show: the page's size follows the cases, not the runs. */
export const UNITS_PER_CASE = 10;
