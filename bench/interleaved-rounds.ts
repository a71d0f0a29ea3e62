/**
 * The timing loop of the benchmarks that compare Loom with a baseline in the same run
 * (bench:model, bench:session, bench:submit): untimed warm-up rounds, then timed rounds in which
 * the two sides alternate which goes first, so drift in machine load favours neither.
 */
export async function interleavedRounds<B, M>(
  options: { rounds: number; warmup?: number },
  baseline: () => B | Promise<B>,
  measured: () => M | Promise<M>,
  onRound?: (round: number, baseline: B, measured: M) => void,
): Promise<{ baseline: B[]; measured: M[] }> {
  for (let i = 0; i < (options.warmup ?? 0); i++) {
    await baseline();
    await measured();
  }
  const results = { baseline: [] as B[], measured: [] as M[] };
  for (let round = 0; round < options.rounds; round++) {
    let b: B;
    let m: M;
    if (round % 2 === 0) {
      b = await baseline();
      m = await measured();
    } else {
      m = await measured();
      b = await baseline();
    }
    results.baseline.push(b);
    results.measured.push(m);
    onRound?.(round, b, m);
  }
  return results;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
