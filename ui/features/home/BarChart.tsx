import { useEffect, useRef } from "react";
import { importOrReload } from "../../lib/release";

export interface Series {
  label: string;
  values: number[];
  color: string;
}

/**
 * Chart.js loads on demand (a dynamic import is its own chunk in scripts/build-ui.ts), so only
 * an admin's home pays for it and the first load stays small.
 */
const chartJs = () => importOrReload(() => import("./chartSetup"));

/**
 * A bar chart (horizontal for long names). The canvas carries a text summary for screen
 * readers; `format` writes the values (euros, counts) in the tooltips and the summary, `tick`
 * on the axis (whole euros there, so the labels stay short on a phone).
 */
export function BarChart({
  title,
  labels,
  series,
  horizontal,
  stacked,
  format = String,
  tick = format,
}: {
  title: string;
  labels: string[];
  series: Series[];
  horizontal?: boolean;
  stacked?: boolean;
  format?: (v: number) => string;
  tick?: (v: number) => string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Rebuilt only when what it shows changes, not on every render of the parent.
  const content = JSON.stringify([labels, series, horizontal, stacked]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `content` stands for the props it is made of.
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let gone = false;
    chartJs().then(({ Chart }) => {
      if (gone || !canvas.current) return;
      const value = horizontal ? "x" : "y";
      chart = new Chart(canvas.current, {
        type: "bar",
        data: { labels, datasets: series.map((s) => ({ label: s.label, data: s.values, backgroundColor: s.color, borderRadius: 4, maxBarThickness: 36 })) },
        options: {
          indexAxis: horizontal ? "y" : "x",
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          plugins: {
            legend: { display: series.length > 1, position: "bottom" },
            tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${format(Number(c.parsed[value]))}` } },
          },
          scales: {
            [value]: { beginAtZero: true, stacked, ticks: { callback: (v: string | number) => tick(Number(v)), precision: 0 } },
            [horizontal ? "y" : "x"]: { stacked, ticks: { autoSkip: false } },
          },
        },
      });
    });
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [content, format, tick]);

  const summary = labels.map((l, i) => `${l}: ${series.map((s) => format(s.values[i] ?? 0)).join(" / ")}`).join("; ");
  // Horizontal charts grow with their rows so long garment names stay readable on a phone.
  const height = horizontal ? Math.max(160, labels.length * series.length * 26 + 60) : 240;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div className="chart-box" style={{ height }}>
        <canvas ref={canvas} role="img" aria-label={`${title}. ${summary || "Nothing yet"}`} />
      </div>
    </figure>
  );
}
