// A chunk task for the pool failure tests (plain JS: worker threads load it as is).
// chunk {kind: "double", value}: returns 2·value; {kind: "throw"}: the task throws;
// {kind: "exhaust"}: keeps allocating until the worker's heap limit ends the thread.
export function init(initData) {
  return { offset: initData?.offset ?? 0 };
}

export function processChunk(state, chunk) {
  if (chunk.kind === "throw") throw new Error(`task failed on chunk ${chunk.value}`);
  if (chunk.kind === "exhaust") {
    const hoard = [];
    for (;;) hoard.push(new Array(1 << 16).fill(hoard.length));
  }
  return state.offset + 2 * chunk.value;
}
