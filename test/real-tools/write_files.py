"""Writes the files of test/real-tools/parquet-writers.test.ts with the real tools, in their defaults.

python write_files.py SLICE.jsonl OUT_DIR

For the slice and for a dump mixing the three shapes over three runs, OUT_DIR gets the JSONL twin
(written here with json.dumps, absent fields left out) and one file per writer: pyarrow, pandas
(pyarrow and fastparquet engines), polars, duckdb COPY and HF datasets' to_parquet; plus the
`to_json(lines=True)` dumps of pandas and HF datasets (every column on every row, nulls
included), pandas' float judgments, and a Parquet file with a binary column and timestamps.
"""

import datetime
import json
import os
import sys

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from datasets import Dataset

slice_path, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
cases = [json.loads(line) for line in open(slice_path, encoding="utf-8")]


def dump_rows():
    """Three runs over the slice: structured, cache-shaped and raw-completion rows, bad evidence, an orphan."""
    rows = []
    k = 0
    for run in range(3):
        for c in cases:
            k += 1
            judgment = c["label"] if k % 4 else not c["label"]
            ids = [1 + k % 5, 2 + k % 7] if judgment else []
            if k % 11 == 0:
                completion = (
                    f"<think>\nSentence [1] and [2].\n</think>\n<answer>\n"
                    f"Judgment: {'yes' if judgment else 'no'}\nEvidence: [{', '.join(map(str, ids))}]\n</answer>"
                )
                rows.append({"case_id": c["id"], "run": run, "completion": completion})
            elif k % 7 == 0:
                rows.append(
                    {
                        "case_id": c["id"],
                        "run": run,
                        "prediction": {"judgment": judgment, "evidence_sentence_ids": ids, "reasoning": f"Cache [{1 + k % 3}] vs [2]."},
                    }
                )
            else:
                rows.append(
                    {
                        "case_id": c["id"],
                        "run": run,
                        "judgment": judgment,
                        "evidence_sentence_ids": [99] if k % 13 == 0 else ids,
                        "reasoning": f"Compare [{1 + k % 3}] with [2].",
                    }
                )
    rows.append({"case_id": "not-in-the-slice", "run": 0, "judgment": True, "evidence_sentence_ids": [1], "reasoning": "x"})
    return rows


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps({k: v for k, v in r.items() if v is not None}, ensure_ascii=False) + "\n")


def write_all(name, rows):
    write_jsonl(f"{out}/{name}.twin.jsonl", rows)
    # Columns from every row (Table.from_pylist would take them from the first row alone).
    table = pa.Table.from_struct_array(pa.array(rows))
    pq.write_table(table, f"{out}/{name}.pyarrow.parquet")
    frame = pd.DataFrame(rows)
    frame.to_parquet(f"{out}/{name}.pandas-pyarrow.parquet", engine="pyarrow")
    frame.to_parquet(f"{out}/{name}.pandas-fastparquet.parquet", engine="fastparquet")
    pl.DataFrame(rows, infer_schema_length=None).write_parquet(f"{out}/{name}.polars.parquet")
    con = duckdb.connect()
    con.register("rows_view", table)
    con.execute(f"COPY (SELECT * FROM rows_view) TO '{out}/{name}.duckdb.parquet' (FORMAT parquet)")
    con.close()
    dataset = Dataset(table)
    dataset.to_parquet(f"{out}/{name}.datasets.parquet")
    # Every column on every row: the nulls the JSONL readers must take as absent.
    frame.to_json(f"{out}/{name}.pandas.jsonl", orient="records", lines=True)
    dataset.to_json(f"{out}/{name}.datasets.jsonl")


write_all("slice", cases)
write_all("dump", dump_rows())

# pandas' round trip of a dump mixing shapes: read_json turns the judgment column into float64.
pd.read_json(f"{out}/dump.pandas.jsonl", lines=True).to_json(f"{out}/dump.pandas-floats.jsonl", orient="records", lines=True)

# A slice with a binary column and timestamps at milli-, micro- and nanosecond precision (pass-through fields).
first = cases[0]
stamp = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456)
extra = pa.table(
    {
        "id": [first["id"]],
        "text": [first["text"]],
        "label": [first["label"]],
        "evidence": [first["evidence"]],
        "raw": pa.array([b"\xff\xfe\x00A"], type=pa.binary()),
        "at_ms": pa.array([stamp], type=pa.timestamp("ms")),
        "at_us": pa.array([stamp], type=pa.timestamp("us")),
        "at_ns": pa.array([pd.Timestamp("2024-05-06T07:08:09.123456789").value], type=pa.int64()).cast(pa.timestamp("ns")),
    }
)
pq.write_table(extra, f"{out}/pass-through.parquet")
print("ok")
