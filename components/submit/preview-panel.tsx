"use client";

import { StepGraph, type GraphStep } from "@/components/graph/step-graph";
import type { PoolFit, PreviewStep } from "@/server/services/preview-job";
import type { SubmitError } from "@/server/services/submit-job";

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

function taskText(step: PreviewStep): string {
  if (!step.chunk) return plural(step.taskCount, "task");
  return `${plural(step.taskCount, "task")} (${plural(step.chunk.items, step.chunk.parameter.toLowerCase())} in chunks of up to ${step.chunk.itemsPerChunk})`;
}

function graphNote(step: PreviewStep): string {
  const runnable = step.pools.filter((p) => p.canRun).length;
  if (step.pools.length > 0 && runnable === 0) return `${plural(step.taskCount, "task")} · no pool can run it`;
  return taskText(step);
}

export function PreviewSteps({ name, taskCount, steps }: { name: string; taskCount: number; steps: PreviewStep[] }) {
  const graph: GraphStep[] = steps.map((s) => ({ id: s.name, name: s.name, dependencies: s.dependencies, taskCount: s.taskCount, chunked: s.chunked, note: graphNote(s) }));
  return (
    <>
      <p>
        <strong>{name}</strong>: {plural(taskCount, "task")} in {plural(steps.length, "step")}.
      </p>
      <StepGraph steps={graph} label="Preview: step dependency graph" />
      <table className="data preview-steps" aria-label="Steps">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Depends on</th>
            <th scope="col">Tasks</th>
            <th scope="col">Pools</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step) => (
            <tr key={step.name}>
              <th scope="row">{step.name}</th>
              <td>{step.dependencies.length > 0 ? step.dependencies.join(", ") : <span className="muted">—</span>}</td>
              <td>{taskText(step)}</td>
              <td>
                <PoolList pools={step.pools} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function PoolList({ pools }: { pools: PoolFit[] }) {
  if (pools.length === 0) return <span className="muted">No pools exist yet</span>;
  const none = pools.every((p) => !p.canRun);
  return (
    <>
      {none ? <p className="field-note error-text">No pool can run this step now: its tasks will wait as not compatible.</p> : null}
      <ul className="pool-fits">
        {pools.map((p) => (
          <li key={p.poolId} className={p.canRun ? "status-good" : "muted"}>
            <span aria-hidden="true">{p.canRun ? "✓ " : "✗ "}</span>
            <strong>{p.pool}</strong>
            {p.canRun ? `: can run it (${p.matching} of ${plural(p.workers, "worker")} match, ${p.online} online)` : `: cannot run it, ${p.reason}`}
          </li>
        ))}
      </ul>
    </>
  );
}

const ORIGIN_WORDS: Record<SubmitError["origin"], string> = { template: "Template", environment: "Environment", parameters: "Parameter", settings: "Setting" };

/** Every problem the farm found, each with where it is. */
export function ErrorList({ errors, title }: { errors: readonly SubmitError[]; title: string }) {
  return (
    <div role="alert" className="submit-errors">
      <p className="status-bad">
        {title}: {plural(errors.length, "error")}
      </p>
      <ul className="errors">
        {errors.map((e, i) => (
          <li key={i}>
            {ORIGIN_WORDS[e.origin]} <code>{e.path || "<document>"}</code>
            {e.line !== null ? ` (line ${e.line}, column ${e.column ?? 1})` : ""}: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
