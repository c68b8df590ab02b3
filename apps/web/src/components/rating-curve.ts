/** The profile's rating curve as SVG polyline points (pure, so it is tested without a browser). */
export const WIDTH = 240;
export const HEIGHT = 56;
const PAD = 4;

/** Points of a polyline through `values`, scaled into the box (a flat line for equal values). */
export function curvePoints(values: readonly number[], width = WIDTH, height = HEIGHT): string {
  const low = Math.min(...values);
  const span = Math.max(...values) - low || 1;
  const step = values.length > 1 ? (width - 2 * PAD) / (values.length - 1) : 0;
  return values
    .map(
      (v, i) => `${(PAD + i * step).toFixed(1)},${(height - PAD - ((v - low) / span) * (height - 2 * PAD)).toFixed(1)}`,
    )
    .join(' ');
}
