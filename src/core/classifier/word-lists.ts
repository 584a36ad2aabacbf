// The classifier's word lists (docs/classifier.md). They are data: keep them
// exactly as the reference has them, quirks included (the parity test depends on it).

function wordSet(list: string): ReadonlySet<string> {
  return new Set(list.split(/[\s,]+/).filter((w) => w.length > 0));
}

/** §7.1: the extract package's stopwords (`no` is listed twice upstream; harmless in a set). */
export const STOPWORDS = wordSet(`
  i, me, my, mine, we, us, our, ours, you, your, yours, he, him, his, she, her, hers, it, its, they,
  them, their, theirs, this, that, these, those, the, a, an, some, any, each, every, all, both, few, many,
  much, one, two, other, another, such, same, own, no, none, what, when, where, who, whom, whose, why,
  how, which, is, are, was, were, be, been, being, am, do, does, did, don, didn, doesn, isn, aren, wasn,
  weren, have, has, had, haven, hasn, hadn, will, would, wouldn, should, shouldn, could, couldn, can,
  cannot, may, might, must, shall, won, let, get, got, go, going, gonna, come, make, see, know, think,
  want, need, try, keep, and, or, but, nor, so, yet, if, then, than, as, at, by, for, from, in, into, of,
  off, on, onto, out, over, to, under, up, down, with, without, about, after, before, during, while,
  since, until, because, though, although, however, also, too, very, not, there, here, again, once, just,
  still, even, only, now, hey, hi, hello, bye, goodbye, wow, oh, ah, ok, okay, yes, yeah, yep, no, nope,
  thanks, thank, please, sorry, sure, great, good, cool, nice, well, right, awesome, amazing, perfect,
  exactly, definitely, absolutely, maybe, perhaps, anyway, alright, congrats, congratulations, cheers,
  dear, happy, glad, sounds, haha, lol, hmm, today, tomorrow, yesterday, tonight
`);

/** §7.2: used only by the entity extractor (a span made only of these is not an entity). */
export const CALENDAR_WORDS = wordSet(`
  monday, tuesday, wednesday, thursday, friday, saturday, sunday, january, february, march, april, may,
  june, july, august, september, october, november, december
`);

/** §7.3: raw letter token → digit string. No composition (`twenty five` is 20 and 5). */
export const NUMBER_WORDS: ReadonlyMap<string, string> = new Map([
  ["zero", "0"],
  ["one", "1"],
  ["two", "2"],
  ["three", "3"],
  ["four", "4"],
  ["five", "5"],
  ["six", "6"],
  ["seven", "7"],
  ["eight", "8"],
  ["nine", "9"],
  ["ten", "10"],
  ["eleven", "11"],
  ["twelve", "12"],
  ["thirteen", "13"],
  ["fourteen", "14"],
  ["fifteen", "15"],
  ["sixteen", "16"],
  ["seventeen", "17"],
  ["eighteen", "18"],
  ["nineteen", "19"],
  ["twenty", "20"],
  ["thirty", "30"],
  ["forty", "40"],
  ["fifty", "50"],
  ["sixty", "60"],
  ["seventy", "70"],
  ["eighty", "80"],
  ["ninety", "90"],
  ["hundred", "100"],
  ["thousand", "1000"],
]);

/** §7.4: irregular past forms; the rest of word normalisation still runs on the base form. */
export const IRREGULAR_VERBS: ReadonlyMap<string, string> = new Map([
  ["sent", "send"],
  ["ran", "run"],
  ["kept", "keep"],
  ["built", "build"],
  ["wrote", "write"],
  ["took", "take"],
  ["gave", "give"],
]);

/** §7.4: looked up on the final stem, so the keys ending in `e` can never match (kept for exactness). */
export const UNIT_ALIASES: ReadonlyMap<string, string> = new Map([
  ["megabyte", "mb"],
  ["gigabyte", "gb"],
  ["kilobyte", "kb"],
  ["terabyte", "tb"],
  ["second", "sec"],
  ["minute", "min"],
  ["hour", "hr"],
  ["millisecond", "ms"],
  ["request", "req"],
  ["percent", "percent"],
]);

/** §7.5: checked on the raw letter token, before stopword filtering. */
export const NEGATORS = wordSet("not, no, never, cannot, don, doesn, didn, won, isn, aren, wasn, weren");

/** §7.6: stopwords that only the classifier (not the entity extractor) uses. */
export const EXTRA_STOPWORDS = wordSet("per, via, through, throughout");

/** §7.7: ordered; the first phrase (in list order) that occurs as a substring of the new text wins. */
export const RETRO_CUES: readonly string[] = [
  "no longer",
  "anymore",
  "any more",
  "switched from",
  "switched to",
  "switched off",
  "switched away",
  "migrated from",
  "migrated to",
  "migrated off",
  "migrated away",
  "moved off",
  "moved away from",
  "stopped using",
  "stopped doing",
  "we stopped",
  "deprecated",
  "used to",
  "retired",
];

/** §7.8: exempt from residue and containment; several entries are unreachable but kept for exactness. */
export const CUE_WORDS = wordSet(`
  longer, anymore, switched, switch, migrated, migrate, moved, mov, deprecated, deprecat, stopped, stopp,
  stop, used, using, us, doing, retired, retir, dropped, dropp, drop, instead, currently
`);
