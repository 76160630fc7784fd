import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { t } from './kit-messages.js';

/**
 * uPlot, sized to its box. Charts position points with floats (pixels); the figures a person
 * reads (tooltips aside) are in the tables beside each chart, written from the exact text.
 */
export interface Series {
  label: string;
  values: (number | null)[];
  color: string;
  /** Draw as bars (a volume), else a line (a curve). */
  bars?: boolean;
}

export function Chart({
  title,
  x,
  series,
  xLabel,
  yLabel,
  time = false,
  logX = false,
  logY = false,
  height = 260,
}: {
  title: string;
  x: number[];
  series: Series[];
  xLabel: string;
  yLabel: string;
  time?: boolean;
  logX?: boolean;
  logY?: boolean;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (el === null) return;
    const width = Math.max(280, el.clientWidth);
    const anyBars = series.some((s) => s.bars);
    const step = x.length > 1 ? x[1]! - x[0]! : 86_400;
    const bars = uPlot.paths.bars?.({ size: [0.6, 40] });
    const plot = new uPlot(
      {
        title,
        width,
        height,
        // Room on the right for the last x-axis label.
        padding: [8, 32, 0, 0],
        scales: {
          // Bars get half a step of room either side, so the first and last are drawn whole.
          x: logX
            ? { time: false, distr: 3, range: (_u, min, max) => [min, max] }
            : {
                time,
                ...(anyBars && x.length > 0 ? { range: (_u, min, max) => [min - step / 2, max + step / 2] } : {}),
              },
          // Volumes and fees are measured from zero.
          y: logY ? { distr: 3 } : { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          { label: xLabel, stroke: '#333' },
          { label: yLabel, stroke: '#333', size: 70 },
        ],
        series: [
          { label: xLabel },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            ...(s.bars && bars ? { fill: `${s.color}99`, paths: bars } : {}),
            points: { show: !s.bars },
          })),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(280, el.clientWidth), height });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [title, x, series, xLabel, yLabel, time, logX, logY, height]);
  return <div class="chart" ref={box} role="img" aria-label={t('kit.chartLabel', { title })} />;
}
