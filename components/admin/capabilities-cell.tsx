import type { WorkerCapabilities } from "@/lib/openjd";
import { summarizeCapabilities } from "./capabilities";

/** The standard capabilities on one line; the rest behind a native disclosure (keyboard and screen-reader ready). */
export function CapabilitiesCell({ capabilities, workerName }: { capabilities: WorkerCapabilities; workerName: string }) {
  const { short, more } = summarizeCapabilities(capabilities);
  return (
    <div className="capabilities">
      <span>{short.length > 0 ? short.join(" · ") : <span className="muted">none reported</span>}</span>
      {more.length > 0 && (
        <details>
          <summary aria-label={`${more.length} more capabilities of ${workerName}`}>+{more.length} more</summary>
          <dl>
            {more.map((c) => (
              <div key={c.name}>
                <dt>
                  <code>{c.name}</code>
                </dt>
                <dd>{c.value}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  );
}
