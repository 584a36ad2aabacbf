// Exit codes are a contract with CI jobs (the exit codes in README.md, "Commands"); every failure path maps onto one of them,
// here in the CLI alone.
export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_INPUT_ERROR = 2;
export const EXIT_INTERNAL_ERROR = 3;
