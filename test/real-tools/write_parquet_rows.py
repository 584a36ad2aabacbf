"""Writes the files of test/real-tools/parquet-rows.test.ts with pyarrow, in its defaults.

python write_parquet_rows.py SLICE.jsonl OUT_DIR

OUT_DIR gets `dump.jsonl` and `dump.parquet`: the same rows, mixing the three shapes and the cases
a reader of columns can get wrong (nulls in every column, null list elements, a cache-shaped
`prediction` struct with null and extra members, a judge's `error` struct, an `id` fallback, a
string `sample`, negative and beyond-2^53 run numbers, orphans, strings with escapes, quotes,
control characters and non-ASCII text, a nested column nobody reads), written once with json.dumps
(None → null) and once with pq.write_table (one row group). `edges.parquet` adds the values whose
JSON text has rules of its own (doubles such as 2.0, 2.5 and NaN in read fields, a column named
`custom_id`, bytes that are not UTF-8 in a string column): it has no JSONL twin, and is read both
as JSON lines and as columns by the test.
"""

import json
import math
import sys

import pyarrow as pa
import pyarrow.parquet as pq

slice_path, out = sys.argv[1], sys.argv[2]
cases = [json.loads(line) for line in open(slice_path, encoding="utf-8")]
TEXTS = ['plain [1] vs [2]', 'quotes " and \\ backslash [1]', "tab\tnew\nline [2]", "ünïcødé ✓ 😀 [1]", "\u0001ctl [3]", ""]


def twin_rows():
    rows = []
    k = 0
    for run in range(4):
        for c in cases:
            k += 1
            judgment = c["label"] if k % 5 else not c["label"]
            ids = [1 + k % 4, 2 + k % 6] if judgment else []
            row = {
                "case_id": c["id"],
                "id": None,
                "run": run,
                "sample": None,
                "judgment": None,
                "evidence_sentence_ids": None,
                "reasoning": None,
                "completion": None,
                "prediction": None,
                "error": None,
                "meta": {"tags": ["a", None, "b"], "score": k / 7},
            }
            shape = k % 9
            if shape == 0:
                row["completion"] = (
                    f"<think>\n{TEXTS[k % len(TEXTS)]}\n</think>\n<answer>\n"
                    f"Judgment: {'yes' if judgment else 'no'}\nEvidence: [{', '.join(map(str, ids))}]\n</answer>"
                )[: None if k % 2 else -3]
            elif shape == 1:
                note = None if k % 2 else "extra member"
                row["prediction"] = {"judgment": judgment, "evidence_sentence_ids": ids if k % 3 else None, "reasoning": TEXTS[k % len(TEXTS)], "note": note}
            elif shape == 2:
                row["error"] = {"code": "empty_answer", "message": "the server returned no message content"}
            else:
                row["judgment"] = judgment
                row["evidence_sentence_ids"] = ids + [None] if k % 17 == 0 else [99] if k % 13 == 0 else ids
                row["reasoning"] = TEXTS[k % len(TEXTS)] if k % 23 else None
            if k % 29 == 0:
                row["case_id"], row["id"] = None, c["id"]
            if k % 31 == 0:
                row["run"], row["sample"] = None, f"s{run}"
            if k % 37 == 0:
                row["case_id"] = "no-such-case"
            if k % 41 == 0:
                row["run"] = -run - 1
            if k % 43 == 0:
                row["run"] = 2**53 + 1 + run
            if k % 47 == 0:
                row["case_id"] = None
            rows.append(row)
    return rows


rows = twin_rows()
with open(f"{out}/dump.jsonl", "w", encoding="utf-8") as f:
    for row in rows:
        f.write(json.dumps(row, ensure_ascii=False) + "\n")
pq.write_table(pa.Table.from_pylist(rows), f"{out}/dump.parquet")

# Values whose JSON text has rules of its own: read as JSON lines and as columns, they must agree.
edges = []
for k, c in enumerate(cases[:60]):
    edges.append(
        {
            "case_id": c["id"],
            "run": [2.0, 2.5, math.nan, -0.0, 1e21, 3.0, None][k % 7],
            "judgment": [True, False, None][k % 3],
            "evidence_sentence_ids": [[1.0, 2.0], [1.5], [math.nan], None, [], [3.0]][k % 6],
            "reasoning": TEXTS[k % len(TEXTS)].encode("utf-8") if k % 11 else b"\xff\xfe bad",
            "custom_id": None if k % 5 else f"req-{k}",
        }
    )
schema = pa.schema(
    [
        ("case_id", pa.string()),
        ("run", pa.float64()),
        ("judgment", pa.bool_()),
        ("evidence_sentence_ids", pa.list_(pa.float64())),
        # Bytes declared as UTF-8 text that are not UTF-8 (no writer checks them): the row is an invalid-UTF-8 line.
        ("reasoning", pa.binary()),
        ("custom_id", pa.string()),
    ]
)
table = pa.Table.from_pylist(edges, schema=schema)
raw = table.column("reasoning").combine_chunks()
text = pa.StringArray.from_buffers(len(raw), raw.buffers()[1], raw.buffers()[2], raw.buffers()[0])
table = table.set_column(4, pa.field("reasoning", pa.string()), text)
pq.write_table(table, f"{out}/edges.parquet")
