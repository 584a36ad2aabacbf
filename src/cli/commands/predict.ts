// Placeholder until the `predict` command lands; it says so instead of pretending to work.
import type { Command } from "commander";
import type { ActionWrapper } from "../main.js";
import { EXIT_INTERNAL_ERROR } from "../errors.js";

export function registerPredict(program: Command, wrap: ActionWrapper): void {
  program
    .command("predict")
    .description("(not implemented yet)")
    .allowUnknownOption()
    .action(
      wrap(async () => {
        process.stderr.write("mari: 'predict' is not implemented yet\n");
        return EXIT_INTERNAL_ERROR;
      }),
    );
}
