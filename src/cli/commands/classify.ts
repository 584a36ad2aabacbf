// Placeholder until the `classify` command lands; it says so instead of pretending to work.
import type { Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { EXIT_INTERNAL_ERROR } from "../errors.js";

export function registerClassify(program: Command, wrap: ActionWrapper): void {
  program
    .command("classify")
    .description("(not implemented yet)")
    .allowUnknownOption()
    .action(
      wrap(async () => {
        process.stderr.write("mari: 'classify' is not implemented yet\n");
        return EXIT_INTERNAL_ERROR;
      }),
    );
}
