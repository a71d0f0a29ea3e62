import { useId } from "react";
import { chartBars, chartSummary, minuteLabel, type MinuteCount } from "./chart-geometry";

const WIDTH = 720;
const HEIGHT = 160;
const LEFT = 36;
const BOTTOM = 20;

/**
 * Tasks finished per minute as inline SVG (no chart library): stacked bars, succeeded below and
 * failed above. A sentence names the totals for screen readers; the same numbers are in a table
 * behind a disclosure.
 */
export function FinishedChart({ minutes }: { minutes: readonly MinuteCount[] }) {
  const titleId = useId();
  const descId = useId();
  const plot = { width: WIDTH - LEFT, height: HEIGHT - BOTTOM };
  const { max, bars } = chartBars(minutes, { ...plot, gap: 2 });
  const summary = chartSummary(minutes);
  const first = minutes[0];
  return (
    <figure className="finished-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} preserveAspectRatio="xMidYMid meet">
        <title id={titleId}>Tasks finished per minute</title>
        <desc id={descId}>{summary}</desc>
        <g className="axis" aria-hidden="true">
          <line x1={LEFT} x2={WIDTH} y1={0.5} y2={0.5} className="grid" />
          <line x1={LEFT} x2={WIDTH} y1={plot.height / 2} y2={plot.height / 2} className="grid" />
          <line x1={LEFT} x2={WIDTH} y1={plot.height} y2={plot.height} />
          <text x={LEFT - 6} y={10} textAnchor="end">
            {max}
          </text>
          <text x={LEFT - 6} y={plot.height / 2 + 4} textAnchor="end">
            {max / 2}
          </text>
          <text x={LEFT - 6} y={plot.height} textAnchor="end">
            0
          </text>
          {first && (
            <text x={LEFT} y={HEIGHT - 4}>
              {minuteLabel(first.start)}
            </text>
          )}
          <text x={WIDTH} y={HEIGHT - 4} textAnchor="end">
            now
          </text>
        </g>
        <g transform={`translate(${LEFT} 0)`}>
          {bars.map((bar, i) => (
            <g key={bar.start}>
              <title>{`${minuteLabel(bar.start)}: ${minutes[i]?.succeeded ?? 0} succeeded, ${minutes[i]?.failed ?? 0} failed`}</title>
              {bar.succeeded.height > 0 && <rect className="succeeded" x={bar.x} y={bar.succeeded.y} width={bar.width} height={bar.succeeded.height} />}
              {bar.failed.height > 0 && <rect className="failed" x={bar.x} y={bar.failed.y} width={bar.width} height={bar.failed.height} />}
            </g>
          ))}
        </g>
      </svg>
      <figcaption>
        <span className="legend succeeded">Succeeded</span> <span className="legend failed">Failed</span> <span className="muted">{summary}</span>
      </figcaption>
      <details>
        <summary>Show the numbers as a table</summary>
        <div className="numbers">
          <table className="data" aria-label="Tasks finished per minute">
            <thead>
              <tr>
                <th scope="col">Minute</th>
                <th scope="col">Succeeded</th>
                <th scope="col">Failed</th>
              </tr>
            </thead>
            <tbody>
              {[...minutes].reverse().map((m) => (
                <tr key={m.start}>
                  <th scope="row">{minuteLabel(m.start)}</th>
                  <td>{m.succeeded}</td>
                  <td>{m.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
