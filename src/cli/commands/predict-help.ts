// The end of `mari predict --help`: examples and exit codes.
export const PREDICT_HELP = `
Examples:
  mari predict datasets/contradoc/contradoc-160.jsonl --judge lexical --out lexical.jsonl
  OPENAI_API_KEY=… mari predict datasets/contradoc/contradoc-160.jsonl --judge openai \\
      --base-url https://api.openai.com/v1 --model gpt-4o-mini --runs 3 --cache cache.jsonl --out live.jsonl
  export OPENAI_BASE_URL=https://api.openai.com/v1 OPENAI_API_KEY=…   # the defaults of --base-url / --api-key-env
  mari predict datasets/contradoc/contradoc-160.jsonl --judge openai --model gpt-4o-mini --limit 5 --out smoke.jsonl
  mari predict datasets/contradoc/contradoc-160.jsonl --judge openai --model gpt-4o-mini --runs 3 \\
      --batch-requests requests.jsonl                       # no network, no key
  mari predict datasets/contradoc/contradoc-160.jsonl --judge openai --runs 3 \\
      --batch-results output.jsonl --out batch.jsonl        # or: mari eval SLICE --predictions output.jsonl

With --out FILE the dump appears only when complete, with FILE.meta.json beside it (model, prompt
hash, token usage). Ctrl-C leaves no partial dump; rerun the same command (with --cache) to resume.

Exit codes: 0 the dump (or request file) was written; 2 usage or input error (bad flags or slice,
missing key variable, server unreachable or answering 401/403/404, no request succeeded);
130 interrupted (Ctrl-C); 3 internal error.`;
