// Flag parsers more than one command uses, in one place so commands do not import each other.

/** Commander's accumulator for a repeatable flag. */
export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
