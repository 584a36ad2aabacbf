// Secrets (API keys, bearer tokens) come from an environment variable the user names on the command
// line; the value is read here and only here, and never printed.
import { InputError } from "../io/errors.js";

/** The value of the variable named by `flag` (e.g. `--api-key-env`) in `env`; InputError when unusable. */
export function readSecretEnv(envVar: string, flag: string, env: NodeJS.ProcessEnv = process.env): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(envVar)) {
    // Not echoed: a value that is not a variable name is most likely the secret itself, pasted by mistake.
    throw new InputError(`${flag} takes the NAME of an environment variable (e.g. MY_KEY); the value given is not a variable name and is not shown`);
  }
  const value = env[envVar];
  if (value === undefined || value.trim() === "") {
    throw new InputError(`environment variable ${envVar} (named by ${flag}) is not set or is empty`);
  }
  return value;
}
